package oracle_test

import (
	"strconv"
	"strings"
	"testing"

	"github.com/twosettle/twosettle/explore"
	"github.com/twosettle/twosettle/harness"
	"github.com/twosettle/twosettle/oracle"
	"github.com/twosettle/twosettle/scenarios"
)

// openAsks is a scenario with n timed questions that time out one after another and stay
// open (continued) on one client, then each answered late in turn: every change publishes
// a view that lists every open question.
func openAsks(b *testing.B, n int) *scenarios.Scenario {
	var y strings.Builder
	y.WriteString("name: open-asks\nsummary: many open asks\nmode: timed\ntimeout: 600\nclients:\n  a: {latency: 10ms}\nsteps:\n")
	y.WriteString("  - {at: 0s, model: {prompt: go}}\n  - {at: 0s, model: header}\n")
	for i := 1; i <= n; i++ {
		c := strconv.Itoa(i)
		y.WriteString("  - {at: 0s, model: {call: c" + c + ", timeout: 1, ask: [{id: q, question: Q" + c + ", options: [x, y]}]}}\n")
	}
	for i := 1; i <= n; i++ {
		c := strconv.Itoa(i)
		at := strconv.Itoa(2*n+i) + "s"
		y.WriteString("  - {at: " + at + ", a: {reopen: c" + c + "}}\n")
		y.WriteString("  - {at: " + at + ", a: {card: c" + c + ", choose: x}}\n")
		y.WriteString("  - {at: " + at + ", a: {submit: c" + c + "}}\n")
	}
	s, err := scenarios.Decode("open-asks.yaml", []byte(y.String()))
	if err != nil {
		b.Fatal(err)
	}
	return s
}

// BenchmarkCheckOpenAsks measures the oracle alone (the run is made once, outside the
// loop) on a trace with n open asks: its cost should grow about linearly with the trace
// (go test -run '^$' -bench CheckOpenAsks ./oracle/).
func BenchmarkCheckOpenAsks(b *testing.B) {
	for _, n := range []int{100, 200, 400} {
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			r := explore.NewRunner(explore.Options{})
			out, _ := r.Run(openAsks(b, n))
			if out.Kind != "" {
				b.Fatal(out.Message())
			}
			tr := *out.Trace
			opts := harness.OracleOptions(openAsks(b, n))
			b.ReportMetric(float64(len(tr.Records)), "records")
			b.ResetTimer()
			for b.Loop() {
				if v := oracle.Check(&tr, opts); !v.OK() {
					b.Fatal(v)
				}
			}
		})
	}
}
