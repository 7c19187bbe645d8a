package main

import (
	"os"
	"strings"
	"testing"

	"github.com/twosettle/twosettle/scenarios"
)

// clientScenario has a user with a refused step and client-side expectations (a card, a
// row), so a client process is judged on what it shows.
const clientScenario = `name: client-scenario
summary: A user answers through the guarded Continue; the card and the row show it.
covers: [CARD-4, ROW-1]
mode: timed
timeout: 30
clients:
  a: {latency: 10ms}
steps:
  - {at: 0s, model: {prompt: go}}
  - {at: 0s, model: header}
  - {at: 0s, model: {call: c1, ask: [{id: pkg, question: Which package manager, options: [npm, bun]}]}}
  - {at: 1s, a: continue, refused: Please select an option}
  - {at: 2s, a: {choose: bun}}
  - {at: 3s, a: continue}
expect:
  - {at: 1500ms, card: c1, composer: '{pkg=-}'}
  - {at: 1500ms, row: c1, summary: waiting, action: Answer}
  - {at: end, tool-result: c1, answers: {pkg: bun}}
`

// simrun run and replay --client run the process as every client: the reference client
// served over the protocol gives the in-process transcript byte for byte, and passes.
func TestClientProcessRunsAsEveryClient(t *testing.T) {
	dir := t.TempDir()
	file := write(t, dir, "client-scenario.yaml", clientScenario)
	code, want, errs := run("replay", file)
	if code != 0 {
		t.Fatalf("in-process replay: exit %d\n%s", code, errs)
	}
	t.Setenv("SIMRUN_TEST_HOST", "refclient")
	code, got, errs := run("replay", "--client", os.Args[0], file)
	if code != 0 || got != want {
		t.Fatalf("replay --client: exit %d, same transcript %v\n%s", code, got == want, errs)
	}
	code, out, errs := run("run", "--client", os.Args[0], file)
	if code != 0 || !strings.HasSuffix(out, "1 passed, 0 failed\n") {
		t.Fatalf("run --client: exit %d\n%s%s", code, out, errs)
	}
}

// A client process that breaks a rule fails the scenario that states it: the
// take-time-ignored mutant lets the countdown run on after Take time (CD-4, CD-6).
func TestClientProcessIsJudgedByTheExpectations(t *testing.T) {
	var src []byte
	for _, f := range scenarios.Library() {
		if strings.HasSuffix(f.Path, "/cd-take-time-survives-reload.yaml") {
			src = f.Data
		}
	}
	if src == nil {
		t.Fatal("no cd-take-time-survives-reload in the library")
	}
	file := write(t, t.TempDir(), "cd-take-time-survives-reload.yaml", string(src))
	t.Setenv("SIMRUN_TEST_HOST", "refclient")
	t.Setenv("SIMRUN_TEST_MUTANT", "take-time-ignored")
	code, out, _ := run("run", "--client", os.Args[0], file)
	if code != 1 || !strings.Contains(out, "FAIL") || !strings.Contains(out, "card") {
		t.Fatalf("CD-4 a client ignoring Take time passes: exit %d\n%s", code, out)
	}
}

// A client command that cannot start, or does not speak the protocol, is bad usage (exit
// 2) on every command that takes --client (run, replay, fuzz, shrink, record); fuzz --client runs the campaign with it.
func TestClientFlagOnRunReplayFuzz(t *testing.T) {
	dir := t.TempDir()
	file := write(t, dir, "client-scenario.yaml", clientScenario)
	for _, args := range [][]string{
		{"run", "--client", "/nonexistent/ui", file},
		{"replay", "--client", "/nonexistent/ui", file},
		{"fuzz", "--seeds", "1", "--out", dir, "--client", "/nonexistent/ui"},
		{"run", "--client", "'unclosed", file},
		{"shrink", "--client", "/nonexistent/ui", file},
		{"record", "--client", "/nonexistent/ui", file, "-o", dir + "/x.run"},
	} {
		code, _, errs := run(args...)
		if code != 2 || !strings.Contains(errs, "client") {
			t.Errorf("%v: exit %d, %q", args, code, errs)
		}
	}
	t.Setenv("SIMRUN_TEST_HOST", "refclient")
	code, out, errs := run("fuzz", "--seeds", "4", "--workers", "1", "--out", dir, "--client", os.Args[0])
	if code != 0 || !strings.Contains(out, "4 seeds, 0 failures") {
		t.Fatalf("fuzz --client: exit %d\n%s%s", code, out, errs)
	}
}

