package explore

import (
	"testing"

	"github.com/twosettle/twosettle/scenarios"
)

func TestSituationNamesAreUniqueAndDocumented(t *testing.T) {
	seen := map[string]bool{}
	for _, s := range Situations() {
		if s.Name == "" || s.Doc == "" || seen[s.Name] {
			t.Fatalf("situation %+v", s)
		}
		seen[s.Name] = true
	}
	if len(seen) != numSituations || numSituations > 128 {
		t.Fatalf("%d situations", len(seen))
	}
}

func decode(t *testing.T, src string) *scenarios.Scenario {
	t.Helper()
	s, err := scenarios.Decode("t.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func reached(t *testing.T, src string) []string {
	t.Helper()
	out, r := NewRunner(Options{}).Run(decode(t, src))
	if out.Failed() {
		t.Fatalf("the run failed: %s", out.Message())
	}
	return r.Names()
}

func has(names []string, n string) bool {
	for _, x := range names {
		if x == n {
			return true
		}
	}
	return false
}

// Two clients hold claims; one takes time and keeps its claim, the other's countdown
// expires; the claim leaves after the deadline.
func TestSituationsOfTwoClients(t *testing.T) {
	names := reached(t, `name: two
summary: two clients, one takes time
mode: timed
timeout: 2
clients:
  a: {latency: 10ms}
  b: {latency: 10ms}
steps:
  - {at: 0s, model: {prompt: go}}
  - {at: 0s, model: header}
  - {at: 0s, model: {call: c1, ask: [{id: q, question: "Q?", options: [x, y]}]}}
  - {at: 500ms, a: {take-time: c1}}
  - {at: 3s, a: {choose: x, card: c1}}
  - {at: 3s, a: {submit: c1}}
limit: 10s
`)
	for _, want := range []string{"two-claims", "local-expiry", "take-time-while-other-expires"} {
		if !has(names, want) {
			t.Errorf("%s not reached (reached %v)", want, names)
		}
	}
	if has(names, "host-expiry") || has(names, "restart-during-claim") {
		t.Errorf("reached %v", names)
	}
}

func TestSituationsOfALateAnswerAndARestart(t *testing.T) {
	names := reached(t, `name: late
summary: pending, answered late, a restart while the reply waits
mode: timed
timeout: 1
auto-end: never
clients:
  a: {latency: 5ms, reconnect: 50ms}
steps:
  - {at: 0s, model: {prompt: go}}
  - {at: 0s, model: header}
  - {at: 0s, model: {call: c2, ask: [{id: q, question: "Q?", options: [x, y]}]}}
  - {at: 3s, a: {reopen: c2}}
  - {at: 3100ms, a: {choose: x, card: c2}}
  - {at: 3200ms, a: {submit: c2}}
  - {at: 3500ms, host: restart}
limit: 12s
`)
	for _, want := range []string{"late-answer-accepted", "restart-with-queued-reply", "reply-survives-restart", "late-answer-admitted"} {
		if !has(names, want) {
			t.Errorf("%s not reached (reached %v)", want, names)
		}
	}
}

// A fork of a Session whose question went continued, which asks its own question and is
// asked to answer its parent's call.
func TestSituationsOfAFork(t *testing.T) {
	names := reached(t, `name: fork
summary: a fork inherits a continued question
mode: timed
timeout: 1
auto-end: never
clients:
  a: {latency: 5ms}
steps:
  - {at: 0s, model: {prompt: go}}
  - {at: 0s, model: header}
  - {at: 0s, model: {call: c1, ask: [{id: q, question: "Q?", options: [x, y]}]}}
  - {at: 2s, host: {open: f1, fork: s1, through: 7}}
  - {at: 2100ms, session: f1, model: {prompt: go}}
  - {at: 2100ms, session: f1, model: header}
  - {at: 2100ms, session: f1, model: {call: c2, ask: [{id: q, question: "Q?", options: [x, y]}]}}
  - {at: 2200ms, session: f1, service: {answer: {q: x}, call: c1}}
limit: 10s
`)
	for _, want := range []string{"fork-of-continued-question", "fork-asks", "fork-answer-for-parent-call"} {
		if !has(names, want) {
			t.Errorf("%s not reached (reached %v)", want, names)
		}
	}
}

// A closed Session whose late answer fails with an inbox write fault; the resubmission is
// accepted and resumes it.
func TestSituationsOfAWriteFaultAndAClose(t *testing.T) {
	names := reached(t, `name: fault
summary: a late answer fails with the write fault, then is taken
mode: timed
timeout: 1
clients:
  a: {latency: 10ms}
steps:
  - {at: 0s, model: {prompt: go}}
  - {at: 0s, model: header}
  - {at: 0s, model: {call: c1, ask: [{id: pkg, question: "Which?", options: [npm, bun]}]}}
  - {at: 1500ms, host: {close: s1}}
  - {at: 2s, host: {fail-inbox-write: s1}}
  - {at: 3s, a: {choose: bun}}
  - {at: 3s, a: submit}
  - {at: 4s, a: submit}
limit: 10s
`)
	for _, want := range []string{"late-answer-write-fault", "write-fault-then-reanswered", "closed-resumed-by-late-answer", "late-answer-accepted"} {
		if !has(names, want) {
			t.Errorf("%s not reached (reached %v)", want, names)
		}
	}
	if has(names, "closed-resumed-by-prompt") || has(names, "fork-asks") {
		t.Errorf("reached %v", names)
	}
}

// A steer carrying a late reply's source resumes a closed Session and is admitted; it is
// not a late answer.
func TestSituationsOfASteeredReply(t *testing.T) {
	names := reached(t, `name: steer
summary: a steered reply resumes a closed Session
mode: timed
timeout: 1
steps:
  - {at: 0s, model: {prompt: go}}
  - {at: 0s, model: header}
  - {at: 0s, model: {call: c1, ask: [{id: q, question: "Q?", options: [x, y]}]}}
  - {at: 2s, host: {close: s1}}
  - {at: 3s, model: {steer: "x", source: {kind: user-question-reply, call: c1, outcome: answered}}}
limit: 10s
`)
	for _, want := range []string{"closed-resumed-by-prompt", "steered-reply-admitted", "late-answer-admitted"} {
		if !has(names, want) {
			t.Errorf("%s not reached (reached %v)", want, names)
		}
	}
	if has(names, "late-answer-accepted") || has(names, "closed-resumed-by-late-answer") {
		t.Errorf("reached %v", names)
	}
}
