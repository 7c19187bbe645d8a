package oracle

import (
	"github.com/twosettle/twosettle/engine/session"
	"github.com/twosettle/twosettle/engine/wire"
)

// INV-LOG-REPORTED (AGENT-6, PROJ-12): every log the host shows, in SessionUpdate frames
// and in its final state, is the log its Appended effects describe (after crash
// truncation), with the same inherited count and a persisted count at least the last one
// reported: a host cannot change history behind its own reports.

// logReportedUpdate: a SessionUpdate of s shows events from start on.
func (c *Checker) logReportedUpdate(i int, s *sessModel, start int, events []session.Event) {
	for j, e := range events {
		idx := start + j
		if idx >= len(s.log) || !eventEqual(s.log[idx], e) {
			have := "nothing"
			if idx < len(s.log) {
				have = s.log[idx].String()
			}
			c.fail(invLogReported, i, s.id+": the update shows "+e.String()+" where the appended log has "+have, s.recOf(idx))
			return
		}
	}
}

// logReportedFinal: the final state's Session ss against the mirror s (nil: never seen).
func (c *Checker) logReportedFinal(ss wire.SessionState, s *sessModel) {
	if s == nil {
		if len(ss.Log) > 0 {
			c.fail(invLogReported, FinalRecord, ss.ID+": the final state has a Session the trace never appended to")
		}
		return
	}
	if len(ss.Log) != len(s.log) {
		c.fail(invLogReported, FinalRecord, s.id+": the final log has "+itoa(len(ss.Log))+" events, the appended log "+itoa(len(s.log)), s.lastRec())
	} else {
		for j := range ss.Log {
			if !eventEqual(ss.Log[j], s.log[j]) {
				c.fail(invLogReported, FinalRecord, s.id+": the final log has "+ss.Log[j].String()+" where the appended log has "+s.log[j].String(), s.recOf(j))
				break
			}
		}
	}
	if ss.Inherited != s.inherited {
		c.fail(invLogReported, FinalRecord, s.id+": the final state says "+itoa(ss.Inherited)+" inherited events, the fork copied "+itoa(s.inherited))
	}
	if ss.Persisted < s.persisted || ss.Persisted > len(ss.Log) {
		c.fail(invLogReported, FinalRecord, s.id+": the final persisted count "+itoa(ss.Persisted)+" is not between the last reported "+
			itoa(s.persisted)+" and the log length "+itoa(len(ss.Log)), s.persRec)
	}
}

// logReportedLost: the final state must keep every Session the host appended to.
func (c *Checker) logReportedLost(s *sessModel, seen map[string]bool) {
	if !seen[s.id] && len(s.log) > s.inherited {
		c.fail(invLogReported, FinalRecord, s.id+": the final state lost a Session with "+itoa(len(s.log))+" events", s.lastRec())
	}
}
