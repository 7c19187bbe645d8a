package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/twosettle/twosettle/conform"
	"github.com/twosettle/twosettle/explore"
	"github.com/twosettle/twosettle/fileio"
)

func init() {
	commands["fuzz"] = command{"run random scenarios by seed against the oracle; shrink and write each failure", fuzzMain}
}

// fuzzJSON is the --json report.
type fuzzJSON struct {
	SeedsRun    uint64            `json:"seeds_run"`
	Failures    []explore.Failure `json:"failures"`
	Situations  map[string]uint64 `json:"situations"`
	Unreached   []string          `json:"unreached"`
	ElapsedMs   int64             `json:"elapsed_ms"`
	Rate        float64           `json:"seeds_per_second"`
	Records     uint64            `json:"records"`
	Interrupted bool              `json:"interrupted"`
	Shard       string            `json:"shard,omitempty"`
	Start       uint64            `json:"start"`
	// GeneratorOff says what the generator left out for a host that lacks features, and
	// why; CannotReach the situations that rules out, with the features.
	GeneratorOff []string            `json:"generator_off"`
	CannotReach  map[string][]string `json:"cannot_reach"`
	// Campaign is the campaign's identity (a merge refuses shards of different ones);
	// Covered exactly the seeds run; Corpus the failure corpus's results (--corpus);
	// Merged, in a merged report only, its shards (docs/ci.md, "Merging shards").
	Campaign *explore.Identity      `json:"campaign"`
	Covered  []explore.SeedRange    `json:"covered"`
	Corpus   []explore.CorpusResult `json:"corpus,omitempty"`
	Merged   *explore.MergeInfo     `json:"merged,omitempty"`
}

// newFuzzJSON is the --json report of a campaign with identity id run as shard ("" whole).
func newFuzzJSON(rep *explore.Report, id *explore.Identity, shard string) fuzzJSON {
	rate := 0.0
	if rep.Elapsed > 0 {
		rate = float64(rep.SeedsRun) / rep.Elapsed.Seconds()
	}
	j := fuzzJSON{SeedsRun: rep.SeedsRun, Failures: rep.Failures, Situations: map[string]uint64{}, Unreached: rep.Unreached(),
		ElapsedMs: rep.Elapsed.Milliseconds(), Rate: float64(int64(rate*10)) / 10, Records: rep.Records, Interrupted: rep.Interrupted,
		Shard: shard, Start: id.Start, Campaign: id, Covered: rep.Covered, Corpus: rep.Corpus}
	if j.Failures == nil {
		j.Failures = []explore.Failure{}
	}
	if j.Unreached == nil {
		j.Unreached = []string{}
	}
	for _, s := range rep.SituationCounts() {
		j.Situations[s.Name] = s.Runs
	}
	j.GeneratorOff, j.CannotReach = rep.Gen.Off(), map[string][]string{}
	if j.GeneratorOff == nil {
		j.GeneratorOff = []string{}
	}
	for _, n := range rep.CannotReach() {
		j.CannotReach[n.Name] = n.Lacks
	}
	return j
}

// marshalReport is a JSON report as the commands print and write it.
func marshalReport(v any) []byte {
	b, _ := json.MarshalIndent(v, "", "  ")
	return append(b, '\n')
}

