package wire

import (
	"encoding/json"
	"slices"
	"strings"
)

// Option is one answer option. Label is both the UI text and the value sent back.
type Option struct {
	Label       string  `json:"label"`
	Description *string `json:"description,omitempty"`
}

// Intent changes a question's presentation only; plan-review is the one kind.
type Intent struct {
	Kind    string `json:"kind"`
	Approve string `json:"approve"`
	CallID  string `json:"callId,omitempty"`
}

// IntentPlanReview is the only intent kind.
const IntentPlanReview = "plan-review"

// Question is one item of a batch, in service vocabulary (docs/PEER.md §1.1). Absent optional
// fields are nil; an empty options list is present and empty (non-nil, zero length), as
// JSON.parse keeps "options":[] and the peer copies it (docs/PEER.md §11.3).
type Question struct {
	ID          string   `json:"id"`
	Question    string   `json:"question"`
	Detail      *string  `json:"detail,omitempty"`
	Header      *string  `json:"header,omitempty"`
	Options     []Option `json:"options,omitempty"`
	MultiSelect *bool    `json:"multiSelect,omitempty"`
	Intent      *Intent  `json:"intent,omitempty"`
}

// AppendJSON appends the question as compact JSON with keys in the peer's order:
// id, question, detail?, header?, options?, multiSelect?, intent?.
func (q Question) AppendJSON(b []byte) []byte {
	b = append(b, '{')
	b = appendKey(b, true, "id")
	b = AppendJSONString(b, q.ID)
	b = appendKey(b, false, "question")
	b = AppendJSONString(b, q.Question)
	if q.Detail != nil {
		b = appendKey(b, false, "detail")
		b = AppendJSONString(b, *q.Detail)
	}
	if q.Header != nil {
		b = appendKey(b, false, "header")
		b = AppendJSONString(b, *q.Header)
	}
	if q.Options != nil {
		b = appendKey(b, false, "options")
		b = append(b, '[')
		for i, o := range q.Options {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, '{')
			b = appendKey(b, true, "label")
			b = AppendJSONString(b, o.Label)
			if o.Description != nil {
				b = appendKey(b, false, "description")
				b = AppendJSONString(b, *o.Description)
			}
			b = append(b, '}')
		}
		b = append(b, ']')
	}
	if q.MultiSelect != nil {
		b = appendKey(b, false, "multiSelect")
		if *q.MultiSelect {
			b = append(b, "true"...)
		} else {
			b = append(b, "false"...)
		}
	}
	if q.Intent != nil {
		b = appendKey(b, false, "intent")
		b = append(b, '{')
		b = appendKey(b, true, "kind")
		b = AppendJSONString(b, q.Intent.Kind)
		b = appendKey(b, false, "approve")
		b = AppendJSONString(b, q.Intent.Approve)
		if q.Intent.CallID != "" {
			b = appendKey(b, false, "callId")
			b = AppendJSONString(b, q.Intent.CallID)
		}
		b = append(b, '}')
	}
	return append(b, '}')
}

// MarshalJSON implements json.Marshaler with the peer's key order.
func (q Question) MarshalJSON() ([]byte, error) { return q.AppendJSON(nil), nil }

// IsMulti reports whether the question is multi-select.
func (q Question) IsMulti() bool { return q.MultiSelect != nil && *q.MultiSelect }

// String is the canonical text of a question: id "question" [label|label] (multi).
func (q Question) String() string {
	var b strings.Builder
	b.WriteString(q.ID)
	b.WriteByte(' ')
	b.WriteString(JSONString(q.Question))
	if len(q.Options) > 0 {
		b.WriteString(" [")
		for i, o := range q.Options {
			if i > 0 {
				b.WriteByte('|')
			}
			b.WriteString(TextPart(o.Label))
		}
		b.WriteByte(']')
	}
	if q.IsMulti() {
		b.WriteString(" multi")
	}
	if q.Intent != nil {
		b.WriteString(" intent=" + q.Intent.Kind + ":" + q.Intent.Approve)
	}
	return b.String()
}

