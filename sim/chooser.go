package sim

import (
	"io"
	"sort"
	"strconv"

	"github.com/twosettle/twosettle/engine/wire"
)

// Chooser takes the simulator's nondeterministic choices in place of the seeded schedule
// stream, so that a caller (package sysexplore) can enumerate them. With Runner.Chooser
// nil nothing changes: the schedule stream picks, and every transcript stays
// byte-identical.
//
// With a Chooser the runner asks it, before each event it dispatches (and once more when
// the run would end, nothing being due), whether to inject a step now, and asks it to
// pick whenever several candidates are due at one instant. The fast path that
// dispatches an instant's only event without listing it is off, so Before sees every
// event.
type Chooser interface {
	// Before is called at time now with n > 0 candidates due (n == 0: the run is about to
	// end). It returns a step to apply now (its At is ignored; nil: none) and ok; !ok stops
	// the run there.
	Before(now int64, n int) (st *Step, ok bool)
	// Pick picks one of n > 1 candidates due now, in [0, n); anything else stops the run.
	Pick(n int) int
}

// sortCands puts the instant's candidates in canonical order (Runner.CanonicalOrder):
// the host's timer, the clients' timers, then the events by their text, so that a pick
// means the same event whenever the state (WriteState) is the same, however it was reached.
func (r *Runner) sortCands() {
	if len(r.cands) < 2 {
		return
	}
	key := func(c cand) string {
		switch c.kind {
		case candHost:
			return "0"
		case candClient:
			return "1" + strconv.Itoa(int(c.i)+1000)
		case candReady:
			return "2" + eventText(&r.evs[r.ready[c.i]])
		default:
			q := &r.fifo[c.i]
			return "2" + eventText(&r.evs[q.s[q.h]])
		}
	}
	sort.SliceStable(r.cands, func(i, j int) bool { return key(r.cands[i]) < key(r.cands[j]) })
}

// choose asks the Chooser whether to inject a step before the next candidate (or before
// the run ends). It reports whether it did something: injected a step or stopped the run.
func (r *Runner) choose() bool {
	st, ok := r.Chooser.Before(r.now, len(r.cands))
	if !ok {
		r.stopped = true
		return true
	}
	if st == nil {
		return false
	}
	r.applyStep(st)
	return true
}

// Stopped reports whether the last run was stopped by its Chooser.
func (r *Runner) Stopped() bool { return r.stopped }

// WriteState is WriteStateOrdered(w, false).
func (r *Runner) WriteState(w io.Writer) { r.WriteStateOrdered(w, false) }

