package client

import (
	"slices"

	"github.com/twosettle/twosettle/engine/mutant"
	"github.com/twosettle/twosettle/engine/session"
	"github.com/twosettle/twosettle/engine/wire"
)

// onSessionUpdate takes a Session's appended events (or its whole log on Reset) and its
// current projection and inbox views, then reconciles the cards (docs/PEER.md §6.5).
func (c *Client) onSessionUpdate(f wire.SessionUpdate) {
	if f.Session == "" {
		return
	}
	s := c.sessionOf(f.Session)
	if f.Reset {
		// Shared with the update, never written: the capacity is cut, so appends copy.
		s.log, s.more, s.n = f.Events[:len(f.Events):len(f.Events)], s.more[:0], len(f.Events)
		s.broken = false
		for i, e := range s.log {
			if e.Seq != i {
				s.log, s.n, s.broken = s.log[:i:i], i, true
				break
			}
		}
	} else if !s.broken && s.follows(f.Events) {
		// The usual update: the events right after the known ones, kept as they came.
		if len(f.Events) > 0 {
			if s.more == nil {
				s.more = make([][]session.Event, 0, 16)
			}
			s.more = append(s.more, f.Events[:len(f.Events):len(f.Events)])
			s.n += len(f.Events)
		}
	} else if !s.broken {
		s.log = s.events()
		if n := len(s.log) + len(f.Events); n > cap(s.log) {
			s.log = slices.Grow(s.log, max(n, 2*cap(s.log), 32)-len(s.log))
		}
		for _, e := range f.Events {
			switch {
			case e.Seq < len(s.log):
				// Already known: a repeated update.
			case e.Seq == len(s.log):
				s.log = append(s.log, e)
			default:
				// A gap: the client cannot place these events; it keeps what it has
				// and waits for a reset.
				s.broken = true
			}
			if s.broken {
				break
			}
		}
		s.n = len(s.log)
	}
	s.questions, s.inbox, s.qidx = f.Questions, f.Inbox, nil
	s.reconciled = true
	c.reconcile(s)
}

// queuedReply is the first inbox message (next-step, then next-turn) that is a late
// reply for callID (docs/PEER.md §7.1).
func queuedReply(v wire.InboxView, callID string) (session.Message, bool) {
	for _, list := range [2][]session.Message{v.NextStep, v.NextTurn} {
		for _, m := range list {
			if m.Source.Kind == session.SourceUserQuestionReply && m.Source.CallID != "" && m.Source.CallID == callID {
				return m, true
			}
		}
	}
	return session.Message{}, false
}

// validRow reports whether a projection row is usable; malformed rows are ignored.
func validRow(r wire.PendingRow) bool {
	if r.CallID == "" || len(r.Questions) == 0 || (r.State != wire.StateOpen && r.State != wire.StateContinued) {
		return false
	}
	for _, q := range r.Questions {
		if q.ID == "" || q.Question == "" {
			return false
		}
	}
	return true
}

// reconcile publishes the Session's continued questions and sweeps the cards it no
// longer lists (docs/PEER.md §6.5): a continued row creates its card and attaches the late-answer
// channel; an open row only updates an existing card; a continued row whose reply waits
// in the inbox is left out, so its card is swept (CARD-9). A keyed card is removed only
// when its call is not listed, no forwarded request remains and no waterfall is attached
// (CARD-8, CARD-2).
func (c *Client) reconcile(s *sessionView) {
	if c.page.torn || s.unbound {
		return // an unbound Session is not followed (docs/PEER.md §6.5)
	}
	var buf [8]string
	rows := buf[:0]
	for _, r := range s.questions.Active {
		if !validRow(r) {
			continue
		}
		if r.State == wire.StateContinued {
			if _, queued := queuedReply(s.inbox, r.CallID); queued {
				continue
			}
			// MUTANT queued-reply-any-call: any reply waiting hides every continued card.
			if c.mutants.Has(mutant.QueuedReplyAnyCall) && len(s.inbox.NextStep)+len(s.inbox.NextTurn) > 0 && anyReply(s.inbox) {
				continue
			}
		}
		rows = append(rows, r.CallID)
		switch r.State {
		case wire.StateContinued:
			k := c.cardOf(s.id, r.CallID)
			if k != nil && k.kind != kindReview && !k.rpc && c.mutants.Has(mutant.ContinuedRowNewCard) {
				// MUTANT continued-row-new-card: the row makes its own card, beside the request's.
				k = c.newCard(s.id, slices.Clone(r.Questions), r.CallID, kindQuestion, nil)
				c.publish(k)
			}
			if k == nil || k.kind == kindReview {
				k = c.ensure(s.id, slices.Clone(r.Questions), r.CallID) // the questions are cloned only for a new card
			}
			k.rpc = true
			c.setState(k, wire.StateContinued)
		case wire.StateOpen:
			if k := c.cardOf(s.id, r.CallID); k != nil {
				c.setState(k, wire.StateOpen)
			}
		}
	}
	inRows := func(id string) bool { return slices.Contains(rows, id) }
	if len(rows) > indexAbove {
		// Many open questions: a set, so the sweep is linear in the cards, not their
		// product with the rows.
		set := make(map[string]struct{}, len(rows))
		for _, id := range rows {
			set[id] = struct{}{}
		}
		inRows = func(id string) bool { _, ok := set[id]; return ok }
	}
	swept := func(k *card) bool {
		// MUTANT sweep-by-projection: a held request does not keep its card.
		return k.session == s.id && k.callID != "" && k.kind != kindReview && !inRows(k.callID) &&
			(k.requests == 0 && k.waterfall == nil || c.mutants.Has(mutant.SweepByProjection)) &&
			(!c.mutants.Has(mutant.SweepOnlySettled) || settledIn(s.questions, k.callID)) // MUTANT sweep-only-settled
	}
	if !slices.ContainsFunc(c.page.cards, swept) {
		return // nothing to sweep (removing a card changes nothing the test reads of another)
	}
	// Backwards, so that removing card i leaves the cards before it where they are (the
	// removals touch nothing another card's test reads, so their order does not matter).
	for i := len(c.page.cards) - 1; i >= 0; i-- {
		if k := c.page.cards[i]; swept(k) {
			c.remove(k)
		}
	}
}

// anyReply reports whether any late reply waits in the inbox (MUTANT queued-reply-any-call).
func anyReply(v wire.InboxView) bool {
	for _, list := range [2][]session.Message{v.NextStep, v.NextTurn} {
		for _, m := range list {
			if m.Source.Kind == session.SourceUserQuestionReply {
				return true
			}
		}
	}
	return false
}

// settledIn reports whether the projection lists call settled (MUTANT sweep-only-settled).
func settledIn(v wire.QuestionsView, call string) bool {
	for _, r := range v.Settled {
		if r.CallID == call {
			return true
		}
	}
	return false
}
