package wire

import "strconv"

// The JSON of the two Session views that frames and host states carry, in the shape of
// their json tags, through the codec's strict reader:
//
//	questions: {"active":[{"callId":…,"questions":[<question>…],"state":"open"}],"settled":[{"callId":…,"answers":[<answer item>…]}]}
//	inbox:     {"next-turn":[<message>…],"next-step":[<message>…]}
//
// A question and an answer item are in the peer's shape (Question.AppendJSON,
// AnswerItem.AppendJSON); a message is the event form's ({"id","source","text","noText"?}).

func appendQuestionsView(b []byte, v QuestionsView) []byte {
	b = append(b, `{"active":[`...)
	for i, r := range v.Active {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"callId":`...)
		b = AppendJSONString(b, r.CallID)
		b = append(b, `,"questions":`...)
		b = AppendQuestionsJSON(b, r.Questions)
		b = append(b, `,"state":`...)
		b = AppendJSONString(b, r.State)
		b = append(b, '}')
	}
	b = append(b, `],"settled":[`...)
	for i, r := range v.Settled {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"callId":`...)
		b = AppendJSONString(b, r.CallID)
		b = append(b, `,"answers":`...)
		b = AppendAnswersJSON(b, r.Answers)
		b = append(b, '}')
	}
	return append(b, "]}"...)
}

func appendInboxView(b []byte, v InboxView) []byte {
	b = append(b, `{"next-turn":`...)
	b = appendMessages(b, v.NextTurn)
	b = append(b, `,"next-step":`...)
	b = appendMessages(b, v.NextStep)
	return append(b, '}')
}

func decodeQuestionsView(o *object) QuestionsView {
	o.what = "questions view"
	var v QuestionsView
	if items := o.list("active"); len(items) > 0 {
		v.Active = make([]PendingRow, len(items))
		for i, it := range items {
			r := o.itemObj("active", i, it)
			if r == nil {
				break
			}
			r.what = "active row"
			v.Active[i].CallID = r.str("callId")
			v.Active[i].Questions = decodeQuestions(r, "questions")
			v.Active[i].State = r.str("state")
			if r.err == nil && v.Active[i].State != StateOpen && v.Active[i].State != StateContinued {
				r.fail("state", "unknown row state "+strconv.Quote(v.Active[i].State))
			}
			if !o.close(r) {
				break
			}
		}
	}
	if items := o.list("settled"); len(items) > 0 {
		v.Settled = make([]SettledRow, len(items))
		for i, it := range items {
			r := o.itemObj("settled", i, it)
			if r == nil {
				break
			}
			r.what = "settled row"
			v.Settled[i].CallID = r.str("callId")
			v.Settled[i].Answers = decodeAnswers(r, "answers")
			if !o.close(r) {
				break
			}
		}
	}
	return v
}

func decodeInboxView(o *object) InboxView {
	o.what = "inbox view"
	return InboxView{NextTurn: decodeInboxEntries(o, "next-turn"), NextStep: decodeInboxEntries(o, "next-step")}
}

// decodeQuestions reads the optional array of questions key of o.
func decodeQuestions(o *object, key string) []Question {
	items := o.list(key)
	if len(items) == 0 {
		return nil
	}
	out := make([]Question, len(items))
	for i, it := range items {
		q := o.itemObj(key, i, it)
		if q == nil {
			return nil
		}
		out[i] = decodeQuestion(q)
		if !o.close(q) {
			return nil
		}
	}
	return out
}

func optStrPtr(o *object, key string) *string {
	if s, ok := o.optStr(key); ok {
		return &s
	}
	return nil
}

func decodeQuestion(o *object) Question {
	o.what = "question"
	q := Question{ID: o.str("id"), Question: o.str("question")}
	q.Detail = optStrPtr(o, "detail")
	q.Header = optStrPtr(o, "header")
	if o.has("options") {
		items := o.list("options")
		q.Options = make([]Option, len(items)) // present: [] stays empty, not absent
		for i, it := range items {
			op := o.itemObj("options", i, it)
			if op == nil {
				break
			}
			op.what = "option"
			q.Options[i].Label = op.str("label")
			q.Options[i].Description = optStrPtr(op, "description")
			if !o.close(op) {
				break
			}
		}
	}
	if m, ok := o.optBool("multiSelect"); ok {
		q.MultiSelect = &m
	}
	if io, _ := o.optObj("intent"); io != nil {
		io.what = "intent"
		q.Intent = &Intent{Kind: io.str("kind"), Approve: io.str("approve")}
		q.Intent.CallID, _ = io.optStr("callId")
		o.close(io)
	}
	return q
}

// decodeAnswers reads the optional array of answer items key of o.
func decodeAnswers(o *object, key string) []AnswerItem {
	items := o.list(key)
	if len(items) == 0 {
		return nil
	}
	out := make([]AnswerItem, len(items))
	for i, it := range items {
		a := o.itemObj(key, i, it)
		if a == nil {
			return nil
		}
		a.what = "answer item"
		out[i].ID = a.str("id")
		out[i].Selected = a.strings("selected")
		out[i].Custom = optStrPtr(a, "custom")
		if !o.close(a) {
			return nil
		}
	}
	return out
}
