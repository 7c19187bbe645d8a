package variant

import (
	"testing"

	"github.com/twosettle/twosettle/harness"
)

// Every variant is a correct host: run through any of them, every library scenario
// stays runnable (no impossible step, no lost host) and the oracle finds no violation.
// (Whether the runner's comparison with the reference accepts them is
// conform/variants_test.go's evidence.) Variants without introspection are judged by the
// invariants that do not need it.
func TestEveryVariantKeepsTheOracle(t *testing.T) {
	scs := library(t)
	for _, v := range All() {
		if v.WireOnly {
			continue
		}
		t.Run(v.Name, func(t *testing.T) {
			hosts := List{v}.Factory(harness.ReferenceHost(""))
			for _, s := range scs {
				res := &harness.Result{}
				harness.RunScenario(res, s, harness.Options{Oracle: harness.ReferenceOracle, Host: hosts, AnyRefusalText: true})
				if res.Lost != nil || res.Invalid != nil {
					t.Errorf("%s: lost %v, invalid %v", s.Name, res.Lost, res.Invalid)
					continue
				}
				if res.Verdict != nil && res.Verdict.Status != "ok" {
					t.Errorf("%s: %s", s.Name, res.Verdict.Text)
				}
			}
		})
	}
}
