package killmatrix

import (
	"testing"

	"github.com/twosettle/twosettle/explore"
	"github.com/twosettle/twosettle/oracle"
)

// The oracle's verdict is a function of the trace (its doc's contract: deterministic
// text). frameless-end-waits' first kill (seed 43) ends with several clients owing a
// delegation, which the final state judged in map order: its message named a different
// client from run to run. One trace, checked many times, must give one text.
func TestVerdictTextDoesNotDependOnMapOrder(t *testing.T) {
	out, _ := explore.NewRunner(explore.Options{Mutant: "frameless-end-waits"}).Run(explore.Generate(43))
	if out.Kind != "" || out.Verdict.OK() {
		t.Fatalf("seed 43 with frameless-end-waits: %v %s", out.Err, out.Verdict)
	}
	want := oracle.Check(out.Trace, oracle.Options{}).String()
	for n := 0; n < 30; n++ {
		if got := oracle.Check(out.Trace, oracle.Options{}).String(); got != want {
			t.Fatalf("check %d of one trace gave another verdict:\n%s\nwant:\n%s", n, got, want)
		}
	}
}
