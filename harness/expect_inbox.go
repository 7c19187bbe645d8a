package harness

import (
	"github.com/twosettle/twosettle/scenarios"
)

func init() { registerCheck(scenarios.ExpectInbox, checkInbox) }

// checkInbox checks an inbox expectation: the Session's inbox in its canonical text.
func checkInbox(r *Result, e *scenarios.Expectation, v view, session string, plan *Plan) {
	ss, ok := v.host.Session(session)
	if !ok {
		r.fail(e, "%s: there is no Session %s", e.Kind+" "+v.when, session)
		return
	}
	if got := ss.Inbox.String(); got != e.Subject {
		r.fail(e, "%s of %s %s is %q, not %q", e.Kind, session, v.when, got, e.Subject)
	}
}
