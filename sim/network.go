package sim

import (
	"github.com/twosettle/twosettle/engine/wire"
	"github.com/twosettle/twosettle/trace"
)

// NetFailedCode is the error code of the failure envelope a client gets when the network
// lost its HTTP request or the reply to it (a fetch that fails): HTTP has no silent loss.
const NetFailedCode = "net/failed"

func netFailure(rpc string) wire.FromHTTP {
	return wire.FromHTTP{RPCID: rpc, Envelope: wire.Failure(NetFailedCode, "the network lost the request or its reply")}
}

func isNetFailure(in wire.ClientInput) bool {
	f, ok := in.(wire.FromHTTP)
	return ok && !f.Envelope.OK && f.Envelope.Error != nil && f.Envelope.Error.Code == NetFailedCode
}

// takeHTTP draws the latency of one HTTP message of client ci and consumes a pending
// delay or loss; lost is true when the message is lost (a lose action or a partition).
func (r *Runner) takeHTTP(ci int) (lat int64, lost bool) {
	c := &r.cl[ci]
	lat = r.draw(c.cfg.HTTP) + c.delayNext
	c.delayNext = 0
	if c.loseNext > 0 {
		c.loseNext--
		lost = true
	}
	if r.now < c.partitionUntil {
		lost = true
	}
	return lat, lost
}

// httpToHost sends a client's HTTP request; a lost one comes back to the client as a
// failure after the latency.
func (r *Runner) httpToHost(ci int, rpc string, cmd wire.Command) {
	c := &r.cl[ci]
	lat, lost := r.takeHTTP(ci)
	if lost {
		r.rec(trace.ActorNet, trace.Drop, 0, trace.Dropped{To: trace.ActorHost, Why: trace.WhyLost, What: cmd})
		r.push(event{kind: evHTTPToClient, client: int16(ci), link: -1, epoch: c.incarnation, in: netFailure(rpc)}, r.now+lat)
		return
	}
	_, call := cmd.(wire.Call)
	if i := c.findRequest(rpc, c.incarnation); i >= 0 {
		c.dropRequest(i) // the client reused an rpc id: the newer request replaces it
	}
	c.pending = append(c.pending, request{rpc: rpc, inc: c.incarnation, call: call})
	r.push(event{kind: evHTTPToHost, client: int16(ci), link: -1, epoch: c.incarnation, cmd: cmd}, r.now+lat)
}

// httpToClient sends the reply to a request made by incarnation inc of the client.
func (r *Runner) httpToClient(ci int, in wire.FromHTTP, inc int32) {
	lat, lost := r.takeHTTP(ci)
	if lost {
		r.rec(trace.ActorNet, trace.Drop, 0, trace.Dropped{To: r.cl[ci].name, Why: trace.WhyLost, What: in})
		in = netFailure(in.RPCID)
	}
	r.push(event{kind: evHTTPToClient, client: int16(ci), link: -1, epoch: inc, in: in}, r.now+lat)
}

// muxToHost sends a client's stream message on its live mux link.
func (r *Runner) muxToHost(ci int, cmd wire.Command) {
	c := &r.cl[ci]
	if c.state != stUp {
		r.rec(trace.ActorNet, trace.Drop, 0, trace.Dropped{To: trace.ActorHost, Why: trace.WhyLinkDown, What: cmd})
		return
	}
	r.push(event{kind: evMuxToHost, client: int16(ci), link: upLink(ci), epoch: c.epoch, cmd: cmd}, r.now+r.draw(c.cfg.Mux))
}

// clientDial handles a client's Dial: a client already connecting is left alone; a client
// whose link is up abandons that generation (the host gets Disconnect); then the Connect
// leaves after the backoff (ReconnectMs, or at once after a reload or a reconnect step).
func (r *Runner) clientDial(ci int, absorb bool) {
	c := &r.cl[ci]
	if absorb || c.state == stConnecting {
		return
	}
	if c.state == stUp {
		r.closeLink(ci)
	}
	var delay int64
	if c.fresh || c.immediate {
		c.fresh, c.immediate = false, false
	} else if c.cfg.ReconnectMs < 0 {
		r.rec(trace.ActorNet, trace.Drop, 0, trace.Dropped{To: trace.ActorHost, Why: trace.WhyNotDialing, What: wire.Dial{}})
		return
	} else {
		delay = c.cfg.ReconnectMs.Ms()
	}
	r.startDial(ci, r.now+delay)
}

// linkCmds are the commands a client's link carries for it whose only field is its name,
// boxed once per client name: commands are immutable values, so every run of a Runner
// may record and deliver the same interface values.
type linkCmds struct {
	name                string
	connect, disconnect wire.Command
}

func newLinkCmds(name string) linkCmds {
	return linkCmds{name: name, connect: wire.Connect{Client: name}, disconnect: wire.Disconnect{Client: name}}
}

// startDial sends a Connect that leaves at time at (or when a partition ends) and
// travels the client's up mux link.
func (r *Runner) startDial(ci int, at int64) {
	c := &r.cl[ci]
	c.attempt++
	c.state = stConnecting
	if at < c.partitionUntil {
		at = c.partitionUntil
	}
	r.push(event{kind: evMuxToHost, client: int16(ci), link: upLink(ci), epoch: c.epoch,
		cmd: c.linkCmds.connect}, at+r.draw(c.cfg.Mux))
}

