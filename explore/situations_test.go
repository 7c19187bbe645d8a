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
	if len(seen) != numSituations || numSituations > 64 {
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