// fuzzMain is `simrun fuzz [--seeds N | --duration D] [--start S] [--shard K/N]
// [--workers W] [--out DIR] [--json] [--no-shrink] [--mutant NAME]`.
func fuzzMain(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("simrun fuzz", flag.ContinueOnError)
	var seedsF, startF countFlag
	startF.v = 1
	fs.Var(&seedsF, "seeds", "how many seeds the campaign covers (all shards together; default 1000 without --duration)")
	duration := fs.Duration("duration", 0, "stop starting new seeds after this much wall time, e.g. 30s or 5m")
	fs.Var(&startF, "start", "the first seed (default 1)")
	seeds, start := &seedsF.v, &startF.v
	shard := fs.String("shard", "", "run shard K of N of the campaign (K/N, 1 <= K <= N): seeds whose index mod N is K-1")
	workers := fs.Int("workers", 0, "parallel workers (default: GOMAXPROCS); output is the same for any number")
	out := fs.String("out", "fuzz-failures", "the directory failures are written to (YAML + transcript)")
	asJSON := fs.Bool("json", false, "print one JSON object: seeds_run, failures, situations")
	junitOut := fs.String("junit", "", "also write the campaign as JUnit XML to this file: a testcase per failing seed and one for the campaign")
	noShrink := fs.Bool("no-shrink", false, "write failures as generated, without shrinking")
	mutant := fs.String("mutant", "", "run against the reference host with this named bug switched on")
	var corpusF listFlag
	fs.Var(&corpusF, "corpus", "replay the scenarios of this directory (or file) first: the shrunk failures of earlier campaigns (repeatable)")
	hostCmd := hostFlag(fs)
	clientCmd := clientFlag(fs)
	rest, ok := parse(fs, args, stderr)
	if !ok {
		return 2
	}
	if len(rest) > 0 {
		fmt.Fprintf(stderr, "simrun fuzz: unexpected argument %q\n", rest[0])
		return 2
	}
	if *start == 0 {
		fmt.Fprintln(stderr, "simrun fuzz: --start is a positive seed")
		return 2
	}
	if *duration < 0 || *workers < 0 {
		fmt.Fprintln(stderr, "simrun fuzz: --duration and --workers cannot be negative")
		return 2
	}
	if err := fileio.CheckDir(*out); err != nil {
		fmt.Fprintln(stderr, "simrun fuzz: --out:", err)
		return 2
	}
	if !checkJUnit("simrun fuzz", *junitOut, stderr) {
		return 2
	}
	c := explore.Campaign{Start: *start, Seeds: *seeds, Duration: *duration, Workers: *workers, OutDir: *out,
		NoShrink: *noShrink, Options: explore.Options{Mutant: *mutant}}
	if c.Seeds == 0 && c.Duration == 0 {
		c.Seeds = 1000
	}
	if *shard != "" {
		k, n, err := explore.ParseShard(*shard)
		if err != nil {
			fmt.Fprintln(stderr, "simrun fuzz: --shard:", err)
			return 2
		}
		c.Shard, c.Shards = k, n
	}
	if *mutant != "" {
		if err := explore.CheckOptions(c.Options); err != nil {
			fmt.Fprintln(stderr, "simrun fuzz:", err)
			return 2
		}
	}
	hosts, features, closeHost, ok := openHostFeatures("simrun fuzz", *hostCmd, stderr)
	if !ok {
		return 2
	}
	defer closeHost()
	c.Options.Host, c.Options.ReplayHost = hosts, replayHost(*hostCmd)
	if features != nil {
		// A host process gets only the scenarios its features allow, and is not judged on
		// what they do not let the oracle check (as conform fuzz).
		c.Gen, c.Options.Skip = conform.FuzzGen(conform.RoleHost, features)
	}
	clients, closeClient, ok := openClient("simrun fuzz", *clientCmd, stderr)
	if !ok {
		return 2
	}
	defer closeClient()
	c.Options.Client, c.Options.ReplayClient = clients, replayClient(*clientCmd)
	corpusDigest := ""
	if len(corpusF) > 0 {
		var err error
		if c.Corpus, corpusDigest, err = explore.LoadCorpus(corpusF); err != nil {
			fmt.Fprintln(stderr, "simrun fuzz: --corpus:", err)
			return 2
		}
	}
	id := explore.NewIdentity("simrun fuzz", c, map[string]string{"mutant": *mutant, "host": *hostCmd, "client": *clientCmd,
		"no_shrink": strconv.FormatBool(*noShrink), "generator": strings.Join(c.Gen.Off(), "; "),
		"not_checked": strings.Join(c.Options.Skip, ","), "corpus": corpusDigest})
	term := isTerminal(stderr)
	if !*asJSON {
		printCorpus := func(r explore.CorpusResult) {
			if r.Failed() {
				fmt.Fprintf(stdout, "FAIL    corpus %s: %s\n        replay: %s\n", r.File, r.Message, r.Replay)
			}
		}
		c.OnCorpus = printCorpus
		c.OnFailure = func(f explore.Failure) {
			if term {
				fmt.Fprint(stderr, "\r\x1b[K") // the progress line gives way
			}
			fmt.Fprintf(stdout, "FAIL    seed %d: %s\n", f.Seed, f.Message)
			switch {
			case f.File != "" && f.Invariant == explore.HostLost:
				fmt.Fprintf(stdout, "        not shrunk (%d steps), wrote %s\n", f.Steps, f.File)
				fmt.Fprintf(stdout, "        retry: %s\n", f.Replay)
			case f.File != "" && !f.Shrunk:
				fmt.Fprintf(stdout, "        not shrunk (%d steps), wrote %s and %s\n", f.Steps, f.File, f.Transcript)
				fmt.Fprintf(stdout, "        replay: %s\n", f.Replay)
			case f.File != "":
				fmt.Fprintf(stdout, "        shrunk %d -> %d steps, wrote %s and %s\n", f.Steps, f.ShrunkTo, f.File, f.Transcript)
				fmt.Fprintf(stdout, "        replay: %s\n", f.Replay)
				if f.Timeline != "" {
					fmt.Fprintf(stdout, "        timeline: %s\n", f.Timeline)
				} else if f.WriteErr != "" {
					fmt.Fprintf(stdout, "        not written: %s\n", f.WriteErr)
				}
			case f.WriteErr != "":
				fmt.Fprintf(stdout, "        not written: %s\n", f.WriteErr)
			}
		}
	}
	if term {
		total := shardSeeds(c.Seeds, c.Shard, c.Shards)
		c.OnProgress = func(p explore.Progress) {
			fmt.Fprintf(stderr, "\r%s\x1b[K", progressLine(p, total, c.Duration))
		}
	}
	if os.Getenv("GOGC") == "" {
		// A run allocates a few hundred short-lived KB and the campaign keeps almost
		// nothing: collecting less often is ~1.6x faster for a few more MB of heap.
		defer debug.SetGCPercent(debug.SetGCPercent(400))
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	rep, err := c.Run(ctx)
	if term {
		fmt.Fprint(stderr, "\r\x1b[K")
	}
	if err != nil {
		fmt.Fprintln(stderr, "simrun fuzz:", err)
		return 2
	}
	rate := 0.0
	if rep.Elapsed > 0 {
		rate = float64(rep.SeedsRun) / rep.Elapsed.Seconds()
	}
	var report []byte
	if *asJSON || c.Shards > 0 {
		report = marshalReport(newFuzzJSON(rep, &id, *shard))
	}
	if c.Shards > 0 && !writeRecord("simrun fuzz", c.OutDir, c.Shard, c.Shards, report, stderr) {
		return 2
	}
	if *asJSON {
		stdout.Write(report)
	} else {
		counts := rep.SituationCounts()
		cannot := rep.CannotReach()
		if off := rep.Gen.Off(); len(off) > 0 {
			fmt.Fprintf(stdout, "generator: %s\n", strings.Join(off, ", "))
		}
		if len(cannot) == 0 {
			fmt.Fprintf(stdout, "situations reached: %d of %d\n", rep.Reached(), len(counts))
		} else {
			fmt.Fprintf(stdout, "situations reached: %d of %d reachable (%d more need a feature the host lacks)\n", rep.Reached(), rep.Gen.Reachable(), len(cannot))
		}
		for _, s := range counts {
			if s.Runs > 0 {
				fmt.Fprintf(stdout, "  %-36s %8d\n", s.Name, s.Runs)
			}
		}
		if len(cannot) > 0 {
			fmt.Fprintln(stdout, "not reachable without a missing feature:")
			for _, n := range cannot {
				fmt.Fprintf(stdout, "  %-36s host lacks %s\n", n.Name, strings.Join(n.Lacks, ", "))
			}
		}
		if un := rep.Unreached(); len(un) > 0 {
			fmt.Fprintln(stdout, "never reached:")
			for _, s := range counts {
				if slices.Contains(un, s.Name) {
					fmt.Fprintf(stdout, "  %-36s %s\n", s.Name, s.Doc)
				}
			}
		}
		if len(rep.Corpus) > 0 {
			fmt.Fprintf(stdout, "corpus: %d scenarios replayed, %d failed\n", len(rep.Corpus), rep.CorpusFailures())
		}
		if c.Shards > 0 || c.Duration > 0 {
			fmt.Fprintf(stdout, "seeds run: %s\n", explore.RangesString(rep.Covered))
		}
		what := strconv.FormatUint(rep.SeedsRun, 10) + " seeds"
		if *shard != "" {
			what += " (shard " + *shard + ")"
		}
		if rep.Interrupted {
			what += ", interrupted"
		}
		fmt.Fprintf(stdout, "%s, %d failures in %s (%.0f seeds/s, %d records)\n", what, len(rep.Failures),
			rep.Elapsed.Truncate(time.Millisecond), rate, rep.Records)
	}
	if *junitOut != "" && !writeJUnit("simrun fuzz", *junitOut, rep.JUnit("simrun fuzz", *shard, func(f explore.Failure) string { return f.Replay }), stderr) {
		return 2
	}
	code := campaignExit(rep)
	if code == ExitInterrupted {
		fmt.Fprintln(stderr, "simrun fuzz: interrupted before every seed ran, no failure found so far: exit 130")
	}
	return code
}

// campaignExit is a finished campaign's exit code: 1 with a failure (of a seed or of a
// corpus scenario); ExitInterrupted
// when it was interrupted before every seed ran and found none (no failure found is not
// a clean campaign); 0 otherwise (a --duration that ran out is the campaign's own end).
func campaignExit(rep *explore.Report) int {
	switch {
	case len(rep.Failures) > 0 || rep.CorpusFailures() > 0:
		return 1
	case rep.Interrupted:
		return ExitInterrupted
	}
	return 0
}

// ExitInterrupted is the exit code of a campaign interrupted (Ctrl-C, SIGTERM) before
// every seed ran and with no failure found: 128+SIGINT, as a shell reports a command
// interrupted by Ctrl-C, so CI never reads an unfinished campaign as a pass.
const ExitInterrupted = 130

// isTerminal reports whether w is a character device (a terminal), without any
// dependency: only then is a progress line worth printing.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	if err != nil {
		return false
	}
	m := st.Mode()
	return m&os.ModeCharDevice != 0 && m&os.ModeDevice != 0
}

