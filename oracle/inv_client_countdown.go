package oracle

import "github.com/twosettle/twosettle/engine/wire"

// INV-CLIENT-COUNTDOWN (CD-2, CD-3, CD-5, CD-9): what a card's header shows of its wait,
// at every probe and at the end, against what that page's user did:
//   - a card whose wait is focused (a manual focus, before or after the claim handshake)
//     has no running countdown: focus pauses it, and a focus before the handshake takes
//     effect when the deadline arrives (CD-2, CD-3);
//   - a card shows editing only after its user edited it on this client (chose, typed or
//     skipped), and waiting only after a Take time on this client: a recommended
//     preselection, paging and focus are not edits (CD-5), and Take time holds only its
//     own client (CD-9). The freeze survives a reload with its stored draft;
//   - hiding a keyed card's panel (hide, or close on a keyed card) leaves its claim
//     running: the client cancels no claim stream in response (CD-7).

func (c *Checker) clientCountdowns(i int, cm *clientModel, cs *wire.ClientState) {
	if !c.on(invClientCountdown) {
		return
	}
	for _, k := range cs.Cards {
		if k.Kind == "review" || k.State != wire.StateOpen {
			continue
		}
		switch k.WaitState {
		case wire.WaitStateFocused:
			if k.Countdown != nil && k.Countdown.Running {
				c.fail(invClientCountdown, i, cm.name+": card "+k.Key+" is focused but its countdown runs ("+k.Countdown.String()+")", cm.cur)
				return
			}
		case wire.WaitStateEditing, wire.WaitStateWaiting:
			if k.CallID == "" || cm.blind[""] || cm.blind[k.Session] {
				continue // an unkeyed card's draft is its own; an edit of the seat among several cards is not attributed
			}
			if _, ok := cm.frozen[fgKey{k.Session, k.CallID}]; !ok {
				what := "edited"
				if k.WaitState == wire.WaitStateWaiting {
					what = "took time on"
				}
				c.fail(invClientCountdown, i, cm.name+": card "+k.Key+" shows "+k.WaitState+" but its user never "+what+" it on this client", cm.cur)
				return
			}
		}
	}
}

// hideKeepsClaim checks a claim stream the client cancels against the input it answers
// (CD-7): hiding a keyed card's panel is not a reason.
func (c *Checker) hideKeepsClaim(i int, cm *clientModel, st *clientStream) {
	if !c.on(invClientCountdown) {
		return
	}
	u, ok := c.recs[cm.cur].Payload.(wire.User)
	if !ok || u.Action.Kind != wire.ActHide && u.Action.Kind != wire.ActClose || st.call == "" {
		return
	}
	if k, ok := cm.cardKey(u.Action); ok && k.session == st.session && k.callID == st.call {
		c.fail(invClientCountdown, i, cm.name+": hiding the panel of "+st.call+" released its claim "+st.id, cm.cur)
	}
}
