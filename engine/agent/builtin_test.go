package agent

import "testing"

func TestSleepArgs(t *testing.T) {
	for _, c := range []struct {
		args string
		ms   int64
		ok   bool
	}{
		{`{"ms":0}`, 0, true}, {`{"ms":50}`, 50, true}, {`{"ms": 50}`, 50, true}, {`{"ms":2147483647}`, 2147483647, true},
		{`{"ms":2147483648}`, 0, false}, {`{"ms":99999999999}`, 0, false}, {`{"ms":050}`, 0, false}, {`{"ms":-5}`, 0, false},
		{`{"ms":5e1}`, 0, false}, {`{"ms":1.5}`, 0, false}, {`{"ms":"5"}`, 0, false}, {`{"ms":}`, 0, false}, {`{}`, 0, false},
		{`{"x":1,"ms":7}`, 7, true}, {`[]`, 0, false},
	} {
		ms, ok := sleepMs(c.args)
		if ok != c.ok || (ok && ms != c.ms) {
			t.Errorf("%s: %d %v, want %d %v", c.args, ms, ok, c.ms, c.ok)
		}
	}
}
