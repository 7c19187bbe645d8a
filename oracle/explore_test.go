package oracle_test

import (
	"strconv"
	"testing"

	"github.com/twosettle/twosettle/oracle"
)

// The reference engine passes the oracle under random exploration: random scenarios over
// one to three clients, timed, blocking and legacy asks, run_code sub-calls, child
// sessions, user actions, turn cancels, session closes, scripted crashes at named points,
// disconnects and random faults (crash, disconnect, reload, clock jump, partition, lost and
// delayed HTTP), with write-through and write-behind persistence.
func TestReferenceEnginePassesRandomExploration(t *testing.T) {
	n := 400
	if testing.Short() {
		n = 60
	}
	for seed := uint64(1); seed <= uint64(n); seed++ {
		for _, faults := range []bool{false, true} {
			tr, opts, err := genRun(seed, faults)
			if err != nil {
				t.Fatalf("seed %d: %v", seed, err)
			}
			if v := oracle.Check(tr, opts); !v.OK() {
				t.Fatalf("seed %d faults=%s: %s\n%s", seed, strconv.FormatBool(faults), v, tr.Text())
			}
		}
	}
}
