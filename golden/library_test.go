package golden_test

import (
	"path/filepath"
	"testing"

	"github.com/sebdah/goldie/v2"

	"github.com/twosettle/twosettle/golden"
	"github.com/twosettle/twosettle/harness"
	"github.com/twosettle/twosettle/scenarios"
)

// TestLibraryGoldens runs every library scenario against its golden transcript (with
// goldie: `go test ./golden -update` rewrites them, like `simrun run --update`), and
// checks that its expectations and the oracle pass and that a second run gives the same bytes.
func TestLibraryGoldens(t *testing.T) {
	lib := scenarios.Library()
	if len(lib) == 0 {
		t.Skip("the scenario library is empty")
	}
	g := goldie.New(t,
		goldie.WithFixtureDir("library"),
		goldie.WithNameSuffix(golden.Suffix),
		goldie.WithEqualFn(func(actual, expected []byte) bool { return golden.Equal(expected, actual) }),
		goldie.WithDiffFn(func(actual, expected string) string {
			if m := golden.Compare([]byte(expected), []byte(actual)); m != nil {
				return m.String()
			}
			return "(only comment lines differ)"
		}),
	)
	root, _ := filepath.Abs("..")
	for _, e := range harness.Library(root) {
		name := filepath.Base(e.Path)
		name = name[:len(name)-len(".yaml")]
		t.Run(name, func(t *testing.T) {
			r := harness.RunEntry(e, harness.DefaultOptions())
			if r.Invalid != nil {
				t.Fatalf("invalid: %v", r.Invalid)
			}
			for _, f := range r.Failures {
				t.Error(f.String())
			}
			if again := harness.RunEntry(e, harness.DefaultOptions()); string(again.Transcript) != string(r.Transcript) {
				m := golden.Compare(r.Transcript, again.Transcript)
				t.Fatalf("two runs of the scenario differ: %v", m)
			}
			g.Assert(t, name, r.Transcript)
		})
	}
}
