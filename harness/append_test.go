package harness

import (
	"strings"
	"testing"
)

// A host append step's event is checked against the protocol's event form before the run, at
// the step's line; a valid one reaches the log at the step's time.
func TestAppendedEventIsCheckedAgainstTheProtocolForm(t *testing.T) {
	src := strings.Replace(pendingScenario, "expect:\n", "  - {at: 1s, host: {append: s1, event: '{\"type\":\"turn/end\",\"turn\":\"one\"}'}}\nexpect:\n", 1)
	r := Run(entry(t, src), DefaultOptions())
	if r.Invalid == nil || !strings.Contains(r.Invalid.Error(), "t.yaml:13:5: the appended event is not a Session event: event.turn") {
		t.Fatalf("invalid: %v", r.Invalid)
	}
	ok := strings.Replace(pendingScenario, "expect:\n", "  - {at: 1s, host: {append: s1, event: '{\"type\":\"turn/start\",\"turn\":7}'}}\nexpect:\n", 1)
	ok = strings.Replace(ok, "  - at: end\n", "  - {at: 2s, event: turn/start turn=7, time: 1s}\n  - at: end\n", 1)
	if r := Run(entry(t, ok), DefaultOptions()); r.Status() != Passed {
		t.Fatalf("%s %v %v", r.Line(), r.Invalid, r.Failures)
	}
}
