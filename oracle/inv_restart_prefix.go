package oracle

import (
	"strconv"

	"github.com/twosettle/twosettle/engine/session"
)

// INV-RESTART-PREFIX (AGENT-2, AGENT-3, AGENT-6): after a restart every Session's log is
// its durable prefix at the crash (what the Persisted effects delivered before the cut
// reported) and the first events appended to it are exactly the repair closers of that
// prefix (repair.go RepairClosers: TOOL_OUTCOME_UNKNOWN for each cut-off call, step/end,
// turn/end interrupted), at the last durable event's time, before anything else; they
// must be appended before the trace ends. check.go's restart computes the closers each
// Session owes (sessModel.closers); they are judged and paid off here.

// restartPrefixAppended: e is appended to s while it owes repair closers.
func (c *Checker) restartPrefixAppended(i int, s *sessModel, e session.Event) {
	if len(s.closers) == 0 {
		return
	}
	want := s.closers[0]
	if !dataEqual(want, e.Data) || e.Time != s.closerTime {
		c.fail(invRestartPrefix, i, s.id+": after the restart the next event must be the repair closer "+want.String()+
			" at t="+strconv.FormatInt(s.closerTime, 10)+", got "+e.String(), s.closerRec)
		s.closers = nil
	} else {
		s.closers = s.closers[1:]
	}
}

// restartPrefixFinal: at the end no Session still owes a closer.
func (c *Checker) restartPrefixFinal(s *sessModel) {
	if len(s.closers) > 0 {
		c.fail(invRestartPrefix, FinalRecord, s.id+": the restart left the turn open: repair closer "+s.closers[0].String()+" was never appended", s.closerRec)
	}
}
