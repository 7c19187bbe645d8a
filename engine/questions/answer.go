package questions

import (
	"encoding/json"

	"github.com/twosettle/twosettle/engine/jsonx"
	"github.com/twosettle/twosettle/engine/mutant"
	"github.com/twosettle/twosettle/engine/session"
	"github.com/twosettle/twosettle/engine/wire"
)

// ReplyKind and ReplyOutcome are the fixed kind of a late reply's JSON text and the outcome
// of its source (LATE-4).
const (
	ReplyKind    = "answer_to_pending_question"
	ReplyOutcome = "answered"
)

// Answer is the late-answer path answer(agent, callId, answer) (docs/PEER.md §4.5). In order:
//   - the liveness check (CALLER-4);
//   - false unless the agent's Session has an active continued row for callID: unknown,
//     open, settled and legacy calls are not answerable (LATE-1);
//   - REPLY_QUEUED while another reply for the call awaits admission: reserved, or in the
//     inbox's next-step or next-turn list (LATE-2), before the batch is validated;
//   - BAD_ANSWER unless the batch names each question id exactly once (LATE-3); labels
//     are not checked (docs/PEER.md §8.7);
//   - the reply is reserved and steered; a steer failure releases the reservation and is
//     returned (LATE-5); otherwise true (LATE-4).
//
// answer is the batch {"answers":[…]} as received; the reply carries its answers exactly
// as received, compacted. answer() resumes nothing (LATE-8): the caller resolved the
// Session to its live root first.
func (s *Service) Answer(now int64, a Agent, callID string, answer json.RawMessage) (bool, *wire.Error) {
	s.Advance(now)
	if e := s.checkLive(a); e != nil {
		return false, e
	}
	row, ok := s.rt.Questions(a).Row(callID)
	// MUTANT late-answer-open-call: an open call is answerable too.
	openToo := s.mutants.Has(mutant.LateAnswerOpenCall) && ok && row.State == wire.StateOpen
	if !ok || row.State != wire.StateContinued && !openToo {
		return false, nil
	}
	sid := a.ID()
	// MUTANT no-reservation: no check for a reply already awaiting admission.
	if !s.mutants.Has(mutant.NoReservation) && (s.reservation(sid, callID) != nil || s.inboxHasReply(a, callID)) {
		return false, errReplyQueued(callID)
	}
	answers, ok := checkBatch(answer, row.Questions, s.mutants.Has(mutant.LaxAnswerValidation))
	if !ok {
		return false, errBadAnswer(callID, len(row.Questions))
	}
	m := session.Message{
		ID:     s.rt.MessageID(a),
		Source: session.Source{Kind: session.SourceUserQuestionReply, CallID: callID, Outcome: ReplyOutcome},
		Text:   string(replyText(callID, row.Questions, answers)),
	}
	s.reserve(sid, callID, m.ID)
	if err := s.rt.Steer(a, m); err != nil {
		// MUTANT inbox-write-fault-keeps-reservation: the failed reply keeps its reservation.
		if !s.mutants.Has(mutant.WriteFaultKeepsReservation) {
			s.releaseIf(sid, callID, m.ID)
		}
		return false, errorOf(err)
	}
	return true, nil
}

func (s *Service) inboxHasReply(a Agent, callID string) bool {
	nextTurn, nextStep := s.rt.Inbox(a)
	for _, list := range [][]session.Message{nextTurn, nextStep} {
		for _, m := range list {
			if m.Source.Kind == session.SourceUserQuestionReply && m.Source.CallID == callID {
				return true
			}
		}
	}
	return false
}

// checkBatch checks that the batch's answers name each question id exactly once and
// returns the answers array as received. Anything that is not an object with an answers
// array fails the same way. lax is the lax-answer-validation mutant.
func checkBatch(raw json.RawMessage, qs []wire.Question, lax bool) (jsonx.Value, bool) {
	v, ok := jsonx.Parse(string(raw))
	if !ok {
		return jsonx.Value{}, false
	}
	as, ok := get(v, "answers")
	if lax && ok && as.Kind() == jsonx.Array {
		return as, laxBatch(as, qs)
	}
	if !ok || as.Kind() != jsonx.Array || as.Len() != len(qs) {
		return jsonx.Value{}, false
	}
	seen := make(map[string]bool, as.Len())
	for _, item := range as.Items() {
		id, ok := get(item, "id")
		if !ok || id.Kind() != jsonx.String || seen[id.Text()] {
			return jsonx.Value{}, false
		}
		seen[id.Text()] = true
	}
	for _, q := range qs {
		if !seen[q.ID] {
			return jsonx.Value{}, false
		}
	}
	return as, true
}

// laxBatch is MUTANT lax-answer-validation: every id named must be a question of the
// call, once; a question the batch leaves out goes unnoticed.
func laxBatch(as jsonx.Value, qs []wire.Question) bool {
	seen := map[string]bool{}
	for _, item := range as.Items() {
		id, ok := get(item, "id")
		if !ok || id.Kind() != jsonx.String || seen[id.Text()] {
			return false
		}
		seen[id.Text()] = true
		known := false
		for _, q := range qs {
			known = known || q.ID == id.Text()
		}
		if !known {
			return false
		}
	}
	return true
}

// replyText is the late reply's text: compact JSON with keys kind, tool, callId,
// questions, answers (docs/PEER.md §1.3).
func replyText(callID string, qs []wire.Question, answers jsonx.Value) []byte {
	b := make([]byte, 0, 256)
	b = append(b, `{"kind":"`+ReplyKind+`","tool":"`+ToolName+`","callId":`...)
	b = wire.AppendJSONString(b, callID)
	b = append(b, `,"questions":`...)
	b = wire.AppendQuestionsJSON(b, qs)
	b = append(b, `,"answers":`...)
	b = appendJS(b, answers)
	return append(b, '}')
}
