package conform

import (
	"testing"
	"time"

	"github.com/twosettle/twosettle/explore"
)

// The cost of the protocol: the same fuzz workload (generated seeds 1..N, each a whole
// run with the oracle) in-process and against `conform refhost` over the protocol. The
// ratio of the two in one run is what README records; clients-over-protocol is the same
// with the reference host in-process and every client a `conform refclient` process.
//
//	go test -run '^$' -bench 'Protocol' -benchtime 400x ./conform/
func BenchmarkProtocolFuzzWorkload(b *testing.B) {
	b.Run("in-process", func(b *testing.B) {
		r := explore.NewRunner(explore.Options{})
		for i := 0; i < b.N; i++ {
			r.Run(explore.Generate(uint64(i%2000 + 1)))
		}
	})
	b.Run("clients-over-protocol", func(b *testing.B) {
		pool := NewPool([]string{testBinary()}, ProcessOptions{Timeout: 5 * time.Second, Env: []string{"CONFORM_TEST_HOST=refclient"}})
		defer pool.Close()
		if _, err := pool.Hello(); err != nil {
			b.Fatal(err)
		}
		r := explore.NewRunner(explore.Options{Client: pool.ClientFactory})
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			out, _ := r.Run(explore.Generate(uint64(i%2000 + 1)))
			if out.Kind == explore.HostLost {
				b.Fatal(out.Err)
			}
		}
	})
	b.Run("over-protocol", func(b *testing.B) {
		pool := NewPool([]string{testBinary()}, ProcessOptions{Timeout: 5 * time.Second, Env: []string{"CONFORM_TEST_HOST=refhost"}})
		defer pool.Close()
		if _, err := pool.Hello(); err != nil {
			b.Fatal(err)
		}
		r := explore.NewRunner(explore.Options{Host: pool.Factory})
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			out, _ := r.Run(explore.Generate(uint64(i%2000 + 1)))
			if out.Kind == explore.HostLost {
				b.Fatal(out.Err)
			}
		}
	})
}
