package main

import (
	"context"
	"flag"
	"fmt"
	"github.com/twosettle/twosettle/conform"
	"github.com/twosettle/twosettle/fileio"
	"github.com/twosettle/twosettle/harness"
	"io"
	"os"
	"os/signal"
	"strings"
	"time"

	"github.com/twosettle/twosettle/killmatrix"
)

func init() {
	commands["mutants"] = command{"run every named engine bug against the library and a fuzz budget; print the kill matrix", mutantsMain}
}

// mutantsMain is `simrun mutants [--json] [--seeds N] [--budget D] [--workers W]
// [--start S] [--only NAME,...] [--no-library] [--out DIR]`: the kill matrix of package killmatrix.
// Exit 0 when every mutant is killed by the oracle, 1 otherwise, 2 on bad usage.
func mutantsMain(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("simrun mutants", flag.ContinueOnError)
	asJSON := fs.Bool("json", false, "print one JSON object {\"mutants\": [...]}")
	seedsF, startF := countFlag{killmatrix.DefaultSeeds}, countFlag{1}
	fs.Var(&seedsF, "seeds", fmt.Sprintf("fuzz budget: seeds per mutant (default %d)", killmatrix.DefaultSeeds))
	fs.Var(&startF, "start", "the first seed (default 1)")
	seeds, start := &seedsF.v, &startF.v
	budget := fs.Duration("budget", killmatrix.DefaultBudget, "fuzz budget: wall time per mutant (0: no limit)")
	workers := fs.Int("workers", 0, "mutants run in parallel (0: every core)")
	only := fs.String("only", "", "comma-separated mutant names (default: all)")
	noLib := fs.Bool("no-library", false, "skip the scenario library (fuzzing only)")
	out := fs.String("out", "", "write each kill, shrunk, as DIR/<mutant>.yaml (a witness scenario)")
	junitOut := fs.String("junit", "", "also write the kill matrix as JUnit XML to this file: a testcase per mutant")
	hostCmd := fs.String("host", "", "run each mutant against this host process with --mutant NAME appended (e.g. 'conform refhost'), over twosettle-conform/1")
	rest, ok := parse(fs, args, stderr)
	if !ok {
		return 2
	}
	if len(rest) > 0 {
		fmt.Fprintf(stderr, "simrun mutants: unexpected argument %q\n", rest[0])
		return 2
	}
	if *seeds == 0 || *start == 0 || *budget < 0 || *workers < 0 {
		fmt.Fprintln(stderr, "simrun mutants: --seeds and --start must be positive, --budget and --workers not negative")
		return 2
	}
	opts := killmatrix.Options{Start: *start, Seeds: *seeds, Budget: *budget, Workers: *workers, NoLibrary: *noLib}
	if *hostCmd != "" {
		if _, err := conform.SplitCommand(*hostCmd); err != nil {
			fmt.Fprintln(stderr, "simrun mutants: --host:", err)
			return 2
		}
		opts.Host = func(name string) (harness.HostFactory, func(), error) {
			argv, _ := conform.SplitCommand(*hostCmd)
			pool := conform.NewPool(append(argv, "--mutant", name), conform.ProcessOptions{})
			if _, err := pool.Hello(); err != nil {
				pool.Close()
				return nil, nil, err
			}
			return pool.Factory, pool.Close, nil
		}
	}
	if *budget == 0 {
		opts.Budget = -1
	}
	if *only != "" {
		opts.Only = strings.Split(*only, ",")
	}
	if _, err := killmatrix.Select(opts.Only); err != nil {
		fmt.Fprintln(stderr, "simrun mutants:", err)
		return 2
	}
	if !checkJUnit("simrun mutants", *junitOut, stderr) {
		return 2
	}
	if *out != "" {
		if err := fileio.CheckDir(*out); err != nil {
			fmt.Fprintln(stderr, "simrun mutants: --out:", err)
			return 2
		}
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	m, err := killmatrix.Measure(ctx, opts)
	if err != nil {
		fmt.Fprintln(stderr, "simrun mutants:", err)
		return 2
	}
	lost := 0 // witnesses that could not be written: their output is lost
	if *out != "" {
		for _, r := range m.Rows {
			if r.Verdict != killmatrix.KilledByOracle {
				continue
			}
			w, err := killmatrix.MakeWitness(r, 20*time.Second)
			if err != nil {
				fmt.Fprintln(stderr, "simrun mutants: witness:", err)
				continue
			}
			path, err := killmatrix.WriteWitness(*out, w)
			if err != nil {
				lost++
				fmt.Fprintln(stderr, "simrun mutants: witness:", err)
				continue
			}
			if !*asJSON {
				fmt.Fprintf(stdout, "wrote %s (%d steps, shrunk %v)\n", path, len(w.Scenario.Steps), w.Shrunk)
			}
		}
	}
	if *asJSON {
		stdout.Write(m.JSON())
	} else {
		io.WriteString(stdout, m.Text())
		for _, r := range m.Rows {
			if r.Verdict == killmatrix.KilledByOracle {
				continue
			}
			fmt.Fprintf(stdout, "NOT KILLED %s: %s\n", r.Name, r.Doc)
		}
	}
	if *junitOut != "" && !writeJUnit("simrun mutants", *junitOut, mutantsJUnit(m), stderr) {
		return 2
	}
	if lost > 0 {
		fmt.Fprintf(stderr, "simrun mutants: %d witnesses could not be written to %s\n", lost, *out)
		return 2
	}
	if !m.AllKilled() {
		return 1
	}
	return 0
}
