package gateway

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/twosettle/twosettle/engine/jsonx"
	"github.com/twosettle/twosettle/engine/signal"
	"github.com/twosettle/twosettle/engine/wire"
)

// StreamHandler runs a logical stream. It is called once, inside OpenStream, with the
// stream and its args (nil when the client sent none). It may emit items and end the
// stream at once, keep the stream and emit later, or leave it open indefinitely. A
// non-nil error returned while the stream is still open ends it with an error frame: a
// *Error keeps its code, anything else is gateway/internal with the error's message
// (docs/PEER-RUNTIME.md §2.2 step 4).
type StreamHandler func(s *Stream, args json.RawMessage) error

// Stream is one logical stream a client opened on its mux link (one generation).
type Stream struct {
	g        *Gateway
	c        *conn
	id       string
	endpoint string
	sig      *signal.Signal
	closed   bool
	sigv     signal.Signal // sig's storage
}

// Client is the name of the client that opened the stream.
func (s *Stream) Client() string { return s.c.name }

// Gen is the connection generation the stream lives on.
func (s *Stream) Gen() int { return s.c.gen }

// ID is the client's stream id.
func (s *Stream) ID() string { return s.id }

// Endpoint is the endpoint the stream was opened on.
func (s *Stream) Endpoint() string { return s.endpoint }

// Signal aborts when the client cancels the stream (ErrStreamCancelled), its connection
// is lost (ErrConnectionLost) or the gateway is reset (ErrReset). It does not abort when
// the handler itself ends the stream.
func (s *Stream) Signal() *signal.Signal { return s.sig }

// Open reports whether the stream can still send frames.
func (s *Stream) Open() bool { return !s.closed }

// String is "A.1/s3 endpoint".
func (s *Stream) String() string { return genName(s.c.name, s.c.gen) + "/" + s.id + " " + s.endpoint }

// Item sends one item. It fails on a closed stream or a value that is not JSON.
func (s *Stream) Item(value json.RawMessage) error {
	if s.closed {
		return fmt.Errorf("gateway: item on %s: %w", s, ErrStreamClosed)
	}
	if !jsonx.Valid(value) {
		return fmt.Errorf("gateway: item on %s: the value is not JSON", s)
	}
	s.g.send(s.c, wire.StreamItem{StreamID: s.id, Value: value})
	return nil
}

// End completes the stream normally (an end frame). It fails on a closed stream.
func (s *Stream) End() error {
	if s.closed {
		return fmt.Errorf("gateway: end of %s: %w", s, ErrStreamClosed)
	}
	s.detach()
	s.g.send(s.c, wire.StreamEnd{StreamID: s.id})
	return nil
}

// Fail ends the stream with an error frame. It fails on a closed stream.
func (s *Stream) Fail(code, message string) error {
	if s.closed {
		return fmt.Errorf("gateway: failure of %s: %w", s, ErrStreamClosed)
	}
	s.detach()
	s.g.send(s.c, wire.StreamError{StreamID: s.id, Code: code, Message: message})
	return nil
}

func (s *Stream) detach() {
	s.closed = true
	s.c.streams = remove(s.c.streams, s)
	if s.c.byID[s.id] == s {
		delete(s.c.byID, s.id)
	}
}

// Handle registers the handler of a stream endpoint.
func (g *Gateway) Handle(endpoint string, h StreamHandler) error {
	if endpoint == "" || h == nil {
		return fmt.Errorf("gateway: handle: empty endpoint or nil handler")
	}
	if _, ok := g.streams[endpoint]; ok {
		return fmt.Errorf("gateway: stream %s: %w", endpoint, ErrDuplicateRoute)
	}
	g.streams[endpoint] = h
	return nil
}

// OpenStream opens a logical stream on client's active generation gen and runs the
// endpoint's handler. An unknown endpoint, or args that are not JSON, end the stream at
// once with an error frame (gateway/unknown-endpoint, gateway/arguments-invalid). A
// generation that is not active, an empty or duplicate stream id are errors and change
// nothing.
func (g *Gateway) OpenStream(client string, gen int, streamID, endpoint string, args json.RawMessage) error {
	c := g.active(client, gen)
	if c == nil {
		return fmt.Errorf("gateway: open stream %s on %s: %w", streamID, genName(client, gen), ErrNotConnected)
	}
	if streamID == "" {
		return fmt.Errorf("gateway: open stream on %s: empty stream id", genName(client, gen))
	}
	if _, ok := c.byID[streamID]; ok {
		return fmt.Errorf("gateway: open stream %s on %s: %w", streamID, genName(client, gen), ErrDuplicateStream)
	}
	h, ok := g.streams[endpoint]
	if !ok {
		g.send(c, wire.StreamError{StreamID: streamID, Code: wire.GatewayUnknownEndpoint,
			Message: "gateway: unknown stream endpoint " + wire.JSONString(endpoint)})
		return nil
	}
	if len(args) == 0 {
		args = nil
	} else if !jsonx.Valid(args) {
		g.send(c, wire.StreamError{StreamID: streamID, Code: wire.GatewayArgumentsInvalid,
			Message: "gateway: the arguments of " + endpoint + " are not JSON"})
		return nil
	}
	s := &Stream{g: g, c: c, id: streamID, endpoint: endpoint}
	s.sig = &s.sigv
	c.streams = append(c.streams, s)
	if c.byID == nil {
		c.byID = map[string]*Stream{}
	}
	c.byID[streamID] = s
	if err := h(s, args); err != nil && !s.closed {
		code, msg := errorCode(err)
		_ = s.Fail(code, msg)
	}
	return nil
}

// CancelStream is the client's cancel of one of its streams: the stream closes with no
// terminal frame and its signal aborts with ErrStreamCancelled (docs/PEER-RUNTIME.md §2.2 step 5).
// A cancel for an unknown or finished stream is dropped; one on a generation that is not
// active is an error.
func (g *Gateway) CancelStream(client string, gen int, streamID string) error {
	c := g.active(client, gen)
	if c == nil {
		return fmt.Errorf("gateway: cancel stream %s on %s: %w", streamID, genName(client, gen), ErrNotConnected)
	}
	if s := c.byID[streamID]; s != nil {
		s.detach()
		s.sig.Abort(ErrStreamCancelled)
	}
	return nil
}

// Error is a handler error with its own wire code (the peer's RemoteError). Any other error
// a handler returns reaches the client as gateway/internal with its message.
type Error struct {
	Code    string
	Message string
}

// NewError returns an *Error.
func NewError(code, message string) *Error { return &Error{Code: code, Message: message} }

func (e *Error) Error() string { return e.Code + ": " + e.Message }

// errorCode maps a handler error to its wire code and message.
func errorCode(err error) (code, message string) {
	var ge *Error
	if errors.As(err, &ge) {
		return ge.Code, ge.Message
	}
	return wire.GatewayInternal, err.Error()
}
