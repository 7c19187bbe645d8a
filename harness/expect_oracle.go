package harness

import (
	"strings"

	"github.com/twosettle/twosettle/scenarios"
)

func init() { registerCheck(scenarios.ExpectOracle, checkOracle) }

// checkOracle checks an oracle expectation: the oracle's verdict on the run.
func checkOracle(r *Result, e *scenarios.Expectation, v view, session string, plan *Plan) {
	switch {
	case r.Verdict == nil:
		r.fail(e, "oracle: no oracle ran")
	case r.Verdict.Status != e.Subject:
		r.fail(e, "oracle: expected %s, got:\n%s", e.Subject, r.Verdict.Text)
	case e.Contains != "" && !strings.Contains(r.Verdict.Text, e.Contains):
		r.fail(e, "oracle: %s as expected, but the verdict does not mention %q:\n%s", e.Subject, e.Contains, r.Verdict.Text)
	}
}

// expectsViolation reports whether the scenario expects the oracle to find a violation
// (an oracle: violation expectation), so a violating verdict does not fail the run.
func expectsViolation(s *scenarios.Scenario) bool {
	for i := range s.Expect {
		if e := &s.Expect[i]; e.Kind == scenarios.ExpectOracle && e.Subject == "violation" {
			return true
		}
	}
	return false
}
