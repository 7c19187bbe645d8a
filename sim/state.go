package sim

import (
	"github.com/twosettle/twosettle/engine/session"
	"github.com/twosettle/twosettle/engine/wire"
)

// State snapshots are copied so that a host or client that reuses its storage (a log
// truncated by a crash and appended again) cannot change a probe or the final state.
// Events and messages are immutable values; only the slices are copied.

func copyHostState(h wire.HostState) wire.HostState {
	out := wire.HostState{
		Sessions:     make([]wire.SessionState, len(h.Sessions)),
		Waits:        append([]wire.WaitState(nil), h.Waits...),
		Reservations: append([]wire.ReservationState(nil), h.Reservations...),
		Clients:      append([]wire.ConnState(nil), h.Clients...),
		Pending:      make([]wire.PendingEvent, len(h.Pending)),
	}
	for i, s := range h.Sessions {
		s.Log = append([]session.Event(nil), s.Log...)
		s.Questions = copyView(s.Questions)
		s.Inbox = wire.InboxView{
			NextTurn: append([]session.Message(nil), s.Inbox.NextTurn...),
			NextStep: append([]session.Message(nil), s.Inbox.NextStep...),
		}
		out.Sessions[i] = s
	}
	for i, p := range h.Pending {
		p.Deliveries = append([]string(nil), p.Deliveries...)
		out.Pending[i] = p
	}
	return out
}

func copyView(v wire.QuestionsView) wire.QuestionsView {
	out := wire.QuestionsView{
		Active:  append([]wire.PendingRow(nil), v.Active...),
		Settled: make([]wire.SettledRow, len(v.Settled)),
	}
	for i, s := range v.Settled {
		s.Answers = append([]wire.AnswerItem(nil), s.Answers...)
		out.Settled[i] = s
	}
	return out
}

func copyClientState(c wire.ClientState) wire.ClientState {
	out := c
	out.Cards = make([]wire.CardState, len(c.Cards))
	for i, card := range c.Cards {
		if card.Countdown != nil {
			cd := *card.Countdown
			card.Countdown = &cd
		}
		out.Cards[i] = card
	}
	out.Drafts = append([]wire.DraftState(nil), c.Drafts...)
	out.Rows = make([]wire.RowState, len(c.Rows))
	for i, r := range c.Rows {
		r.Transcript = append([]string(nil), r.Transcript...)
		out.Rows[i] = r
	}
	out.Nodes = make([]wire.NodeState, len(c.Nodes))
	for i, n := range c.Nodes {
		n.Lines = append([]string(nil), n.Lines...)
		out.Nodes[i] = n
	}
	return out
}
