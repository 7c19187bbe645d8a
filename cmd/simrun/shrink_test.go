package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/twosettle/twosettle/explore"
	"github.com/twosettle/twosettle/scenarios"
)

// fuzzFailure is the first generated scenario the mutant fails, as the YAML simrun fuzz
// --no-shrink would write, and its first invariant.
func fuzzFailure(t *testing.T, mutantName string) (*scenarios.Scenario, []byte, string) {
	t.Helper()
	opts := explore.Options{Mutant: mutantName}
	r := explore.NewRunner(opts)
	for seed := uint64(1); seed < 500; seed++ {
		s := explore.Generate(seed)
		if out, _ := r.Run(s); out.Failed() && out.Kind == "" {
			inv := out.Invariant()
			yaml, _, err := explore.Final(r, s, seed, inv, opts)
			if err != nil {
				t.Fatal(err)
			}
			return s, yaml, inv
		}
	}
	t.Fatalf("no seed below 500 kills %s", mutantName)
	return nil, nil, ""
}

func TestShrinkAFuzzFailure(t *testing.T) {
	const m = "cancel-to-winner"
	s, yaml, inv := fuzzFailure(t, m)
	dir := t.TempDir()
	file := write(t, dir, "found.yaml", string(yaml))
	code, out, errOut := run("shrink", "--mutant", m, file)
	want := filepath.Join(dir, "found.shrunk.yaml")
	if code != 0 || !strings.Contains(out, "fails "+inv) || !strings.Contains(out, "wrote "+want) ||
		!strings.Contains(out, "replay: simrun replay --mutant "+m+" "+want+"\n") {
		t.Fatalf("exit %d\n%s%s", code, out, errOut)
	}
	data, err := os.ReadFile(want)
	if err != nil {
		t.Fatal(err)
	}
	small, err := scenarios.Decode(want, data)
	if err != nil {
		t.Fatalf("the shrunk file does not decode: %v\n%s", err, data)
	}
	t.Logf("seed %d: %d -> %d steps", s.Seed, len(s.Steps), len(small.Steps))
	if len(small.Steps) > len(s.Steps) || small.Name != explore.SeedName(s.Seed)+"-shrunk" {
		t.Fatalf("%d -> %d steps, name %q", len(s.Steps), len(small.Steps), small.Name)
	}
	if o, _ := explore.NewRunner(explore.Options{Mutant: m}).Run(small); o.Invariant() != inv {
		t.Fatalf("the shrunk scenario fails first with %q, not %s", o.Invariant(), inv)
	}
	// The printed replay command reproduces it (exit 1: the oracle's violation) ...
	code, tr, _ := run("replay", "--mutant", m, want)
	if code != 1 || !strings.Contains(tr, "\n  "+inv+" at ") {
		t.Fatalf("replay: exit %d\n%s", code, tr)
	}
	// ... and the correct engine has nothing to shrink in it.
	code, _, errOut = run("shrink", want, "--out", filepath.Join(dir, "again.yaml"))
	if code != 2 || !strings.Contains(errOut, "nothing to shrink: the scenario passes the oracle") {
		t.Fatalf("exit %d %q", code, errOut)
	}
	if _, err := os.Stat(filepath.Join(dir, "again.yaml")); err == nil {
		t.Fatal("a passing scenario was written")
	}
}

func TestShrinkUsage(t *testing.T) {
	dir := t.TempDir()
	ok := write(t, dir, "ok-scenario.yaml", okScenario)
	code, _, errOut := run("shrink", ok)
	if code != 2 || !strings.Contains(errOut, "nothing to shrink: the scenario passes the oracle") {
		t.Fatalf("a passing scenario: exit %d %q", code, errOut)
	}
	bad := write(t, dir, "bad.yaml", "name: bad\nsummary: x\ntiemout: 3\n")
	if code, _, errOut := run("shrink", bad); code != 2 || !strings.Contains(errOut, "bad.yaml:3:1: unknown key \"tiemout\"") {
		t.Fatalf("an invalid scenario: exit %d %q", code, errOut)
	}
	for _, args := range [][]string{
		{"shrink"},
		{"shrink", ok, ok},
		{"shrink", filepath.Join(dir, "missing.yaml")},
		{"shrink", "--mutant", "no-such-bug", ok},
		{"shrink", "--budget", "0s", ok},
	} {
		if code, _, _ := run(args...); code != 2 {
			t.Errorf("%v: exit %d, want 2", args, code)
		}
	}
}
