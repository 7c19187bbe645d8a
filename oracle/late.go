package oracle

import (
	"encoding/json"
	"strings"

	"github.com/twosettle/twosettle/engine/session"
	"github.com/twosettle/twosettle/engine/wire"
)

// acceptance is an answer() that returned true.
type acceptance struct {
	s             *sessModel
	msgID, callID string
	idx           int // log index of the queuing splice
	insertRec     int
	rec           int
	time          int64
	lost          bool
	epoch         int // restarts before it was accepted
}

func jsonUnmarshalBatch(raw []byte, out *[]wire.AnswerItem) bool {
	return json.Unmarshal(raw, out) == nil
}

// replyQueued runs when a user-question-reply message is queued in the inbox.
// A reply the model steers (wire.Send with a recorded source: input from another producer
// or an older host, NODE-1) did not come from answer(), which is all that LATE-1, LATE-2
// and TOOL-1's untracked legacy calls bind: the engine records such input as it is, for any
// call at any time, so none of these checks applies to it. It still awaits admission (the
// caller keeps it among the Session's replies), so answer() must refuse a second reply for
// its call with REPLY_QUEUED.
func (c *Checker) replyQueued(s *sessModel, m session.Message, idx, rec int) {
	if _, steered := c.ap.cmd.(wire.Send); steered {
		return
	}
	call := m.Source.CallID
	name := s.id + "/" + call
	if r := s.awaiting(call); r != nil {
		c.fail(invOneReplyAwaiting, rec, name+": reply "+m.ID+" queued while reply "+r.msgID+" still awaits admission", r.insertRec)
	}
	c.legacyUntrackedQueued(rec, s, call)
	if v, ok := c.viewAt(s, len(s.log)); ok {
		if row, ok := v.Row(call); !ok || row.State != wire.StateContinued {
			state := "not active"
			if ok {
				state = row.State
			} else if _, settled := v.SettledFor(call); settled {
				state = "settled"
			}
			w := -1
			if ci := s.calls2[call]; ci != nil {
				w = ci.rec
			}
			c.fail(invLateOnlyContinued, rec, name+": a late reply was queued while the call is "+state+" in the reference projection", w)
		}
	}
	c.ap.replyInserts = append(c.ap.replyInserts, replyInsert{session: s.id, callID: call, msgID: m.ID, idx: idx, rec: rec, msg: m})
	if d, ok := s.log[idx].Data.(session.InboxSpliced); ok && d.Target != session.NextStep {
		c.fail(invAcceptSteers, rec, name+": the reply was queued in "+d.Target+", not steered into next-step")
	}
}

func (c *Checker) replyEffect(i int, x wire.Reply) {
	k := rpcKey{x.Client, x.RPCID}
	rc := c.rpcs[k]
	if rc == nil {
		return
	}
	delete(c.rpcs, k)
	if rc.endpoint != wire.EndpointAnswer {
		return
	}
	a := parseAnswerArgs(rc.args)
	switch {
	case !x.Envelope.OK:
		code := domainCode(x.Envelope.Error)
		if code == "" {
			code = "?" // a failure that is no domain error (a steering failure propagates, LATE-5)
		}
		c.answerOutcome(i, rc.rec, a.agent, a, false, code, true)
	case string(x.Envelope.Value) == "true":
		c.answerOutcome(i, rc.rec, a.agent, a, true, "", true)
	case string(x.Envelope.Value) == "false":
		c.answerOutcome(i, rc.rec, a.agent, a, false, "", true)
	}
}

