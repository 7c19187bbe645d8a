package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/twosettle/twosettle/explore"
)

func TestHelpAndConventions(t *testing.T) {
	for name := range commands {
		for _, args := range [][]string{{"help", name}, {name, "-h"}, {name, "--help"}} {
			code, out, errs := run(args...)
			if code != 0 || !strings.HasPrefix(out, "usage: simrun ") || errs != "" {
				t.Fatalf("%v: exit %d\n%s%s", args, code, out, errs)
			}
			if !strings.Contains(out, commands[name].summary) || !strings.Contains(out, "flags") {
				t.Fatalf("%v: no summary or flags:\n%s", args, out)
			}
			if strings.Contains(out, "`") {
				t.Fatalf("%v: a backtick in the usage:\n%s", args, out)
			}
		}
	}
	if _, out, _ := run("help", "run"); !strings.Contains(out, "-junit") || !strings.Contains(out, "-seed") {
		t.Fatalf("help run does not list run's flags:\n%s", out)
	}
	if _, out, _ := run("replay", "-h"); !strings.Contains(out, "-mutant string") {
		t.Fatalf("replay -h garbles the mutant flag:\n%s", out)
	}
	if code, _, _ := run("help", "frobnicate"); code != 2 {
		t.Fatal("help of an unknown command")
	}
	if code, out, _ := run("--version"); code != 0 || !strings.HasPrefix(out, "simrun ") || !strings.Contains(out, "go1.") {
		t.Fatalf("--version: %d %q", code, out)
	}
}

func TestJSONOnEveryCommand(t *testing.T) {
	dir := t.TempDir()
	ok := write(t, dir, "ok-scenario.yaml", okScenario)
	bad := write(t, dir, "bad.yaml", "name: bad\nsummary: x\ntiemout: 3\n")
	var chk checkJSON
	code, out, _ := run("check", "--json", ok, bad)
	if err := json.Unmarshal([]byte(out), &chk); err != nil || code != 2 || chk.Valid != 1 || chk.Invalid != 1 {
		t.Fatalf("check --json: %d %v %s", code, err, out)
	}
	if e := chk.Files[1].Errors; chk.Files[1].Path != bad || len(e) != 1 || e[0].Line != 3 || e[0].Col != 1 || e[0].Hint == "" {
		t.Fatalf("check --json errors: %+v", chk.Files)
	}
	var rep struct {
		Results []struct{ Name, Status string }
	}
	code, out, _ = run("replay", "--json", ok)
	if err := json.Unmarshal([]byte(out), &rep); err != nil || code != 0 || len(rep.Results) != 1 || rep.Results[0].Status != "passed" {
		t.Fatalf("replay --json: %d %v %s", code, err, out)
	}
	code, out, _ = run("timeline", "--json", ok, "-o", filepath.Join(dir, "t.html"))
	if err := json.Unmarshal([]byte(out), &rep); err != nil || code != 0 {
		t.Fatalf("timeline --json: %d %v %s", code, err, out)
	}
	if code, _, _ := run("timeline", "--json", ok, "-o", "-"); code != 2 {
		t.Fatal("timeline --json -o - accepted")
	}
}

func TestShrinkJSON(t *testing.T) {
	dir := t.TempDir()
	code, _, errs := run("fuzz", "--mutant", "legacy-tracked", "--seeds", "1", "--no-shrink", "--out", dir)
	if code != 1 {
		t.Fatalf("no failure to shrink: %d %s", code, errs)
	}
	var sj shrinkJSON
	code, out, errs := run("shrink", "--json", "--mutant", "legacy-tracked", "--budget", "20s", filepath.Join(dir, "fuzz-1.yaml"))
	if err := json.Unmarshal([]byte(out), &sj); err != nil || code != 0 || sj.StepsAfter > sj.StepsBefore || !strings.HasPrefix(sj.Replay, "simrun replay --mutant legacy-tracked ") {
		t.Fatalf("shrink --json: %d %v %s %s", code, err, out, errs)
	}
}

func TestFuzzProgressLineHasTotalAndETA(t *testing.T) {
	p := explore.Progress{SeedsRun: 250, Failures: 1, Elapsed: 5 * time.Second}
	if got := progressLine(p, 1000, 0); got != "250/1000 seeds  50/s  1 failures  5s  ETA 15s" {
		t.Fatalf("%q", got)
	}
	if got := progressLine(p, 0, time.Minute); got != "250 seeds  50/s  1 failures  5s  ETA 55s" {
		t.Fatalf("%q", got)
	}
	for _, c := range []struct{ seeds, k, n, want uint64 }{{10, 0, 0, 10}, {10, 1, 3, 4}, {10, 2, 3, 3}, {10, 3, 3, 3}, {2, 3, 3, 0}, {3, 3, 3, 1}} {
		if got := shardSeeds(c.seeds, c.k, c.n); got != c.want {
			t.Errorf("shardSeeds(%d, %d/%d) = %d, want %d", c.seeds, c.k, c.n, got, c.want)
		}
	}
}
