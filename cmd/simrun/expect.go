package main

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"strconv"

	"github.com/twosettle/twosettle/fileio"
	"github.com/twosettle/twosettle/golden"
	"github.com/twosettle/twosettle/harness"
	"github.com/twosettle/twosettle/scenarios"
)

// simrun record writes the run file (harness.WriteRunFile, docs/PROTOCOL.md "Run files")
// of one run of a scenario; simrun expect checks a scenario's expectations against a run
// file, whoever produced it (harness.CheckExpectations).
func init() {
	commands["record"] = command{"run one scenario (with --host or --client processes if given) and write its run file (-o FILE, - for stdout)", cmdRecord}
	commands["expect"] = command{"check a scenario's expectations against a run file from any host and clients: simrun expect SCENARIO RUNFILE", cmdExpect}
}

func cmdRecord(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("simrun record", flag.ContinueOnError)
	var seed seedFlag
	fs.Var(&seed, "seed", "run at this seed instead of the scenario's own")
	mutantName := fs.String("mutant", "", "run the reference engine with this named bug switched on")
	out := fs.String("o", "", "the run file to write (- for stdout)")
	hostCmd := hostFlag(fs)
	clientCmd := clientFlag(fs)
	paths, ok := parse(fs, args, stderr)
	if !ok {
		return 2
	}
	if len(paths) != 1 || *out == "" {
		fmt.Fprintln(stderr, "usage: simrun record [--host 'CMD ARGS'] [--client 'CMD ARGS'] [--seed N] [--mutant NAME] FILE -o RUNFILE")
		return 2
	}
	if !knownMutant("simrun record", *mutantName, stderr) {
		return 2
	}
	if *out != "-" {
		if err := fileio.CheckFile(*out); err != nil {
			fmt.Fprintln(stderr, "simrun record: -o:", err)
			return 2
		}
	}
	r, ok := runScenarioFile(paths[0], "record", seed.v, *mutantName, *hostCmd, *clientCmd, stderr)
	if !ok {
		return 2
	}
	if r.Invalid != nil || r.Trace == nil || r.HostConfigErr != nil {
		fmt.Fprintln(stderr, r.Line())
		for _, l := range r.Details() {
			fmt.Fprintln(stderr, l)
		}
		if r.Invalid != nil {
			return 2
		}
		return 1
	}
	var b bytes.Buffer
	if err := harness.WriteRunFile(&b, r.Name(), r.Trace, r.Verdict); err != nil {
		fmt.Fprintln(stderr, "simrun record:", err)
		return 1
	}
	if *out == "-" {
		stdout.Write(b.Bytes())
	} else if err := fileio.WriteAtomic(*out, b.Bytes()); err != nil {
		fmt.Fprintln(stderr, "simrun record:", err)
		return 2
	}
	fmt.Fprintln(stderr, r.Line())
	for _, l := range r.Details() {
		fmt.Fprintln(stderr, l)
	}
	return harness.Summarize([]*harness.Result{r}).ExitCode()
}

func cmdExpect(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("simrun expect", flag.ContinueOnError)
	anyText := fs.Bool("any-refusal-text", false, "accept a refused step whatever the refusal's words (another implementation's words are its own)")
	paths, ok := parse(fs, args, stderr)
	if !ok {
		return 2
	}
	if len(paths) != 2 {
		fmt.Fprintln(stderr, "usage: simrun expect [--any-refusal-text] SCENARIO.yaml RUNFILE")
		return 2
	}
	src, err := scenarios.ReadFile(paths[0])
	if err != nil {
		fmt.Fprintln(stderr, "simrun:", err)
		return 2
	}
	s, err := scenarios.Decode(paths[0], src)
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 2
	}
	data, err := fileio.ReadLimited(paths[1], golden.MaxFileSize) // a regular file only, through a limit
	if err != nil {
		fmt.Fprintln(stderr, "simrun:", err)
		return 2
	}
	rf, err := harness.ReadRunFile(paths[1], data)
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 2
	}
	if rf.Scenario != s.Name {
		fmt.Fprintf(stderr, "simrun expect: %s is a run of %q, not of %q\n", paths[1], rf.Scenario, s.Name)
		return 2
	}
	c := harness.CheckExpectations(s, rf.Trace, harness.CheckOptions{Verdict: rf.Verdict, AnyRefusalText: *anyText})
	if c.Impossible != nil {
		fmt.Fprintln(stdout, "FAIL   ", s.Name)
		fmt.Fprintln(stdout, "       ", c.Impossible)
		return 1
	}
	for _, f := range c.Failures {
		fmt.Fprintln(stdout, "FAIL   ", f)
	}
	fmt.Fprintln(stdout, strconv.Itoa(c.Expectations)+" checked, "+strconv.Itoa(len(c.Failures))+" failed")
	if !c.OK() {
		return 1
	}
	return 0
}
