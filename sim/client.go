package sim

import (
	"errors"
	"strconv"

	"github.com/twosettle/twosettle/engine/wire"
	"github.com/twosettle/twosettle/trace"
)

// applyClient delivers one input to a client at its own clock reading and routes its
// effects. absorbDial: the input is a LinkDown that a newer connection attempt already
// superseded, so a Dial it provokes is satisfied by that attempt.
func (r *Runner) applyClient(ci int, in wire.ClientInput, absorbDial bool) {
	c := &r.cl[ci]
	if r.lost {
		return // a lost port stopped the run: nothing reaches any port any more
	}
	if c.crashed {
		r.rec(trace.ActorNet, trace.Drop, 0, trace.Dropped{To: c.name, Why: trace.WhyCrashed, What: in})
		return
	}
	ct := c.clk.at(r.now)
	effs, err := c.port.Apply(wire.Time(ct), in)
	if r.lostClient(c.name, err) {
		return
	}
	if err != nil {
		// refused; effects returned with the error (timers that came due) still happened
		r.rec(c.name, trace.Reject, ct, trace.Rejected{Input: in, Err: err.Error()})
	} else {
		r.rec(c.name, trace.In, ct, in)
	}
	for _, e := range effs {
		r.rec(c.name, trace.Out, ct, e)
		r.routeClient(ci, e, absorbDial)
	}
	r.refreshClient(ci)
}

func (r *Runner) deliverClient(e *event) {
	ci := int(e.client)
	c := &r.cl[ci]
	switch e.kind {
	case evHTTPToClient:
		if !c.crashed && e.epoch != c.incarnation {
			r.rec(trace.ActorNet, trace.Drop, 0, trace.Dropped{To: c.name, Why: trace.WhyReloaded, What: e.in})
			return
		}
	case evLinkDown:
		r.applyClient(ci, e.in, c.attempt != e.epoch)
		return
	}
	r.applyClient(ci, e.in, false)
}

func (r *Runner) routeClient(ci int, e wire.ClientEffect, absorbDial bool) {
	c := &r.cl[ci]
	switch e := e.(type) {
	case wire.Dial:
		r.clientDial(ci, absorbDial)
	case wire.SendResult:
		r.httpToHost(ci, e.RPCID, wire.EventResult{Client: c.name, Gen: e.Gen, RPCID: e.RPCID, EventID: e.EventID, Outcome: e.Outcome})
	case wire.SendCall:
		r.httpToHost(ci, e.RPCID, wire.Call{Client: c.name, Gen: e.Gen, RPCID: e.RPCID, Endpoint: e.Endpoint, Args: e.Args})
	case wire.OpenStream:
		r.muxToHost(ci, wire.StreamOpen{Client: c.name, Gen: e.Gen, StreamID: e.StreamID, Endpoint: e.Endpoint, Args: e.Args})
	case wire.CancelStream:
		r.muxToHost(ci, wire.StreamCancel{Client: c.name, Gen: e.Gen, StreamID: e.StreamID})
	}
}

// lostClient stops the run when a client's port is lost (wire.PortLost: an external
// client that is gone or broke the protocol), as lostHost does for the host: no Reject is
// recorded, the effects returned with it are dropped, nothing reaches any port after it,
// and the run's error wraps the PortLost.
func (r *Runner) lostClient(name string, err error) bool {
	lost := portLost(err)
	if lost == nil {
		return false
	}
	r.lost = true
	r.err = &clientLostError{client: name, at: r.now, lost: lost}
	return true
}

type clientLostError struct {
	client string
	at     int64
	lost   *wire.PortLost
}

func (e *clientLostError) Error() string {
	return "sim: t=" + strconv.FormatInt(e.at, 10) + ": client " + e.client + " was lost: " + e.lost.Err.Error()
}

func (e *clientLostError) Unwrap() error { return e.lost }

// LostClient names the client whose lost port stopped a run (err is what Run returned),
// or "" when no client was lost.
func LostClient(err error) string {
	var e *clientLostError
	if errors.As(err, &e) {
		return e.client
	}
	return ""
}