// simrun shrink --client shrinks a failure a client process gives (as simrun fuzz --client
// finds it) against that process, and its replay line names it; simrun record --client
// writes the run the process gave, the same bytes as the in-process client's.
func TestClientFlagOnShrinkAndRecord(t *testing.T) {
	dir := t.TempDir()
	witness := "../../killmatrix/testdata/witness/take-time-ignored.yaml"
	if code, _, errs := run("shrink", "--out", dir+"/ref.yaml", witness); code != 2 || !strings.Contains(errs, "passes") {
		t.Fatalf("the witness fails with the reference client (exit %d): %s", code, errs)
	}
	t.Setenv("SIMRUN_TEST_HOST", "refclient")
	t.Setenv("SIMRUN_TEST_MUTANT", "take-time-ignored")
	code, out, errs := run("shrink", "--client", os.Args[0], "--out", dir+"/shrunk.yaml", witness)
	if code != 0 || !strings.Contains(out, "replay: simrun replay --client ") {
		t.Fatalf("shrink --client: exit %d\n%s%s", code, out, errs)
	}
	if code, _, errs := run("replay", "--client", os.Args[0], dir+"/shrunk.yaml"); code != 1 {
		t.Fatalf("the shrunk case passes with the client process: exit %d\n%s", code, errs)
	}

	t.Setenv("SIMRUN_TEST_MUTANT", "")
	file := write(t, dir, "client-scenario.yaml", clientScenario)
	if code, _, errs := run("record", file, "-o", dir+"/in.run"); code != 0 {
		t.Fatalf("record: exit %d\n%s", code, errs)
	}
	if code, _, errs := run("record", "--client", os.Args[0], file, "-o", dir+"/out.run"); code != 0 {
		t.Fatalf("record --client: exit %d\n%s", code, errs)
	}
	in, _ := os.ReadFile(dir + "/in.run")
	got, _ := os.ReadFile(dir + "/out.run")
	if len(in) == 0 || string(in) != string(got) {
		t.Fatalf("record --client wrote another run than the in-process client (%d and %d bytes)", len(in), len(got))
	}
}

// simrun timeline --client draws a client process's run, and --against-client draws it
// beside the reference client's: the reference client served over the protocol is the
// same run (exit 0), one with a client-side bug parts from it (exit 1), and the page names
// the process.
func TestClientFlagOnTimeline(t *testing.T) {
	dir := t.TempDir()
	witness := "../../killmatrix/testdata/witness/take-time-ignored.yaml"
	t.Setenv("SIMRUN_TEST_HOST", "refclient")
	if code, _, errs := run("timeline", "--against-client", os.Args[0], witness, "-o", dir+"/same.html"); code != 0 {
		t.Fatalf("the reference client over the protocol parts from the in-process one: exit %d\n%s", code, errs)
	}
	t.Setenv("SIMRUN_TEST_MUTANT", "take-time-ignored")
	code, _, errs := run("timeline", "--against-client", os.Args[0], witness, "-o", dir+"/differ.html")
	if code != 1 || !strings.Contains(errs, "the runs differ") {
		t.Fatalf("a client ignoring Take time draws the same run: exit %d\n%s", code, errs)
	}
	page, _ := os.ReadFile(dir + "/differ.html")
	if !strings.Contains(string(page), "client "+os.Args[0]) {
		t.Error("the page does not name the client process")
	}
	if code, _, errs := run("timeline", "--client", os.Args[0], witness, "-o", dir+"/one.html"); code != 1 {
		t.Fatalf("timeline --client of a failing client: exit %d\n%s", code, errs)
	}
	if code, _, errs := run("timeline", "--client", "/nonexistent/ui", witness, "-o", dir+"/x.html"); code != 2 || !strings.Contains(errs, "client") {
		t.Fatalf("timeline --client with no such process: exit %d\n%s", code, errs)
	}
}
