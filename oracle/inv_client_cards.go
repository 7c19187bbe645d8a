package oracle

import "github.com/twosettle/twosettle/engine/wire"

// INV-CLIENT-CARDS (CARD-1, CARD-2, CARD-9): what a page lists as question cards, at
// every probe and at the end, against what that page received:
//   - one card per (Session, call id) (CARD-1);
//   - a forwarded question request the page still holds keeps its call's card, before
//     and through its claim's first frame, whether or not the projection lists the call
//     yet (CARD-2); a failed $events/result aborts the generation's undecided requests,
//     which the page then no longer holds (docs/PEER-RUNTIME.md §1.4);
//   - a continued card whose reply waits in the page's inbox view is not listed, unless the
//     update that showed the reply could not sweep it (a request of the call was live
//     then, or one came after it: only a reconciliation sweeps, and a request that ends,
//     a link-down's included, leaves its card to the next one, docs/PEER.md §6.4 step 11
//     and §6.5), and a call the page's projection lists continued with no reply of its
//     own waiting has its card (CARD-9: a discard brings it back with the next view;
//     another call's reply does not hide it);
//   - while a Session is unbound from the page (wire.ActUnbind) its views create and
//     sweep no card, so the last two are not judged for it until bind reconciles it.
//
// and, as it happens, a card submits through its waterfall when it has one: a late-answer
// call for a call whose card holds a live request's waterfall is the wrong channel
// (CARD-4). The card holds the channel its last listener attached (docs/PEER.md §6.2,
// §6.4): when that request ends the card has none, even while an earlier request of the
// same call still lives on the page, so the late-answer RPC is then its channel.
//
// Review panels (a settled call's reopened read-only answers) are not question cards.

func (c *Checker) clientCards(i int, cm *clientModel, cs *wire.ClientState) {
	if !c.on(invClientCards) {
		return
	}
	seen := make(map[fgKey]bool, len(cs.Cards))
	for _, k := range cs.Cards {
		if k.CallID == "" || k.Kind == "review" {
			continue
		}
		key := fgKey{k.Session, k.CallID}
		if seen[key] {
			c.fail(invClientCards, i, cm.name+": two cards for "+k.Session+"/"+k.CallID)
			return
		}
		seen[key] = true
		if k.State == wire.StateContinued {
			if v := cm.views[k.Session]; v != nil && !cm.unbound[k.Session] && v.queuedFor(k.CallID) && !cm.keptSinceUpdate(k.Session, k.CallID) {
				c.fail(invClientCards, i, cm.name+": continued card "+k.Key+" is listed while its reply waits in the inbox the page shows", cm.cur)
				return
			}
		}
	}
	if cm.torn {
		return // a teardown removed every card (CARD-12)
	}
	for _, sess := range cm.viewsBySession() {
		if cm.unbound[sess] {
			continue // its views create no card until bind reconciles them (CARD-8)
		}
		v := cm.views[sess]
		for _, r := range v.questions.Active {
			if r.State == wire.StateContinued && usableRow(r) && !v.queuedFor(r.CallID) && !seen[fgKey{sess, r.CallID}] {
				c.fail(invClientCards, i, cm.name+": "+sess+"/"+r.CallID+" is continued in the view the page shows, with no reply of it queued, but the page lists no card for it", cm.cur)
				return
			}
		}
	}
	for _, ev := range cm.eventsByRec() {
		if !ev.question || ev.done || ev.call == "" {
			continue
		}
		if !seen[fgKey{ev.session, ev.call}] {
			c.fail(invClientCards, i, cm.name+": request ev="+ev.id+" for "+ev.session+"/"+ev.call+" is still held but the page lists no card for it", ev.rec)
			return
		}
	}
}

// keptSinceUpdate reports whether the last update of the Session the page reconciled could
// not sweep the call's card: a question request of the call was live on the page then,
// or one came after it (and may have ended since: its card stays until the next
// reconciliation, docs/PEER.md §6.5).
func (cm *clientModel) keptSinceUpdate(sess, call string) bool {
	k := fgKey{sess, call}
	if cm.liveRequest(sess, call) || cm.page.held[sess][call] {
		return true
	}
	at, ok := cm.page.reqAt[k]
	upd, seen := cm.page.updAt[sess]
	return ok && (!seen || at > upd)
}

// usableRow is a projection row a page can make a card of: a call id and questions that
// each have an id and a text (a malformed row is ignored).
func usableRow(r wire.PendingRow) bool {
	if r.CallID == "" || len(r.Questions) == 0 {
		return false
	}
	for _, q := range r.Questions {
		if q.ID == "" || q.Question == "" {
			return false
		}
	}
	return true
}

// cardChannel checks a late-answer call against the page's requests (CARD-4): when both
// channels exist the waterfall is used.
func (c *Checker) cardChannel(i int, cm *clientModel, x wire.SendCall) {
	if !c.on(invClientCards) {
		return
	}
	a := parseAnswerArgs(x.Args)
	if a.callID != "" && cm.waterfallAttached(a.agent, a.callID) {
		c.fail(invClientCards, i, cm.name+": submitted "+a.agent+"/"+a.callID+" through the late-answer RPC while its card holds the waterfall of request ev="+cm.attached[fgKey{a.agent, a.callID}].id, cm.cur)
	}
}
