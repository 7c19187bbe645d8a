package oracle

import (
	"cmp"
	"slices"
	"strings"

	"github.com/twosettle/twosettle/engine/session"
	"github.com/twosettle/twosettle/engine/wire"
	"github.com/twosettle/twosettle/trace"
)

// The client model: what one reference client received and emitted, for the client-side
// invariants. A client's Out records belong to its last In record.

type clientModel struct {
	name    string
	gen     int
	events  map[string]*clientEvent
	streams map[string]*clientStream
	byCall  map[fgKey][]*clientStream // streams' openings by (session, call): claimFor's index
	results map[string]*clientResult  // by RPC id: outcomes awaiting their HTTP reply
	// every $events/result RPC the client sent, by RPC id: its generation
	resultGen map[string]int
	// failing: a $events/result of the live generation failed (docs/PEER-RUNTIME.md §1.4:
	// the whole generation fails and the client reconnects), so the generation's later
	// waterfall frames are not taken: the next generation gets them as replays
	failing bool
	frozen  map[fgKey]int // edited or taken time on (CD-4), for good on this client: the input's record
	frozeAt map[fgKey]int // the page load (reloads so far) of each freeze
	// frozen calls with no card on the page when their Session was reconciled (after a
	// reload): their stored draft goes with the first mount of another card of the
	// Session, but stays, disposition and all, if the call's own card mounts first
	// (DRAFT-3 prunes to the live card keys on mount), which the trace does not show
	maybePruned map[fgKey]bool
	nq          map[fgKey]int // question count of the requests and rows seen for a call (-1: several)
	reloads     int

	// how far the client's clock was set back so far (clock-jump faults), in ms
	back  int64
	cards map[fgKey]bool // call-keyed cards the page may hold (true: never swept)
	// attached: the request whose waterfall channel the call's card holds (docs/PEER.md
	// §6.2, §6.4 steps 7-9): attached when its listener attaches it (a request with no claim
	// at once, a timed one at its claim's first frame), replaced by a later request's, and
	// gone when that request ends, even while an earlier request of the call still lives
	// (a card detaches only its current channel)
	attached map[fgKey]*clientEvent
	settled  map[fgKey]bool // calls the last update showed settled and not active
	torn     bool           // the questions UI was torn down (no reconciliation)
	// Sessions the user unbound from the page's view (wire.ActUnbind): their updates still
	// replace the views, but create and sweep no card until bind reconciles them (CARD-8)
	unbound map[string]bool

	// what the page last received of each Session (since its last load): the projection
	// and inbox views and the log length, which its rows, cards and nodes show
	views map[string]*clientView
	// Sessions the page shows (since its last load): one it took an update of, or one a
	// question request made a card for (docs/PEER.md §6.4: the listener's card comes
	// before any update of its Session); unbind and bind name these
	sessions map[string]bool
	// Sessions ("" for any) where an edit or Take time went to a card the trace does not
	// name (the composer seat among several cards): which card froze is not known
	blind map[string]bool

	cur        int
	expectNext string // CLAIM-5: the event the current input must delegate (its claim ended with no frame)
	submit     bool   // the current input is the user's submit
	submitUsed bool
	cancelled  []*clientStream // claim streams the client cancelled in the current input

	page    clientPage     // what the oracle knows of the current page load (clientpage.go)
	unkeyed map[string]int // unkeyed card keys (and stored draft keys) probes showed: the page load they were seen on
	submits clientSubmits  // waterfall submissions and accepted RPC answers (INV-CLIENT-SUBMIT)
}

type clientEvent struct {
	id, session, call string
	timed, keyed      bool
	question          bool // a question request for a Session: it has a card
	done              bool
	rec               int
}

type clientStream struct {
	id, session, call string
	gen               int
	ev                *clientEvent // the request whose listener opened it (nil: not known)
	openRec           int
	hasFrame          bool
	frameCT, rem      int64
	backAtFrame       int64 // the client clock's backward moves before the frame (clockBack)
	frameRec          int
	ended, cancelled  bool
}

type clientResult struct {
	key     fgKey
	eventID string
	rec     int
}

