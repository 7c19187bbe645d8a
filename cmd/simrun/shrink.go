package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/twosettle/twosettle/explore"
	"github.com/twosettle/twosettle/fileio"
)

func init() {
	commands["shrink"] = command{"shrink a failing scenario (same first invariant) and write it as FILE.shrunk.yaml", shrinkMain}
}

const shrinkUsage = "usage: simrun shrink [--mutant NAME] [--host CMD] [--client CMD] [--out FILE2] [--budget D] FILE"

// shrinkMain is `simrun shrink FILE [--mutant NAME] [--host CMD] [--client CMD] [--out FILE2]
// [--budget D]`: FILE's oracle verdict (at its own seed, against the mutant, the host
// process or the client process when named, as simrun fuzz found it) must be a violation;
// explore.ShrinkScenario shrinks it keeping the same first invariant, and the YAML is
// written atomically. Exit 0 when written, 1 when no case reproduces the failure
// through the harness, 2 on bad usage (an output that cannot be written), an invalid
// scenario or one that passes the oracle (nothing to shrink).
func shrinkMain(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("simrun shrink", flag.ContinueOnError)
	mutantName := fs.String("mutant", "", "run against the reference engine with this named bug switched on (as simrun fuzz --mutant found it)")
	hostCmd := hostFlag(fs)
	clientCmd := clientFlag(fs)
	out := fs.String("out", "", "where to write the shrunk scenario (default: FILE with the suffix .shrunk.yaml)")
	asJSON := fs.Bool("json", false, "print one JSON object: file, invariant, message, steps before and after, runs, the written file and its replay line")
	budget := fs.Duration("budget", time.Minute, "stop shrinking after this much wall time and keep the smallest case so far")
	paths, ok := parse(fs, args, stderr)
	if !ok {
		return 2
	}
	if len(paths) != 1 || *budget <= 0 {
		fmt.Fprintln(stderr, shrinkUsage)
		return 2
	}
	file := paths[0]
	if !knownMutant("simrun shrink", *mutantName, stderr) {
		return 2
	}
	// Through the harness first, as simrun replay runs it: an invalid scenario (decoding,
	// an unexpected refusal) is reported the way simrun check reports it.
	r, ok := runScenarioFile(file, "shrink", 0, *mutantName, *hostCmd, *clientCmd, stderr)
	if !ok {
		return 2
	}
	if r.Invalid != nil {
		fmt.Fprintln(stderr, r.Invalid)
		return 2
	}
	dest := *out
	if dest == "" {
		dest = strings.TrimSuffix(strings.TrimSuffix(file, ".yaml"), ".yml") + ".shrunk.yaml"
	}
	if err := fileio.CheckFile(dest); err != nil {
		fmt.Fprintln(stderr, "simrun shrink:", err)
		return 2
	}
	hosts, closeHost, ok := openHost("simrun shrink", *hostCmd, stderr)
	if !ok {
		return 2
	}
	defer closeHost()
	clients, closeClient, ok := openClient("simrun shrink", *clientCmd, stderr)
	if !ok {
		return 2
	}
	defer closeClient()
	sh, err := explore.ShrinkScenario(r.Scenario, explore.Options{Mutant: *mutantName, Host: hosts, Client: clients},
		explore.ShrinkBudget{Deadline: time.Now().Add(*budget)})
	switch {
	case errors.Is(err, explore.ErrPasses):
		fmt.Fprintf(stderr, "simrun shrink: %s: %v\n", file, err)
		if *mutantName == "" {
			fmt.Fprintln(stderr, "        (a fuzz failure found against a mutant shrinks with --mutant NAME)")
		}
		return 2
	case err != nil:
		fmt.Fprintf(stderr, "simrun shrink: %s: %v\n", file, err)
		return 1
	}
	if err := fileio.WriteAtomic(dest, sh.YAML); err != nil {
		fmt.Fprintln(stderr, "simrun shrink:", err)
		return 2
	}
	replay := explore.ReplayCommand(dest, explore.Options{Mutant: *mutantName, ReplayHost: replayHost(*hostCmd), ReplayClient: replayClient(*clientCmd)})
	if *asJSON {
		b, _ := json.MarshalIndent(shrinkJSON{File: file, Message: sh.Message, StepsBefore: len(r.Scenario.Steps),
			StepsAfter: len(sh.Scenario.Steps), Runs: sh.Stats.Runs, BudgetOut: sh.Stats.Exhausted, Wrote: dest, Replay: replay}, "", "  ")
		stdout.Write(append(b, '\n'))
		return 0
	}
	fmt.Fprintf(stdout, "%s fails %s\n", file, sh.Message)
	how := ""
	if sh.Stats.Exhausted {
		how = ", budget ran out"
	}
	fmt.Fprintf(stdout, "shrunk %d -> %d steps (%d runs%s), wrote %s\n", len(r.Scenario.Steps), len(sh.Scenario.Steps), sh.Stats.Runs, how, dest)
	fmt.Fprintf(stdout, "replay: %s\n", replay)
	return 0
}

// shrinkJSON is simrun shrink --json.
type shrinkJSON struct {
	File        string `json:"file"`
	Message     string `json:"message"`
	StepsBefore int    `json:"steps_before"`
	StepsAfter  int    `json:"steps_after"`
	Runs        int    `json:"runs"`
	BudgetOut   bool   `json:"budget_out"`
	Wrote       string `json:"wrote"`
	Replay      string `json:"replay"`
}
