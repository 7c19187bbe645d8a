package harness

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/twosettle/twosettle/engine/wire"
	"github.com/twosettle/twosettle/golden"
	"github.com/twosettle/twosettle/scenarios"
	"github.com/twosettle/twosettle/sim"
	"github.com/twosettle/twosettle/trace"
)

const pendingScenario = `name: pending-at-deadline
summary: Nobody claims the wait, so the tool returns pending at the deadline.
covers: [WAIT-8, TOOL-7]
mode: timed
timeout: 5
steps:
  - {at: 0s, model: {prompt: go}}
  - {at: 0s, model: header}
  - at: 0s
    model:
      call: c1
      ask: [{id: pkg, question: "Which?", options: [npm, bun]}]
expect:
  - at: 4s
    tool-result: c1
    none: true
  - at: 6s
    tool-result: c1
    pending: true
    time: 5s
  - at: end
    view: "active=[c1:continued] settled=[]"
`

func entry(t *testing.T, src string) Entry {
	t.Helper()
	return Entry{Path: "t.yaml", Data: []byte(src)}
}

func TestRunPasses(t *testing.T) {
	r := RunEntry(entry(t, pendingScenario), DefaultOptions())
	if r.Status() != Passed {
		t.Fatalf("%s\n%v\n%s", r.Line(), r.Failures, r.Transcript)
	}
	if r.Expectations != 3 || r.Verdict == nil || r.Verdict.Status != "ok" {
		t.Fatalf("expectations %d verdict %+v", r.Expectations, r.Verdict)
	}
	if !bytes.HasPrefix(r.Transcript, []byte(golden.Banner)) || !bytes.Contains(r.Transcript, []byte("\noracle: ok\n")) {
		t.Fatalf("transcript:\n%s", r.Transcript)
	}
}

func TestRunIsDeterministic(t *testing.T) {
	a := RunEntry(entry(t, pendingScenario), DefaultOptions())
	b := RunEntry(entry(t, pendingScenario), DefaultOptions())
	if !bytes.Equal(a.Transcript, b.Transcript) {
		t.Fatal("two runs of one scenario gave different transcripts")
	}
}

func TestFailedExpectationNamesItsLine(t *testing.T) {
	src := strings.Replace(pendingScenario, "    time: 5s\n", "    time: 4s\n", 1)
	r := RunEntry(entry(t, src), DefaultOptions())
	if r.Status() != Failed || len(r.Failures) != 1 {
		t.Fatalf("%s %v", r.Line(), r.Failures)
	}
	f := r.Failures[0].String()
	if !strings.HasPrefix(f, "t.yaml:17:5: ") || !strings.Contains(f, "recorded at t=5000, not 4s") {
		t.Fatalf("failure %q", f)
	}
	if !strings.Contains(string(r.Transcript), "# FAILED t.yaml:17:5") {
		t.Fatal("the failure is not noted in the transcript")
	}
}

func TestImpossibleStepIsInvalidAtItsLine(t *testing.T) {
	// A submit on a card the user has just hidden: valid YAML, impossible at that time.
	src := strings.Replace(pendingScenario, "mode: timed\n", "mode: timed\nclients:\n  a:\n", 1)
	src = strings.Replace(src, "expect:\n", "  - {at: 1s, a: {hide: c1}}\n  - {at: 2s, a: {submit: c1}}\nexpect:\n", 1)
	r := RunEntry(entry(t, src), DefaultOptions())
	if r.Status() != Invalid {
		t.Fatalf("%s\n%s", r.Line(), r.Transcript)
	}
	var es scenarios.Errors
	if !errors.As(r.Invalid, &es) || es[0].Pos.Line != 16 || !strings.Contains(es[0].Msg, "impossible at 2s") || !strings.Contains(es[0].Hint, "refused:") {
		t.Fatalf("invalid: %v", r.Invalid)
	}
}

