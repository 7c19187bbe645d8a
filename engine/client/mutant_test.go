package client

import (
	"strings"
	"testing"

	"github.com/twosettle/twosettle/engine/wire"
)

// The client-side mutants (engine/mutant): each case observes one rule with the correct
// client and with the mutant on; each mutant flips it, and unrelated mutants do not.
func TestMutantsFlipTheirRule(t *testing.T) {
	cases := []struct {
		name, rule string
		observe    func(x *h) string
		correct    string
	}{
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
	}
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
