package client

import (
	"strings"
	"testing"

	"github.com/twosettle/twosettle/engine/wire"
)

// The client-side mutants (engine/mutant): each case observes one rule with the correct
// client and with the mutant on; each mutant flips it, and unrelated mutants do not.
func TestMutantsFlipTheirRule(t *testing.T) {
	checkMutantCases(t, []mutantCase{
		{"claim-released-on-local-return", "CLAIM-2 the claim is kept after the answer is sent", func(x *h) string {
			x.timedCard(0, 5000)
			x.user(100, wire.ActChoose, "label=npm")
			return strings.Join(x.user(200, wire.ActSubmit), "; ")
		}, `result gen=1 rpc=c1-r1 ev=e1 result {"answers":[{"id":"pkg","selected":["npm"]}]}`},
		{"closed-panel-replies", "AGENT-5 closing a keyed panel records nothing", func(x *h) string {
			x.timedCard(0, 5000)
			return strings.Join(x.user(100, wire.ActClose), "; ")
		}, ""},
		{"take-time-ignored", "CD-4 Take time freezes the countdown for good", func(x *h) string {
			x.timedCard(0, 5000)
			x.user(100, wire.ActTakeTime)
			return strings.Join(x.at(5000, wire.ClientTick{}), "; ")
		}, ""},
	})
}

// mutantCase observes one rule: correct is what the correct client shows, and the mutant
// name must show something else.
type mutantCase struct {
	name, rule string
	observe    func(x *h) string
	correct    string
}

// checkMutantCases runs each case with the correct client, with its mutant on (which must
// flip the observation) and with unrelated host-side mutants on (which must not).
func checkMutantCases(t *testing.T, cases []mutantCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.rule+" ("+c.name+")", func(t *testing.T) {
			run := func(m string) string { return c.observe(newHWith(t, Config{Name: "c1", Seed: 7, Mutant: m})) }
			if got := run(""); got != c.correct {
				t.Fatalf("correct client: %q, want %q", got, c.correct)
			}
			if got := run(c.name); got == c.correct {
				t.Fatalf("mutant %s: %q, the same as the correct client", c.name, got)
			}
			if got := run("cancel-to-winner,legacy-tracked"); got != c.correct {
				t.Fatalf("host-side mutants: %q, want %q", got, c.correct)
			}
		})
	}
}
