package conform

import (
	"testing"

	"pgregory.net/rapid"
)

// For any edge log the legacy-tracked fold gets wrong, the shrunk log keeps a
// subsequence of its events (same seqs, same order, same fork prefix), is no longer, still
// differs from the reference fold on the host, and its first difference is its last event.
func TestShrunkProjectionLogsStillDifferAndOnlyLoseEvents(t *testing.T) {
	o := projectionHost("refhost:legacy-tracked").Process
	o.Profile = ProfileProjection
	p, err := Start([]string{testBinary()}, o)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	rapid.Check(t, func(t *rapid.T) {
		seed := rapid.Uint64Range(1, 1<<40).Draw(t, "seed")
		l := EdgeLog(seed)
		diff, _, err := foldOn(p, foldReference(l))
		if err != nil {
			t.Fatal(err)
		}
		if diff == nil {
			t.Skip("the mutant folds this log right")
		}
		small, sdiff, err := shrinkLog(p, l, diff, 200)
		if err != nil {
			t.Fatal(err)
		}
		if len(small.Events) > len(l.Events) || small.Inherited != l.Inherited || small.Session != l.Session {
			t.Fatalf("shrunk to %d events (from %d), inherited %d", len(small.Events), len(l.Events), small.Inherited)
		}
		j := 0
		for _, e := range small.Events {
			for j < len(l.Events) && l.Events[j].Seq != e.Seq {
				j++
			}
			if j == len(l.Events) || l.Events[j].String() != e.String() {
				t.Fatalf("event %s is not one of the original log's, in order", e)
			}
		}
		again, _, err := foldOn(p, foldReference(small))
		if err != nil {
			t.Fatal(err)
		}
		if again == nil || sdiff == nil || again.Index != len(small.Events)-1 {
			t.Fatalf("the shrunk log (%d events) does not end at its first difference: %+v", len(small.Events), again)
		}
	})
}
