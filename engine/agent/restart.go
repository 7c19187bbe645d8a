package agent

import (
	"errors"

	"github.com/twosettle/twosettle/engine/session"
)

// Restart is a host crash followed by a cold start (AGENT-2, AGENT-3, AGENT-6). Everything
// volatile is lost: every agent instance becomes stale, running turns, tool calls (a later
// Complete fails with ErrStaleCall), sleeps and write windows vanish without a trace. Each
// Session then keeps only its durable log: its persisted prefix, or the first cut[id]
// events when the crash landed before a persist that was reported later (cut[id] never
// extends the prefix). Each Session is then loaded cold:
//   - Loaded reports the durable log;
//   - the inbox is restored as the fold of the splices after the inherited prefix;
//   - an interrupted turn is closed with session.InterruptedTurnClosers (a call cut off
//     gets TOOL_OUTCOME_UNKNOWN), appended at the last real event's time and persisted at
//     once (the peer's commitRepair);
//   - the Session stays without a live agent until Resolve, except that a Session whose
//     restored inbox holds messages is resumed (a new root instance) and woken into a new
//     turn right away, so a restored reply is claimed and admitted (decision for open
//     question Q1, docs/PEER-RUNTIME.md §8.1).
//
// Session ids, their logs and the runtime's id counters survive. An inbox that does not
// fold (a corrupt log) is reported in the returned error and restored empty; the other
// Sessions load normally.
func (rt *Runtime) Restart(cut map[string]int) error {
	rt.epoch++
	clear(rt.timers)
	rt.timers = rt.timers[:0]
	var errs []error
	for _, id := range rt.ids {
		s := rt.lookup(id)
		s.d, s.agent, s.window = nil, nil, 0
		s.wantTurn, s.pumping, s.repump, s.writeFault = false, false, false, false
		if n, ok := cut[id]; ok {
			s.log.CrashAt(n)
		} else {
			s.log.Crash()
		}
		s.lastTurn = lastTurn(s.log.Events())
		rt.loaded(s)
		v, err := FoldInbox(s.log.Events(), s.log.Inherited())
		if err != nil {
			errs = append(errs, err)
		}
		s.nextTurn, s.nextStep = v.NextTurn, v.NextStep
		s.commitRepair()
	}
	for _, id := range rt.ids {
		if s := rt.lookup(id); !s.inboxEmpty() {
			s.resume()
		}
	}
	return errors.Join(errs...)
}

// commitRepair appends and persists the closers of an interrupted turn, if any.
func (s *sess) commitRepair() {
	events := s.log.Events()
	closers := session.InterruptedTurnClosers(events)
	if closers == nil {
		return
	}
	t := session.RepairTime(events)
	for _, d := range closers {
		s.appendAt(t, d)
	}
	s.flush()
}
