package timeline_test

import (
	"testing"

	"github.com/twosettle/twosettle/explore"
	"github.com/twosettle/twosettle/scenarios"
	"github.com/twosettle/twosettle/timeline"
)

// The message pairing holds beyond the library: on generated runs (crashes inside an
// Apply, restarts, partitions, lost HTTP messages, reloads, dead generations, clock
// jumps), every sent message is one arrow and every received one the end of one.
func TestEveryMessageOfGeneratedRunsIsOneArrow(t *testing.T) {
	r := explore.NewRunner(explore.Options{})
	for seed := uint64(1); seed <= 40; seed++ {
		s := explore.Generate(seed)
		out, _ := r.Run(s)
		if out.Trace == nil || len(out.Trace.Records) < 20 {
			t.Fatalf("seed %d: no run", seed)
		}
		byHand := false // a raw input step's frame reaches its client from no recorded send
		for _, st := range s.Steps {
			byHand = byHand || st.User != nil && st.User.Kind == scenarios.UserInput
		}
		timeline.CheckArrows(t, explore.SeedName(seed), out.Trace, byHand)
	}
}
