package harness

import (
	"github.com/twosettle/twosettle/scenarios"
)

func init() { registerCheck(scenarios.ExpectLink, checkLink) }

// checkLink checks a link expectation: a client's connection.
func checkLink(r *Result, e *scenarios.Expectation, v view, session string, plan *Plan) {
	what := whatOf(e, v)
	c, ok := namedClient(v, e.Subject)
	if !ok {
		r.fail(e, "%s: no such client in the state", what)
		return
	}
	if e.Connected != nil && c.Connected != *e.Connected {
		r.fail(e, "%s: connected=%v", what, c.Connected)
	}
	if e.Gen != nil && c.Gen != *e.Gen {
		r.fail(e, "%s: generation %d, not %d", what, c.Gen, *e.Gen)
	}
}
