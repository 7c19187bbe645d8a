package agent

import (
	"github.com/twosettle/twosettle/engine/session"
	"github.com/twosettle/twosettle/engine/wire"
)

// timer is one armed runtime timer: a Session's write window or a sleeping tool call.
// Timers are values in the runtime's list, named by their seq (which is never 0).
type timer struct {
	at   int64
	seq  int
	s    *sess // write window of s
	call *Call // sleep of call
}

// arm adds a timer and returns its seq.
func (rt *Runtime) arm(at int64, s *sess, c *Call) int {
	rt.timerSeq++
	rt.timers = append(rt.timers, timer{at: at, seq: rt.timerSeq, s: s, call: c})
	return rt.timerSeq
}

// disarm removes the timer seq (a timer no longer armed is ignored).
func (rt *Runtime) disarm(seq int) {
	for i := range rt.timers {
		if rt.timers[i].seq == seq {
			rt.timers = append(rt.timers[:i], rt.timers[i+1:]...)
			rt.timers[len(rt.timers) : len(rt.timers)+1][0] = timer{} // drop the references
			return
		}
	}
}

// earliest returns the index of the timer due first (by time, then arming order), or -1.
func (rt *Runtime) earliest() int {
	best := -1
	for i := range rt.timers {
		t := &rt.timers[i]
		if best < 0 || t.at < rt.timers[best].at || (t.at == rt.timers[best].at && t.seq < rt.timers[best].seq) {
			best = i
		}
	}
	return best
}

// NextDeadline is the earliest time a runtime timer (a write window or a sleep) is armed
// for, if any. A host includes it in its own NextDeadline.
func (rt *Runtime) NextDeadline() (int64, bool) {
	if i := rt.earliest(); i >= 0 {
		return rt.timers[i].at, true
	}
	return 0, false
}

// Fire advances the runtime's clock to now, first running every timer due at or before
// now in (due time, arming) order, each with the clock at its own due time. Every other
// command uses the clock Fire set last: a host calls Fire(now) before anything else it
// does at a new time (including before another component completes a tool at that time).
// The clock never goes backwards.
func (rt *Runtime) Fire(now int64) {
	for {
		i := rt.earliest()
		if i < 0 || rt.timers[i].at > now {
			break
		}
		t := rt.timers[i]
		rt.disarm(t.seq)
		if t.at > rt.now {
			rt.now = t.at
		}
		switch {
		case t.s != nil:
			t.s.window = 0
			t.s.persist()
		case t.call != nil:
			t.call.wake()
		}
	}
	if now > rt.now {
		rt.now = now
	}
}

// Flush makes everything appended to Session id's log durable now (the peer's
// session/flush barrier): a host calls it before acknowledging anything a client relies
// on, such as an accepted late answer (AGENT-6).
func (rt *Runtime) Flush(id string) error {
	s, err := rt.session(id)
	if err != nil {
		return err
	}
	s.flush()
	return nil
}

// append adds an event to the log at the runtime's clock.
func (s *sess) append(d session.Data) session.Event {
	return s.appendAt(s.rt.now, d)
}

// appendAt adds an event at time t: it is reported as wire.Appended, persisted at once
// (write-through) or covered by the write window (opened when the log goes from clean to
// dirty), then reported to the hooks.
func (s *sess) appendAt(t int64, d session.Data) session.Event {
	rt := s.rt
	wasDirty := s.log.Dirty()
	e := s.log.Append(t, d)
	rt.emit(wire.Appended{Session: s.id, Event: e})
	switch {
	case rt.window == 0:
		s.persist()
	case !wasDirty && s.window == 0:
		s.window = rt.arm(rt.now+rt.window, s, nil)
	}
	for _, h := range rt.hooks {
		if h.Appended != nil {
			h.Appended(s.id, e)
		}
	}
	return e
}

// flush is a mandatory flush point: persist now and close the window.
func (s *sess) flush() {
	if s.window != 0 {
		s.rt.disarm(s.window)
		s.window = 0
	}
	s.persist()
}

// persist makes the whole log durable and reports it, if anything was not.
func (s *sess) persist() {
	if s.log.Persist() {
		s.rt.emit(wire.Persisted{Session: s.id, Through: s.log.Persisted()})
	}
}
