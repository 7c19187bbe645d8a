package oracle

import "github.com/twosettle/twosettle/engine/wire"

// INV-CLIENT-SWEEP (CARD-8): reconciliation removes what it must. At every probe and at
// the end, a call-keyed question card the page lists must be justified by the last
// SessionUpdate of its Session the page took: that view's projection lists the call
// (a usable open or continued row, not a continued one whose reply waits in the inbox:
// CARD-9), or a forwarded request of the call is still live on the page, or a request for
// the call was live on the page when that update came, or a request for the call arrived
// after it (a card stays until the next reconciliation, also once its request ended).
// Otherwise that update swept it (docs/PEER.md §6.5).
//
// Not judged: a Session the page never reconciled on this load, one the user unbound or
// bound on this load (its projection was not followed for a while), a torn-down page
// (CARD-12 removed its cards), review panels (ROW-1), and a Session that received a
// request the oracle could not read after that update.

func (c *Checker) clientSweep(i int, cm *clientModel, cs *wire.ClientState) {
	if !c.on(invClientSweep) || cm.torn {
		return
	}
	for _, k := range cs.Cards {
		if k.CallID == "" || k.Kind == "review" {
			continue
		}
		v := cm.views[k.Session]
		upd, ok := cm.page.updAt[k.Session]
		if v == nil || !ok || !cm.page.followed(k.Session) {
			continue
		}
		if at, ok := cm.page.anyReq[k.Session]; ok && at > upd {
			continue
		}
		if at, ok := cm.page.reqAt[fgKey{k.Session, k.CallID}]; ok && at > upd {
			continue
		}
		if sweepKeeps(v, k.CallID) || cm.page.held[k.Session][k.CallID] {
			continue
		}
		c.fail(invClientSweep, i, cm.name+": card "+k.Key+" is listed, but the update the page last reconciled lists no row for "+
			k.CallID+" it can answer and no request of the call was live then: that reconciliation removed it", upd)
		return
	}
}

// sweepKeeps reports whether a view's projection keeps the call's card: a usable open or
// continued row, unless continued with its reply waiting in the inbox (CARD-9).
func sweepKeeps(v *clientView, call string) bool {
	for _, r := range v.questions.Active {
		if r.CallID != call || !usableRow(r) || r.State != wire.StateOpen && r.State != wire.StateContinued {
			continue
		}
		if r.State == wire.StateContinued && v.queuedFor(call) {
			continue
		}
		return true
	}
	return false
}
