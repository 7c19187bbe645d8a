package harness

import (
	"github.com/twosettle/twosettle/engine/wire"
	"github.com/twosettle/twosettle/scenarios"
)

func init() { registerCheck(scenarios.ExpectView, checkView) }

// checkView checks a view expectation: the Session's userQuestions projection in its
// canonical text, and the questions of one active call.
func checkView(r *Result, e *scenarios.Expectation, v view, session string, plan *Plan) {
	ss, ok := v.host.Session(session)
	if !ok {
		r.fail(e, "%s: there is no Session %s", e.Kind+" "+v.when, session)
		return
	}
	if got := ss.Questions.String(); got != e.Subject {
		r.fail(e, "%s of %s %s is %q, not %q", e.Kind, session, v.when, got, e.Subject)
	}
	if e.ViewQuestions != nil {
		r.checkViewQuestions(e, ss.Questions, session, v.when)
	}
}

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
