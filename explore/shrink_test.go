package explore

import (
	"os"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/twosettle/twosettle/scenarios"
)

// seedBreaking is the first seed whose run against opts' host fails first with inv.
func seedBreaking(t *testing.T, opts Options, inv string) (uint64, *scenarios.Scenario) {
	r := NewRunner(opts)
	for seed := uint64(1); seed < 2000; seed++ {
		s := Generate(seed)
		if out, _ := r.Run(s); out.Invariant() == inv {
			return seed, s
		}
	}
	t.Fatalf("no seed breaks %s", inv)
	return 0, nil
}

func TestShrinkKeepsTheInvariantAndReachesADozenSteps(t *testing.T) {
	seed, s := seedBreaking(t, buggy, "INV-LOG-REPORTED")
	r := NewRunner(buggy)
	before := scenarios.Encode(s)
	small, st := Shrink(r, s, "INV-LOG-REPORTED", ShrinkBudget{})
	if string(scenarios.Encode(s)) != string(before) {
		t.Fatal("Shrink modified its input")
	}
	if err := scenarios.Validate(small); err != nil {
		t.Fatalf("the shrunk scenario is invalid: %v", err)
	}
	if len(small.Steps) > 12 || len(small.Steps) >= len(s.Steps) || st.StepsBefore != len(s.Steps) || st.StepsAfter != len(small.Steps) {
		t.Fatalf("seed %d shrunk %d -> %d steps (stats %+v):\n%s", seed, len(s.Steps), len(small.Steps), st, scenarios.Encode(small))
	}
	if out, _ := r.Run(small); out.Invariant() != "INV-LOG-REPORTED" {
		t.Fatalf("the shrunk scenario fails with %q", out.Invariant())
	}
	// the planted bug needs a sleep call and its result: the shrinker keeps it and drops the clients
	sleeps := 0
	for _, x := range small.Steps {
		if x.Model != nil && x.Model.Kind == scenarios.ModelSleep {
			sleeps++
		}
	}
	if sleeps != 1 || len(small.Clients) > 1 {
		t.Fatalf("shrunk to %d sleeps and %d clients:\n%s", sleeps, len(small.Clients), scenarios.Encode(small))
	}

	// Final marks refusals, names it, and Write stores it atomically; the file reruns.
	yaml, transcript, err := Final(r, small, seed, "INV-LOG-REPORTED", buggy)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	ypath, tpath, err := Write(dir, SeedName(seed), yaml, transcript)
	if err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(ypath)
	back, err := scenarios.Decode(ypath, data)
	if err != nil {
		t.Fatal(err)
	}
	if out, _ := r.Run(back); out.Invariant() != "INV-LOG-REPORTED" || back.Seed != seed {
		t.Fatalf("the written file fails with %q at seed %d", out.Invariant(), back.Seed)
	}
	if tr, _ := os.ReadFile(tpath); !verdictHas(string(tr), "INV-LOG-REPORTED") {
		t.Fatalf("transcript:\n%s", tr)
	}
}

func TestShrinkRespectsItsBudget(t *testing.T) {
	_, s := seedBreaking(t, buggy, "INV-LOG-REPORTED")
	_, st := Shrink(NewRunner(buggy), s, "INV-LOG-REPORTED", ShrinkBudget{MaxRuns: 5})
	if st.Runs > 5 || !st.Exhausted {
		t.Fatalf("%+v", st)
	}
}

// Refusals marks the steps a run refused so that the harness takes them as expected.
func TestRefusalsAreMarked(t *testing.T) {
	s := &scenarios.Scenario{Name: "refused", Summary: "a submit with no card", Mode: scenarios.ModeTimed,
		Clients: []scenarios.Client{{Name: "a"}},
		Steps: []scenarios.Step{
			{At: 0, Model: &scenarios.ModelAction{Kind: scenarios.ModelPrompt, Text: "go"}},
			{At: 100, Client: "a", User: &scenarios.UserAction{Kind: scenarios.UserSubmit}},
		}, Limit: 1000}
	r := NewRunner(Options{})
	out, _ := r.Run(s)
	if n := Refusals(s, out.Plan, out.Trace); n != 1 || s.Steps[1].Refused == "" || s.Steps[0].Refused != "" {
		t.Fatalf("marked %d: %+v", n, s.Steps)
	}
}

func TestShrinkScenarioKeepsProbeTimes(t *testing.T) {
	t.Run("each expectation time stays as one bare probe on the first Session, at: end dropped", func(t *testing.T) {
		s := &scenarios.Scenario{
			Sessions: []scenarios.Session{{Name: "main"}},
			Expect: []scenarios.Expectation{
				{At: 5, Kind: scenarios.ExpectCard, Subject: "c1", None: true},
				{At: 5, Kind: scenarios.ExpectAgent, Subject: "main"},
				{At: 9, Kind: scenarios.ExpectToolResult, Subject: "c1", Pending: true},
				{End: true, Kind: scenarios.ExpectOracle},
			},
		}
		got := probesOnly(s)
		want := []scenarios.Expectation{
			{At: 5, Kind: scenarios.ExpectAgent, Subject: "main"},
			{At: 9, Kind: scenarios.ExpectAgent, Subject: "main"},
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Fatalf("probesOnly (-want +got):\n%s", diff)
		}
	})
}
