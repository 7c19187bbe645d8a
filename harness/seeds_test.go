package harness

import (
	"strconv"
	"testing"
)

// Under simrun --seed N a library scenario runs at another seed, without its golden: its
// expectations must state what holds at every seed (the order of events that tie at one
// instant is the seed's), or --seed would fail as noise.
func TestLibraryExpectationsHoldAtEverySeed(t *testing.T) {
	seeds := 24
	if testing.Short() {
		seeds = 6
	}
	lib := Library("")
	for seed := 2; seed < 2+seeds; seed++ {
		opts := DefaultOptions()
		opts.Seed = uint64(seed)
		for _, e := range lib {
			r := RunEntry(e, opts)
			if r.Status() != Passed {
				t.Errorf("seed %s: %s", strconv.Itoa(seed), r.Line())
				for _, l := range r.Details() {
					t.Log(l)
				}
			}
		}
	}
}
