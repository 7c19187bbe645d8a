package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const okScenario = `name: ok-scenario
summary: Nobody claims the wait, so the tool returns pending at the deadline.
covers: [WAIT-8]
mode: timed
timeout: 5
steps:
  - {at: 0s, model: {prompt: go}}
  - {at: 0s, model: header}
  - {at: 0s, model: {call: c1, ask: [{id: q, question: Q}]}}
expect:
  - {at: 6s, tool-result: c1, pending: true}
`

func write(t *testing.T, dir, name, src string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func run(args ...string) (int, string, string) {
	var out, errb bytes.Buffer
	code := Main(args, &out, &errb)
	return code, out.String(), errb.String()
}

func TestRunExitCodes(t *testing.T) {
	dir := t.TempDir()
	ok := write(t, dir, "ok-scenario.yaml", okScenario)
	code, out, _ := run("run", ok)
	if code != 0 || !strings.HasSuffix(out, "1 passed, 0 failed\n") {
		t.Fatalf("%d %q", code, out)
	}
	failing := write(t, dir, "failing.yaml", strings.Replace(strings.Replace(okScenario, "pending: true", "none: true", 1), "ok-scenario", "failing", 1))
	code, out, _ = run(failing)
	if code != 1 || !strings.Contains(out, "FAIL    failing: ") || !strings.Contains(out, "failing.yaml:11:5") || !strings.HasSuffix(out, "0 passed, 1 failed\n") {
		t.Fatalf("%d %q", code, out)
	}
	bad := write(t, dir, "bad.yaml", "name: bad\nsummary: x\ntiemout: 3\n")
	code, out, _ = run("run", bad)
	if code != 2 || !strings.Contains(out, "bad.yaml:3:1: unknown key \"tiemout\"") || !strings.Contains(out, "did you mean timeout?") {
		t.Fatalf("%d %q", code, out)
	}
	code, _, errOut := run("run", "--seed", "x")
	if code != 2 || !strings.Contains(errOut, "seed") {
		t.Fatalf("%d %q", code, errOut)
	}
	code, _, _ = run("frobnicate")
	if code != 2 {
		t.Fatalf("unknown command: %d", code)
	}
	code, _, errOut = run(filepath.Join(dir, "missing.yaml"))
	if code != 2 || !strings.Contains(errOut, "missing.yaml") {
		t.Fatalf("%d %q", code, errOut)
	}
}

func TestRunUpdateVerboseAndJSON(t *testing.T) {
	dir := t.TempDir()
	p := write(t, dir, "ok-scenario.yaml", okScenario)
	code, out, _ := run(p, "--update")
	if code != 0 || !strings.Contains(out, "wrote "+filepath.Join(dir, "ok-scenario.golden")) {
		t.Fatalf("%d %q", code, out)
	}
	code, out, _ = run(p, "-v")
	golden, _ := os.ReadFile(filepath.Join(dir, "ok-scenario.golden"))
	if code != 0 || !strings.HasPrefix(out, string(golden)) || !strings.Contains(out, "golden match") {
		t.Fatalf("-v does not print the golden's exact bytes: %d\n%s", code, out)
	}
	code, out, _ = run("--json", p)
	var rep struct {
		Results []struct {
			Name, Status, Golden string
			Expectations         int
		}
		Passed, Failed int
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil || code != 0 {
		t.Fatalf("%d %v %q", code, err, out)
	}
	if len(rep.Results) != 1 || rep.Results[0].Status != "passed" || rep.Results[0].Golden != "match" || rep.Passed != 1 {
		t.Fatalf("%+v", rep)
	}
}

func TestCheck(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "ok-scenario.yaml", okScenario)
	if code, out, _ := run("check", dir); code != 0 || !strings.Contains(out, "1 valid, 0 invalid") {
		t.Fatalf("%d %q", code, out)
	}
	write(t, dir, "z.yaml", "name: z\nsummary: x\nsteps:\n  - {at: 2s, model: header}\n  - {at: 1s, model: header}\n")
	code, out, _ := run("check", dir)
	if code != 2 || !strings.Contains(out, "z.yaml:5:5: this step at 1s comes after a step at 2s") {
		t.Fatalf("%d %q", code, out)
	}
	if code, _, _ := run("check"); code != 2 {
		t.Fatal("check with no path")
	}
}

func TestReplay(t *testing.T) {
	dir := t.TempDir()
	p := write(t, dir, "ok-scenario.yaml", okScenario)
	code, out, errOut := run("replay", p)
	if code != 0 || !strings.HasPrefix(out, "# twosettle transcript") || !strings.Contains(errOut, "ok      ok-scenario") {
		t.Fatalf("%d %q %q", code, out, errOut)
	}
	code, out2, _ := run("replay", p)
	if code != 0 || out2 != out {
		t.Fatal("replay is not deterministic")
	}
	tp := write(t, dir, "t.golden", out)
	if code, _, errOut := run("replay", tp); code != 2 || !strings.Contains(errOut, "is a transcript") {
		t.Fatalf("%d %q", code, errOut)
	}
	if code, _, _ := run("replay"); code != 2 {
		t.Fatal("replay with no file")
	}
}

func TestCoverage(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "ok-scenario.yaml", okScenario)
	code, out, _ := run("coverage", dir)
	if code != 1 || !strings.Contains(out, "WAIT-8    scenarios: ok-scenario") || !strings.Contains(out, "uncovered: ") {
		t.Fatalf("%d %q", code, out)
	}
	// Uncovered ids come last.
	if strings.Index(out, "uncovered:") < strings.Index(out, "WAIT-8") {
		t.Fatal("uncovered ids are not last")
	}
	code, out, _ = run("coverage", "--json", dir)
	var rep struct {
		Requirements []struct {
			ID        string
			Scenarios []string
		}
		Uncovered []string
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil || code != 1 || len(rep.Requirements) < 100 {
		t.Fatalf("%d %v", code, err)
	}
	for _, r := range rep.Requirements {
		if r.ID == "WAIT-8" && (len(r.Scenarios) != 1 || r.Scenarios[0] != "ok-scenario") {
			t.Fatalf("%+v", r)
		}
	}
}

func TestDefaultRunsTheEmbeddedLibrary(t *testing.T) {
	code, out, _ := run()
	if code != 0 || !strings.Contains(out, " passed, 0 failed") {
		t.Fatalf("%d\n%s", code, out)
	}
}

func TestUpdateOutsideTheSourceTree(t *testing.T) {
	wd, _ := os.Getwd()
	defer os.Chdir(wd)
	if err := os.Chdir(t.TempDir()); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := run("--update")
	if code != 2 || out != "" || !strings.Contains(errOut, "inside the repository") {
		t.Fatalf("%d %q %q", code, out, errOut)
	}
	// Without --update the embedded library runs from anywhere.
	if code, out, _ := run(); code != 0 || !strings.Contains(out, " passed, 0 failed") {
		t.Fatalf("%d %q", code, out)
	}
}
