package agent

import (
	"fmt"
	"slices"

	"github.com/twosettle/twosettle/engine/session"
	"github.com/twosettle/twosettle/engine/wire"
)

// Send queues msg at the end of target (session.NextTurn: a prompt or follow-up;
// session.NextStep: a steer) in Session id's durable inbox with one splice, and wakes the
// agent (AGENT-1): an idle agent starts a new turn at once, whose first step admits the
// message; a running one picks it up at its next step boundary. While a running turn is
// aborting, the message goes to next-turn and the wake is latched: a new turn starts when
// the aborted one ends. An empty msg.ID gets a minted one; the id used is returned. The
// Session needs a live agent (Resolve first); a message id already pending in either list
// is an error; an armed storage fault fails the write (ErrWriteFailed, nothing queued).
func (rt *Runtime) Send(id string, msg session.Message, target string) (string, error) {
	s, err := rt.live(id)
	if err != nil {
		return "", err
	}
	if target != session.NextTurn && target != session.NextStep {
		return "", wrap(ErrBadTarget, fmt.Sprintf("send to %s target %q", id, target))
	}
	if msg.ID != "" && s.pendingIndex(msg.ID) >= 0 {
		return "", wrap(ErrDuplicateMessage, id+" "+msg.ID)
	}
	if s.takeWriteFault() {
		return "", wrap(ErrWriteFailed, "send to "+id)
	}
	if msg.ID == "" {
		msg.ID = rt.NewMessageID()
		for s.pendingIndex(msg.ID) >= 0 {
			msg.ID = rt.NewMessageID()
		}
	}
	if s.d != nil && s.d.aborted != "" {
		target = session.NextTurn
		if s.d.aborted != AbortDisposed {
			s.d.latched = true
		}
	} else if s.d == nil {
		s.wantTurn = true
	}
	s.queue(target, msg)
	s.pump()
	return msg.ID, nil
}

// Discard removes the pending message messageID from Session id's inbox with a canceled
// splice and a Discarded notification, and reports whether it was there (the peer's
// session.updateQueue remove; a queued late reply discarded this way can be answered
// again, LATE-7). The Session need not be live.
func (rt *Runtime) Discard(id, messageID string) (bool, error) {
	s, err := rt.session(id)
	if err != nil {
		return false, err
	}
	for _, target := range []string{session.NextStep, session.NextTurn} {
		l := s.list(target)
		for i, m := range *l {
			if m.ID == messageID {
				*l = slices.Delete(*l, i, i+1)
				s.append(session.InboxSpliced{Target: target, Start: i, Removed: 1, Outcome: session.OutcomeCanceled})
				s.notifyDiscarded(m)
				return true, nil
			}
		}
	}
	return false, nil
}

// Inbox returns Session id's inbox (copies of both lists).
func (rt *Runtime) Inbox(id string) (wire.InboxView, error) {
	s, err := rt.session(id)
	if err != nil {
		return wire.InboxView{}, err
	}
	return s.inboxView(), nil
}

func (s *sess) inboxView() wire.InboxView {
	return wire.InboxView{NextTurn: slices.Clone(s.nextTurn), NextStep: slices.Clone(s.nextStep)}
}

func (s *sess) list(target string) *[]session.Message {
	if target == session.NextStep {
		return &s.nextStep
	}
	return &s.nextTurn
}

func (s *sess) inboxEmpty() bool { return len(s.nextTurn) == 0 && len(s.nextStep) == 0 }

// pendingIndex reports whether a message id is pending in either list (>= 0).
func (s *sess) pendingIndex(id string) int {
	for _, l := range [][]session.Message{s.nextStep, s.nextTurn} {
		for i, m := range l {
			if m.ID == id {
				return i
			}
		}
	}
	return -1
}

func (s *sess) queue(target string, m session.Message) {
	l := s.list(target)
	start := len(*l)
	*l = append(*l, m)
	s.append(session.InboxSpliced{Target: target, Start: start, Inserted: []session.Message{m}})
	for _, h := range s.rt.hooks {
		if h.Inserted != nil {
			h.Inserted(s.id, target, m)
		}
	}
}

// claim takes the pre-step batch (docs/PEER-RUNTIME.md §4.3): the whole next-step list, and at a
// turn's first step also the first next-turn message, each list with one pure deletion.
// Claimed notifications follow in batch order.
func (s *sess) claim(first bool, turn int) []session.Message {
	var batch []session.Message
	if n := len(s.nextStep); n > 0 {
		batch = append(batch, s.nextStep...)
		clear(s.nextStep)
		s.nextStep = s.nextStep[:0]
		s.append(session.InboxSpliced{Target: session.NextStep, Start: 0, Removed: n})
	}
	if first && len(s.nextTurn) > 0 {
		batch = append(batch, s.nextTurn[0])
		s.nextTurn = slices.Delete(s.nextTurn, 0, 1)
		s.append(session.InboxSpliced{Target: session.NextTurn, Start: 0, Removed: 1})
	}
	for _, m := range batch {
		for _, h := range s.rt.hooks {
			if h.Claimed != nil {
				h.Claimed(s.id, m, turn)
			}
		}
	}
	return batch
}

// clearInbox discards everything: next-step first, then next-turn, one canceled splice per
// non-empty list, then a Discarded notification per message.
func (s *sess) clearInbox() {
	for _, target := range []string{session.NextStep, session.NextTurn} {
		l := s.list(target)
		if len(*l) == 0 {
			continue
		}
		removed := slices.Clone(*l)
		clear(*l)
		*l = (*l)[:0]
		s.append(session.InboxSpliced{Target: target, Start: 0, Removed: len(removed), Outcome: session.OutcomeCanceled})
		for _, m := range removed {
			s.notifyDiscarded(m)
		}
	}
}

func (s *sess) notifyDiscarded(m session.Message) {
	for _, h := range s.rt.hooks {
		if h.Discarded != nil {
			h.Discarded(s.id, m)
		}
	}
}

// FoldInbox restores an inbox from a log: the fold of every agent/inbox/spliced event with
// seq >= from (pass the log's Inherited count: a fork's inherited splices are skipped). A
// splice that does not fit the lists folded so far is an error, as in the peer.
func FoldInbox(events []session.Event, from int) (wire.InboxView, error) {
	var v wire.InboxView
	for _, e := range events {
		d, ok := e.Data.(session.InboxSpliced)
		if !ok || e.Seq < from {
			continue
		}
		var l *[]session.Message
		switch d.Target {
		case session.NextTurn:
			l = &v.NextTurn
		case session.NextStep:
			l = &v.NextStep
		default:
			return wire.InboxView{}, fmt.Errorf("agent: inbox fold: #%d: unknown target %q", e.Seq, d.Target)
		}
		if d.Start < 0 || d.Start > len(*l) || d.Removed < 0 || d.Removed > len(*l)-d.Start {
			return wire.InboxView{}, fmt.Errorf("agent: inbox fold: #%d: splice start=%d removed=%d does not fit %s of %d",
				e.Seq, d.Start, d.Removed, d.Target, len(*l))
		}
		*l = slices.Insert(slices.Delete(*l, d.Start, d.Start+d.Removed), d.Start, d.Inserted...)
	}
	return v, nil
}
