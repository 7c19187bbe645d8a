package questions

import (
	"slices"
	"strings"

	"github.com/twosettle/twosettle/engine/mutant"
	"github.com/twosettle/twosettle/engine/session"
	"github.com/twosettle/twosettle/engine/wire"
)

// reservation is the per-Session hold on a call's late reply (LATE-6, docs/PEER.md §4.6): it covers
// the reply from queuing through claim and admission. ClaimedTurn is -1 until the reply is
// claimed into a step.
type reservation struct {
	messageID   string
	claimedTurn int
}

// The reservations live in memory only, keyed by Session id then call id. A host restart
// loses them; the durable inbox check of answer() and the re-reservation on claim of a
// restored reply cover that (docs/PEER.md §8.8).

func (s *Service) reservation(sessionID, callID string) *reservation {
	return s.reserved[sessionID][callID]
}

func (s *Service) reserve(sessionID, callID, messageID string) {
	m := s.reserved[sessionID]
	if m == nil {
		m = map[string]*reservation{}
		s.reserved[sessionID] = m
	}
	m[callID] = &reservation{messageID: messageID, claimedTurn: -1}
}

// releaseIf releases the reservation of callID if it is for messageID.
func (s *Service) releaseIf(sessionID, callID, messageID string) {
	m := s.reserved[sessionID]
	if r := m[callID]; r != nil && r.messageID == messageID {
		delete(m, callID)
		if len(m) == 0 {
			delete(s.reserved, sessionID)
		}
	}
}

// OnClaimed is the agent/inbox/claimed notification: message m was claimed into a step of
// turn. For a late reply: with no reservation for its call, one is created (a reply restored
// from the durable inbox, LATE-6); with a reservation for the same message, it is marked
// claimed in turn; a reservation for another message wins and is left alone.
func (s *Service) OnClaimed(sessionID string, m session.Message, turn int) {
	if m.Source.Kind != session.SourceUserQuestionReply {
		return
	}
	r := s.reservation(sessionID, m.Source.CallID)
	switch {
	case r == nil:
		s.reserve(sessionID, m.Source.CallID, m.ID)
		s.reserved[sessionID][m.Source.CallID].claimedTurn = turn
	case r.messageID == m.ID:
		r.claimedTurn = turn
	}
}

// OnDiscarded is the agent/inbox/discarded notification: a discarded reply releases its
// reservation, so the question can be answered again (LATE-7).
func (s *Service) OnDiscarded(sessionID string, m session.Message) {
	if m.Source.Kind != session.SourceUserQuestionReply {
		return
	}
	if s.mutants.Has(mutant.DiscardKeepsReservation) {
		return // MUTANT discard-keeps-reservation: the discarded reply keeps its reservation
	}
	s.releaseIf(sessionID, m.Source.CallID, m.ID)
}

// OnEvent observes every appended Session event: the admission of a reply as user/message
// releases its reservation, and turn/end releases every reservation claimed in that turn
// (LATE-7). Other events have no effect.
func (s *Service) OnEvent(sessionID string, e session.Event) {
	switch d := e.Data.(type) {
	case session.UserMessage:
		if d.Message.Source.Kind == session.SourceUserQuestionReply {
			s.releaseIf(sessionID, d.Message.Source.CallID, d.Message.ID)
		}
	case session.TurnEnd:
		m := s.reserved[sessionID]
		for callID, r := range m {
			if r.claimedTurn == d.Turn {
				delete(m, callID)
			}
		}
		if m != nil && len(m) == 0 {
			delete(s.reserved, sessionID)
		}
	}
}

// Reservations snapshots the reservations, sorted by Session, then call id.
func (s *Service) Reservations() []wire.ReservationState {
	var out []wire.ReservationState
	for sid, m := range s.reserved {
		for cid, r := range m {
			out = append(out, wire.ReservationState{Session: sid, CallID: cid, MessageID: r.messageID, ClaimedTurn: r.claimedTurn})
		}
	}
	slices.SortFunc(out, func(a, b wire.ReservationState) int { // keys are unique
		if c := strings.Compare(a.Session, b.Session); c != 0 {
			return c
		}
		return strings.Compare(a.CallID, b.CallID)
	})
	return out
}
