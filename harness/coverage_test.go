package harness_test

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/twosettle/twosettle/harness"
	"github.com/twosettle/twosettle/oracle"
	"github.com/twosettle/twosettle/scenarios"
)

// Every requirement id is guarded by an invariant or listed in oracle.Unguarded with a
// reason and what covers it instead, never both; each named scenario is in the library
// and each named test file exists and has a test named after the id.
func TestEveryRequirementGuardedOrExempt(t *testing.T) {
	guarded := map[string]bool{}
	for _, in := range oracle.Catalogue() {
		for _, id := range in.Guards {
			if !scenarios.KnownRequirement(id) {
				t.Errorf("%s guards unknown id %s", in.Name, id)
			}
			guarded[id] = true
		}
	}
	names := map[string]bool{}
	for _, f := range scenarios.Library() {
		s, err := scenarios.Decode(f.Path, f.Data)
		if err != nil {
			t.Fatal(err)
		}
		names[s.Name] = true
	}
	root := harness.FindRoot()
	exempt := map[string]bool{}
	for _, e := range oracle.Unguarded() {
		if exempt[e.ID] {
			t.Errorf("%s is listed twice", e.ID)
		}
		exempt[e.ID] = true
		if guarded[e.ID] {
			t.Errorf("%s is guarded by an invariant and listed as unguarded", e.ID)
		}
		if e.Kind != oracle.Untraceable && e.Kind != oracle.Gap || e.Reason == "" || len(e.CoveredBy) == 0 {
			t.Errorf("%s: an exemption needs a kind, a reason and what covers it: %+v", e.ID, e)
		}
		for _, by := range e.CoveredBy {
			kind, name, _ := strings.Cut(by, " ")
			switch kind {
			case "scenario":
				if !names[name] {
					t.Errorf("%s: no library scenario %s", e.ID, name)
				}
			case "test":
				b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(name)))
				if err != nil {
					t.Errorf("%s: %v", e.ID, err)
				} else if !strings.Contains(string(b), e.ID) {
					t.Errorf("%s: %s names no test of it", e.ID, name)
				}
			default:
				t.Errorf("%s: %q is neither a scenario nor a test", e.ID, by)
			}
		}
	}
	for _, id := range scenarios.RequirementIDs() {
		if !guarded[id] && !exempt[id] {
			t.Errorf("%s: no invariant guards it and oracle.Unguarded does not say why", id)
		}
	}
	rep, err := harness.Coverage(harness.Library(root))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(rep.Text(), "\n"), "\n")
	want := strconv.Itoa(len(guarded)) + "/" + strconv.Itoa(len(scenarios.RequirementIDs())) + " ids guarded by the oracle"
	if last := lines[len(lines)-1]; last != want {
		t.Fatalf("the coverage text ends with %q, want %q", last, want)
	}
}
