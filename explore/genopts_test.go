package explore

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"slices"
	"testing"

	"github.com/twosettle/twosettle/scenarios"
)

// TestGenerateWithEveryOptionUnchanged: with every option on (a host with every feature),
// the generator gives exactly the scenarios it gave before GenOptions existed, so the
// campaign and its recorded results do not change. The hash is of the encoded scenarios
// of seeds 1..400, recorded before the options were added.
func TestGenerateWithEveryOptionUnchanged(t *testing.T) {
	h, hw := sha256.New(), sha256.New()
	for seed := uint64(1); seed <= 400; seed++ {
		h.Write(scenarios.Encode(Generate(seed)))
		hw.Write(scenarios.Encode(GenerateWith(seed, GenOptionsFor(GenFeatures()))))
	}
	const want = "ad2b1f8f9b6f1db430d1217154c620b23715e3d5984e4b8c5c1727b6e33a716a"
	if got := hex.EncodeToString(h.Sum(nil)); got != want {
		t.Fatalf("Generate(1..400) hashes to %s, not %s: the full-feature campaign changed", got, want)
	}
	if got := hex.EncodeToString(hw.Sum(nil)); got != want {
		t.Fatalf("GenerateWith(every feature) hashes to %s, not %s", got, want)
	}
}

// TestGenerateWithIsDeterministic: the same seed and options give the same scenario, and
// the options' String says what is off and why.
func TestGenerateWithIsDeterministic(t *testing.T) {
	o := GenOptions{Lacks: []string{GenPTC, GenWriteWindow}}
	for seed := uint64(1); seed <= 50; seed++ {
		a, b := scenarios.Encode(GenerateWith(seed, o)), scenarios.Encode(GenerateWith(seed, GenOptions{Lacks: []string{GenWriteWindow, GenPTC}}))
		if string(a) != string(b) {
			t.Fatalf("seed %d: two generations with the same options differ", seed)
		}
	}
	if got, want := o.String(), "no run_code (host lacks ptc), write-through only (write-window: 0s) (host lacks write-window)"; got != want {
		t.Fatalf("String() = %q, want %q", got, want)
	}
	if got := (GenOptions{}).String(); got != "every option" {
		t.Fatalf("String() of the zero options = %q", got)
	}
	if got := GenOptionsFor([]string{"introspection", GenPTC}).Lacks; slices.Contains(got, GenPTC) || !slices.Contains(got, GenRestart) {
		t.Fatalf("GenOptionsFor = %v", got)
	}
}

// TestSituationNeeds derives situationNeeds again: campaigns with every option on, each
// feature off, restart and append-event off together and with fork (tool-outcome-unknown's
// three ways) and every feature off. A situation the table rules out for a campaign is never reached in
// it; a situation the full campaign reaches at least 10 times in 600 seeds and a campaign
// never reaches is one the table rules out for it (the table misses no need).
func TestSituationNeeds(t *testing.T) {
	if testing.Short() {
		t.Skip("14 campaigns of 600 seeds")
	}
	run := func(o GenOptions) *Report {
		rep, err := Campaign{Seeds: 600, Workers: 2, Gen: o, NoShrink: true}.Run(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range rep.Failures {
			t.Errorf("%s: seed %d fails against the reference host: %s", o, f.Seed, f.Message)
		}
		return rep
	}
	full := run(GenOptions{})
	sets := [][]string{{GenRestart, GenAppendEvent}, {GenRestart, GenAppendEvent, GenFork}, GenFeatures()}
	for _, f := range GenFeatures() {
		sets = append(sets, []string{f})
	}
	for _, lacks := range sets {
		o := GenOptions{Lacks: lacks}
		rep := run(o)
		for i, n := range rep.Situations {
			_, ruled := o.cannotReach(i)
			switch {
			case ruled && n > 0:
				t.Errorf("lacking %v: %s is ruled out but %d runs reached it", lacks, situationList[i].Name, n)
			case !ruled && n == 0 && full.Situations[i] >= 10:
				t.Errorf("lacking %v: %s is never reached (%d runs with every option): the table misses a need", lacks, situationList[i].Name, full.Situations[i])
			}
		}
	}
}
