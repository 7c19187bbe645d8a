package conform

import (
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// The cost of the projection profile per event: the default inputs' logs (library,
// fuzz seeds 1..200, edge seeds 1..500) folded by the reference fold in-process, and over
// the protocol by `conform refhost` and by the Node example (when node is installed).
// Each iteration folds every log once (about 19 700 events); ns/event is the cost of one
// event, so the ratios are the cost of the pipes and of the host.
//
//	go test -run '^$' -bench 'ProjectionProfile' -benchtime 3x ./conform/
func BenchmarkProjectionProfile(b *testing.B) {
	cases, err := ProjectionInputs(true, 200, 500, 1)
	if err != nil {
		b.Fatal(err)
	}
	events := 0
	for _, c := range cases {
		events += len(c.Log.Events)
	}
	b.Run("in-process", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			for _, c := range cases {
				foldReference(c.Log)
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*events), "ns/event")
	})
	over := func(b *testing.B, argv []string, env []string) {
		p, err := Start(argv, ProcessOptions{Timeout: 10 * time.Second, Env: env, Profile: ProfileProjection})
		if err != nil {
			b.Fatal(err)
		}
		defer p.Close()
		refs := make([]*refFold, len(cases))
		for i, c := range cases {
			refs[i] = foldReference(c.Log)
		}
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			for _, ref := range refs {
				// The runner's whole cost: the reference fold and the host's, compared.
				foldReference(ref.log)
				if d, _, err := foldOn(p, ref); err != nil || d != nil {
					b.Fatalf("%s: %v %+v", ref.log.Session, err, d)
				}
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*events), "ns/event")
	}
	b.Run("over-refhost", func(b *testing.B) {
		over(b, []string{testBinary()}, []string{"CONFORM_TEST_HOST=refhost"})
	})
	b.Run("over-node", func(b *testing.B) {
		node, err := exec.LookPath("node")
		if err != nil {
			b.Skip("node is not installed")
		}
		over(b, []string{node, filepath.Join("..", "examples", "node", "projection.js")}, nil)
	})
}
