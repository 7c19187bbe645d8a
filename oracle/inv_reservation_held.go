package oracle

import "github.com/twosettle/twosettle/engine/wire"

// INV-RESERVATION-HELD (LATE-6, LATE-7), the converse of INV-LIVE-NO-LEAK's reservation
// rule: a reply answer() queued holds its Session's reservation for its call, under its
// message id, until its turn settles (admitted, discarded, or claimed into a turn that
// ended without admitting it). A reply restored from the durable inbox after a restart is
// exempt: its reservation comes back only when it is claimed again (LATE-6); so is a reply
// a scenario claimed by hand (wire.ClaimReply), whose turn the reply model does not
// follow. Checked at
// every probe and at the end, on hosts that report their volatile state.

func (c *Checker) reservationsHeld(i int, h *wire.HostState) {
	if !c.on(invReservationHeld) || !c.hasNotes {
		return
	}
	for _, a := range c.accepted {
		if a.lost || a.epoch != c.restarts || c.handClaimed[fgKey{a.s.id, a.callID}] {
			continue
		}
		r := a.s.findReply(a.msgID)
		if r == nil || r.state != replyQueued && r.state != replyClaimed {
			continue
		}
		held := false
		for _, rs := range h.Reservations {
			if rs.Session == a.s.id && rs.CallID == a.callID && rs.MessageID == a.msgID {
				held = true
				break
			}
		}
		if !held {
			state := "queued"
			if r.state == replyClaimed {
				state = "claimed into turn " + itoa(r.claimedTurn)
			}
			c.fail(invReservationHeld, i, a.s.id+"/"+a.callID+": reply "+a.msgID+" that answer() queued is "+state+
				" and not yet admitted, but the host holds no reservation for it", a.rec, a.insertRec)
			return
		}
	}
}
