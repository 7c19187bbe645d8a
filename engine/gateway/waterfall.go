package gateway

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"

	"github.com/twosettle/twosettle/engine/jsonx"
	"github.com/twosettle/twosettle/engine/mutant"
	"github.com/twosettle/twosettle/engine/signal"
	"github.com/twosettle/twosettle/engine/wire"
)

// Invocation is one forwarded waterfall request: what the host's forwarding listener
// hands the gateway (docs/PEER-RUNTIME.md §1.1).
type Invocation struct {
	// Event is the waterfall event name. It is copied into the frame and never compared.
	Event string
	// AgentID is the Session id of the agent the request is scoped to (non-empty).
	AgentID string
	// Request is the JSON projection of the request (without agent and signal). It is
	// sent as it is and must not be modified after Forward.
	Request json.RawMessage
	// Signal is the host-side signal of the request: when it aborts, every delivery is
	// cancelled and the event settles rejected with the abort reason (GW-3). Nil never
	// aborts.
	Signal *signal.Signal
	// Context is the lifetime of the agent's context (optional): when it aborts, the event
	// settles rejected with ErrContextReleased; already aborted at Forward, the event
	// settles next at once without being delivered.
	Context *signal.Signal
	// Settle receives the event's single settlement (GW-1). It is called exactly once,
	// unless Reset drops the event first; it may be called inside Forward itself.
	Settle func(Settlement)
}

// Settlement is how a forwarded event ended.
type Settlement struct {
	// Kind is wire.OutcomeResult, wire.OutcomeRejected or wire.OutcomeNext (every
	// delivered client passed, GW-6).
	Kind string
	// Value is a result's value, nil when the client sent none.
	Value json.RawMessage
	// Err is a rejection's reason: the client's *wire.Error unchanged, the signal's abort
	// reason (GW-3), or ErrContextReleased.
	Err error
	// Client names the client whose outcome settled the event; "" when the signal or the
	// context did.
	Client string
}

// String is the canonical text: "result {…} by A", "rejected Name/CODE: \"…\" by A",
// "next by B", "rejected aborted: …".
func (s Settlement) String() string {
	out := s.Kind
	switch s.Kind {
	case wire.OutcomeResult:
		if s.Value != nil {
			out += " " + string(s.Value)
		}
	case wire.OutcomeRejected:
		var we *wire.Error
		if errors.As(s.Err, &we) {
			out += " " + we.String()
		} else if s.Err != nil {
			out += " aborted: " + wire.JSONString(s.Err.Error())
		}
	}
	if s.Client != "" {
		out += " by " + s.Client
	}
	return out
}

// ErrContextReleased is the rejection of an event whose agent context was released.
var ErrContextReleased = &wire.Error{Name: wire.PlainErrorName, Message: "gateway: Remote event Agent Context was released"}

// errAbortedNoReason stands in for a signal aborted with a nil reason.
var errAbortedNoReason = &wire.Error{Name: "AbortError", Message: "gateway: the request signal aborted"}

// pending is one row of the pending waterfall table.
type pending struct {
	g          *Gateway
	id         string
	inv        Invocation
	frame      wire.Waterfall
	boxed      wire.Frame // frame as the interface value every delivery sends (boxed once)
	deliveries []*conn    // generations that hold the event, in delivery order
	delivBuf   [2]*conn   // deliveries' first storage
	onSignal   int        // the listener ids on inv.Signal and inv.Context (0 none)
	onContext  int
}

// pendingSignal and pendingContext are p's abort listeners on its signal and its context.
type (
	pendingSignal  pending
	pendingContext pending
)

func (p *pendingSignal) SignalAborted(reason error) {
	p.g.finish((*pending)(p), nil, Settlement{Kind: wire.OutcomeRejected, Err: abortReason(reason)})
}

func (p *pendingContext) SignalAborted(error) {
	p.g.finish((*pending)(p), nil, Settlement{Kind: wire.OutcomeRejected, Err: ErrContextReleased})
}

func (p *pending) deliver(c *conn) {
	p.deliveries = append(p.deliveries, c)
	c.deliveries = append(c.deliveries, p)
	p.g.send(c, p.boxed)
}

func (p *pending) release() {
	p.inv.Signal.Unlisten(p.onSignal)
	p.inv.Context.Unlisten(p.onContext)
	p.onSignal, p.onContext = 0, 0
}

