package harness

import (
	"github.com/twosettle/twosettle/scenarios"
)

func init() { registerCheck(scenarios.ExpectAgent, checkAgent) }

// checkAgent checks an agent expectation: the agent of the Session the subject names
// (not session:).
func checkAgent(r *Result, e *scenarios.Expectation, v view, session string, plan *Plan) {
	what := whatOf(e, v)
	session = e.Subject
	ss, ok := v.host.Session(session)
	if !ok {
		r.fail(e, "%s: there is no Session %s", what, session)
		return
	}
	if e.Live != nil && ss.Live != *e.Live {
		r.fail(e, "%s: live=%v", what, ss.Live)
	}
	if e.Root != nil && ss.Root != *e.Root {
		r.fail(e, "%s: root=%v", what, ss.Root)
	}
	if e.Phase != "" && ss.Phase != e.Phase {
		r.fail(e, "%s: phase %s", what, ss.Phase)
	}
}
