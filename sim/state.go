package sim

import "github.com/twosettle/twosettle/engine/wire"

// State snapshots are copied so that a host or client that reuses its storage (a log
// truncated by a crash and appended again) cannot change a probe or the final state.
// Events and messages are immutable values; only the slices are copied.

// clone copies a slice, keeping nil for an empty one (no allocation).
func clone[T any](s []T) []T {
	if len(s) == 0 {
		return nil
	}
	return append([]T(nil), s...)
}

func copyHostState(h wire.HostState) wire.HostState {
	out := wire.HostState{
		Waits:        clone(h.Waits),
		Reservations: clone(h.Reservations),
		Clients:      clone(h.Clients),
	}
	if len(h.Sessions) > 0 {
		out.Sessions = make([]wire.SessionState, len(h.Sessions))
		for i, s := range h.Sessions {
			s.Log = clone(s.Log)
			s.Questions = copyView(s.Questions)
			s.Inbox = wire.InboxView{NextTurn: clone(s.Inbox.NextTurn), NextStep: clone(s.Inbox.NextStep)}
			out.Sessions[i] = s
		}
	}
	if len(h.Pending) > 0 {
		out.Pending = make([]wire.PendingEvent, len(h.Pending))
		for i, p := range h.Pending {
			p.Deliveries = clone(p.Deliveries)
			out.Pending[i] = p
		}
	}
	return out
}

func copyView(v wire.QuestionsView) wire.QuestionsView {
	out := wire.QuestionsView{Active: clone(v.Active)}
	if len(v.Settled) > 0 {
		out.Settled = make([]wire.SettledRow, len(v.Settled))
		for i, s := range v.Settled {
			s.Answers = clone(s.Answers)
			out.Settled[i] = s
		}
	}
	return out
}

func copyClientState(c wire.ClientState) wire.ClientState {
	out := c
	out.Cards = nil
	if len(c.Cards) > 0 {
		out.Cards = make([]wire.CardState, len(c.Cards))
		for i, card := range c.Cards {
			if card.Countdown != nil {
				cd := *card.Countdown
				card.Countdown = &cd
			}
			card.Questions = clone(card.Questions)
			out.Cards[i] = card
		}
	}
	out.Drafts = clone(c.Drafts)
	out.Conversation = clone(c.Conversation)
	out.Rows = nil
	if len(c.Rows) > 0 {
		out.Rows = make([]wire.RowState, len(c.Rows))
		for i, r := range c.Rows {
			r.Transcript = clone(r.Transcript)
			out.Rows[i] = r
		}
	}
	out.Nodes = nil
	if len(c.Nodes) > 0 {
		out.Nodes = make([]wire.NodeState, len(c.Nodes))
		for i, n := range c.Nodes {
			n.Lines = clone(n.Lines)
			n.Questions = clone(n.Questions)
			out.Nodes[i] = n
		}
	}
	return out
}