// AppendQuestionsJSON appends a JSON array of questions.
func AppendQuestionsJSON(b []byte, qs []Question) []byte {
	b = append(b, '[')
	for i, q := range qs {
		if i > 0 {
			b = append(b, ',')
		}
		b = q.AppendJSON(b)
	}
	return append(b, ']')
}

// AnswerItem is the answer to one question: the selected labels and an optional custom
// text. A skipped question has no selection and no custom.
type AnswerItem struct {
	ID       string   `json:"id"`
	Selected []string `json:"selected"`
	Custom   *string  `json:"custom,omitempty"`
}

// AppendJSON appends {"id":…,"selected":[…],"custom":…} (custom left out when absent).
func (a AnswerItem) AppendJSON(b []byte) []byte {
	b = append(b, '{')
	b = appendKey(b, true, "id")
	b = AppendJSONString(b, a.ID)
	b = appendKey(b, false, "selected")
	b = appendStrings(b, a.Selected)
	if a.Custom != nil {
		b = appendKey(b, false, "custom")
		b = AppendJSONString(b, *a.Custom)
	}
	return append(b, '}')
}

// MarshalJSON implements json.Marshaler (selected is always an array, never null).
func (a AnswerItem) MarshalJSON() ([]byte, error) { return a.AppendJSON(nil), nil }

// String is the canonical text of an answer item: id=[a,b]+"custom" or id=skipped.
func (a AnswerItem) String() string {
	if len(a.Selected) == 0 && a.Custom == nil {
		return a.ID + "=skipped"
	}
	var b strings.Builder
	b.WriteString(a.ID)
	b.WriteString("=[")
	for i, l := range a.Selected {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(TextPart(l))
	}
	b.WriteByte(']')
	s := b.String()
	if a.Custom != nil {
		s += "+" + JSONString(*a.Custom)
	}
	return s
}

// AppendAnswersJSON appends a JSON array of answer items.
func AppendAnswersJSON(b []byte, as []AnswerItem) []byte {
	b = append(b, '[')
	for i, a := range as {
		if i > 0 {
			b = append(b, ',')
		}
		b = a.AppendJSON(b)
	}
	return append(b, ']')
}

// AnswersString is the canonical text of a batch: "{a=[x] b=skipped}".
func AnswersString(as []AnswerItem) string {
	var b strings.Builder
	b.WriteByte('{')
	for i, a := range as {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(a.String())
	}
	b.WriteByte('}')
	return b.String()
}

// Answer is a whole batch: {answers:[…]}.
type Answer struct {
	Answers []AnswerItem `json:"answers"`
}

// AppendJSON appends {"answers":[…]}, the answer tool result text (TOOL-8).
func (a Answer) AppendJSON(b []byte) []byte {
	n := 16
	for _, it := range a.Answers {
		n += 32 + len(it.ID)
		for _, s := range it.Selected {
			n += 3 + len(s)
		}
		if it.Custom != nil {
			n += 12 + len(*it.Custom)
		}
	}
	b = slices.Grow(b, n) // one allocation for the usual text (no escapes)
	b = append(b, `{"answers":`...)
	b = AppendAnswersJSON(b, a.Answers)
	return append(b, '}')
}

// MarshalJSON implements json.Marshaler.
func (a Answer) MarshalJSON() ([]byte, error) { return a.AppendJSON(nil), nil }

// Wait marks a request as tied to a tool call: timed (a foreground wait that needs a
// client claim) or indefinite (keyed card, no claim).
type Wait struct {
	CallID string `json:"callId"`
	Timed  bool   `json:"timed,omitempty"`
}

// QuestionRequest is the JSON payload of a forwarded user-questions/request waterfall
// (the request without its agent and signal, docs/PEER-RUNTIME.md §1.1).
type QuestionRequest struct {
	Questions []Question `json:"questions"`
	Wait      *Wait      `json:"wait,omitempty"`
}