func (c *Checker) client(name string) *clientModel {
	cm := c.clients[name]
	if cm == nil {
		cm = &clientModel{name: name, events: map[string]*clientEvent{}, streams: map[string]*clientStream{}, byCall: map[fgKey][]*clientStream{}, views: map[string]*clientView{}, sessions: map[string]bool{}, blind: map[string]bool{},
			results: map[string]*clientResult{}, resultGen: map[string]int{}, frozen: map[fgKey]int{}, frozeAt: map[fgKey]int{}, maybePruned: map[fgKey]bool{}, nq: map[fgKey]int{}, cards: map[fgKey]bool{}, attached: map[fgKey]*clientEvent{}, settled: map[fgKey]bool{}, unbound: map[string]bool{},
			page: newClientPage(0), unkeyed: map[string]int{}}
		cm.submits.reload()
		c.clients[name] = cm
	}
	return cm
}

// claimFor is the claim stream the client opened last for k in its live generation.
func (cm *clientModel) claimFor(k fgKey) *clientStream {
	var found *clientStream
	for _, st := range cm.byCall[k] {
		if cm.streams[st.id] == st && st.gen == cm.gen {
			if found == nil || st.openRec > found.openRec {
				found = st
			}
		}
	}
	return found
}

func (c *Checker) clientInput(i int, r *trace.Record, in wire.ClientInput) {
	cm := c.client(r.Actor)
	c.delegated(cm)
	cm.cur, cm.submit, cm.submitUsed, cm.cancelled = i, false, false, cm.cancelled[:0]
	switch x := in.(type) {
	case wire.FromHost:
		switch f := x.Frame.(type) {
		case wire.Ready:
			cm.gen, cm.failing = f.Gen, false
			clear(cm.resultGen)
			clear(cm.events)
			for _, st := range cm.streams {
				st.ended = true
			}
		case wire.Waterfall:
			if cm.failing {
				break // a failed generation's frame: replayed to the next one
			}
			prev := cm.events[f.EventID]
			ev := &clientEvent{id: f.EventID, session: f.AgentID, rec: i}
			nq := -1
			if gev := c.events[f.EventID]; gev != nil {
				ev.call, ev.keyed, ev.timed, nq = gev.callID, gev.keyed, gev.timed, gev.nq
			} else if req, err := wire.ParseQuestionRequest(f.Request); err == nil {
				nq = len(req.Questions)
				if req.Wait != nil {
					ev.call, ev.keyed, ev.timed = req.Wait.CallID, true, req.Wait.Timed
				}
			}
			cm.events[f.EventID] = ev
			if f.Event == wire.EventQuestionsRequest && f.AgentID != "" {
				cm.page.pageRequest(i, f.AgentID, ev.call, nq >= 0, ev.timed)
				ev.question = true
				if nq > 0 && !cm.torn {
					cm.sessions[f.AgentID] = true // the listener makes its card (a torn-down UI hands it on)
				}
				if ev.call != "" {
					k := fgKey{ev.session, ev.call}
					if _, ok := cm.cards[k]; !ok {
						cm.cards[k] = false
					}
					cm.sawQuestions(k, nq)
					if !ev.timed && (prev == nil || prev.done) {
						cm.attached[k] = ev // no claim: its channel is attached at once
					}
				}
			}
		case wire.Cancel:
			if ev := cm.events[f.EventID]; ev != nil {
				ev.done = true
			}
			for id, res := range cm.results {
				if res.eventID == f.EventID {
					delete(cm.results, id) // withdrawn: its outcome no longer counts (CLAIM-6)
				}
			}
		case wire.StreamItem:
			if st := cm.streams[f.StreamID]; st != nil && !st.hasFrame {
				if ev := st.ev; ev != nil && !ev.done && cm.events[ev.id] == ev && !st.ended && !st.cancelled {
					cm.attached[fgKey{st.session, st.call}] = ev // the claim's first frame attaches the channel
				}
				if rem, ok := remainingMs(f.Value); ok {
					st.hasFrame, st.frameCT, st.rem, st.frameRec, st.backAtFrame = true, r.ClientTime, rem, i, cm.back
				} else if st.call != "" {
					cm.page.untimed[fgKey{st.session, st.call}] = true // attached with no deadline
				}
			}
		case wire.StreamEnd:
			if st := cm.streams[f.StreamID]; st != nil {
				if !st.ended && !st.cancelled && !st.hasFrame && st.gen == cm.gen {
					cm.expectNext = cm.liveTimedEvent(st)
				}
				st.ended = true
			}
		case wire.SessionUpdate:
			cm.reconcile(f)
		case wire.StreamError:
			if st := cm.streams[f.StreamID]; st != nil {
				st.ended = true
			}
		}
	case wire.FromHTTP:
		cm.submits.answerReply(i, x.RPCID, x.Envelope)
		delete(cm.results, x.RPCID)
		if gen, ok := cm.resultGen[x.RPCID]; ok {
			delete(cm.resultGen, x.RPCID)
			if !x.Envelope.OK && gen == cm.gen && !cm.failing {
				// the generation fails (docs/PEER-RUNTIME.md §1.4): every delivery whose
				// outcome is not sent yet is aborted with it, so its request is no longer
				// held (no outcome follows; the next generation replays it)
				cm.failing = true
				for _, ev := range cm.events {
					ev.done = true
				}
			}
		}
	case wire.LinkDown, wire.Reload:
		cm.failing = false
		clear(cm.resultGen)
		for _, st := range cm.streams {
			st.ended = true
		}
		clear(cm.events)
		clear(cm.results)
		if _, ok := x.(wire.Reload); ok {
			clear(cm.cards) // a new page: its cards come from the next updates and replays
			clear(cm.attached)
			cm.reloads++
			clear(cm.settled)
			clear(cm.views)
			clear(cm.sessions)
			clear(cm.unbound) // a new page binds every Session
			cm.torn = false
			cm.page = newClientPage(cm.reloads)
			cm.submits.reload()
		}
	case wire.User:
		a := x.Action
		cm.page.pageUser(a)
		cm.submits.userAction(i, a)
		switch a.Kind {
		case wire.ActReopen:
			if k, ok := cm.cardKey(a); ok && a.Card != "" {
				// a settled call's row opens a read-only review panel, which no
				// reconciliation sweeps (ROW-1); any other reopen republishes a card
				cm.cards[k] = cm.cards[k] || cm.settled[k]
			}
		case wire.ActTeardown:
			// every card the page holds is removed with its draft and disposition
			// (CARD-12, DRAFT-3: a draft is cleared when its card closes); a frozen
			// call with no card on this page (a reload that has not mounted it yet)
			// keeps its stored draft, which the next page's card restores (CD-4)
			cm.torn = true
			for k := range cm.cards {
				delete(cm.frozen, k)
				delete(cm.maybePruned, k)
			}
			clear(cm.cards)
		case wire.ActUnbind, wire.ActBind:
			cm.binding(a)
		}
		switch a.Kind {
		case wire.ActSubmit, wire.ActNext, wire.ActContinue:
			cm.submit = true // the primary button (Continue) submits on the last question
		case wire.ActSkip:
			cm.submit = true // skip on the last question submits (docs/PEER.md §6.6)
			if k, ok := cm.cardKey(a); ok {
				cm.freeze(k, i) // a draft mutation (CD-4)
			} else {
				cm.blind[a.Session] = true
			}
		case wire.ActType, wire.ActChoose, wire.ActTakeTime:
			if k, ok := cm.cardKey(a); ok {
				cm.freeze(k, i)
			} else {
				cm.blind[a.Session] = true
			}
		}
	}
}

