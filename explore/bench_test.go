package explore

import "testing"

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