func TestRefusedSteps(t *testing.T) {
	base := strings.Replace(pendingScenario, "mode: timed\n", "mode: timed\nclients:\n  a:\n", 1)
	hidden := "  - {at: 1s, a: {hide: c1}}\n  - {at: 2s, a: {submit: c1}, refused: is hidden}\nexpect:\n"
	r := RunEntry(entry(t, strings.Replace(base, "expect:\n", hidden, 1)), DefaultOptions())
	if r.Status() != Passed {
		t.Fatalf("an expected refusal failed: %s %v", r.Line(), r.Failures)
	}
	wrong := "  - {at: 1s, a: {hide: c1}}\n  - {at: 2s, a: {submit: c1}, refused: busy}\nexpect:\n"
	r = RunEntry(entry(t, strings.Replace(base, "expect:\n", wrong, 1)), DefaultOptions())
	if r.Status() != Failed || !strings.Contains(r.Failures[0].Msg, "does not contain \"busy\"") {
		t.Fatalf("%s %v", r.Line(), r.Failures)
	}
	taken := "  - {at: 1s, a: {hide: c1}, refused: anything}\nexpect:\n"
	r = RunEntry(entry(t, strings.Replace(base, "expect:\n", taken, 1)), DefaultOptions())
	if r.Status() != Failed || !strings.Contains(r.Failures[0].Msg, "but it was taken") {
		t.Fatalf("%s %v", r.Line(), r.Failures)
	}
}

func TestHostConfigRefused(t *testing.T) {
	src := "name: bad-default\nsummary: x\nmode: timed\ntimeout: 2147484\nexpect:\n  - {at: end, host-config: refused, contains: timeout}\n"
	r := RunEntry(entry(t, src), DefaultOptions())
	if r.Status() != Passed || r.HostConfigErr == nil {
		t.Fatalf("%s %v", r.Line(), r.Failures)
	}
	// Expecting the host to take a timeout it refuses (TOOL-3) makes the scenario invalid,
	// reported at the timeout: key, not a run that fails at the scenario's first line.
	for _, src := range []string{strings.Replace(src, "refused", "accepted", 1), "name: bad-default\nsummary: x\nmode: timed\ntimeout: 0\n"} {
		r = RunEntry(entry(t, src), DefaultOptions())
		if r.Status() != Invalid || !strings.Contains(r.Line(), "t.yaml:4:10: the host refuses timeout") {
			t.Fatalf("%s", r.Line())
		}
	}
	r = RunEntry(entry(t, "name: ok-default\nsummary: x\nmode: timed\ntimeout: 30\nexpect:\n  - {at: end, host-config: refused}\n"), DefaultOptions())
	if r.Status() != Failed || !strings.Contains(r.Failures[0].Msg, "accepted it") {
		t.Fatalf("%s", r.Line())
	}
}

func TestHostConfigTimeoutZeroIsStatedAndRefused(t *testing.T) {
	t.Run("TOOL-3 a configured default of 0 is refused, not read as 120 s", func(t *testing.T) {
		src := "name: zero-default\nsummary: x\nmode: timed\ntimeout: 0\nexpect:\n  - {at: end, host-config: refused, contains: timeout}\n"
		r := RunEntry(entry(t, src), DefaultOptions())
		if r.Status() != Passed || r.HostConfigErr == nil {
			t.Fatalf("%s %v", r.Line(), r.Failures)
		}
		p := Compile(r.Scenario, 0)
		if !p.Host.DefaultTimeoutSet || p.Host.String() != "mode=timed timeout=0s window=default" {
			t.Fatalf("host config %+v (%s)", p.Host, p.Host)
		}
	})
	t.Run("TOOL-2 no timeout: stated is the 120 s default", func(t *testing.T) {
		src := "name: no-default\nsummary: x\nmode: timed\nexpect:\n  - {at: end, host-config: accepted}\n"
		if r := RunEntry(entry(t, src), DefaultOptions()); r.Status() != Passed {
			t.Fatalf("%s %v", r.Line(), r.Failures)
		}
	})
}