// clockFault records an injected fault that sets a client's clock back.
func (c *Checker) clockFault(f trace.Injected) {
	if f.Kind == "clock-jump" && !f.NoOp && f.N < 0 && f.Target != "" {
		c.client(f.Target).back -= f.N
	}
}

func (cm *clientModel) freeze(k fgKey, rec int) {
	if _, ok := cm.frozen[k]; !ok || cm.maybePruned[k] {
		cm.frozen[k], cm.frozeAt[k] = rec, cm.reloads
	}
	delete(cm.maybePruned, k)
}

// sawQuestions records the question count of a request or row for k.
func (cm *clientModel) sawQuestions(k fgKey, n int) {
	if old, ok := cm.nq[k]; !ok {
		cm.nq[k] = n
	} else if old != n {
		cm.nq[k] = -1
	}
}

// cardKey resolves the card a user action names: a call id, or the composer seat when
// the page can hold only one card there. The seat shows the latest published card, which
// the trace does not show, so the composer seat is attributed only when every card the
// page may hold in the Session(s) addressed is one call's: the call-keyed cards of the
// requests and projection rows it received, until a reconciliation sweeps them (no row,
// no request left: CARD-8), and the unkeyed card of each request still live (CARD-11).
func (cm *clientModel) cardKey(a wire.UserAction) (fgKey, bool) {
	if a.Card != "" && a.Card[0] != '#' {
		if a.Session != "" {
			return fgKey{a.Session, a.Card}, true
		}
		// the Session of the page's requests for that call id, the live ones first; when
		// they name several Sessions the action is not attributed (map order never decides)
		sess, n := "", 0
		for _, live := range [2]bool{true, false} {
			for _, ev := range cm.events {
				if ev.call == a.Card && (!live || !ev.done) && (n == 0 || ev.session != sess) {
					sess, n = ev.session, n+1
				}
			}
			if n > 0 {
				break
			}
		}
		switch {
		case n == 1:
			return fgKey{sess, a.Card}, true
		case n > 1:
			return fgKey{}, false
		}
		// no request for it (a link-down or reload forgot them): the client finds the card
		// among those on its page, so the Sessions of the cards the page may hold decide,
		// again only when they are one (a stale claim stream of a swept card of another
		// Session used to take the action)
		for c := range cm.cards { // one key per (Session, call id)
			if c.callID == a.Card {
				sess, n = c.session, n+1
			}
		}
		switch {
		case n == 1:
			return fgKey{sess, a.Card}, true
		case n > 1:
			return fgKey{}, false
		}
		var claim *clientStream
		for _, st := range cm.streams {
			if st.call == a.Card && (claim == nil || st.openRec < claim.openRec) {
				claim = st
			}
		}
		if claim != nil {
			return fgKey{claim.session, claim.call}, true
		}
		return fgKey{}, false
	}
	if a.Card != "" {
		return fgKey{}, false
	}
	var k fgKey
	n := 0
	for c := range cm.cards {
		if a.Session == "" || a.Session == c.session {
			k, n = c, n+1
		}
	}
	for _, ev := range cm.events {
		if ev.question && !ev.done && ev.call == "" && (a.Session == "" || a.Session == ev.session) {
			n++ // an unkeyed card
		}
	}
	return k, n == 1
}

