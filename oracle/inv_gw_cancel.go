package oracle

import "github.com/twosettle/twosettle/engine/wire"

// INV-GW-CANCEL (GW-1, GW-3): when a request finishes, every client generation that still
// holds its delivery gets exactly one Cancel, in the same Apply; the winner never gets one;
// no Cancel goes to a generation that does not hold the delivery (never delivered, passed
// with next, disconnected). Who holds a delivery, and who is owed a cancel at the finish
// (gwEvent.needs), is the gateway model's (gateway.go finish).

// gwCancelKnown: a cancel names a request the client got. false: refused.
func (c *Checker) gwCancelKnown(i int, k connKey, f wire.Cancel, ev *gwEvent) bool {
	if ev == nil {
		c.fail(invGWCancel, i, "cancel ev="+f.EventID+" to "+k.String()+", which never got that request")
		return false
	}
	return true
}

// gwCancelOwed: a cancel of a finished request goes to a holder owed one, never the
// winner. It returns the holder's place in ev.needs; false: refused.
func (c *Checker) gwCancelOwed(i int, k connKey, ev *gwEvent) (int, bool) {
	if ev.hasWinner && ev.winner == k {
		c.fail(invGWCancel, i, "cancel ev="+ev.id+" to "+k.String()+", the winner", ev.winnerRec)
		return -1, false
	}
	j := -1
	for n, h := range ev.needs {
		if h == k {
			j = n
		}
	}
	if j < 0 {
		c.fail(invGWCancel, i, "cancel ev="+ev.id+" to "+k.String()+", which does not hold the delivery")
		return -1, false
	}
	return j, true
}

// gwCancelEndApply: every holder of a request this Apply finished got its cancel.
func (c *Checker) gwCancelEndApply() {
	ap := &c.ap
	for _, ev := range ap.finished {
		if len(ev.needs) > 0 {
			c.fail(invGWCancel, ap.idx, "ev="+ev.id+" finished ("+ev.finishKind+") but "+ev.needs[0].String()+" still holds it and got no cancel",
				ev.finishRec, ev.needsRec[0])
			ev.needs = ev.needs[:0]
		}
	}
}
