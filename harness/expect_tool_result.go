package harness

import (
	"github.com/twosettle/twosettle/engine/session"
	"github.com/twosettle/twosettle/scenarios"
)

func init() { registerCheck(scenarios.ExpectToolResult, checkToolResult) }

// checkToolResult checks a tool-result expectation: the last tool result of a call (or
// a sub-call's dispatch record) in the Session log.
func checkToolResult(r *Result, e *scenarios.Expectation, v view, session string, plan *Plan) {
	what := whatOf(e, v)
	ss, ok := v.host.Session(session)
	if !ok {
		r.fail(e, "%s: there is no Session %s", what, session)
		return
	}
	ev, isErr, code, text, ok := lastResult(ss.Log, e.Subject)
	if e.None {
		if ok {
			r.fail(e, "%s: expected no result, found %s", what, ev.Data.String())
		}
		return
	}
	if !ok {
		r.fail(e, "%s: there is no result yet", what)
		return
	}
	r.checkOutcome(e, what, ev.Data.String(), isErr, code, text, text)
	if e.Time != nil && ev.Time != e.Time.Ms() {
		r.fail(e, "%s: the result was recorded at t=%d, not %s", what, ev.Time, e.Time)
	}
}

// lastResult finds the last tool/result of call (or the tool/ptc-dispatch of a sub-call).
func lastResult(log []session.Event, call string) (ev session.Event, isErr bool, code, text string, ok bool) {
	for _, x := range log {
		switch d := x.Data.(type) {
		case session.ToolResult:
			if d.CallID == call {
				ev, isErr, code, text, ok = x, d.IsError, d.Err.Code, d.Text, true
			}
		case session.PTCDispatch:
			if d.SubCallID == call {
				ev, isErr, code, text, ok = x, d.IsError, d.Err.Code, d.Text, true
			}
		}
	}
	return
}