// reconcile mirrors the client's sweep on a SessionUpdate (CARD-8): a call-keyed card
// whose call the update does not list and that no live request of the client holds is
// removed, with its draft and its Take time disposition (DRAFT-3). Rows only add cards
// here (a superset of the cards the client keeps, so the seat is never misread): a
// continued row creates its card unless its reply waits in the inbox (CARD-9); an open
// row only updates a card the page already has (its card comes from its request).
func (cm *clientModel) reconcile(f wire.SessionUpdate) {
	if f.Session == "" {
		return
	}
	cm.received(f)
	cm.sessions[f.Session] = true
	cm.page.pageUpdate(cm.cur, f, cm.events)
	cm.submits.updated(cm.cur, f, cm.views[f.Session], cm.page.held[f.Session])
	// One pass over the update's rows and inbox, one over the client's live requests:
	// reconcile stays linear in the open questions (an update per change, each listing
	// every open question, made the checker cubic in them when each card looked its call
	// up in the rows and the requests).
	rowState, queued := rowsOf(f.Questions, f.Inbox)
	for _, r := range f.Questions.Active {
		if r.CallID != "" {
			k := fgKey{f.Session, r.CallID}
			// only a continued row whose reply is not queued makes a card (CARD-9): a page
			// just reloaded holds none for a queued one, so no sweep closes it and its
			// stored draft stays (DRAFT-3)
			if _, ok := cm.cards[k]; !ok && r.State != wire.StateOpen && !queued[r.CallID] {
				cm.cards[k] = false
			}
			cm.sawQuestions(k, len(r.Questions))
		}
	}
	for k := range cm.settled {
		if k.session == f.Session {
			delete(cm.settled, k)
		}
	}
	for _, r := range f.Questions.Settled {
		if _, listed := rowState[r.CallID]; !listed {
			cm.settled[fgKey{f.Session, r.CallID}] = true
		}
	}
	if cm.unbound[f.Session] {
		return // an unbound Session is not followed (docs/PEER.md §6.5): no card is swept
	}
	cm.sweep(f.Session, rowState, queued)
}

