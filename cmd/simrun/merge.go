package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/twosettle/twosettle/conform"
	"github.com/twosettle/twosettle/explore"
	"github.com/twosettle/twosettle/fileio"
)

func init() {
	commands["merge"] = command{"merge the reports of a sharded campaign (simrun fuzz or conform fuzz) into one", mergeMain}
}

// mergeMain is `simrun merge [--out DIR] [--json FILE] [--junit FILE] SHARD...`: each SHARD
// is a shard's --out directory (its record shard-K-of-N.json and its failure files) or
// a fuzz report file. The merged report is the one a single unsharded campaign of the
// same seeds prints, in the format of the command the shards ran (docs/ci.md, "Merging
// shards").
func mergeMain(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("simrun merge", flag.ContinueOnError)
	out := fs.String("out", "", "copy the failures' files here and name them there (default: fuzz-failures for simrun fuzz shards, conform-failures for conform fuzz)")
	jsonOut := fs.String("json", "", "also write the merged report as JSON to this file, in the format of the command the shards ran (- for stdout, instead of the text report)")
	junitOut := fs.String("junit", "", "also write the merged campaign as JUnit XML to this file")
	paths, ok := parse(fs, args, stderr)
	if !ok {
		return 2
	}
	if len(paths) == 0 {
		fmt.Fprintln(stderr, "simrun merge: name the shards' directories or reports: simrun merge [--out DIR] [--json FILE] [--junit FILE] SHARD...")
		return 2
	}
	if !checkJUnit("simrun merge", *junitOut, stderr) {
		return 2
	}
	if *jsonOut != "" && *jsonOut != "-" {
		if err := fileio.CheckFile(*jsonOut); err != nil {
			fmt.Fprintln(stderr, "simrun merge: --json:", err)
			return 2
		}
	}
	recs, err := explore.ReadShards(paths)
	if err != nil {
		fmt.Fprintln(stderr, "simrun merge:", err)
		return 2
	}
	command := recs[0].Campaign.Command
	dir := *out
	switch command {
	case "simrun fuzz":
		if dir == "" {
			dir = "fuzz-failures"
		}
	case "conform fuzz":
		if dir == "" {
			dir = "conform-failures"
		}
	default:
		fmt.Fprintf(stderr, "simrun merge: %s: reports of %q cannot be merged (simrun fuzz and conform fuzz can)\n", recs[0].Path, command)
		return 2
	}
	if err := fileio.CheckDir(dir); err != nil {
		fmt.Fprintln(stderr, "simrun merge: --out:", err)
		return 2
	}
	m, err := explore.MergeShards(recs, dir)
	if err != nil {
		fmt.Fprintln(stderr, "simrun merge:", err)
		return 2
	}
	for _, w := range m.Warnings {
		fmt.Fprintln(stderr, "simrun merge: warning:", w)
	}
	rep := m.Report
	var report []byte
	replay := func(f explore.Failure) string { return f.Replay }
	if command == "simrun fuzz" {
		j, err := mergedFuzzJSON(m)
		if err != nil {
			fmt.Fprintln(stderr, "simrun merge:", err)
			return 2
		}
		report = marshalReport(j)
	} else {
		report, replay, err = conform.MergedFuzzJSON(m)
		if err != nil {
			fmt.Fprintln(stderr, "simrun merge:", err)
			return 2
		}
	}
	if *jsonOut == "-" {
		stdout.Write(report)
	} else {
		writeMergeText(stdout, m, replay)
	}
	if *jsonOut != "" && *jsonOut != "-" {
		if err := fileio.WriteAtomic(*jsonOut, report); err != nil {
			fmt.Fprintln(stderr, "simrun merge: --json:", err)
			return 2
		}
	}
	if *junitOut != "" && !writeJUnit("simrun merge", *junitOut, rep.JUnit(command, "", replay), stderr) {
		return 2
	}
	switch {
	case len(rep.Failures) > 0 || rep.CorpusFailures() > 0:
		return 1
	case len(rep.Missing) > 0:
		fmt.Fprintf(stderr, "simrun merge: %d of %d shards missing: exit 2\n", len(rep.Missing), m.Info.Shards)
		return 2
	case rep.Interrupted:
		fmt.Fprintln(stderr, "simrun merge: a shard was interrupted before every seed ran, no failure found: exit 130")
		return ExitInterrupted
	}
	return 0
}