// AppendJSON appends the request as compact JSON.
func (r QuestionRequest) AppendJSON(b []byte) []byte {
	n := 48
	if r.Wait != nil {
		n += len(r.Wait.CallID)
	}
	for _, q := range r.Questions {
		n += 32 + len(q.ID) + len(q.Question)
		if q.Detail != nil {
			n += 12 + len(*q.Detail)
		}
		if q.Header != nil {
			n += 12 + len(*q.Header)
		}
		for _, o := range q.Options {
			n += 12 + len(o.Label)
			if o.Description != nil {
				n += 16 + len(*o.Description)
			}
		}
		n += 20
		if q.Intent != nil {
			n += 40 + len(q.Intent.Kind) + len(q.Intent.Approve) + len(q.Intent.CallID)
		}
	}
	b = slices.Grow(b, n) // one allocation for the usual text (no escapes)
	b = append(b, `{"questions":`...)
	b = AppendQuestionsJSON(b, r.Questions)
	if r.Wait != nil {
		b = append(b, `,"wait":{"callId":`...)
		b = AppendJSONString(b, r.Wait.CallID)
		if r.Wait.Timed {
			b = append(b, `,"timed":true`...)
		}
		b = append(b, '}')
	}
	return append(b, '}')
}

// MarshalJSON implements json.Marshaler.
func (r QuestionRequest) MarshalJSON() ([]byte, error) { return r.AppendJSON(nil), nil }

// ParseQuestionRequest decodes a forwarded request payload. It reports an error for a
// payload that is not an object with a questions array of {id, question} items.
func ParseQuestionRequest(raw json.RawMessage) (QuestionRequest, error) {
	var r QuestionRequest
	if err := json.Unmarshal(raw, &r); err != nil {
		return QuestionRequest{}, err
	}
	if r.Questions == nil {
		return QuestionRequest{}, errMissing("questions")
	}
	for _, q := range r.Questions {
		if q.ID == "" || q.Question == "" {
			return QuestionRequest{}, errMissing("questions[].id or questions[].question")
		}
	}
	return r, nil
}

type errMissing string

func (e errMissing) Error() string { return "missing or empty " + string(e) }

// Projection row states.
const (
	StateOpen      = "open"
	StateContinued = "continued"
)

// PendingRow is an active projection row: a question the tool call can still answer
// (open) or that can only be answered as a new user message (continued).
type PendingRow struct {
	CallID    string     `json:"callId"`
	Questions []Question `json:"questions"`
	State     string     `json:"state"`
}

// SettledRow records a settled question and its batch (empty when the reply was unreadable).
type SettledRow struct {
	CallID  string       `json:"callId"`
	Answers []AnswerItem `json:"answers"`
}

// QuestionsView is the wire value of the userQuestions projection: active rows in ask
// order and settled rows in settlement order. A view is immutable once published; a host
// publishes a new view value on every change.
type QuestionsView struct {
	Active  []PendingRow `json:"active"`
	Settled []SettledRow `json:"settled"`
}

// Row returns the active row for callID.
func (v QuestionsView) Row(callID string) (PendingRow, bool) {
	for _, r := range v.Active {
		if r.CallID == callID {
			return r, true
		}
	}
	return PendingRow{}, false
}

// SettledFor returns the settled row for callID.
func (v QuestionsView) SettledFor(callID string) (SettledRow, bool) {
	for _, r := range v.Settled {
		if r.CallID == callID {
			return r, true
		}
	}
	return SettledRow{}, false
}

// String is the canonical text of a view: "active=[c1:open c2:continued] settled=[c0{…}]".
func (v QuestionsView) String() string {
	var b strings.Builder
	b.WriteString("active=[")
	for i, r := range v.Active {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(r.CallID)
		b.WriteByte(':')
		b.WriteString(r.State)
	}
	b.WriteString("] settled=[")
	for i, r := range v.Settled {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(r.CallID)
		b.WriteString(AnswersString(r.Answers))
	}
	b.WriteByte(']')
	return b.String()
}