// rowsOf reads a Session's views for the sweep: the state of the first row of each
// active call, and the calls whose late reply the inbox queues.
func rowsOf(q wire.QuestionsView, in wire.InboxView) (rowState map[string]string, queued map[string]bool) {
	queued = map[string]bool{}
	for _, l := range [2][]session.Message{in.NextStep, in.NextTurn} {
		for _, m := range l {
			if m.Source.Kind == session.SourceUserQuestionReply {
				queued[m.Source.CallID] = true
			}
		}
	}
	rowState = make(map[string]string, len(q.Active))
	for _, r := range q.Active {
		if _, ok := rowState[r.CallID]; !ok {
			rowState[r.CallID] = r.State
		}
	}
	return rowState, queued
}

// binding mirrors unbind and bind (docs/PEER.md §6.5): an unbound Session's updates
// sweep no card; binding it again reconciles its latest views at once (none yet: no row
// keeps a card). Any Session the page shows may be unbound, one whose only trace is a
// request's card included (no update of it yet). Session may be left out when the page
// shows one Session (as the client resolves it).
func (cm *clientModel) binding(a wire.UserAction) {
	sess := a.Session
	if sess == "" && len(cm.sessions) == 1 {
		for s := range cm.sessions {
			sess = s
		}
	}
	if !cm.sessions[sess] {
		return // the client refuses it: no Session of that name on the page
	}
	if a.Kind == wire.ActUnbind {
		cm.unbound[sess] = true
		return
	}
	if !cm.unbound[sess] {
		return
	}
	delete(cm.unbound, sess)
	var q wire.QuestionsView
	var in wire.InboxView
	if v := cm.views[sess]; v != nil {
		q, in = v.questions, v.inbox
	}
	rowState, queued := rowsOf(q, in)
	cm.sweep(sess, rowState, queued)
}

// sweep is reconcile's card sweep for one Session (CARD-8, CARD-9, DRAFT-3), from its
// rows (rowsOf) and the client's live requests.
func (cm *clientModel) sweep(sess string, rowState map[string]string, queued map[string]bool) {
	if cm.torn {
		return
	}
	listed := func(call string) bool { _, ok := rowState[call]; return ok }
	// creates reports whether the views make a card for call on a page without one
	creates := func(call string) bool {
		st, ok := rowState[call]
		return ok && st == wire.StateContinued && !queued[call]
	}
	// the client's rows: a continued row whose reply waits in the inbox is left out
	// (CARD-9), so its card goes too
	shown := func(call string) bool {
		st, ok := rowState[call]
		return ok && (st != wire.StateContinued || !queued[call])
	}
	liveCalls := map[string]bool{}
	for _, ev := range cm.events {
		if !ev.done && ev.session == sess {
			liveCalls[ev.call] = true
		}
	}
	live := func(k fgKey) bool { return k.session == sess && liveCalls[k.callID] }
	for k, sticky := range cm.cards {
		if k.session != sess || shown(k.callID) || live(k) {
			continue
		}
		// swept (or a review panel): its draft and disposition go either way, so a later
		// request for the call starts unfrozen
		delete(cm.frozen, k)
		delete(cm.maybePruned, k)
		if !sticky && !listed(k.callID) {
			delete(cm.cards, k)
		}
	}
	for k := range cm.frozen {
		// a frozen call with no card on this page (a reload): its stored draft is pruned
		// when a card of another call of the Session mounts, and kept if its own card
		// (a reused call id) mounts first (DRAFT-3): from here on either may be shown
		if _, ok := cm.cards[k]; !ok && k.session == sess && !creates(k.callID) && !live(k) {
			cm.maybePruned[k] = true
		}
	}
}

func replyQueuedIn(in wire.InboxView, call string) bool {
	for _, l := range [2][]session.Message{in.NextStep, in.NextTurn} {
		for _, m := range l {
			if m.Source.Kind == session.SourceUserQuestionReply && m.Source.CallID == call {
				return true
			}
		}
	}
	return false
}