// shardSeeds is how many of a campaign's seeds one shard runs (all of them with no
// shard; 0 for a campaign bounded by --duration only).
func shardSeeds(seeds, shard, shards uint64) uint64 {
	if shards <= 1 {
		return seeds
	}
	if seeds < shard {
		return 0
	}
	return (seeds-shard)/shards + 1
}

// progressLine is the terminal's progress line: seeds done of the total, rate, failures,
// elapsed time and the estimated time left (from the rate, or the --duration left when
// the campaign has no seed count).
func progressLine(p explore.Progress, total uint64, duration time.Duration) string {
	done := strconv.FormatUint(p.SeedsRun, 10)
	eta := "?"
	switch {
	case total > 0:
		done += "/" + strconv.FormatUint(total, 10)
		if r := p.Rate(); r > 0 && total >= p.SeedsRun {
			eta = (time.Duration(float64(total-p.SeedsRun)/r*float64(time.Second)) + time.Second/2).Truncate(time.Second).String()
		}
	case duration > 0:
		eta = max(duration-p.Elapsed, 0).Truncate(time.Second).String()
	}
	return fmt.Sprintf("%s seeds  %.0f/s  %d failures  %s  ETA %s", done, p.Rate(), p.Failures, p.Elapsed.Truncate(100*time.Millisecond), eta)
}

// listFlag is a repeatable string flag (--corpus DIR --corpus DIR2).
type listFlag []string

func (l *listFlag) String() string     { return strings.Join(*l, ",") }
func (l *listFlag) Set(v string) error { *l = append(*l, v); return nil }

// writeRecord writes a shard's JSON report into its --out directory as
// shard-K-of-N.json (explore.RecordName), the record simrun merge reads; false (reported)
// means it could not be written, which the command exits 2 for.
func writeRecord(cmd, dir string, k, n uint64, report []byte, stderr io.Writer) bool {
	err := os.MkdirAll(dir, 0o755)
	if err == nil {
		err = fileio.WriteAtomic(filepath.Join(dir, explore.RecordName(k, n)), report)
	}
	if err != nil {
		fmt.Fprintf(stderr, "%s: the shard's record: %v\n", cmd, err)
		return false
	}
	return true
}