// mergedFuzzJSON is the simrun fuzz --json report of the merged shards: the first
// shard's report with the merged counters.
func mergedFuzzJSON(m *explore.Merged) (fuzzJSON, error) {
	var j fuzzJSON
	if err := json.Unmarshal(m.First.Raw, &j); err != nil {
		return j, fmt.Errorf("%s: %v", m.First.Path, err)
	}
	rep := m.Report
	rate := 0.0
	if rep.Elapsed > 0 {
		rate = float64(rep.SeedsRun) / rep.Elapsed.Seconds()
	}
	j.SeedsRun, j.Failures, j.Situations = rep.SeedsRun, rep.Failures, m.Situations
	if j.Failures == nil {
		j.Failures = []explore.Failure{}
	}
	j.Unreached = explore.Unreached(m.Situations, j.CannotReach)
	j.ElapsedMs, j.Rate, j.Records, j.Interrupted = rep.Elapsed.Milliseconds(), float64(int64(rate*10))/10, rep.Records, rep.Interrupted
	j.Shard, j.Covered, j.Corpus, j.Merged = "", rep.Covered, rep.Corpus, &m.Info
	j.Campaign = &m.Identity
	return j, nil
}

// writeMergeText is the merge's text report: the shards, the failures with their replay
// lines, the corpus, the seeds covered and the totals.
func writeMergeText(w io.Writer, m *explore.Merged, replay func(explore.Failure) string) {
	rep := m.Report
	fmt.Fprintf(w, "merged %d of %d shards of %s (build %s)\n", len(m.Info.From), m.Info.Shards, m.Identity.Command, m.Identity.Build)
	for _, s := range m.Info.From {
		state := ""
		if s.Interrupted {
			state = ", interrupted"
		}
		fmt.Fprintf(w, "  shard %-7s %8d seeds  %-24s %s%s\n", s.Shard, s.SeedsRun, explore.RangesString(s.Covered),
			(time.Duration(s.ElapsedMs) * time.Millisecond).String(), state)
	}
	for _, s := range m.Info.Missing {
		fmt.Fprintf(w, "  shard %-7s missing\n", s)
	}
	for _, c := range rep.Corpus {
		if c.Failed() {
			fmt.Fprintf(w, "FAIL    corpus %s: %s\n        replay: %s\n", c.File, c.Message, c.Replay)
		}
	}
	for _, f := range rep.Failures {
		fmt.Fprintf(w, "FAIL    seed %d: %s\n", f.Seed, f.Message)
		if f.File != "" {
			fmt.Fprintf(w, "        wrote %s\n        replay: %s\n", f.File, replay(f))
		}
		if f.WriteErr != "" {
			fmt.Fprintf(w, "        not written: %s\n", f.WriteErr)
		}
	}
	if len(rep.Corpus) > 0 {
		fmt.Fprintf(w, "corpus: %d scenarios replayed, %d failed\n", len(rep.Corpus), rep.CorpusFailures())
	}
	fmt.Fprintf(w, "situations reached: %d\n", explore.ReachedIn(m.Situations))
	fmt.Fprintf(w, "seeds run: %s\n", explore.RangesString(rep.Covered))
	what := ""
	if rep.Interrupted {
		what = ", interrupted"
	}
	if len(rep.Missing) > 0 {
		what += ", missing " + strings.Join(rep.Missing, " ")
	}
	records := "" // conform fuzz reports count none
	if rep.Records > 0 {
		records = fmt.Sprintf(", %d records", rep.Records)
	}
	fmt.Fprintf(w, "%d seeds%s, %d failures (longest shard %s%s)\n", rep.SeedsRun, what, len(rep.Failures),
		rep.Elapsed.Truncate(time.Millisecond), records)
}
