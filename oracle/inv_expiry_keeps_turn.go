package oracle

import "github.com/twosettle/twosettle/engine/wire"

// INV-EXPIRY-KEEPS-TURN (WAIT-8, ASK-9): unattended expiry aborts only the wait's private
// signal: a timed wait that ends with no winner, no parent abort and no restart yields
// pending (not ASK_ABORTED or another failure), and a turn ends aborted only in the Apply
// of a turn cancel or a session close.

// expiryKeepsTurn judges a timed call's first settlement.
func (c *Checker) expiryKeepsTurn(fg *foreground, r fgResult, rec int) {
	ev := fg.event
	won := ev != nil && ev.hasWinner
	if !won && fg.parentAbortRec < 0 && !fg.lost && (r.kind == resError || r.kind == resOther) {
		c.fail(invExpiryKeepsTurn, rec, fg.key.session+"/"+fg.key.callID+": the unattended wait ended with "+r.String()+", not pending", fg.startRec)
	}
}

// turnAborted checks that a turn ends aborted only by a turn cancel or a session close.
func (c *Checker) turnAborted(s *sessModel, rec int) {
	ap := &c.ap
	if ap.abortSession == s.id || ap.closing {
		return
	}
	if _, ok := ap.cmd.(wire.Restart); ok {
		return
	}
	c.fail(invExpiryKeepsTurn, rec, s.id+": the turn ended aborted in the Apply of "+ap.cmd.String()+", not of a turn cancel", ap.idx)
}
