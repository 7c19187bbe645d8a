package harness

import (
	"github.com/twosettle/twosettle/engine/wire"
	"github.com/twosettle/twosettle/scenarios"
)

// checkViewQuestions checks the questions one active call of a view holds (a view
// expectation's call: and questions:), compared in the service vocabulary's JSON.
func (r *Result) checkViewQuestions(e *scenarios.Expectation, v wire.QuestionsView, session, when string) {
	row, ok := v.Row(e.ViewCall)
	if !ok {
		r.fail(e, "view of %s %s: %s is not active (%s)", session, when, e.ViewCall, v.String())
		return
	}
	want := string(wire.AppendQuestionsJSON(nil, serviceQuestions(e.ViewQuestions)))
	if got := string(wire.AppendQuestionsJSON(nil, row.Questions)); got != want {
		r.fail(e, "view of %s %s: %s holds the questions %s, not %s", session, when, e.ViewCall, got, want)
	}
}