func TestOracleHook(t *testing.T) {
	bad := func(_ *trace.Trace, _ *scenarios.Scenario) Verdict {
		return Verdict{Text: "oracle: violation\n  INV-TEST at 0003: broken on purpose", Status: "violation"}
	}
	opts := Options{Oracle: bad}
	r := RunEntry(entry(t, pendingScenario), opts)
	if r.Status() != Failed || !strings.Contains(r.Failures[0].Msg, "INV-TEST") {
		t.Fatalf("a violation did not fail the run: %s", r.Line())
	}
	if !bytes.Contains(r.Transcript, []byte("\noracle: violation\n  INV-TEST at 0003: broken on purpose\n")) {
		t.Fatalf("the verdict is not in the transcript:\n%s", r.Transcript)
	}
	expected := pendingScenario + "  - {at: end, oracle: violation, contains: INV-TEST}\n"
	if r := RunEntry(entry(t, expected), opts); r.Status() != Passed {
		t.Fatalf("an expected violation failed: %s %v", r.Line(), r.Failures)
	}
	if r := RunEntry(entry(t, pendingScenario), Options{}); r.Verdict != nil || bytes.Contains(r.Transcript, []byte("oracle:")) {
		t.Fatal("no oracle, yet a verdict")
	}
}

func TestGoldenComparisonAndUpdate(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "pending-at-deadline.yaml")
	if err := os.WriteFile(path, []byte(pendingScenario), 0o644); err != nil {
		t.Fatal(err)
	}
	es, err := Load([]string{dir})
	if err != nil || len(es) != 1 || es[0].GoldenPath != filepath.Join(dir, "pending-at-deadline.golden") {
		t.Fatalf("%v %+v", err, es)
	}
	r := RunEntry(es[0], DefaultOptions())
	if r.Golden.State != "none" || r.Status() != Passed {
		t.Fatalf("no golden beside an ad-hoc file: %+v", r.Golden)
	}
	if g := Update(r); g.State != "updated" {
		t.Fatalf("update: %+v", g)
	}
	r = RunEntry(es[0], DefaultOptions())
	if r.Golden.State != "match" {
		t.Fatalf("after update: %+v", r.Golden)
	}
	if g := Update(r); g.State != "unchanged" {
		t.Fatalf("second update: %+v", g)
	}
	// One byte of behaviour changed in the golden: refused, with the first divergent record.
	b, _ := os.ReadFile(es[0].GoldenPath)
	changed := bytes.Replace(b, []byte("deadline=5000"), []byte("deadline=5001"), 1)
	os.WriteFile(es[0].GoldenPath, changed, 0o644)
	r = RunEntry(es[0], DefaultOptions())
	if r.Status() != Failed || r.Golden.State != "mismatch" || r.Golden.Mismatch.Record == "" {
		t.Fatalf("%s %+v", r.Line(), r.Golden)
	}
	if !strings.Contains(r.Line(), "departs from the golden") {
		t.Fatalf("line %q", r.Line())
	}
	// A comment changed: still a match.
	os.WriteFile(es[0].GoldenPath, append(b, []byte("# a reviewer's note\n")...), 0o644)
	if r = RunEntry(es[0], DefaultOptions()); r.Golden.State != "match" {
		t.Fatalf("comment: %+v", r.Golden)
	}
	// Another seed: the golden is not compared.
	opts := DefaultOptions()
	opts.Seed = 99
	if r = RunEntry(es[0], opts); r.Golden.State != "skipped" || r.Seed != 99 {
		t.Fatalf("seed: %+v", r.Golden)
	}
}

func TestLibraryFilesHaveGoldensInTheGoldenTree(t *testing.T) {
	e := FileEntry(filepath.Join("x", "scenarios", "library", "a-b.yaml"), nil)
	if e.GoldenPath != filepath.Join("x", "golden", "library", "a-b.golden") || !e.GoldenRequired {
		t.Fatalf("%+v", e)
	}
}

