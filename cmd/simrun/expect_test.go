package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/twosettle/twosettle/conform"
)

// With SIMRUN_TEST_HOST=refhost the test binary is `conform refhost`: the reference host
// over twosettle-conform/1, a host process like any other implementation's.
// With SIMRUN_TEST_MAIN=simrun (or conform) it is that command, for tests that run the
// commands as processes through shell lines (recipes_test.go).
func TestMain(m *testing.M) {
	switch os.Getenv("SIMRUN_TEST_MAIN") {
	case "simrun":
		os.Exit(Main(os.Args[1:], os.Stdout, os.Stderr))
	case "conform":
		os.Exit(conform.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr, os.Environ()))
	}
	if os.Getenv("SIMRUN_TEST_HOST") == "refhost" {
		if err := conform.Serve(os.Stdin, os.Stdout, os.Getenv("SIMRUN_TEST_MUTANT"), "test"); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
		os.Exit(0)
	}
	if os.Getenv("SIMRUN_TEST_HOST") == "refclient" { // `conform refclient` (client_test.go)
		if err := conform.ServeClient(os.Stdin, os.Stdout, os.Getenv("SIMRUN_TEST_MUTANT"), "test"); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// expectScenario has host-side expectations at a time and at the end, and a refused step
// (the second of two identical steps at one instant).
const expectScenario = `name: expect-scenario
summary: Nobody claims the wait, so the tool returns pending at the deadline; the question stays answerable.
covers: [WAIT-8]
mode: timed
timeout: 5
clients:
  a:
steps:
  - {at: 0s, model: {prompt: go}}
  - {at: 0s, model: header}
  - {at: 0s, model: {call: c1, ask: [{id: q, question: Q}]}}
  - {at: 1s, a: {hide: c1}}
  - {at: 1s, a: {hide: c1}, refused: hidden}
expect:
  - {at: 4s, tool-result: c1, none: true}
  - {at: 6s, tool-result: c1, pending: true}
  - {at: 6s, record: "tool/result"}
  - {at: end, view: "active=[c1:continued] settled=[]"}
`

func TestRecordAndExpectOverTheProtocol(t *testing.T) {
	dir := t.TempDir()
	sc := write(t, dir, "expect-scenario.yaml", expectScenario)
	runFile := filepath.Join(dir, "run.jsonl")
	t.Setenv("SIMRUN_TEST_HOST", "refhost")
	if code, _, errs := run("record", "--host", os.Args[0], sc, "-o", runFile); code != 0 {
		t.Fatalf("record over the protocol: exit %d\n%s", code, errs)
	}
	code, out, errs := run("expect", sc, runFile)
	if code != 0 || !strings.Contains(out, "5 checked, 0 failed") {
		t.Fatalf("expect: exit %d\n%s%s", code, out, errs)
	}

	// The same run checked against a scenario that expects otherwise fails at its line.
	wrong := write(t, dir, "wrong.yaml", strings.Replace(expectScenario, `view: "active=[c1:continued] settled=[]"`, `view: "active=[] settled=[]"`, 1))
	code, out, _ = run("expect", wrong, runFile)
	if code != 1 || !strings.Contains(out, "wrong.yaml:18:5: view of s1 at the end is \"active=[c1:continued] settled=[]\"") {
		t.Fatalf("a failing expectation: exit %d\n%s", code, out)
	}
	// A step the run refused that the scenario does not expect refused.
	impossible := write(t, dir, "impossible.yaml", strings.Replace(expectScenario, ", refused: hidden}", "}", 1))
	code, out, _ = run("expect", impossible, runFile)
	if code != 1 || !strings.Contains(out, "impossible.yaml:13:5: this step is impossible at 1s") {
		t.Fatalf("an unexpected refusal: exit %d\n%s", code, out)
	}
}

func TestExpectBadInput(t *testing.T) {
	dir := t.TempDir()
	sc := write(t, dir, "expect-scenario.yaml", expectScenario)
	runFile := filepath.Join(dir, "run.jsonl")
	if code, _, errs := run("record", sc, "-o", runFile); code != 0 {
		t.Fatalf("record: exit %d\n%s", code, errs)
	}
	broken := write(t, dir, "broken.jsonl", `{"type":"run","format":"twosettle-run/1","scenario":"expect-scenario"}`+"\n"+`{"type":"record","seq":0,"t":"x"}`+"\n")
	other := write(t, dir, "other.yaml", strings.Replace(expectScenario, "name: expect-scenario", "name: other", 1))
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"expect", sc}, "usage: simrun expect"},
		{[]string{"expect", sc, broken}, "broken.jsonl:2:"},
		{[]string{"expect", other, runFile}, `is a run of "expect-scenario", not of "other"`},
		{[]string{"expect", write(t, dir, "bad.yaml", "name: x\nsteps: 3\n"), runFile}, "bad.yaml:"},
		{[]string{"record", sc}, "usage: simrun record"},
	} {
		if code, _, errs := run(c.args...); code != 2 || !strings.Contains(errs, c.want) {
			t.Errorf("%v: exit %d\n%s", c.args, code, errs)
		}
	}
}
