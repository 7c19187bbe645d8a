package harness

import (
	"runtime"
	"testing"
)

// runWork runs the open-asks scenario with n questions once (with the oracle) and
// returns what it allocated: objects and bytes. Both are counts of work done, not
// times: the same build gives the same numbers on any machine, loaded or not.
func runWork(t *testing.T, n int) (mallocs, bytes uint64) {
	t.Helper()
	e := Entry{Path: "open-asks.yaml", Data: []byte(openAsks(n))}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	r := RunEntry(e, DefaultOptions())
	runtime.ReadMemStats(&after)
	if r.Status() != Passed {
		t.Fatalf("%s %v", r.Line(), r.Failures)
	}
	return after.Mallocs - before.Mallocs, after.TotalAlloc - before.TotalAlloc
}

// TestOpenAsksWorkNearLinear guards the scale fix (README, "Scale: many open questions"):
// four times the open questions must cost about four times the allocations and bytes,
// not sixteen. A copy of every open row per update, a transcript buffer doubled to size
// or a per-update rebuild of a view shows here as a ratio well past linear.
func TestOpenAsksWorkNearLinear(t *testing.T) {
	if testing.Short() {
		t.Skip("runs 500 open asks")
	}
	const small, large = 100, 400
	m1, b1 := runWork(t, small)
	m2, b2 := runWork(t, large)
	mr, br := float64(m2)/float64(m1), float64(b2)/float64(b1)
	t.Logf("%d -> %d asks: allocations %d -> %d (%.2fx), bytes %d -> %d (%.2fx)", small, large, m1, m2, mr, b1, b2, br)
	const limit = 4.6 // linear is 4x (a little less: fixed costs); N² would be 16x
	if mr > limit || br > limit {
		t.Fatalf("4x the open questions cost %.2fx the allocations and %.2fx the bytes, want at most %.1fx: some per-question work grew with the number of open questions", mr, br, limit)
	}
}
