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
	commands["timeline"] = command{"run one scenario and write a self-contained HTML picture of it (-o FILE.html, - for stdout)", timelineMain}
}

const timelineUsage = "usage: simrun timeline FILE [--seed N] [--mutant NAME] -o FILE.html   (-o - writes to stdout)"

// timelineMain is `simrun timeline FILE [--seed N] [--mutant NAME] -o OUT`: it runs the
// scenario as simrun replay does and writes package timeline's page of the run. A run
// that fails (its oracle, an expectation, its golden) still gets its page: the page is
// written, then the exit code is 1. Bad usage or an invalid scenario: 2, nothing written.
func timelineMain(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("simrun timeline", flag.ContinueOnError)
	var seed seedFlag
	fs.Var(&seed, "seed", "run at this seed instead of the scenario's own")
	mutantName := fs.String("mutant", "", "run against the reference engine with this named bug switched on")
	hostCmd := hostFlag(fs)
	out := fs.String("o", "", "the HTML file to write (- for stdout); required")
	asJSON := fs.Bool("json", false, "print the run's result as one JSON object (as simrun run --json) on stdout (not with -o -)")
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
	if !knownMutant("simrun timeline", *mutantName, stderr) {
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
	file := paths[0]
	r, ok := runScenarioFile(file, "draw", seed.v, *mutantName, *hostCmd, stderr)
	if !ok {
		return 2
	}
	if r.Invalid != nil {
		fmt.Fprintln(stderr, r.Invalid)
		return 2
	}
	in := timeline.Input{Scenario: r.Scenario.Name, Summary: r.Scenario.Summary, Source: file, Seed: r.Seed,
		Mutant: *mutantName, Trace: r.Trace}
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
	page := timeline.Render(in)
	if *out == "-" {
		stdout.Write(page)
	} else if err := fileio.WriteAtomic(*out, page); err != nil {
		fmt.Fprintln(stderr, "simrun timeline:", err)
		return 2
	}
	if *asJSON && *out != "-" {
		stdout.Write(harness.JSON([]*harness.Result{r}))
	}
	fmt.Fprintln(stderr, r.Line())
	for _, l := range r.Details() {
		fmt.Fprintln(stderr, l)
	}
	if *out != "-" {
		fmt.Fprintln(stderr, "wrote "+*out)
	}
	return harness.Summarize([]*harness.Result{r}).ExitCode()
}