// answerOutcome checks one answer() outcome: accepted, false (code ""), or a failure code
// ("?" when the failure's code is not known).
func (c *Checker) answerOutcome(i, callRec int, sessionID string, a answerArgs, accepted bool, code string, rpc bool) {
	s := c.sessions[sessionID]
	if s == nil {
		return
	}
	name := s.id + "/" + a.callID
	var ins []replyInsert
	for _, ri := range c.ap.replyInserts {
		if ri.session == s.id && ri.callID == a.callID {
			ins = append(ins, ri)
		}
	}
	ids := []string(nil)
	if ci := s.calls2[a.callID]; ci != nil {
		ids = ci.ids
	}
	if !accepted {
		if len(ins) > 0 {
			c.fail(invAcceptSteers, i, name+": answer() did not return true but queued reply "+ins[0].msgID, ins[0].rec, callRec)
		}
		v, haveView := c.viewAt(s, len(s.log))
		row, active := v.Row(a.callID)
		continued := haveView && active && row.State == wire.StateContinued
		aw := s.awaiting(a.callID)
		switch code {
		case "":
			if continued && aw == nil {
				c.fail(invLateAnswerable, i, name+": answer() returned false for a continued call with no reply awaiting", callRec)
			}
		case wire.ReplyQueued:
			if aw == nil {
				c.fail(invLateAnswerable, i, name+": REPLY_QUEUED but no reply awaits admission", callRec)
			}
		case wire.BadAnswer:
			switch {
			case aw != nil:
				c.fail(invAnswerValidated, i, name+": BAD_ANSWER while reply "+aw.msgID+" awaits admission: REPLY_QUEUED comes first", aw.insertRec, callRec)
			case haveView && !continued:
				c.fail(invAnswerValidated, i, name+": BAD_ANSWER for a call that is not continued: answer() must return false first", callRec)
			case a.batchOK && ids != nil && batchNamesEach(a.batch, ids):
				c.fail(invAnswerValidated, i, name+": BAD_ANSWER for a batch that names each question exactly once", callRec)
			}
		}
		return
	}
	if len(ins) != 1 {
		c.fail(invAcceptSteers, i, name+": answer() returned true but queued "+itoa(len(ins))+" replies", callRec)
		return
	}
	ri := ins[0]
	if msg := checkReplyMessage(ri.msg, a); msg != "" {
		c.fail(invAcceptSteers, i, name+": "+msg, ri.rec)
	}
	if rpc && ri.idx >= s.persisted {
		c.fail(invAckAfterPersist, i, name+": answer() reported true before reply "+ri.msgID+" (#"+itoa(ri.idx)+") was persisted (durable through "+
			itoa(s.persisted)+")", ri.rec, callRec)
	}
	if !a.batchOK || (ids != nil && !batchNamesEach(a.batch, ids)) {
		c.fail(invAnswerValidated, i, name+": answer() accepted a batch that does not name each of "+strings.Join(ids, ",")+" exactly once", callRec)
	}
	c.legacyUntrackedAccepted(i, s, a.callID, callRec)
	c.accepted = append(c.accepted, &acceptance{s: s, msgID: ri.msgID, callID: a.callID, idx: ri.idx, insertRec: ri.rec, rec: i, time: c.recs[i].Time, epoch: c.restarts})
}

// checkReplyMessage checks the queued reply's source and text (LATE-4).
func checkReplyMessage(m session.Message, a answerArgs) string {
	if m.Source.Kind != session.SourceUserQuestionReply || m.Source.CallID != a.callID || m.Source.Outcome != "answered" {
		return "the reply's source is " + m.Source.String() + ", want user-question-reply(call=" + a.callID + ",outcome=answered)"
	}
	if m.NoText {
		return "the reply has no text"
	}
	prefix := `{"kind":"answer_to_pending_question","tool":"ask_user_question","callId":` + wire.JSONString(a.callID) + `,"questions":`
	if !strings.HasPrefix(m.Text, prefix) {
		return "the reply text does not start " + prefix + ": " + clip(m.Text)
	}
	var v struct {
		Questions json.RawMessage   `json:"questions"`
		Answers   []wire.AnswerItem `json:"answers"`
	}
	if json.Unmarshal([]byte(m.Text), &v) != nil || v.Questions == nil {
		return "the reply text is not {kind,tool,callId,questions,answers}: " + clip(m.Text)
	}
	if a.batchOK && !batchEqual(v.Answers, a.batch) {
		return "the reply carries " + wire.AnswersString(v.Answers) + ", not the caller's batch " + wire.AnswersString(a.batch)
	}
	return ""
}
