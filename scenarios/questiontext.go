package scenarios

import "github.com/twosettle/twosettle/engine/wire"

// QuestionText is a question as card and node expectations write it (questions:): its
// canonical text, id "question" [label|label] multi (wire.Question.String), followed by
// header="…" and detail="…" (JSON strings) when it has them.
func QuestionText(q wire.Question) string {
	s := q.String()
	if q.Header != nil {
		s += " header=" + wire.JSONString(*q.Header)
	}
	if q.Detail != nil {
		s += " detail=" + wire.JSONString(*q.Detail)
	}
	return s
}
