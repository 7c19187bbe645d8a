package rapidseed

import (
	"flag"
	"strconv"
	"testing"
)

// The flag rapid registers, registered here as rapid does (this package does not import
// rapid).
var seed = flag.Uint64("rapid.seed", 0, "as rapid's")

func TestFix(t *testing.T) {
	t.Run("no seed asked for: rapid starts from Seed", func(t *testing.T) {
		*seed = 0
		if got := Fix(); got != strconv.FormatUint(Seed, 10) || *seed != Seed {
			t.Fatalf("Fix() = %q, rapid.seed = %d, want %d", got, *seed, Seed)
		}
	})
	t.Run("RAPID_SEED is honoured", func(t *testing.T) {
		*seed = 77 // rapid reads RAPID_SEED into its flag's default when it starts
		t.Setenv("RAPID_SEED", "77")
		if got := Fix(); got != "77" || *seed != 77 {
			t.Fatalf("Fix() = %q, rapid.seed = %d, want 77", got, *seed)
		}
	})
	t.Run("-rapid.seed on the command line is honoured, 0 included", func(t *testing.T) {
		if err := flag.Set("rapid.seed", "0"); err != nil { // flag.Set marks it as given, as the command line does
			t.Fatal(err)
		}
		if got := Fix(); got != "0" || *seed != 0 {
			t.Fatalf("Fix() = %q, rapid.seed = %d, want 0 (rapid's random seed)", got, *seed)
		}
	})
}
