package harness

import (
	"fmt"
	"strings"
	"syscall"
	"testing"
	"time"
)

// cpuTime is the process's user and system CPU time so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// openAsks is a scenario with n questions open at once across 4 clients: each call waits
// 1 s, goes pending (continued, still answerable) and the next is asked, so at the end
// all n are active on every client's cards.
func openAsks(n int) string {
	var b strings.Builder
	b.WriteString("name: open-asks\nsummary: Many questions open at once across four clients.\nmode: timed\ntimeout: 1\n")
	b.WriteString("clients:\n  a: {latency: 10ms}\n  b: {latency: 20ms}\n  c: {latency: 30ms}\n  d: {latency: 40ms}\n")
	b.WriteString("steps:\n  - {at: 0s, model: {prompt: go}}\n  - {at: 0s, model: header}\n")
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "  - {at: 0s, model: {call: c%d, ask: [{id: q, question: Q, options: [a, b]}]}}\n", i)
	}
	fmt.Fprintf(&b, "expect:\n  - {at: end, tool-result: c%d, pending: true}\n", n)
	return b.String()
}

// BenchmarkOpenAsks measures the cost of one run against the number of open questions
// (README, "Scale"), with the oracle (the whole harness run) and without it (engine,
// clients and simulator only).
func BenchmarkOpenAsks(b *testing.B) {
	for _, n := range scaleSizes {
		e := Entry{Path: "open-asks.yaml", Data: []byte(openAsks(n))}
		for _, withOracle := range []bool{false, true} {
			name := fmt.Sprintf("asks=%d/oracle=%v", n, withOracle)
			b.Run(name, func(b *testing.B) {
				opts := DefaultOptions()
				if !withOracle {
					opts.Oracle = nil
				}
				cpu0 := cpuTime()
				records := 0
				for b.Loop() {
					r := RunEntry(e, opts)
					if r.Status() != Passed {
						b.Fatalf("%s %v", r.Line(), r.Failures)
					}
					records = len(r.Trace.Records)
				}
				b.ReportMetric(float64(records), "records")
				// CPU time (user+system) a run: on a machine shared with other work the
				// wall time a run reports is mostly waiting for a core.
				b.ReportMetric((cpuTime()-cpu0).Seconds()/float64(b.N), "cpu-s/op")
			})
		}
	}
}

func TestOpenAsksScenarioPasses(t *testing.T) {
	r := RunEntry(Entry{Path: "open-asks.yaml", Data: []byte(openAsks(50))}, DefaultOptions())
	if r.Status() != Passed {
		t.Fatalf("%s %v", r.Line(), r.Failures)
	}
}

// scaleSizes are BenchmarkOpenAsks's numbers of open questions (README, "Scale").
var scaleSizes = []int{100, 400, 1000, 3000}