// teardown drops client ci's link: what was in flight on it (both directions) is lost,
// the host gets Disconnect if it knew the link (hostDisc), the client gets LinkDown
// (linkDown). Both travel the link's FIFO so they stay ordered with a later reconnect.
// It reports whether there was a link.
func (r *Runner) teardown(ci int, linkDown, hostDisc bool, why string) bool {
	c := &r.cl[ci]
	if c.state == stDown {
		return false
	}
	wasUp := c.state == stUp
	c.epoch++
	c.state, c.gen = stDown, -1
	r.killMux(ci, why)
	r.floor[upLink(ci)], r.floor[downLink(ci)] = r.now, r.now
	if wasUp && hostDisc {
		r.push(event{kind: evMuxToHost, sticky: true, client: int16(ci), link: upLink(ci), cmd: c.linkCmds.disconnect}, r.now)
	}
	if linkDown && !c.crashed {
		r.push(event{kind: evLinkDown, sticky: true, client: int16(ci), link: downLink(ci), epoch: c.attempt, in: wire.LinkDown{}}, r.now)
	}
	return true
}

// closeLink is a client closing its own live link (it failed the generation and dials
// again): what it already sent still reaches the host, then the Disconnect; frames the
// host sent are lost (the page no longer listens).
func (r *Runner) closeLink(ci int) {
	c := &r.cl[ci]
	c.epoch++
	c.state, c.gen = stDown, -1
	r.eachPending(ci, func(e *event) {
		if e.dead || e.sticky {
			return
		}
		if e.kind == evMuxToClient { // what the client sent before the close stays alive
			e.dead = true
			r.rec(trace.ActorNet, trace.Drop, 0, trace.Dropped{To: c.name, Why: trace.WhyLinkDown, What: e.in})
		}
	})
	r.floor[downLink(ci)] = r.now
	r.push(event{kind: evMuxToHost, sticky: true, client: int16(ci), link: upLink(ci), cmd: c.linkCmds.disconnect}, r.now)
}

// killMux marks every live, non-sticky mux event of client ci dead, recording each loss.
func (r *Runner) killMux(ci int, why string) {
	kill := func(e *event) {
		if e.dead || e.sticky || int(e.client) != ci || (e.kind != evMuxToHost && e.kind != evMuxToClient) {
			return
		}
		e.dead = true
		if e.kind == evMuxToHost {
			if _, ok := e.cmd.(wire.Connect); ok {
				return // a connection attempt that never reached the host: the client gets LinkDown
			}
			r.rec(trace.ActorNet, trace.Drop, 0, trace.Dropped{To: trace.ActorHost, Why: why, What: e.cmd})
		} else {
			r.rec(trace.ActorNet, trace.Drop, 0, trace.Dropped{To: r.cl[ci].name, Why: why, What: e.in})
		}
	}
	r.eachPending(ci, kill)
}

// killHTTP loses every HTTP message of client ci in flight: each becomes a failure
// delivered to the client when the message would have arrived.
func (r *Runner) killHTTP(ci int) {
	c := &r.cl[ci]
	r.eachPending(ci, func(e *event) {
		if e.dead || int(e.client) != ci {
			return
		}
		switch e.kind {
		case evHTTPToHost:
			r.rec(trace.ActorNet, trace.Drop, 0, trace.Dropped{To: trace.ActorHost, Why: trace.WhyLost, What: e.cmd})
			rpc := rpcOf(e.cmd)
			if i := c.findRequest(rpc, e.epoch); i >= 0 {
				c.dropRequest(i)
			}
			e.kind, e.cmd, e.in = evHTTPToClient, nil, netFailure(rpc)
		case evHTTPToClient:
			if isNetFailure(e.in) {
				return
			}
			r.rec(trace.ActorNet, trace.Drop, 0, trace.Dropped{To: c.name, Why: trace.WhyLost, What: e.in})
			if f, ok := e.in.(wire.FromHTTP); ok {
				e.in = netFailure(f.RPCID)
			}
		}
	})
}

// eachPending visits every queued event of client ci in scheduling order (so loss
// records come out in the order the messages were sent, whatever the heap's layout).
func (r *Runner) eachPending(ci int, f func(e *event)) {
	r.scratch = r.scratch[:0]
	r.queued(func(e *event) {
		if int(e.client) == ci {
			r.scratch = append(r.scratch, e)
		}
	})
	sortEvents(r.scratch)
	for _, e := range r.scratch {
		f(e)
	}
}

func sortEvents(es []*event) {
	// insertion sort: the sets are small and mostly ordered already
	for i := 1; i < len(es); i++ {
		for j := i; j > 0 && es[j].before(es[j-1]); j-- {
			es[j], es[j-1] = es[j-1], es[j]
		}
	}
}

// failUnanswered fails every Call the host had received and not answered when it
// crashed: the client's request dies with the connection (in the order they were sent).
func (r *Runner) failUnanswered() {
	for ci := range r.cl {
		c := &r.cl[ci]
		if c.crashed {
			continue
		}
		keep := c.pending[:0]
		for _, p := range c.pending {
			if p.call && p.delivered {
				r.push(event{kind: evHTTPToClient, client: int16(ci), link: -1, epoch: p.inc, in: netFailure(p.rpc)}, r.now+r.draw(c.cfg.HTTP))
				continue
			}
			keep = append(keep, p)
		}
		c.pending = keep
	}
}

func rpcOf(cmd wire.Command) string {
	switch c := cmd.(type) {
	case wire.EventResult:
		return c.RPCID
	case wire.Call:
		return c.RPCID
	}
	return ""
}
