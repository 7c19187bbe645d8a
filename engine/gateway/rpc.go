package gateway

import (
	"encoding/json"
	"fmt"

	"github.com/twosettle/twosettle/engine/jsonx"
	"github.com/twosettle/twosettle/engine/wire"
)

// Caller identifies the origin of a unary call.
type Caller struct {
	Client string
	Gen    int
	RPCID  string
}

// CallHandler answers a unary call. A nil value makes {ok:true} without a value key; a
// non-nil value must be JSON. An error makes {ok:false,error:{code,message}}: a *Error
// (or an error wrapping one) keeps its code, anything else is gateway/internal with the
// error's message (docs/PEER-RUNTIME.md §3.1).
type CallHandler func(c Caller, args json.RawMessage) (json.RawMessage, error)

// HandleCall registers the handler of a unary endpoint.
func (g *Gateway) HandleCall(endpoint string, h CallHandler) error {
	if endpoint == "" || h == nil {
		return fmt.Errorf("gateway: handle call: empty endpoint or nil handler")
	}
	if _, ok := g.calls[endpoint]; ok {
		return fmt.Errorf("gateway: call %s: %w", endpoint, ErrDuplicateRoute)
	}
	g.calls[endpoint] = h
	return nil
}

// Call runs a unary RPC from client and answers it with one wire.Reply, emitted after
// every effect the handler caused (so whatever the handler made durable is reported before
// the client is told, AGENT-6). Calls travel on the separate HTTP channel and need no
// active generation; gen is only echoed. An unknown endpoint replies
// gateway/unknown-endpoint; args that are not JSON reply gateway/arguments-invalid (empty
// args are passed to the handler as nil).
func (g *Gateway) Call(client string, gen int, rpcID, endpoint string, args json.RawMessage) {
	reply := func(env wire.Envelope) {
		g.emit(wire.Reply{Client: client, Gen: gen, RPCID: rpcID, Envelope: env})
	}
	h, ok := g.calls[endpoint]
	if !ok {
		reply(wire.Failure(wire.GatewayUnknownEndpoint, "gateway: unknown endpoint "+wire.JSONString(endpoint)))
		return
	}
	if len(args) == 0 {
		args = nil
	} else if !jsonx.Valid(args) {
		reply(wire.Failure(wire.GatewayArgumentsInvalid, "gateway: the arguments of "+endpoint+" are not JSON"))
		return
	}
	v, err := h(Caller{Client: client, Gen: gen, RPCID: rpcID}, args)
	switch {
	case err != nil:
		reply(wire.Failure(errorCode(err)))
	case v == nil:
		reply(wire.Envelope{OK: true})
	case !jsonx.Valid(v):
		reply(wire.Failure(wire.GatewayInternal, "gateway: "+endpoint+" returned a value that is not JSON"))
	default:
		reply(wire.OKValue(v))
	}
}