func (c *Checker) clientEffect(i int, r *trace.Record, e wire.ClientEffect) {
	cm := c.client(r.Actor)
	switch x := e.(type) {
	case wire.SendResult:
		cm.resultGen[x.RPCID] = x.Gen
		ev := cm.events[x.EventID]
		c.noManufacturedResult(i, cm, x, ev)
		if ev == nil {
			return
		}
		k := fgKey{ev.session, ev.call}
		if x.Outcome.Kind == wire.OutcomeResult && cm.submit && ev.question && ev.call != "" {
			cm.submits.submitted(i, k, cm.views[k.session], x.Outcome.Value)
		}
		if ev.timed {
			st := cm.claimFor(k)
			c.claimDisciplineOutcome(i, cm, x, ev, st)
			switch x.Outcome.Kind {
			case wire.OutcomeResult, wire.OutcomeRejected:
				if fh, ok := c.recs[cm.cur].Payload.(wire.FromHost); !ok || !isCancelOf(fh.Frame, x.EventID) {
					cm.results[x.RPCID] = &clientResult{key: k, eventID: x.EventID, rec: i}
				}
			case wire.OutcomeNext:
				if x.EventID == cm.expectNext {
					cm.expectNext = ""
				}
			}
			c.clientExpiryOutcome(i, r, cm, x, ev, st)
		} else if x.Outcome.Kind == wire.OutcomeRejected && x.Outcome.Error.HasCode(wire.AskTimedOut) {
			// an untimed request has no countdown: a client that times it out armed one
			// of its own (CD-1: only a claimed timed request counts down)
			c.fail(invClientExpiry, i, cm.name+": countdown expiry for "+ev.call+", an untimed request (no claim frame, no countdown)", ev.rec)
		}
		ev.done = true
	case wire.OpenStream:
		if x.Endpoint == wire.EndpointAttachWait {
			s, call := waitArgs(x.Args)
			st := &clientStream{id: x.StreamID, session: s, call: call, gen: x.Gen, openRec: i}
			if fh, ok := c.recs[cm.cur].Payload.(wire.FromHost); ok {
				if w, ok := fh.Frame.(wire.Waterfall); ok {
					st.ev = cm.events[w.EventID] // the listener of that request opens its claim (CLAIM-1)
				}
			}
			cm.streams[x.StreamID] = st
			cm.byCall[fgKey{s, call}] = append(cm.byCall[fgKey{s, call}], st)
		}
	case wire.CancelStream:
		st := cm.streams[x.StreamID]
		if st == nil || st.ended || st.cancelled {
			return
		}
		st.cancelled = true
		cm.cancelled = append(cm.cancelled, st)
		c.hideKeepsClaim(i, cm, st)
		c.claimKeptUntilAcknowledged(i, cm, st)
	case wire.SendCall:
		if x.Endpoint == wire.EndpointAnswer {
			if a := parseAnswerArgs(x.Args); a.callID != "" {
				c.clientResubmit(i, cm, fgKey{a.agent, a.callID}, a.raw)
				cm.submits.answerSent(i, x.RPCID, fgKey{a.agent, a.callID})
			}
			c.cardChannel(i, cm, x)
			c.noManufacturedAnswer(i, cm)
		}
	}
}

func isCancelOf(f wire.Frame, ev string) bool {
	c, ok := f.(wire.Cancel)
	return ok && c.EventID == ev
}

// liveTimedEvent is the id of the page's live timed request for the call whose claim
// stream st is ("" none): the latest one the page took before it opened st (the request
// that opened it), else the latest one.
func (cm *clientModel) liveTimedEvent(st *clientStream) string {
	var best *clientEvent
	better := func(ev *clientEvent) bool {
		if best == nil {
			return true
		}
		if in, bin := ev.rec <= st.openRec, best.rec <= st.openRec; in != bin {
			return in
		}
		return ev.rec > best.rec || ev.rec == best.rec && ev.id < best.id
	}
	for _, ev := range cm.events {
		if ev.timed && !ev.done && ev.session == st.session && ev.call == st.call && better(ev) {
			best = ev
		}
	}
	if best == nil {
		return ""
	}
	return best.id
}

// eventsByRec lists the page's requests in the order it took them (a check that reports
// the first offender must not depend on map order).
func (cm *clientModel) eventsByRec() []*clientEvent {
	out := make([]*clientEvent, 0, len(cm.events))
	for _, ev := range cm.events {
		out = append(out, ev)
	}
	slices.SortFunc(out, func(a, b *clientEvent) int {
		if a.rec != b.rec {
			return cmp.Compare(a.rec, b.rec)
		}
		return strings.Compare(a.id, b.id)
	})
	return out
}

// viewsBySession lists the Sessions the page received views of, sorted.
func (cm *clientModel) viewsBySession() []string {
	out := make([]string, 0, len(cm.views))
	for id := range cm.views {
		out = append(out, id)
	}
	slices.Sort(out)
	return out
}
