package sim

import (
	"errors"
	"strconv"

	"github.com/twosettle/twosettle/engine/wire"
	"github.com/twosettle/twosettle/trace"
)

// applyHost delivers one command to the host at the current time and routes its effects
// (also those returned together with an error).
// When crashable, armed crash watchers may cut the Apply after its first k effects: only
// those are recorded and routed, then the host restarts with Restart{CutAfter: k}.
func (r *Runner) applyHost(cmd wire.Command, crashable bool) {
	if r.lost {
		return // the host is gone: nothing more reaches it (the loop stops after this event)
	}
	effs, err := r.host.Apply(wire.Time(r.now), cmd)
	if r.lostHost(err) {
		return
	}
	if err != nil {
		// refused; effects returned with the error are those of timers that came due
		// before the command (the reference host's contract) and are routed as usual
		r.rec(trace.ActorHost, trace.Reject, 0, trace.Rejected{Input: cmd, Err: err.Error()})
	} else {
		r.rec(trace.ActorHost, trace.In, 0, cmd)
	}
	cut, wi := -1, -1
	if crashable && len(r.watchers) > 0 {
		cut, wi = r.crashCut(cmd, effs)
	}
	lim := len(effs)
	if cut >= 0 {
		lim = cut
	}
	for i := 0; i < lim; i++ {
		r.rec(trace.ActorHost, trace.Out, 0, effs[i])
		r.routeHost(effs[i])
	}
	if r.lost {
		return // lost in an Apply that routing one of these effects made (a model's EndStep)
	}
	r.refreshHost()
	if cut >= 0 {
		w := r.watchers[wi]
		r.watchers = append(r.watchers[:wi], r.watchers[wi+1:]...)
		r.rec(trace.ActorSim, trace.Fault, 0, trace.Injected{Kind: FaultCrash, Point: w.point, Cut: cut, Of: len(effs), Random: w.random})
		r.restart(cut)
	}
}

// restart crashes the host and loads it cold: every link is gone (clients get LinkDown,
// what was in flight on their mux links is lost), the model forgets its open steps, and
// the host gets Restart{CutAfter}.
func (r *Runner) restart(cutAfter int) {
	if r.lost {
		return
	}
	r.restarts++
	r.queued(func(e *event) {
		if e.kind == evMuxToHost && e.sticky {
			e.dead = true // a Disconnect for the crashed host's connection
		}
	})
	for ci := range r.cl {
		if r.cl[ci].state == stUp {
			r.teardown(ci, true, false, trace.WhyLinkDown)
		}
	}
	r.modelReset()
	r.watchersReset()
	r.cur.active = false
	r.failUnanswered()
	effs, err := r.host.Apply(wire.Time(r.now), wire.Restart{CutAfter: cutAfter})
	if r.lostHost(err) {
		return
	}
	if err != nil {
		r.rec(trace.ActorHost, trace.Reject, 0, trace.Rejected{Input: wire.Restart{CutAfter: cutAfter}, Err: err.Error()})
		r.fail("host refused to restart: " + err.Error())
		return
	}
	r.rec(trace.ActorHost, trace.In, 0, wire.Restart{CutAfter: cutAfter})
	for _, e := range effs {
		r.rec(trace.ActorHost, trace.Out, 0, e)
		r.routeHost(e)
	}
	r.refreshHost()
}

// deliverHost delivers a command that travelled over a client's link.
func (r *Runner) deliverHost(e *event) {
	if _, ok := e.cmd.(wire.Connect); ok && e.kind == evMuxToHost && !e.sticky {
		c := &r.cl[e.client]
		if c.state != stConnecting || c.epoch != e.epoch {
			return // unreachable: a stale Connect is killed with its link
		}
		c.state, c.gen = stUp, -1
		r.applyHost(e.cmd, true)
		return
	}
	if e.kind == evHTTPToHost {
		ci := int(e.client)
		rpc := rpcOf(e.cmd)
		c := &r.cl[ci]
		if i := c.findRequest(rpc, e.epoch); i >= 0 {
			c.pending[i].delivered = true
		}
		r.cur = curRequest{ci: ci, rpc: rpc, inc: e.epoch, active: true}
		r.applyHost(e.cmd, true)
		if r.cur.active {
			// an EventResult is answered within its own Apply or not at all
			if _, ok := e.cmd.(wire.EventResult); ok {
				if i := c.findRequest(rpc, e.epoch); i >= 0 && !c.pending[i].call {
					c.dropRequest(i)
				}
			}
		}
		r.cur.active = false
		return
	}
	r.applyHost(e.cmd, true)
}

func (r *Runner) routeHost(e wire.Effect) {
	switch e := e.(type) {
	case wire.SendFrame:
		r.sendFrame(e)
	case wire.Reply:
		r.sendReply(e)
	case wire.Appended:
		r.noteSession(e.Session)
		r.modelObserve(e)
	}
}

