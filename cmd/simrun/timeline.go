package main

import (
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/twosettle/twosettle/fileio"
	"github.com/twosettle/twosettle/harness"
	"github.com/twosettle/twosettle/timeline"
)

func init() {
	commands["timeline"] = command{"run one scenario (or two runs with --against…) and write a self-contained HTML picture of it (-o FILE.html, - for stdout)", timelineMain}
}

// timelineSynopsis is timeline's usage line; timelineHelp, what `simrun help timeline`
// and `simrun timeline -h` print above the flags (synopses).
const (
	timelineSynopsis = "simrun timeline FILE [--seed N] [--mutant NAME] [--json] [--host CMD] [--client CMD] [--against FILE2] [--against-seed N] [--against-mutant NAME] [--against-host CMD] [--against-client CMD] -o FILE.html   (-o - writes to stdout)"
	timelineUsage    = "usage: " + timelineSynopsis
)

const timelineHelp = timelineSynopsis + `

Runs the scenario FILE as simrun replay does and writes one self-contained HTML page of
the run (inline SVG, CSS and script; no network): a lane per actor with a mark for every
record, arrows for every message between lanes (deliveries, frames, $events/result,
cancels, claim streams, RPCs and replies; a lost message ends in a cross, a delayed one
is thick and labelled with its latency), a bar per question call (open, continued,
settled, removed) with its wait deadline, each client's claims and local countdown
(running, paused by a focus, frozen by an edit, held by Take time, expired locally) and
each client's clock skew (a skewed client's lane reads its own clock under the axis's
ticks), faults as vertical rules, and the oracle's verdict on top. Records of one
virtual instant stand side by side in sequence order (zoomed in, a busy instant is
bracketed with its time and record count). In a browser:
ctrl + wheel or + / - zooms the time axis at the pointer, a drag, shift + wheel or the
arrow keys pan, 0 shows the whole run, a click on a mark lists its record, its
message's other end, the later records of the same call, stream, event or request and
the earlier ones that led to it, and a click on a message kind in the legend hides or
shows its arrows.

A failing run still gets its page: the file is written, then simrun exits 1.

Two runs on one axis (--against): any of the --against flags draws a second run, B, on
the same page below the first, A. B is A with what the flags change:
  --against FILE2         B runs the scenario FILE2 instead of FILE
  --against-seed N        B runs at seed N
  --against-mutant NAME   B runs with the named engine bug switched on
  --against-host CMD      B runs against the host process CMD (twosettle-conform/1)
  --against-client CMD    B runs with the client process CMD as every client
e.g. simrun timeline s.yaml --against-seed 7 -o diff.html, or
     simrun timeline s.yaml --against-mutant cancel-to-winner -o diff.html.
The first record where the two transcripts differ (or the first differing final-state
line) is ringed and ruled in both runs, with the transcript lines around it in the
header. Exit 1 when the runs differ, 0 when they are identical (whatever the oracle
said of each: its verdicts are on the page); 2 for bad usage or an invalid scenario
(nothing written).
`

