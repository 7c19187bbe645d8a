package conform

import (
	"testing"
)

// The cost of the wait profile: the same generated scripts (seeds 1..200) against the
// reference wait in-process and against `conform refhost` over the protocol.
//
//	go test -run '^$' -bench 'WaitProfile' -benchtime 2000x ./conform/
func BenchmarkWaitProfile(b *testing.B) {
	scripts := make([]WaitScript, 200)
	steps := 0
	for i := range scripts {
		scripts[i] = GenerateWaitScript(uint64(i+1), 0)
		steps += len(scripts[i].Steps) + 1
	}
	run := func(b *testing.B, h waitStepper) {
		for i := 0; i < b.N; i++ {
			if o := (waitRun{}).run(h, scripts[i%len(scripts)].Steps); o.failed || o.lost != nil {
				b.Fatal(o.message, o.lost)
			}
		}
		b.ReportMetric(float64(b.N*steps/len(scripts))/b.Elapsed().Seconds(), "steps/s")
	}
	b.Run("in-process", func(b *testing.B) { run(b, stepperOf{newWaitModel(0)}) })
	b.Run("refhost", func(b *testing.B) {
		p, err := Start([]string{testBinary()}, ProcessOptions{Profile: ProfileWait, Env: testEnv("refhost")})
		if err != nil {
			b.Fatal(err)
		}
		defer p.Close()
		b.ResetTimer()
		run(b, p)
	})
}
