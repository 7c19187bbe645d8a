package oracle

import "strconv"

// INV-LIVE-QUESTIONS-END (ASK-10, WAIT-3, WAIT-5, AGENT-5): in the healed phase every timed
// question ends: once the bound has passed after its expiry instant (its deadline, or the
// last claim's release after it) and after the last fault, it is settled, continued or
// removed; none is left open with no claim held.

// liveQuestionsEnd: fg's wait is open at the end (time end), due to expire at e.
func (c *Checker) liveQuestionsEnd(fg *foreground, e, end int64) {
	due := e
	if c.healedAt > due {
		due = c.healedAt
	}
	if due+c.opts.BoundMs <= end {
		c.fail(invLiveQuestionsEnd, FinalRecord, fg.key.session+"/"+fg.key.callID+": still open at t="+strconv.FormatInt(end, 10)+", "+
			strconv.FormatInt(end-e, 10)+" ms after its expiry instant with no claim held", fg.startRec)
	}
}