// timelineMain is `simrun timeline FILE [--seed N] [--mutant NAME] -o OUT`: it runs the
// scenario as simrun replay does and writes package timeline's page of the run. A run
// that fails (its oracle, an expectation, its golden) still gets its page: the page is
// written, then the exit code is 1. Bad usage or an invalid scenario: 2, nothing written.
// With --against… it draws two runs on one page and exits 1 when they differ.
func timelineMain(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("simrun timeline", flag.ContinueOnError)
	var seed, againstSeed seedFlag
	fs.Var(&seed, "seed", "run at this seed instead of the scenario's own")
	mutantName := fs.String("mutant", "", "run against the reference engine with this named bug switched on")
	hostCmd := hostFlag(fs)
	clientCmd := clientFlag(fs)
	out := fs.String("o", "", "the HTML file to write (- for stdout); required")
	againstFile := fs.String("against", "", "draw a second run, B, of this scenario file on the same page")
	fs.Var(&againstSeed, "against-seed", "draw a second run, B, at this seed")
	againstMutant := fs.String("against-mutant", "", "draw a second run, B, with this named engine bug switched on")
	againstHost := fs.String("against-host", "", "draw a second run, B, against this host process")
	againstClient := fs.String("against-client", "", "draw a second run, B, with this client process as every client")
	asJSON := fs.Bool("json", false, "print the run's result (with --against…, both runs' results) as one JSON object (as simrun run --json) on stdout (not with -o -)")
	paths, ok := parse(fs, args, stderr)
	if !ok {
		return 2
	}
	if len(paths) != 1 || *out == "" {
		if *out == "" && len(paths) == 1 {
			fmt.Fprintln(stderr, "simrun timeline: -o FILE.html is required (- writes to stdout)")
		}
		fmt.Fprintln(stderr, timelineUsage)
		return 2
	}
	if !knownMutant("simrun timeline", *mutantName, stderr) || !knownMutant("simrun timeline --against-mutant", *againstMutant, stderr) {
		return 2
	}
	if *asJSON && *out == "-" {
		fmt.Fprintln(stderr, "simrun timeline: --json and -o - would both write to stdout")
		return 2
	}
	if *out != "-" {
		if err := fileio.CheckFile(*out); err != nil {
			fmt.Fprintln(stderr, "simrun timeline: -o:", err)
			return 2
		}
	}
	a := timelineRun{file: paths[0], seed: seed.v, mutant: *mutantName, host: *hostCmd, client: *clientCmd}
	against := *againstFile != "" || againstSeed.set || *againstMutant != "" || *againstHost != "" || *againstClient != ""
	if !against {
		in, r, ok := a.run(stderr)
		if !ok {
			return 2
		}
		if !writePage(*out, timeline.Render(in), stdout, stderr) {
			return 2
		}
		if *asJSON {
			stdout.Write(harness.JSON([]*harness.Result{r}))
		}
		return harness.Summarize([]*harness.Result{r}).ExitCode()
	}
	b := a
	if *againstFile != "" {
		b.file = *againstFile
	}
	if againstSeed.set {
		b.seed = againstSeed.v
	}
	if *againstMutant != "" {
		b.mutant = *againstMutant
	}
	if *againstHost != "" {
		b.host = *againstHost
	}
	if *againstClient != "" {
		b.client = *againstClient
	}
	ina, ra, ok := a.run(stderr)
	if !ok {
		return 2
	}
	inb, rb, ok := b.run(stderr)
	if !ok {
		return 2
	}
	page, differ := timeline.RenderAgainst(ina, inb)
	if !writePage(*out, page, stdout, stderr) {
		return 2
	}
	if *asJSON {
		stdout.Write(harness.JSON([]*harness.Result{ra, rb}))
	}
	if differ {
		fmt.Fprintln(stderr, "the runs differ: the first divergent record is marked on the page")
		return 1
	}
	fmt.Fprintln(stderr, "the runs are identical")
	return 0
}

// timelineRun is one run to draw: a scenario file and what it runs with.
type timelineRun struct {
	file   string
	seed   uint64 // 0: the scenario's own
	mutant string
	host   string
	client string
}

// run runs it and prints its result line (and details) on stderr; ok is false (exit 2)
// for a file that cannot be read or an invalid scenario.
func (t timelineRun) run(stderr io.Writer) (timeline.Input, *harness.Result, bool) {
	r, ok := runScenarioFile(t.file, "draw", t.seed, t.mutant, t.host, t.client, stderr)
	if !ok {
		return timeline.Input{}, nil, false
	}
	if r.Invalid != nil {
		fmt.Fprintln(stderr, r.Invalid)
		return timeline.Input{}, nil, false
	}
	in := timeline.Input{Scenario: r.Scenario.Name, Summary: r.Scenario.Summary, Source: t.file, Seed: r.Seed,
		Mutant: t.mutant, Host: t.host, Client: t.client, Trace: r.Trace}
	if r.Verdict != nil {
		in.Verdict = r.Verdict.Text
	}
	for _, f := range r.Failures {
		if r.Verdict != nil && strings.HasSuffix(f.Msg, r.Verdict.Text) {
			continue // the oracle's own failure: the verdict box shows it
		}
		in.Notes = append(in.Notes, "FAILED "+f.String())
	}
	if r.Golden.Failed() {
		in.Notes = append(in.Notes, r.Golden.String())
	}
	fmt.Fprintln(stderr, r.Line())
	for _, l := range r.Details() {
		fmt.Fprintln(stderr, l)
	}
	return in, r, true
}

// writePage is the timeline's one write path: the page to stdout for "-", else to the
// file atomically (fileio.WriteAtomic), saying so on stderr. ok is false (exit 2) when
// the file cannot be written.
func writePage(out string, page []byte, stdout, stderr io.Writer) bool {
	if out == "-" {
		stdout.Write(page)
		return true
	}
	if err := fileio.WriteAtomic(out, page); err != nil {
		fmt.Fprintln(stderr, "simrun timeline:", err)
		return false
	}
	fmt.Fprintln(stderr, "wrote "+out)
	return true
}
