package explore

import (
	"testing"
)

// CoveredBy says exactly which seeds shards ran (docs/ci.md, "Time-boxed shards"): the
// union of each shard's prefix, contiguous where every shard ran.
func TestCoveredBy(t *testing.T) {
	for _, tc := range []struct {
		start, n uint64
		runs     map[uint64]uint64
		want     string
	}{
		{1, 1, map[uint64]uint64{1: 1000}, "1-1000"},
		{1, 1, map[uint64]uint64{1: 0}, "none"},
		{1, 4, map[uint64]uint64{1: 250, 2: 250, 3: 250, 4: 250}, "1-1000"},
		{1, 4, map[uint64]uint64{1: 3, 2: 3, 3: 2, 4: 2}, "1-10"}, // 10 seeds in 4 shards
		{5, 3, map[uint64]uint64{2: 4}, "6-15 step 3"},            // one shard alone
		{1, 3, map[uint64]uint64{1: 2, 3: 1}, "1-4 step 3, 3"},    // shard 2 missing
		{1, 2, map[uint64]uint64{1: 5, 2: 2}, "1-4, 5-9 step 2"},
		{1, 4, map[uint64]uint64{1: 203, 2: 455, 3: 568, 4: 492}, "1-812, 814-1818 step 4, 815-2271 step 4, 816-1968 step 4"}, // time-boxed: shard 1 ran further
		{1, 4, map[uint64]uint64{1: 2, 2: 4, 3: 1, 4: 2}, "1-5, 6-14 step 4, 8"},                                              // ragged: 1,5 2,6,10,14 3 4,8
	} {
		if got := RangesString(CoveredBy(tc.start, tc.n, tc.runs)); got != tc.want {
			t.Errorf("CoveredBy(%d, %d, %v) = %s, want %s", tc.start, tc.n, tc.runs, got, tc.want)
		}
	}
	if got := RangesString(Covered(1, 2, 4, 3)); got != "2-10 step 4" {
		t.Errorf("Covered = %s", got)
	}
}

// A campaign's report covers a prefix of its shard's seeds, however it ended.
func TestCampaignCoversItsPrefix(t *testing.T) {
	rep, err := Campaign{Seeds: 10, Shard: 3, Shards: 4, Workers: 2}.Run(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if got := RangesString(rep.Covered); rep.SeedsRun != 2 || got != "3-7 step 4" {
		t.Fatalf("%d seeds, covered %s", rep.SeedsRun, got)
	}
}

func TestIdentityDiffers(t *testing.T) {
	a := Identity{Command: "simrun fuzz", Build: "b", Start: 1, Seeds: 10, Shards: 2, Config: map[string]string{"mutant": ""}}
	b := a
	if d := a.Differs(b); d != "" {
		t.Fatal(d)
	}
	b.Config = map[string]string{"mutant": "x"}
	if d := a.Differs(b); d != `config mutant "" vs "x"` {
		t.Fatal(d)
	}
	b.Config = map[string]string{"mutant": "", "host": "h"}
	if d := a.Differs(b); d != `config host "" vs "h"` {
		t.Fatal(d)
	}
}
