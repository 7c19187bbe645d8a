package harness

import (
	"github.com/twosettle/twosettle/engine/wire"
	"github.com/twosettle/twosettle/scenarios"
	"github.com/twosettle/twosettle/trace"
)

func init() { registerCheck(scenarios.ExpectResult, checkResult) }

// checkResult checks a result expectation: the result of a service call, from the
// trace's direct results.
func checkResult(r *Result, e *scenarios.Expectation, v view, session string, plan *Plan) {
	what := whatOf(e, v)
	for _, rec := range v.records {
		d, ok := rec.Payload.(wire.DirectResult)
		if !ok || rec.Kind != trace.Out || d.ID != e.Subject {
			continue
		}
		if e.None {
			r.fail(e, "%s: expected no result yet, found %s", what, d.String())
			return
		}
		if e.Time != nil && rec.Time != e.Time.Ms() {
			r.fail(e, "%s: the result came at t=%d, not %s", what, rec.Time, e.Time)
		}
		code, msg := "", string(d.Value)
		if d.Err != nil {
			code, msg = d.Err.Code, d.Err.Message
		}
		r.checkOutcome(e, what, d.String(), d.Err != nil, code, string(d.Value), msg)
		return
	}
	if !e.None {
		r.fail(e, "%s: there is no result yet", what)
	}
}