// WriteStateOrdered writes, during a run (from a Chooser's call), a canonical text of
// everything the rest of the run depends on, as the simulator sees it: the host's and
// each client's state in their JSON text forms and their next deadlines, each client's
// link and clock, the armed crash watchers, the model's open steps, the next scripted
// step, and the pending queue (every live event with its due time, in an order that does
// not depend on when it was queued: a FIFO link's events in their order, the others by
// text). Two points of a run (or of two runs of one configuration) that write the same
// text continue alike as far as the ports' state text forms are complete: a port with
// state its text form leaves out (an RPC counter, a private cache) may be merged with a
// different one. The text leaves out the trace so far: the oracle judges history, so a
// merged state is judged on the first history that reached it.
//
// With inOrder the pending events are written in the order the scheduler will offer them
// (which depends on when each was queued): two states then match only if a Chooser's
// pick i means the same event in both, which a search that bounds its non-default picks
// needs (pick 0 is free, the others cost).
func (r *Runner) WriteStateOrdered(w io.Writer, inOrder bool) {
	b := make([]byte, 0, 4096)
	b = append(b, "now="...)
	b = strconv.AppendInt(b, r.now, 10)
	b = append(b, "\nhost="...)
	if hb, err := wire.AppendHostStateJSON(b, r.host.State()); err == nil {
		b = hb
	}
	at, has := r.host.NextDeadline()
	b = append(b, "\nhost-next="...)
	b = strconv.AppendInt(b, at.Ms(), 10)
	b = strconv.AppendBool(append(b, ' '), has)
	b = append(b, " stall="...)
	b = strconv.AppendInt(b, r.stallUntil, 10)
	b = append(b, " restarts="...)
	b = strconv.AppendInt(b, int64(r.restarts), 10)
	for i := range r.cl {
		c := &r.cl[i]
		b = append(b, "\nclient "...)
		b = append(b, c.name...)
		b = append(b, '=')
		b = wire.AppendClientStateJSON(b, r.clientState(i, r.now))
		b = append(b, '\n')
		for _, v := range []int64{c.at, c.simAt, int64(c.state), int64(c.epoch), int64(c.attempt), int64(c.gen),
			int64(c.incarnation), c.partitionUntil, c.delayNext, int64(c.loseNext), c.clk.at(r.now), c.clk.ppm} {
			b = strconv.AppendInt(b, v, 10)
			b = append(b, ' ')
		}
		for _, v := range []bool{c.has, c.crashed, c.fresh, c.immediate} {
			b = strconv.AppendBool(b, v)
			b = append(b, ' ')
		}
		for _, p := range c.pending {
			b = append(b, p.rpc...)
			b = strconv.AppendInt(append(b, '/'), int64(p.inc), 10)
			b = strconv.AppendBool(append(b, '/'), p.call)
			b = strconv.AppendBool(append(b, '/'), p.delivered)
			b = append(b, ' ')
		}
	}
	for _, wt := range r.watchers {
		b = append(b, "\nwatch "...)
		b = append(b, wt.point...)
		b = strconv.AppendInt(append(b, ' '), int64(wt.effect), 10)
		b = strconv.AppendBool(append(b, ' '), wt.waitSeq)
		b = append(b, wt.sess...)
		b = strconv.AppendInt(append(b, ' '), int64(wt.seq), 10)
		b = strconv.AppendBool(append(b, ' '), wt.waitRPC)
		b = append(append(b, wt.rpcClient...), wt.rpc...)
	}
	for _, m := range r.model {
		b = append(b, "\nmodel "...)
		b = append(b, m.session...)
		b = strconv.AppendBool(append(b, ' '), m.open)
		b = strconv.AppendBool(append(b, ' '), m.ended)
		for _, v := range []int64{int64(m.turn), int64(m.step), int64(m.tools), m.last, int64(m.version)} {
			b = strconv.AppendInt(append(b, ' '), v, 10)
		}
	}
	b = append(b, "\nsessions="...)
	for _, s := range r.sessions {
		b = append(append(b, s...), ',')
	}
	b = strconv.AppendInt(append(b, "\nstep="...), int64(r.stepNext), 10)
	b = append(b, " floors="...)
	for _, f := range r.floor {
		if f < r.now {
			f = 0 // a floor in the past holds nothing back
		}
		b = strconv.AppendInt(append(b, ' '), f, 10)
	}
	var evs []*event
	r.queued(func(e *event) { evs = append(evs, e) })
	texts := make(map[*event]string, len(evs))
	for _, e := range evs {
		texts[e] = eventText(e)
	}
	sort.SliceStable(evs, func(i, j int) bool {
		a, c := evs[i], evs[j]
		if a.at != c.at {
			return a.at < c.at
		}
		if inOrder {
			return a.seq < c.seq
		}
		if a.link != c.link {
			return a.link < c.link
		}
		if inOrder || a.link >= 0 {
			return a.seq < c.seq // a FIFO link keeps its order
		}
		return texts[a] < texts[c]
	})
	for _, e := range evs {
		b = append(b, "\nq "...)
		b = strconv.AppendInt(b, e.at, 10)
		b = append(b, ' ')
		b = append(b, texts[e]...)
	}
	b = append(b, '\n')
	w.Write(b)
}

// eventText is an event's canonical text without its queue position.
func eventText(e *event) string {
	s := strconv.Itoa(int(e.kind)) + " c" + strconv.Itoa(int(e.client)) + " l" + strconv.Itoa(int(e.link)) +
		" e" + strconv.Itoa(int(e.epoch)) + " i" + strconv.Itoa(int(e.idx)) + " " + strconv.FormatBool(e.sticky)
	if e.cmd != nil {
		s += " cmd=" + e.cmd.String()
	}
	if e.in != nil {
		s += " in=" + e.in.String()
	}
	return s
}
