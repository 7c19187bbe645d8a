package gateway

import (
	"errors"
	"slices"
	"strconv"

	"github.com/twosettle/twosettle/engine/mutant"
	"github.com/twosettle/twosettle/engine/wire"
)

// Config configures a Gateway.
type Config struct {
	// Emit receives every effect in order. Nil: effects are buffered for Drain.
	Emit func(wire.Effect)
	// Mutants switches on deliberate bugs (engine/mutant); the zero set is the correct
	// gateway.
	Mutants mutant.Set
}

// Gateway is one host's Remote transport. The zero value is not usable; call New.
type Gateway struct {
	emitFn func(wire.Effect)
	outbox []wire.Effect

	lastEvent int            // event ids minted so far (e1 … e<lastEvent>)
	lastGen   map[string]int // last generation minted per client name

	conns   []*conn    // connected generations, in connect order
	pending []*pending // the pending waterfall table, in insertion order

	streams map[string]StreamHandler
	calls   map[string]CallHandler

	mutants mutant.Set
}

// New returns a gateway with no connection, no pending event and no handler.
func New(cfg Config) *Gateway {
	return &Gateway{
		emitFn:  cfg.Emit,
		mutants: cfg.Mutants,
		lastGen: map[string]int{},
		streams: map[string]StreamHandler{},
		calls:   map[string]CallHandler{},
	}
}

// Errors returned by gateway commands. They are wrapped with context; test with errors.Is.
var (
	ErrNotConnected    = errors.New("no active connection")
	ErrBadInvocation   = errors.New("invalid waterfall invocation")
	ErrDuplicateStream = errors.New("duplicate stream id")
	ErrDuplicateRoute  = errors.New("endpoint already registered")
	ErrStreamClosed    = errors.New("stream is closed")
	ErrConnectionLost  = errors.New("gateway: the client connection was lost")
	ErrStreamCancelled = errors.New("gateway: the client cancelled the stream")
	ErrReset           = errors.New("gateway: the host restarted")
)

func (g *Gateway) emit(e wire.Effect) {
	if g.emitFn != nil {
		g.emitFn(e)
		return
	}
	g.outbox = append(g.outbox, e)
}

func (g *Gateway) send(c *conn, f wire.Frame) {
	g.emit(wire.SendFrame{Client: c.name, Gen: c.gen, Frame: f})
}

// Drain appends the buffered effects to dst, empties the buffer and returns dst. With
// Config.Emit set nothing is buffered.
func (g *Gateway) Drain(dst []wire.Effect) []wire.Effect {
	dst = append(dst, g.outbox...)
	clear(g.outbox)
	g.outbox = g.outbox[:0]
	return dst
}

// Reset drops every volatile thing for a host restart: connections (their streams'
// signals abort with ErrReset so handlers unwind), the pending table (no Settle is called:
// the callers are gone too). No frame is sent: every stream is closed before any signal
// aborts. Registered handlers, the id counters and effects already buffered for Drain stay.
func (g *Gateway) Reset() {
	conns := g.conns
	g.conns = nil
	for _, p := range g.pending {
		p.release()
	}
	clear(g.pending)
	g.pending = g.pending[:0]
	var closed []*Stream
	for _, c := range conns {
		closed = c.detachStreams(closed)
	}
	for _, s := range closed {
		s.sig.Abort(ErrReset)
	}
}

// Clients reports the connected generations, sorted by client name.
func (g *Gateway) Clients() []wire.ConnState {
	out := make([]wire.ConnState, 0, len(g.conns))
	for _, c := range g.conns {
		out = append(out, wire.ConnState{Client: c.name, Gen: c.gen, Streams: len(c.streams)})
	}
	slices.SortFunc(out, func(a, b wire.ConnState) int {
		switch {
		case a.Client < b.Client:
			return -1
		case a.Client > b.Client:
			return 1
		}
		return 0
	})
	return out
}

// Pending reports the pending waterfall table in insertion order, each with the names of
// the clients that hold a delivery, sorted.
func (g *Gateway) Pending() []wire.PendingEvent {
	out := make([]wire.PendingEvent, 0, len(g.pending))
	for _, p := range g.pending {
		names := make([]string, 0, len(p.deliveries))
		for _, c := range p.deliveries {
			names = append(names, c.name)
		}
		slices.Sort(names)
		out = append(out, wire.PendingEvent{EventID: p.id, AgentID: p.inv.AgentID, Deliveries: names})
	}
	return out
}

// Connected reports the active generation of client, if it is connected.
func (g *Gateway) Connected(client string) (gen int, ok bool) {
	if c := g.conn(client); c != nil {
		return c.gen, true
	}
	return 0, false
}

func (g *Gateway) conn(client string) *conn {
	for _, c := range g.conns {
		if c.name == client {
			return c
		}
	}
	return nil
}

// active returns the connection of client if gen is its active generation.
func (g *Gateway) active(client string, gen int) *conn {
	if c := g.conn(client); c != nil && c.gen == gen {
		return c
	}
	return nil
}

func genName(client string, gen int) string { return client + "." + strconv.Itoa(gen) }