// sendFrame puts a frame on the mux link of its client generation; a frame for any other
// generation (a dead one, or a client without a link) is dropped.
func (r *Runner) sendFrame(e wire.SendFrame) {
	ci := r.clientIndex(e.Client)
	if ci < 0 {
		r.rec(trace.ActorNet, trace.Drop, 0, trace.Dropped{To: e.Client, Why: trace.WhyUnknown, What: e})
		return
	}
	c := &r.cl[ci]
	if c.gen == -1 && c.state == stUp {
		// the first Ready after the host took the Connect names the generation
		if _, ok := e.Frame.(wire.Ready); ok {
			c.gen = e.Gen
		}
	}
	if c.crashed {
		r.rec(trace.ActorNet, trace.Drop, 0, trace.Dropped{To: c.name, Why: trace.WhyCrashed, What: e})
		return
	}
	if c.state != stUp || c.gen != e.Gen {
		r.rec(trace.ActorNet, trace.Drop, 0, trace.Dropped{To: c.name, Why: trace.WhyDeadGen, What: e})
		return
	}
	r.push(event{kind: evMuxToClient, client: int16(ci), link: downLink(ci), epoch: c.epoch,
		in: wire.FromHost{Frame: e.Frame}}, r.now+r.draw(c.cfg.Mux))
}

// sendReply answers one outstanding HTTP request of the client.
func (r *Runner) sendReply(e wire.Reply) {
	ci := r.clientIndex(e.Client)
	if ci < 0 {
		r.rec(trace.ActorNet, trace.Drop, 0, trace.Dropped{To: e.Client, Why: trace.WhyUnknown, What: e})
		return
	}
	c := &r.cl[ci]
	var inc int32
	ok := false
	if r.cur.active && r.cur.ci == ci && r.cur.rpc == e.RPCID {
		// the reply to the request being applied: exactly that request
		inc, ok = r.cur.inc, true
		r.cur.active = false
		if i := c.findRequest(e.RPCID, inc); i >= 0 {
			c.dropRequest(i)
		}
	} else if i := c.findRequest(e.RPCID, -1); i >= 0 && c.pending[i].delivered {
		inc, ok = c.pending[i].inc, true
		c.dropRequest(i)
	}
	if !ok {
		r.rec(trace.ActorNet, trace.Drop, 0, trace.Dropped{To: c.name, Why: trace.WhyNoRequest, What: e})
		return
	}
	if inc != c.incarnation {
		r.rec(trace.ActorNet, trace.Drop, 0, trace.Dropped{To: c.name, Why: trace.WhyReloaded, What: e})
		return
	}
	if c.crashed {
		r.rec(trace.ActorNet, trace.Drop, 0, trace.Dropped{To: c.name, Why: trace.WhyCrashed, What: e})
		return
	}
	r.httpToClient(ci, wire.FromHTTP{RPCID: e.RPCID, Envelope: e.Envelope}, inc)
}

// draw is a latency from the network stream.
func (r *Runner) draw(l Latency) int64 {
	if l.Max <= l.Min {
		return l.Min.Ms()
	}
	return l.Min.Ms() + r.net.Int64N(l.Max.Ms()-l.Min.Ms()+1)
}

// lostHost stops the run when the host's port is lost (wire.PortLost: an external host
// that is gone or broke the protocol): that is no refusal of the command (no Reject is
// recorded, the effects returned with it are dropped), no later command reaches the
// host, and nothing after it can be judged. The run's error wraps the PortLost, also
// when another error (the record budget) was raised earlier in the same event: the lost
// host is what broke the run.
func (r *Runner) lostHost(err error) bool {
	lost := portLost(err)
	if lost == nil {
		return false
	}
	r.lost = true
	r.err = &hostLostError{at: r.now, lost: lost}
	return true
}

type hostLostError struct {
	at   int64
	lost *wire.PortLost
}

func (e *hostLostError) Error() string {
	return "sim: t=" + strconv.FormatInt(e.at, 10) + ": the host was lost: " + e.lost.Err.Error()
}

func (e *hostLostError) Unwrap() error { return e.lost }

// portLost is the *wire.PortLost err is or wraps, or nil. A refusal (a plain error, the
// common case: racing answers and duplicate asks are refused many times a run) costs a
// type switch; only an error that wraps others pays for errors.As, whose target escapes
// (one allocation a call, which every refused command used to pay).
func portLost(err error) *wire.PortLost {
	switch e := err.(type) {
	case nil:
		return nil
	case *wire.PortLost:
		return e
	case interface{ Unwrap() error }, interface{ Unwrap() []error }, interface{ As(any) bool }:
		var lost *wire.PortLost
		if errors.As(err, &lost) {
			return lost
		}
	}
	return nil
}
