package harness

import (
	"strings"
	"testing"
)

// A host append step's event is checked against the protocol's event form before the run, at
// the step's line; a valid one reaches the log at the step's time.
func TestAppendedEventIsCheckedAgainstTheProtocolForm(t *testing.T) {
	src := strings.Replace(pendingScenario, "expect:\n", "  - {at: 1s, host: {append: s1, event: '{\"type\":\"turn/end\",\"turn\":\"one\"}'}}\nexpect:\n", 1)
	r := RunEntry(entry(t, src), DefaultOptions())
	if r.Invalid == nil || !strings.Contains(r.Invalid.Error(), "t.yaml:13:5: the appended event is not a Session event: event.turn") {
		t.Fatalf("invalid: %v", r.Invalid)
	}
	ok := strings.Replace(pendingScenario, "expect:\n", "  - {at: 1s, host: {append: s1, event: '{\"type\":\"turn/start\",\"turn\":7}'}}\nexpect:\n", 1)
	ok = strings.Replace(ok, "  - at: end\n", "  - {at: 2s, event: turn/start turn=7, time: 1s}\n  - at: end\n", 1)
	if r := RunEntry(entry(t, ok), DefaultOptions()); r.Status() != Passed {
		t.Fatalf("%s %v %v", r.Line(), r.Invalid, r.Failures)
	}
}

func TestViewQuestionsAreChecked(t *testing.T) {
	for _, c := range []struct{ expect, fail string }{
		{`{at: 4s, view: "active=[c1:open] settled=[]", call: c1, questions: [{id: pkg, question: "Which?", options: [npm, bun]}]}`, ""},
		{`{at: 4s, view: "active=[c1:open] settled=[]", call: c1, questions: [{id: pkg, question: "Which?", options: [npm]}]}`,
			`view of s1 at 4s: c1 holds the questions [{"id":"pkg","question":"Which?","options":[{"label":"npm"},{"label":"bun"}]}], not [{"id":"pkg","question":"Which?","options":[{"label":"npm"}]}]`},
		{`{at: 4s, view: "active=[c1:open] settled=[]", call: c9, questions: []}`, `view of s1 at 4s: c9 is not active (active=[c1:open] settled=[])`},
	} {
		src := strings.Replace(pendingScenario, "expect:\n", "expect:\n  - "+c.expect+"\n", 1)
		r := RunEntry(entry(t, src), DefaultOptions())
		if r.Invalid != nil {
			t.Fatal(r.Invalid)
		}
		var msgs []string
		for _, f := range r.Failures {
			msgs = append(msgs, f.Msg)
		}
		if c.fail == "" && len(msgs) != 0 || c.fail != "" && (len(msgs) != 1 || msgs[0] != c.fail) {
			t.Errorf("%s: failures %q", c.expect, msgs)
		}
	}
}
