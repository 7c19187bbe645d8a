package wire

import "testing"

// The one pending test of the engine, the harness, the timeline and situation coverage
// (tracemodel) is the projection's loose one (docs/PEER.md §5.2, §8.6): a JSON object
// whose last pending member is true; callId is not required.
func TestIsPendingResult(t *testing.T) { // PROJ-4, PROJ-7: a pending result makes the question continued
	for _, c := range []struct {
		text string
		want bool
	}{
		{`{"pending":true,"callId":"c1","message":"No answer batch arrived before the timeout."}`, true},
		{`{"pending":true}`, true},
		{` { "pending" : true } `, true},
		{`{"pend\u0069ng":true}`, true}, // an escaped key is the same key, as JSON.parse reads it
		{`{"pending":true,"pending":false}`, false},
		{`{"pending":false,"pending":true}`, true}, // the last member wins
		{`{"pending":false}`, false},
		{`{"pending":"true"}`, false},
		{`{"pending":1}`, false},
		{`{"a":{"pending":true}}`, false}, // nested: not the result's
		{`[{"pending":true}]`, false},
		{`{"pending":true} x`, false}, // not JSON
		{`{"pending":true`, false},
		{`pending`, false},
		{`{"answers":[{"id":"q","selected":["x"]}]}`, false},
		{`"{\"pending\":true}"`, false}, // a string holding it
		{``, false},
	} {
		if got := IsPendingResult(c.text); got != c.want {
			t.Errorf("PROJ-4 IsPendingResult(%s) = %v, want %v", c.text, got, c.want)
		}
	}
}
