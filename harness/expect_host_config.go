package harness

import (
	"strings"

	"github.com/twosettle/twosettle/scenarios"
)

func init() { registerCheck(scenarios.ExpectHostConfig, checkHostConfig) }

// checkHostConfig checks a host-config expectation: the host took its configuration (a
// refused one never gets here: checkHostConfigOnly).
func checkHostConfig(r *Result, e *scenarios.Expectation, v view, session string, plan *Plan) {
	if e.Subject == "refused" {
		r.fail(e, "host-config: expected the host to refuse its configuration, but it accepted it")
	}
}

// checkHostConfigOnly checks the expectations of a run whose host refused its
// configuration: only host-config expectations can hold.
func (r *Result) checkHostConfigOnly(s *scenarios.Scenario) {
	for i := range s.Expect {
		e := &s.Expect[i]
		r.Expectations++
		switch {
		case e.Kind != scenarios.ExpectHostConfig:
			r.fail(e, "%s: the host refused its configuration, so the run never started: %v", e.Kind, r.HostConfigErr)
		case e.Subject == "accepted":
			r.fail(e, "host-config: expected the host to accept its configuration, but it refused it: %v", r.HostConfigErr)
		case e.Contains != "" && !strings.Contains(r.HostConfigErr.Error(), e.Contains):
			r.fail(e, "host-config: refused as expected, but with %q, which does not contain %q", r.HostConfigErr.Error(), e.Contains)
		}
	}
	if len(s.Expect) == 0 {
		r.Failures = append(r.Failures, Failure{Pos: s.Pos, Msg: "the host refused its configuration: " + r.HostConfigErr.Error() + " (add a host-config: refused expectation if that is what the scenario shows)"})
	}
}
