package explore

import (
	"testing"

	"github.com/twosettle/twosettle/scenarios"
	"github.com/twosettle/twosettle/trace"
)

// BenchmarkSeed measures the fuzz workload: generate a seed's scenario, run it against
// the reference engine, check the oracle and scan for situations.
func BenchmarkSeed(b *testing.B) {
	r := NewRunner(Options{})
	recs := 0
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		out, _ := r.Run(Generate(uint64(i%2000) + 1))
		recs += len(out.Trace.Records)
	}
	b.ReportMetric(float64(recs)/float64(b.N), "records/run")
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "runs/s")
}

func BenchmarkGenerate(b *testing.B) {
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		Generate(uint64(i%2000) + 1)
	}
}

// BenchmarkSituationScan measures situation coverage alone: the scan of one run's trace
// (the runs are made before the timer starts, 200 generated seeds).
func BenchmarkSituationScan(b *testing.B) {
	r := NewRunner(Options{})
	var runs []situationRun
	recs := 0
	for seed := uint64(1); seed <= 200; seed++ {
		s := Generate(seed)
		out, _ := r.Run(s)
		tr := *out.Trace
		tr.Records = append([]trace.Record(nil), tr.Records...)
		runs = append(runs, situationRun{&tr, s})
		recs += len(tr.Records)
	}
	var x situations
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		run := runs[i%len(runs)]
		x.scan(run.tr, run.s)
	}
	b.ReportMetric(float64(recs)/float64(len(runs)), "records/run")
}

type situationRun struct {
	tr *trace.Trace
	s  *scenarios.Scenario
}
