package harness

import (
	"bytes"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/twosettle/twosettle/golden"
	"github.com/twosettle/twosettle/scenarios"
	"github.com/twosettle/twosettle/trace"
)

// roundTrip writes r's run file and reads it back.
func roundTrip(t *testing.T, r *Result) *RunFile {
	t.Helper()
	var b bytes.Buffer
	if err := WriteRunFile(&b, r.Name(), r.Trace, r.Verdict); err != nil {
		t.Fatal(err)
	}
	rf, err := ReadRunFile("run.jsonl", b.Bytes())
	if err != nil {
		t.Fatalf("%v\n%s", err, b.Bytes())
	}
	return rf
}

func TestCheckExpectationsIsTheRunsCheck(t *testing.T) {
	wrongView := strings.Replace(pendingScenario, `view: "active=[c1:continued] settled=[]"`, `view: "active=[] settled=[]"`, 1)
	for _, src := range []string{pendingScenario, wrongView} {
		r := RunEntry(entry(t, src), DefaultOptions())
		c := CheckExpectations(r.Scenario, r.Trace, CheckOptions{Verdict: r.Verdict})
		if diff := cmp.Diff(r.Failures, c.Failures); diff != "" || c.Expectations != r.Expectations || c.Impossible != nil {
			t.Fatalf("CheckExpectations differs from the run's own check (-run +check):\n%s %d %d %v", diff, r.Expectations, c.Expectations, c.Impossible)
		}
		if c.OK() != (r.Status() == Passed) {
			t.Fatalf("OK %v, status %s", c.OK(), r.Status())
		}
	}
	r := RunEntry(entry(t, wrongView), DefaultOptions())
	c := CheckExpectations(r.Scenario, r.Trace, CheckOptions{Verdict: r.Verdict})
	if len(c.Failures) != 1 || c.Failures[0].Pos.Line != 21 || !strings.Contains(c.Failures[0].Msg, `not "active=[] settled=[]"`) {
		t.Fatalf("failures %v", c.Failures)
	}
}

func TestCheckExpectationsReportsAnUnexpectedRefusal(t *testing.T) {
	src := strings.Replace(pendingScenario, "mode: timed\n", "mode: timed\nclients:\n  a:\n", 1)
	src = strings.Replace(src, "expect:\n", "  - {at: 1s, a: {hide: c1}}\n  - {at: 2s, a: {submit: c1}, refused: is hidden}\nexpect:\n", 1)
	r := RunEntry(entry(t, src), DefaultOptions())
	s := *r.Scenario
	s.Steps = append([]scenarios.Step(nil), s.Steps...)
	s.Steps[len(s.Steps)-1].Refused = ""
	if c := CheckExpectations(&s, r.Trace, CheckOptions{}); c.Impossible == nil || !strings.Contains(c.Impossible.Error(), "t.yaml:16:5: this step is impossible at 2s") {
		t.Fatalf("impossible: %v", c.Impossible)
	}
}

// Every library scenario's run, written as a run file and read back, renders the same
// transcript records, host and client states, and checks the same: every expectation,
// the clients' included (their states travel in the client protocol's JSON), holds or
// fails exactly as in the run.
func TestRunFileRoundTripKeepsEveryCheck(t *testing.T) {
	for _, e := range Library("") {
		r := RunEntry(e, DefaultOptions())
		if r.Trace == nil || r.HostConfigErr != nil {
			continue
		}
		rf := roundTrip(t, r)
		want, got := golden.FromTrace(r.Name(), r.Trace, r.Verdict.Text), golden.FromTrace(rf.Scenario, rf.Trace, rf.Verdict.Text)
		if len(want.Records) != len(got.Records) {
			t.Fatalf("%s: %d records, then %d", r.Name(), len(want.Records), len(got.Records))
		}
		for i, w := range want.Records {
			if g := got.Records[i]; w != g {
				t.Fatalf("%s: record %d differs after the round trip:\n%s\n%s", r.Name(), i, w, got.Records[i])
			}
		}
		if diff := cmp.Diff(trace.HostLines(r.Trace.Final.Host), trace.HostLines(rf.Trace.Final.Host)); diff != "" || rf.Trace.Final.Time != r.Trace.Final.Time {
			t.Fatalf("%s: final host state differs:\n%s", r.Name(), diff)
		}
		c := CheckExpectations(r.Scenario, rf.Trace, CheckOptions{Verdict: rf.Verdict})
		if c.Impossible != nil {
			t.Fatalf("%s: %v", r.Name(), c.Impossible)
		}
		if diff := cmp.Diff(r.Trace.Final.Clients, rf.Trace.Final.Clients, cmpopts.EquateEmpty()); diff != "" {
			t.Fatalf("%s: final client states differ:\n%s", r.Name(), diff)
		}
		if diff := cmp.Diff(r.Failures, c.Failures); diff != "" {
			t.Fatalf("%s: checks differ (-run +run file):\n%s", r.Name(), diff)
		}
	}
}

func TestReadRunFileErrorsNameTheirPosition(t *testing.T) {
	head := `{"type":"run","format":"twosettle-run/1","scenario":"x","seed":1}` + "\n"
	final := `{"type":"final","t":5,"host":{"sessions":[],"waits":[],"reservations":[],"clients":[],"pending":[]}}` + "\n"
	for _, c := range []struct{ name, data, want string }{
		{"empty", "", "r.jsonl:1:1: an empty run file"},
		{"another format", `{"type":"run","format":"twosettle-run/9"}` + "\n", `r.jsonl:1:1: a run file starts with`},
		{"broken JSON", head + `{"type":"record",` + "\n", "r.jsonl:2:"},
		{"unknown key", head + `{"type":"record","seq":0,"t":0,"actor":"host","kind":"in","text":"x","extra":1}` + "\n" + final, `r.jsonl:2:1: not a run file line: json: unknown field "extra"`},
		{"seq out of order", head + `{"type":"record","seq":3,"t":0,"actor":"sim","kind":"note","text":"x"}` + "\n" + final, "r.jsonl:2:1: seq 3 out of order (expected 0)"},
		{"bad command", head + `{"type":"record","seq":0,"t":0,"actor":"host","kind":"in","text":"x","command":{"kind":"nope"}}` + "\n" + final, `r.jsonl:2:1: command.kind: unknown`},
		{"client without its clock", head + `{"type":"record","seq":0,"t":0,"actor":"a","kind":"in","text":"x"}` + "\n" + final, "r.jsonl:2:1: a record of client a needs clientTime"},
		{"no final state", head + `{"type":"record","seq":0,"t":0,"actor":"sim","kind":"note","text":"x"}` + "\n", "r.jsonl:2:1: the run file has no final state"},
		{"a record after the end", head + final + `{"type":"record","seq":0,"t":0,"actor":"sim","kind":"note","text":"x"}` + "\n", "r.jsonl:3:1: only a verdict may follow"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := ReadRunFile("r.jsonl", []byte(c.data))
			if err == nil || !strings.HasPrefix(err.Error(), c.want) && !strings.Contains(err.Error(), c.want) {
				t.Fatalf("got %v\nwant %s", err, c.want)
			}
		})
	}
}
