package oracle

import (
	"github.com/twosettle/twosettle/engine/session"
	"github.com/twosettle/twosettle/engine/wire"
)

// clientView is what one page last received of one Session: the views its cards, rows
// and nodes are computed from (docs/PEER.md §6.5 and docs/PEER.md §7).
type clientView struct {
	questions wire.QuestionsView
	inbox     wire.InboxView
	logLen    int // events received so far
}

// received records a SessionUpdate the page took.
func (cm *clientModel) received(f wire.SessionUpdate) {
	v := cm.views[f.Session]
	if v == nil {
		v = &clientView{}
		cm.views[f.Session] = v
	}
	v.questions, v.inbox = f.Questions, f.Inbox
	if f.Reset {
		v.logLen = len(f.Events)
	} else if n := f.From + len(f.Events); n > v.logLen {
		v.logLen = n
	}
}

// queuedFor reports whether the page's last inbox view of its Session holds a late
// reply for call (a message whose source is user-question-reply for that call).
func (v *clientView) queuedFor(call string) bool {
	for _, l := range [2][]session.Message{v.inbox.NextStep, v.inbox.NextTurn} {
		for _, m := range l {
			if m.Source.Kind == session.SourceUserQuestionReply && m.Source.CallID != "" && m.Source.CallID == call {
				return true
			}
		}
	}
	return false
}

// liveRequest reports whether the page holds a live forwarded question request for the
// call (its card stays through the claim's first frame, CARD-2).
func (cm *clientModel) liveRequest(sess, call string) bool {
	for _, ev := range cm.events {
		if ev.question && !ev.done && ev.session == sess && ev.call == call {
			return true
		}
	}
	return false
}

// waterfallAttached reports whether the call's card holds a live request's waterfall
// channel (CARD-4: when both channels exist the waterfall is used).
func (cm *clientModel) waterfallAttached(sess, call string) bool {
	ev := cm.attached[fgKey{sess, call}]
	return ev != nil && !ev.done && cm.events[ev.id] == ev
}

// snapshot runs the invariants that read what actors show (cards, countdowns, rows,
// nodes, the host's reservations) on a probe's snapshot or the final state: i is the
// probe record, or FinalRecord.
func (c *Checker) snapshot(i int, host *wire.HostState, clients []wire.ClientState) {
	c.reservationsHeld(i, host)
	for k := range clients {
		cs := &clients[k]
		cm := c.clients[cs.Client]
		if cm == nil {
			continue
		}
		if !showsPage(cs) {
			continue // an answerer with no page (a scenario's holding client): nothing shown to judge
		}
		c.clientCards(i, cm, cs)
		c.clientCountdowns(i, cm, cs)
		c.clientRows(i, cm, cs)
		c.clientNodes(i, cm, cs)
		c.clientSweep(i, cm, cs)
		c.clientDrafts(i, cm, cs)
		c.clientUnkeyedKeys(i, cm, cs)
		c.clientSubmit(i, cm, cs)
		c.clientAutofocus(i, cm, cs)
		c.clientConversation(i, cm, cs)
	}
}

// showsPage reports whether a client state shows a page at all: cards, drafts, rows,
// nodes or a conversation. A client port with no UI (an answerer that only holds
// deliveries) shows none of them.
func showsPage(cs *wire.ClientState) bool {
	return len(cs.Cards) > 0 || len(cs.Drafts) > 0 || len(cs.Rows) > 0 || len(cs.Nodes) > 0 || len(cs.Conversation) > 0
}
