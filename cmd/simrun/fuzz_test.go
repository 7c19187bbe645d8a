package main

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/twosettle/twosettle/explore"
)

func TestFuzzBadUsage(t *testing.T) {
	for _, args := range [][]string{
		{"fuzz", "--shard", "0/3"}, {"fuzz", "--shard", "4/3"}, {"fuzz", "--shard", "x"}, {"fuzz", "--start", "0"},
		{"fuzz", "extra"}, {"fuzz", "--mutant", "no-such-bug"}, {"fuzz", "--duration", "-1s"}, {"fuzz", "--seeds", "x"},
	} {
		if code, _, errs := run(args...); code != 2 || errs == "" {
			t.Fatalf("%v: exit %d, stderr %q", args, code, errs)
		}
	}
}

type fuzzOut struct {
	SeedsRun   uint64            `json:"seeds_run"`
	Failures   []explore.Failure `json:"failures"`
	Situations map[string]uint64 `json:"situations"`
	Unreached  []string          `json:"unreached"`
}

func fuzzJSONRun(t *testing.T, args ...string) (int, fuzzOut) {
	t.Helper()
	code, out, errs := run(append([]string{"fuzz", "--json", "--out", t.TempDir()}, args...)...)
	var j fuzzOut
	if err := json.Unmarshal([]byte(out), &j); err != nil {
		t.Fatalf("%v: not one JSON object: %v\n%s\n%s", args, err, out, errs)
	}
	return code, j
}

func TestFuzzJSON(t *testing.T) {
	code, j := fuzzJSONRun(t, "--seeds", "30", "--workers", "2")
	if j.SeedsRun != 30 || len(j.Situations) != len(explore.Situations()) || j.Failures == nil {
		t.Fatalf("%+v", j)
	}
	if want := map[bool]int{true: 1, false: 0}[len(j.Failures) > 0]; code != want {
		t.Fatalf("exit %d with %d failures", code, len(j.Failures))
	}
	for _, f := range j.Failures {
		if _, err := os.Stat(f.File); err != nil || !strings.HasPrefix(f.Invariant, "INV-") {
			t.Fatalf("failure %+v: %v", f, err)
		}
	}
	reached := 0
	for _, n := range j.Situations {
		if n > 0 {
			reached++
		}
	}
	if reached+len(j.Unreached) != len(j.Situations) {
		t.Fatalf("%d reached, %d unreached of %d", reached, len(j.Unreached), len(j.Situations))
	}
	// two shards run the campaign's seeds once between them
	_, a := fuzzJSONRun(t, "--seeds", "30", "--shard", "1/2")
	_, b := fuzzJSONRun(t, "--seeds", "30", "--shard", "2/2")
	if a.SeedsRun+b.SeedsRun != 30 || len(a.Failures)+len(b.Failures) != len(j.Failures) {
		t.Fatalf("shards ran %d+%d seeds, %d+%d failures; whole: %d", a.SeedsRun, b.SeedsRun, len(a.Failures), len(b.Failures), len(j.Failures))
	}
}

func TestFuzzText(t *testing.T) {
	code, out, _ := run("fuzz", "--seeds", "12", "--out", t.TempDir())
	lines := strings.Split(strings.TrimSpace(out), "\n")
	last := lines[len(lines)-1]
	if !strings.HasPrefix(last, "12 seeds, ") || !strings.Contains(out, "situations reached: ") {
		t.Fatalf("output:\n%s", out)
	}
	if (code == 1) != strings.Contains(out, "FAIL    seed ") || (code == 1) != !strings.Contains(last, " 0 failures") {
		t.Fatalf("exit %d:\n%s", code, out)
	}
	if strings.Contains(out, "FAIL    seed ") && !strings.Contains(out, "replay: simrun replay ") {
		t.Fatalf("a failure without its replay line:\n%s", out)
	}
}

// A failure found against a mutant replays, by its printed replay line, to the same
// violation with its transcript matching; replayed without the mutant it departs from it.
func TestFuzzMutantFailureReplaysByItsLine(t *testing.T) {
	code, j := fuzzJSONRun(t, "--seeds", "3", "--mutant", "cancel-to-winner", "--no-shrink")
	if code != 1 || len(j.Failures) == 0 {
		t.Fatalf("exit %d, %+v", code, j)
	}
	f := j.Failures[0]
	args := strings.Fields(f.Replay)
	if len(args) != 5 || args[0] != "simrun" || args[2] != "--mutant" || args[3] != "cancel-to-winner" || args[4] != f.File {
		t.Fatalf("replay line %q", f.Replay)
	}
	code, _, errs := run(args[1:]...)
	if code != 1 || !strings.Contains(errs, f.Invariant) || strings.Contains(errs, "differs") {
		t.Fatalf("%q: exit %d\n%s", f.Replay, code, errs)
	}
	if code, _, errs := run("replay", f.File); code != 1 || !strings.Contains(errs, "differs") {
		t.Fatalf("replay without the mutant: exit %d\n%s", code, errs)
	}
	if code, _, errs := run("replay", "--mutant", "no-such-bug", f.File); code != 2 || !strings.Contains(errs, "unknown mutant") {
		t.Fatalf("unknown mutant: exit %d\n%s", code, errs)
	}
}

// TestFuzzHostWithEveryFeature: simrun fuzz --host with a host that declares every feature
// (conform refhost) runs the whole campaign: nothing is left out of the generator, no
// situation is ruled out, and the runs reach the situations the in-process reference
// host's reach, seed for seed.
func TestFuzzHostWithEveryFeature(t *testing.T) {
	_, ref := fuzzJSONRun(t, "--seeds", "20", "--workers", "1")
	t.Setenv("SIMRUN_TEST_HOST", "refhost")
	code, out, errs := run("fuzz", "--json", "--out", t.TempDir(), "--seeds", "20", "--workers", "1", "--host", os.Args[0])
	var j struct {
		fuzzOut
		GeneratorOff []string            `json:"generator_off"`
		CannotReach  map[string][]string `json:"cannot_reach"`
	}
	if err := json.Unmarshal([]byte(out), &j); err != nil || code != 0 {
		t.Fatalf("exit %d: %v\n%s\n%s", code, err, out, errs)
	}
	if j.GeneratorOff == nil || len(j.GeneratorOff) > 0 || j.CannotReach == nil || len(j.CannotReach) > 0 {
		t.Fatalf("generator_off %v, cannot_reach %v: a host with every feature gets the whole campaign", j.GeneratorOff, j.CannotReach)
	}
	for name, n := range ref.Situations {
		if j.Situations[name] != n {
			t.Errorf("situation %s: %d runs against the host process, %d in process", name, j.Situations[name], n)
		}
	}
}
