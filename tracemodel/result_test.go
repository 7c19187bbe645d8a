package tracemodel

import "testing"

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
