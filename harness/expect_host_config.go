package harness

import (
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
