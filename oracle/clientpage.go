package oracle

import "github.com/twosettle/twosettle/engine/wire"

// clientPage is what the oracle knows of one client's current page load (everything but
// the unkeyed keys is forgotten on Reload), for the invariants that judge what a page
// lists against when it last reconciled (docs/PEER.md §6.5): INV-CLIENT-SWEEP,
// INV-CLIENT-DRAFTS, INV-CLIENT-UNKEYED-KEYS, INV-CLIENT-SUBMIT, INV-CLIENT-AUTOFOCUS.
type clientPage struct {
	load int // page loads so far (cm.reloads when this page started)

	updAt  map[string]int // Session -> record of the last SessionUpdate the page took
	reqAt  map[fgKey]int  // (Session, call) -> record of the last question request for it
	anyReq map[string]int // Session -> record of the last request whose call is not known
	// held: Session -> the calls a live question request held when that update came (the
	// update could not sweep their cards, and nothing else sweeps before the next one)
	held    map[string]map[string]bool
	unbound map[string]bool
	// listed: the card keys a probe of this page load showed (any kind, keyed or not)
	listed map[string]bool

	// untimed: calls whose card had, on this page load, a ready channel with no countdown
	// (an untimed request or a continued row): the only cards that may have been autofocused
	untimed map[fgKey]bool
	// focused: cards a user focus action of this page load may have named ("" call: the
	// composer seat, any card of the Session)
	focused map[fgKey]bool
}

func newClientPage(load int) clientPage {
	return clientPage{load: load, updAt: map[string]int{}, reqAt: map[fgKey]int{}, anyReq: map[string]int{}, held: map[string]map[string]bool{}, unbound: map[string]bool{},
		listed: map[string]bool{}, untimed: map[fgKey]bool{}, focused: map[fgKey]bool{}}
}

// pageRequest records a question request the page took at record i.
func (p *clientPage) pageRequest(i int, sess, call string, known, timed bool) {
	if !known {
		p.anyReq[sess] = i
		return
	}
	if call == "" {
		return
	}
	p.reqAt[fgKey{sess, call}] = i
	if !timed {
		p.untimed[fgKey{sess, call}] = true
	}
}

// pageUpdate records a SessionUpdate the page took at record i, with the page's requests
// as they are then.
func (p *clientPage) pageUpdate(i int, f wire.SessionUpdate, events map[string]*clientEvent) {
	p.updAt[f.Session] = i
	h := p.held[f.Session]
	if h == nil {
		h = map[string]bool{}
		p.held[f.Session] = h
	}
	clear(h)
	for _, ev := range events {
		if ev.question && !ev.done && ev.session == f.Session && ev.call != "" {
			h[ev.call] = true
		}
	}
	for _, r := range f.Questions.Active {
		if r.State == wire.StateContinued && r.CallID != "" {
			p.untimed[fgKey{f.Session, r.CallID}] = true
		}
	}
}

// pageUser records what a user action tells the page models.
func (p *clientPage) pageUser(a wire.UserAction) {
	switch a.Kind {
	case wire.ActUnbind, wire.ActBind:
		p.unbound[a.Session] = true // not followed for a while: its sweep is not judged again on this load
	case wire.ActFocus, wire.ActWindowFocus:
		call := a.Card
		if a.Kind == wire.ActWindowFocus || call != "" && call[0] == '#' {
			call = ""
		}
		p.focused[fgKey{a.Session, call}] = true
	}
}

// userFocused reports whether a user focus action of this page load may have named k.
func (p *clientPage) userFocused(k fgKey) bool {
	return p.focused[k] || p.focused[fgKey{"", k.callID}] || p.focused[fgKey{k.session, ""}] || p.focused[fgKey{"", ""}]
}

// followed reports whether the page follows the Session's projection throughout this load.
func (p *clientPage) followed(sess string) bool { return !p.unbound[sess] && !p.unbound[""] }
