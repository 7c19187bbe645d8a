package killmatrix

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/twosettle/twosettle/engine/host"
	"github.com/twosettle/twosettle/engine/mutant"
	"github.com/twosettle/twosettle/explore"
	"github.com/twosettle/twosettle/harness"
	"github.com/twosettle/twosettle/scenarios"
)

var witnessInvariant = regexp.MustCompile(` fails (INV-[A-Z-]+);`)

// Each mutant flips behaviour: its witness scenario (a shrunk fuzz kill, written by
// `simrun mutants --out killmatrix/testdata/witness`) violates the named invariant with the
// mutant on and passes the oracle on the correct engine.
func TestEachMutantFlipsBehaviour(t *testing.T) {
	for _, in := range mutant.All() {
		path := filepath.Join("testdata", "witness", in.Name+".yaml")
		data, err := os.ReadFile(path)
		if err != nil {
			t.Errorf("%s: no witness scenario (%v): run simrun mutants --only %s --out killmatrix/testdata/witness", in.Name, err, in.Name)
			continue
		}
		s, err := scenarios.Decode(path, data)
		if err != nil {
			t.Errorf("%s: %v", path, err)
			continue
		}
		m := witnessInvariant.FindStringSubmatch(s.Summary)
		if m == nil {
			t.Errorf("%s: the summary names no invariant: %q", path, s.Summary)
			continue
		}
		t.Run(in.Breaks[0]+" "+in.Name+" is caught by "+m[1], func(t *testing.T) {
			if err := CheckWitness(in.Name, s, m[1]); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// With no mutant nothing changes: the option "" is the empty set and every library
// scenario still matches its golden (and its expectations and the oracle) with the
// harness's Mutant left empty. The host takes client-side names (the clients act on them)
// and refuses unknown ones.
func TestNoMutantIsTheCorrectEngine(t *testing.T) {
	if s, err := mutant.Parse(""); err != nil || !s.Empty() {
		t.Fatalf(`Parse("") = %v, %v; want the empty set`, s, err)
	}
	opts := harness.DefaultOptions()
	for _, e := range harness.Library("") {
		if r := harness.RunEntry(e, opts); r.Status() != harness.Passed {
			t.Errorf("%s: %s %v", r.Name(), r.Golden, r.Failures)
		}
	}
	for _, in := range mutant.All() {
		if in.Side != mutant.Client {
			continue
		}
		if _, err := host.New(host.Config{Mutant: in.Name}); err != nil {
			t.Errorf("host.New refuses the client-side mutant %s: %v", in.Name, err)
		}
	}
	if _, err := host.New(host.Config{Mutant: "no-such-bug"}); err == nil {
		t.Error("host.New accepts an unknown mutant")
	}
}

// The matrix: verdicts, seeds-to-kill, the library columns and the JSON shape.
func TestMatrix(t *testing.T) {
	m, err := Measure(context.Background(), Options{Only: []string{"legacy-tracked", "no-reservation"}, Seeds: 5, Budget: -1, Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Rows) != 2 || m.Rows[0].Name != "legacy-tracked" || m.Rows[1].Name != "no-reservation" {
		t.Fatalf("rows %+v", m.Rows)
	}
	lt, nr := m.Rows[0], m.Rows[1]
	if lt.Verdict != KilledByOracle || lt.SeedsToKill == 0 || lt.Invariant == "" || lt.SeedsRun != lt.SeedsToKill {
		t.Errorf("legacy-tracked: %+v", lt)
	}
	// no-reservation needs more than 5 seeds; the library's late-reply scenario catches it.
	if nr.Verdict != KilledByGoldenOnly || nr.SeedsToKill != 0 || nr.SeedsRun != 5 || !nr.Library.Caught() {
		t.Errorf("no-reservation: %+v", nr)
	}
	if m.AllKilled() {
		t.Error("AllKilled with a mutant the oracle did not kill")
	}
	var doc struct {
		Mutants []struct {
			Name        string `json:"name"`
			Verdict     string `json:"verdict"`
			SeedsToKill uint64 `json:"seeds_to_kill"`
			Invariant   string `json:"invariant"`
		} `json:"mutants"`
		Killed, Total int
	}
	if err := json.Unmarshal(m.JSON(), &doc); err != nil {
		t.Fatalf("JSON: %v\n%s", err, m.JSON())
	}
	if len(doc.Mutants) != 2 || doc.Mutants[0].Verdict != KilledByOracle || doc.Mutants[0].SeedsToKill != lt.SeedsToKill ||
		doc.Mutants[0].Invariant != lt.Invariant || doc.Mutants[1].Verdict != KilledByGoldenOnly || doc.Killed != 1 || doc.Total != 2 {
		t.Errorf("JSON %s", m.JSON())
	}
	text := m.Text()
	for _, want := range []string{"legacy-tracked", KilledByGoldenOnly, lt.Invariant, "1 of 2 mutants killed by the oracle"} {
		if !strings.Contains(text, want) {
			t.Errorf("text lacks %q:\n%s", want, text)
		}
	}
	// Without the library a mutant the fuzz budget misses survives.
	m, err = Measure(context.Background(), Options{Only: []string{"no-reservation"}, Seeds: 3, Budget: -1, NoLibrary: true})
	if err != nil {
		t.Fatal(err)
	}
	if r := m.Rows[0]; r.Verdict != Survived || r.Library.Ran {
		t.Errorf("no-reservation without the library: %+v", r)
	}
	if _, err := Measure(context.Background(), Options{Only: []string{"no-such-bug"}}); err == nil {
		t.Error("an unknown mutant is accepted")
	}
}

// The measure of docs/ARCHITECTURE.md §9: every mutant is killed by the oracle with fuzzing alone. The
// budget here is seeds only (no wall time), so the test is deterministic on any machine;
// simrun mutants adds the 10 s wall-time bound.
func TestEveryMutantIsKilledByTheOracle(t *testing.T) {
	if testing.Short() {
		t.Skip("the whole matrix (a few seconds)")
	}
	m, err := Measure(context.Background(), Options{Seeds: 5000, Budget: -1, NoLibrary: true})
	if err != nil {
		t.Fatal(err)
	}
	// A kill is differential: the killing seed passes the oracle on the correct engine.
	base := explore.NewRunner(explore.Options{})
	for _, r := range m.Rows {
		if r.Verdict != KilledByOracle {
			t.Errorf("%s survived %d seeds: %s", r.Name, r.SeedsRun, r.Doc)
			continue
		}
		if out, _ := base.Run(explore.Generate(r.Seed)); out.Failed() {
			t.Errorf("%s: killing seed %d fails on the correct engine too (%s)", r.Name, r.Seed, out.Invariant())
		}
	}
	if len(m.Rows) < 15 {
		t.Errorf("%d mutants; the issue asks for at least 15", len(m.Rows))
	}
}

// The differential rule: a seed the correct engine also fails is skipped, never a kill.
func TestBaselineFailuresAreSkipped(t *testing.T) {
	opts := Options{Only: []string{"legacy-tracked"}, Seeds: 30, Budget: -1, NoLibrary: true}
	opts.baselineFails = func(uint64) bool { return true } // as if the correct engine failed every seed
	m, err := Measure(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	r := m.Rows[0]
	if r.Verdict != Survived || r.SeedsToKill != 0 || r.BaselineSkips == 0 || r.SeedsRun != 30 {
		t.Fatalf("every seed fails on the correct engine: %+v", r)
	}
	opts.baselineFails = func(seed uint64) bool { return seed < 10 }
	m, _ = Measure(context.Background(), opts)
	if r := m.Rows[0]; r.Verdict != KilledByOracle || r.Seed < 10 || int(r.SeedsToKill) != int(r.Seed) || r.BaselineSkips == 0 {
		t.Fatalf("seeds 1..9 fail on the correct engine: %+v", r)
	}
}
