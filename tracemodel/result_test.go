package tracemodel

import "testing"

// The pending test is the projection's loose one (docs/PEER.md §5.2, §8.6): a JSON object
// whose last pending member is true; callId is not required.
func TestIsPending(t *testing.T) { // PROJ-4, PROJ-7: a pending result makes the question continued
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
		if got := IsPending(c.text); got != c.want {
			t.Errorf("PROJ-4 IsPending(%s) = %v, want %v", c.text, got, c.want)
		}
	}
}

func TestReadResult(t *testing.T) {
	for _, c := range []struct {
		text    string
		isError bool
		want    Result
	}{
		{`{"pending":true,"callId":"c1"}`, false, Result{Kind: Pending}},
		{`{"answers":[]}`, false, Result{Kind: Answered}},
		{`{"pending":true}`, true, Result{Kind: Failed, Code: "ASK_ABORTED"}}, // an error is an error
	} {
		code := ""
		if c.isError {
			code = "ASK_ABORTED"
		}
		if got := ReadResult(c.text, c.isError, code); got != c.want {
			t.Errorf("ReadResult(%s, %v) = %+v, want %+v", c.text, c.isError, got, c.want)
		}
	}
}
