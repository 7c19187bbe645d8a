package timeline_test

import (
	"testing"

	"github.com/twosettle/twosettle/explore"
	"github.com/twosettle/twosettle/timeline"
)

// The message pairing holds beyond the library: on generated runs (crashes inside an
// Apply, restarts, partitions, lost HTTP messages, reloads, dead generations, clock
// jumps), every sent message is one arrow and every received one the end of one.
func TestEveryMessageOfGeneratedRunsIsOneArrow(t *testing.T) {
	r := explore.NewRunner(explore.Options{})
	for seed := uint64(1); seed <= 40; seed++ {
		out, _ := r.Run(explore.Generate(seed))
		if out.Trace == nil || len(out.Trace.Records) < 20 {
			t.Fatalf("seed %d: no run", seed)
		}
		timeline.CheckArrows(t, explore.SeedName(seed), out.Trace)
	}
}