// Forward starts a waterfall event and returns its id. Nothing is delivered when its
// signal has already aborted (the event settles rejected with the reason at once) or its
// context is already released (it settles next at once; the id is then ""). Otherwise the
// event enters the pending table and is delivered to every connected client, in connect
// order, under one event id (GW-5); if no client is connected it simply waits. An invalid
// invocation is an error: nothing is minted, delivered or settled.
func (g *Gateway) Forward(inv Invocation) (eventID string, err error) {
	switch {
	case inv.Settle == nil:
		return "", fmt.Errorf("gateway: forward: %w: no Settle callback", ErrBadInvocation)
	case inv.Event == "":
		return "", fmt.Errorf("gateway: forward: %w: empty event name", ErrBadInvocation)
	case inv.AgentID == "":
		return "", fmt.Errorf("gateway: forward %s: %w: empty agent id", inv.Event, ErrBadInvocation)
	case !jsonx.Valid(inv.Request):
		return "", fmt.Errorf("gateway: forward %s: %w: the request is not JSON", inv.Event, ErrBadInvocation)
	}
	if inv.Context.IsAborted() {
		inv.Settle(Settlement{Kind: wire.OutcomeNext})
		return "", nil
	}
	g.lastEvent++
	id := "e" + strconv.Itoa(g.lastEvent)
	if inv.Signal.IsAborted() {
		inv.Settle(Settlement{Kind: wire.OutcomeRejected, Err: abortReason(inv.Signal.Reason())})
		return id, nil
	}
	p := &pending{
		g: g, id: id, inv: inv,
		frame: wire.Waterfall{EventID: id, Event: inv.Event, AgentID: inv.AgentID, Request: inv.Request},
	}
	p.boxed = p.frame
	p.deliveries = p.delivBuf[:0]
	g.pending = append(g.pending, p)
	p.onSignal = inv.Signal.Listen((*pendingSignal)(p))
	p.onContext = inv.Context.Listen((*pendingContext)(p))
	for _, c := range g.conns {
		p.deliver(c)
	}
	return id, nil
}

func abortReason(r error) error {
	if r == nil {
		return errAbortedNoReason
	}
	return r
}

// finish settles p once: it leaves the table, the winner's delivery is withdrawn silently,
// every other delivered client gets a cancel, then Settle runs. A second call is a no-op.
func (g *Gateway) finish(p *pending, winner *conn, s Settlement) {
	i := slices.Index(g.pending, p)
	if i < 0 {
		return
	}
	g.pending = slices.Delete(g.pending, i, i+1)
	p.release()
	if winner != nil && !g.mutants.Has(mutant.CancelToWinner) { // MUTANT cancel-to-winner: the winner is cancelled too
		p.deliveries = remove(p.deliveries, winner)
		winner.forget(p)
	}
	for _, c := range p.deliveries {
		c.forget(p)
		g.send(c, wire.Cancel{EventID: p.id})
	}
	p.deliveries = nil
	p.inv.Settle(s)
}

func (g *Gateway) find(eventID string) *pending {
	for _, p := range g.pending {
		if p.id == eventID {
			return p
		}
	}
	return nil
}

// Result processes a client's $events/result for one delivery and answers its RPC with a
// wire.Reply (after any effect the outcome caused):
//   - a generation that is not client's active one: gateway/internal "… identifies no
//     active event stream", nothing else happens;
//   - an outcome of the wrong shape (unknown kind, a result value that is not JSON, a
//     rejection with no error name, fields of another kind): gateway/arguments-invalid;
//   - an event that is no longer pending, or that this generation no longer holds: dropped
//     silently, {ok:true};
//   - result or rejected: the event settles with it (GW-1), {ok:true};
//   - next: only this generation's delivery is withdrawn; the event settles next when no
//     delivery remains (GW-6), {ok:true}.
//
// {ok:true} never says whether the outcome won (GW-4).
func (g *Gateway) Result(client string, gen int, rpcID, eventID string, out wire.Outcome) {
	c := g.active(client, gen)
	if c == nil {
		g.emit(wire.Reply{Client: client, Gen: gen, RPCID: rpcID, Envelope: wire.Failure(wire.GatewayInternal,
			"gateway: client "+genName(client, gen)+" identifies no active event stream")})
		return
	}
	if msg := checkOutcome(out); msg != "" {
		g.emit(wire.Reply{Client: client, Gen: gen, RPCID: rpcID, Envelope: wire.Failure(wire.GatewayArgumentsInvalid,
			"gateway: $events/result: "+msg)})
		return
	}
	if p := g.find(eventID); p != nil && slices.Contains(p.deliveries, c) {
		switch out.Kind {
		case wire.OutcomeNext:
			p.deliveries = remove(p.deliveries, c)
			c.forget(p)
			if len(p.deliveries) == 0 {
				g.finish(p, nil, Settlement{Kind: wire.OutcomeNext, Client: client})
			}
		case wire.OutcomeResult:
			g.finish(p, c, Settlement{Kind: wire.OutcomeResult, Value: out.Value, Client: client})
		case wire.OutcomeRejected:
			g.finish(p, c, Settlement{Kind: wire.OutcomeRejected, Err: out.Error, Client: client})
		}
	}
	g.emit(wire.Reply{Client: client, Gen: gen, RPCID: rpcID, Envelope: wire.Envelope{OK: true}})
}

// checkOutcome returns why out is malformed, or "".
func checkOutcome(out wire.Outcome) string {
	switch out.Kind {
	case wire.OutcomeNext:
		if out.Value != nil || out.Error != nil {
			return "a next outcome carries no value and no error"
		}
	case wire.OutcomeResult:
		if out.Error != nil {
			return "a result outcome carries no error"
		}
		if out.Value != nil && !jsonx.Valid(out.Value) {
			return "the result value is not JSON"
		}
	case wire.OutcomeRejected:
		if out.Value != nil {
			return "a rejected outcome carries no value"
		}
		if out.Error == nil || out.Error.Name == "" {
			return "a rejected outcome needs an error with a non-empty name"
		}
	default:
		return "unknown outcome kind " + wire.JSONString(out.Kind)
	}
	return ""
}