func TestCompile(t *testing.T) {
	src := `name: c
summary: x
mode: timed
write-window: 0s
clients:
  b: {latency: 5ms..9ms, http: 1ms, skew: -2s, drift: 300ppm, reconnect: 1s}
  a:
sessions:
  main:
steps:
  - {at: 1s, model: {call: c1, ask: [{id: q, question: "Q?", header: H, options: [x, {label: y, description: d}], multi: true}], timeout: 1.5}}
  - {at: 1s, model: {call: c2, run: [{ask: [], timeout: -1}, {sleep: 2s}, {tool: t}]}}
  - {at: 2s, service: {ask-timed: [{id: q, question: Q, plan-review: x, options: [x]}], timeout: 500ms}}
  - {at: 2s, service: {answer: {q: [], r: {custom: "c"}}, call: c1}}
  - {at: 3s, b: {choose: y, q: q}}
  - {at: 3s, a: reload}
  - {at: 3s, net: {partition: b, for: 2s}}
  - {at: 4s, host: {crash: after-effect, effects: 2}}
expect:
  - {at: 3s, view: "x"}
`
	s, err := scenarios.Decode("c.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	p := Compile(s, 0)
	if p.Seed != 1 || p.Host.WriteWindowMs != -1 || p.Host.ToolMode != "timed" {
		t.Fatalf("%+v", p)
	}
	if len(p.Sim.Clients) != 2 || p.Sim.Clients[0].Name != "a" || p.Sim.Clients[0].ReconnectMs != -1 {
		t.Fatalf("clients %+v", p.Sim.Clients)
	}
	b := p.Sim.Clients[1]
	if b.Mux != (sim.Latency{Min: 5, Max: 9}) || b.HTTP != (sim.Latency{Min: 1, Max: 1}) || b.Clock != (sim.Clock{Offset: -2000, DriftPPM: 300}) || b.ReconnectMs != 1000 {
		t.Fatalf("b %+v", b)
	}
	want := []string{
		"open-session main",
		`tool-call main call=c1 ask_user_question {"questions":[{"id":"q","question":"Q?","header":"H","options":[{"label":"x"},{"label":"y","description":"d"}],"multi_select":true}],"timeout":1.5}`,
		`tool-call main call=c2 run_code {"calls":[{"name":"ask_user_question","arguments":{"questions":[],"timeout":-1}},{"name":"sleep","arguments":{"ms":2000}},{"name":"t","arguments":{}}]}`,
		`direct d1 askTimed main agent=live {"questions":[{"id":"q","question":"Q","options":[{"label":"x"}],"intent":{"kind":"plan-review","approve":"x"}}],"callId":"d1","timeoutMs":500}`,
		`direct d2 answer main agent=live {"callId":"c1","answer":{"answers":[{"id":"q","selected":[]},{"id":"r","selected":[],"custom":"c"}]}}`,
		`user choose q=q label="y"`,
	}
	var got []string
	for i, st := range p.Sim.Steps {
		if p.Inputs[i] != "" {
			got = append(got, p.Inputs[i])
		}
		_ = st
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("inputs:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// reload, partition, crash, then the probe after everything at 3s.
	var kinds []string
	for _, st := range p.Sim.Steps {
		switch {
		case st.Fault != nil:
			kinds = append(kinds, st.Fault.Kind+"@"+itoa(int(st.At)))
		case st.Net != nil:
			kinds = append(kinds, st.Net.Kind+"@"+itoa(int(st.At)))
		case st.Probe != "":
			kinds = append(kinds, st.Probe+"@"+itoa(int(st.At)))
		}
	}
	if strings.Join(kinds, " ") != "reload@3000 partition@3000 expect@3s@3000 crash@4000" {
		t.Fatalf("kinds %v", kinds)
	}
	if st := p.Sim.Steps[len(p.Sim.Steps)-1]; st.Fault.Effect != 2 || st.Fault.Point != sim.PointAfterEffect {
		t.Fatalf("crash %+v", st.Fault)
	}
	_ = wire.Tick{}
}
