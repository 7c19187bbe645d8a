package harness

import (
	"strings"
	"testing"
)

// Two identical user steps at the same instant: the simulator feeds steps one at a time in
// file order, so when the second is refused the refusal is the second step's, not the
// first's (the first was taken).
func TestRefusalOfIdenticalStepsAtOneInstantIsTheLaterOnes(t *testing.T) {
	base := strings.Replace(pendingScenario, "mode: timed\n", "mode: timed\nclients:\n  a:\n", 1)
	for _, c := range []struct{ name, steps string }{
		{"the second hide of the same card", "  - {at: 1s, a: {hide: c1}}\n  - {at: 1s, a: {hide: c1}, refused: hidden}\nexpect:\n"},
		{"the second submit at once", "  - {at: 1s, a: {choose: npm}}\n  - {at: 1s, a: submit}\n  - {at: 1s, a: submit, refused: is busy}\nexpect:\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			src := strings.Replace(base, "expect:\n", c.steps, 1)
			r := RunEntry(entry(t, src), Options{})
			if r.Invalid != nil {
				t.Fatalf("invalid: %v", r.Invalid)
			}
			for _, f := range r.Failures {
				if strings.Contains(f.Msg, "refused") || strings.Contains(f.Msg, "taken") {
					t.Fatalf("refusal misattributed: %v", r.Failures)
				}
			}
		})
	}
}
