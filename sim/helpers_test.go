package sim

import (
	"strings"
	"testing"

	"github.com/twosettle/twosettle/engine/wire"
	"github.com/twosettle/twosettle/trace"
)

// lines renders every record of a trace.
func lines(tr *trace.Trace) []string {
	out := make([]string, len(tr.Records))
	for i, r := range tr.Records {
		out[i] = r.String()
	}
	return out
}

// grep returns the records whose line contains every fragment.
func grep(tr *trace.Trace, frags ...string) []string {
	var out []string
	for _, l := range lines(tr) {
		ok := true
		for _, f := range frags {
			if !strings.Contains(l, f) {
				ok = false
				break
			}
		}
		if ok {
			out = append(out, l)
		}
	}
	return out
}

// index of the first record containing every fragment, or -1.
func first(tr *trace.Trace, frags ...string) int {
	for i, l := range lines(tr) {
		ok := true
		for _, f := range frags {
			if !strings.Contains(l, f) {
				ok = false
				break
			}
		}
		if ok {
			return i
		}
	}
	return -1
}

func mustRun(t *testing.T, cfg Config, h wire.HostPort, ports map[string]wire.ClientPort) *trace.Trace {
	t.Helper()
	tr, err := Simulate(cfg, h, ports)
	if err != nil {
		t.Fatalf("run: %v\n%s", err, tr.Text())
	}
	return tr
}

func runFake(t *testing.T, cfg Config, window int64, answer map[string]int64) (*trace.Trace, *fakeHost, map[string]*fakeClient) {
	t.Helper()
	names := make([]string, len(cfg.Clients))
	for i, c := range cfg.Clients {
		names[i] = c.Name
	}
	h, ports, fcs := fakePorts(window, answer, names...)
	return mustRun(t, cfg, h, ports), h, fcs
}

func schedule(tr *trace.Trace) string {
	var b strings.Builder
	for _, r := range tr.Records {
		if r.Kind == trace.Sched {
			b.WriteString(r.Payload.String())
			b.WriteByte(';')
		}
	}
	return b.String()
}
