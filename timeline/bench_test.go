package timeline

import (
	"testing"

	"github.com/twosettle/twosettle/harness"
)

// BenchmarkRenderLibrary draws every library run's page once per iteration (the runs
// are made before the timer starts): the cost of the picture alone.
func BenchmarkRenderLibrary(b *testing.B) {
	var ins []Input
	records := 0
	for _, e := range harness.Library("") {
		r := harness.RunEntry(e, harness.DefaultOptions())
		in := Input{Scenario: r.Scenario.Name, Trace: r.Trace}
		if r.Verdict != nil {
			in.Verdict = r.Verdict.Text
		}
		ins = append(ins, in)
		records += len(r.Trace.Records)
	}
	b.ResetTimer()
	bytes := 0
	for i := 0; i < b.N; i++ {
		bytes = 0
		for _, in := range ins {
			bytes += len(Render(in))
		}
	}
	b.ReportMetric(float64(len(ins)), "pages/op")
	b.ReportMetric(float64(records), "records/op")
	b.ReportMetric(float64(bytes)/float64(len(ins))/1024, "KB/page")
}
