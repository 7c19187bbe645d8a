package oracle

import "strconv"

// INV-WAIT-EXPIRES-ON-TIME (WAIT-3, WAIT-5, ASK-10): delivery alone is not a claim: an open
// timed wait expires at the first instant at or after its deadline when no claim is held
// (at the deadline, or when the last claim leaves after it: foreground.expiryAt). Under an
// exact runner no command is applied after that instant while the wait is still open
// (waitsAtCommand), under a lazy one (Options.LazyTimers, a host stall) not past the end
// of that Apply (waitExpiresOnTimeEndApply), and the trace does not end past it with the
// wait open (waitExpiresOnTimeFinal). A wait whose end the trace would not show
// (endVisible) is skipped rather than guessed.

// waitsAtCommand runs at the start of every host Apply.
func (c *Checker) waitsAtCommand(i int) {
	if c.lazy || !c.on(invWaitExpiresOnTime) {
		return
	}
	now := c.recs[i].Time
	for _, fg := range c.dueExpiries(now) {
		if !c.endVisible(fg) {
			continue
		}
		if e, ok := fg.expiryAt(); ok && now > e {
			c.fail(invWaitExpiresOnTime, i, fg.key.session+"/"+fg.key.callID+": the wait should have expired at t="+strconv.FormatInt(e, 10)+
				" (deadline "+strconv.FormatInt(fg.deadline, 10)+", no claim held) but is still open at t="+strconv.FormatInt(now, 10), fg.startRec, fg.releaseRec)
		}
	}
}

// waitExpiresOnTimeEndApply runs at the end of every host Apply, under a lazy runner.
func (c *Checker) waitExpiresOnTimeEndApply() {
	ap := &c.ap
	if !c.lazy || !c.on(invWaitExpiresOnTime) {
		return
	}
	for _, fg := range c.active {
		if e, ok := fg.expiryAt(); ok && fg.open() && ap.now >= e && c.endVisible(fg) {
			c.fail(invWaitExpiresOnTime, ap.idx, fg.key.session+"/"+fg.key.callID+": still open after an Apply at t="+
				strconv.FormatInt(ap.now, 10)+", past its expiry instant "+strconv.FormatInt(e, 10), fg.startRec)
		}
	}
}

// waitExpiresOnTimeFinal: the trace ends at end with fg's wait open.
func (c *Checker) waitExpiresOnTimeFinal(fg *foreground, end int64) {
	e, ok := fg.expiryAt()
	if c.lazy || !ok || !fg.open() || !c.endVisible(fg) || end <= e {
		return
	}
	c.fail(invWaitExpiresOnTime, FinalRecord, fg.key.session+"/"+fg.key.callID+": the run went on to t="+strconv.FormatInt(end, 10)+" but the wait, due to expire at "+
		strconv.FormatInt(e, 10)+" with no claim held, never ended", fg.startRec, fg.releaseRec)
}
