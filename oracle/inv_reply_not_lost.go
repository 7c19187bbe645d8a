package oracle

// INV-REPLY-NOT-LOST (AGENT-6, LATE-9): an accepted late reply (answer() returned true) is
// never silently lost: a crash may not drop its inbox splice, and by the end of a healed
// run it is admitted, still durably queued, explicitly discarded, or was claimed into a
// turn that ended (the accepted limitation), and its splice is durable within the bound.

// replyLostByCrash: a crash at record i keeps s's log through durable. A reply accepted
// past it is lost: it is marked so (the acceptance model other invariants read) and fails.
func (c *Checker) replyLostByCrash(i int, s *sessModel, durable int) {
	for _, a := range c.accepted {
		if a.s == s && !a.lost && a.idx >= durable {
			a.lost = true
			c.fail(invReplyNotLost, i, s.id+": the crash lost reply "+a.msgID+" for "+a.callID+", accepted at "+
				pad4(c.recs[a.rec].Seq)+" but never persisted", a.rec, a.insertRec)
		}
	}
}

// replyNotLostFinal: at the end (time end), every accepted reply not lost is durable once
// the bound has passed after its acceptance and the last fault.
func (c *Checker) replyNotLostFinal(end int64) {
	for _, a := range c.accepted {
		if a.lost {
			continue
		}
		due := a.time
		if c.healedAt > due {
			due = c.healedAt
		}
		if a.idx >= a.s.persisted && due+c.opts.BoundMs <= end {
			c.fail(invReplyNotLost, FinalRecord, a.s.id+"/"+a.callID+": accepted reply "+a.msgID+" is still not durable at the end", a.rec, a.insertRec)
		}
	}
}
