// Package rapidseed makes the property tests deterministic: a package whose tests use
// pgregory.net/rapid runs them through Main, which starts rapid from the fixed Seed unless
// a seed was asked for (the -rapid.seed flag or the RAPID_SEED environment variable).
//
// # Contract
//
//   - `go test ./...` gives one answer for one commit: every property checks the same
//     cases on every machine and every run, as the fuzz targets replay only their
//     committed corpus (docs/ci.md). A failure is reproduced by running the same test
//     again.
//   - Exploring beyond those cases is explicit: `-rapid.seed=0` (rapid's random seed),
//     `-rapid.seed=N` or `RAPID_SEED=N`, with `-rapid.checks` for more cases; rapid prints
//     the seed of a failure it finds, and that seed replays it (docs/ci.md, "Property tests").
//   - A test binary that does not register rapid's flags runs unchanged.
//
// It imports the standard library only and is imported by test files only.
package rapidseed

import (
	"flag"
	"os"
	"strconv"
	"testing"
)

// Seed is where rapid starts when no seed is asked for. Changing it changes which cases
// every property checks; it is a constant so that it changes only in a commit.
const Seed uint64 = 20261203

// Main parses the test flags, fixes rapid's seed when none was asked for, runs the tests
// and exits with their status. It is a package's TestMain:
//
//	func TestMain(m *testing.M) { rapidseed.Main(m) }
func Main(m *testing.M) {
	Fix()
	os.Exit(m.Run())
}

// Fix parses the command line's flags (if not yet parsed) and sets -rapid.seed to Seed
// unless the flag was given or RAPID_SEED is set. It reports the seed the properties
// start from ("" when rapid's flags are not registered). A TestMain that does more than
// Main calls it before m.Run.
func Fix() string {
	if !flag.Parsed() {
		flag.Parse()
	}
	f := flag.Lookup("rapid.seed")
	if f == nil {
		return ""
	}
	given := false
	flag.Visit(func(v *flag.Flag) { given = given || v.Name == "rapid.seed" })
	if given {
		return f.Value.String()
	}
	if env, ok := os.LookupEnv("RAPID_SEED"); ok {
		return env
	}
	s := strconv.FormatUint(Seed, 10)
	if err := f.Value.Set(s); err != nil {
		panic("rapidseed: " + err.Error())
	}
	return s
}
