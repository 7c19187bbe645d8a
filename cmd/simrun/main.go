// Command simrun is the front door of the harness (docs/ARCHITECTURE.md §8): it runs scenarios against
// the reference engine, validates scenario files, replays a saved scenario, fuzzes,
// shrinks a failing scenario, draws a run's timeline, prints the mutant kill matrix and
// reports requirement coverage. With no command it runs the embedded scenario library,
// so `go run ./cmd/simrun` and an installed simrun work from any directory.
//
//	simrun [run] [PATH...] [--seed N] [--update] [-v] [--json]
//	simrun check PATH...
//	simrun replay FILE [--seed N] [--mutant NAME]
//	simrun fuzz [--seeds N | --duration D] [--start S] [--shard K/N] [--workers W] [--out DIR] [--corpus DIR] [--mutant NAME]
//	simrun merge [--out DIR] [--json FILE] [--junit FILE] SHARD...
//	simrun shrink FILE [--mutant NAME] [--out FILE2] [--budget D]
//	simrun timeline FILE [--seed N] [--mutant NAME] -o FILE.html   (-o - for stdout)
//	simrun mutants [--only NAME,...] [--seeds N] [--budget D] [--out DIR] [--json]
//	simrun coverage [--json]
//	simrun explore WORLD [--depth N] [--deviations K] [--budget D] [--mutant NAME] [--json] [--out DIR] [--path P] [--random N]
//	simrun record FILE [--host 'CMD ARGS'] [--seed N] [--mutant NAME] -o RUNFILE   (-o - for stdout)
//	simrun expect [--any-refusal-text] SCENARIO.yaml RUNFILE
//
// Exit codes: 0 all good, 1 a scenario, expectation, golden or oracle check failed, 2 bad
// usage or invalid input (with file:line:col where there is one). shrink exits 0 when it
// wrote the shrunk case and 2 for a scenario that passes the oracle (nothing to shrink).
// timeline writes the page of a failing run too, then exits 1 (package timeline draws it
// from the trace and the verdict only); record likewise writes the run file of a failing
// run. expect exits 1 when an expectation does not hold against the run file, 2 for a
// scenario or run file it cannot read (file:line:col) or a run of another scenario.
//
// The commands are thin: flag parsing, files and exit codes over package harness, which
// the tests call too. Another command registers itself in commands (from its own file).
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
	"strconv"
	"strings"

	"github.com/twosettle/twosettle/engine/mutant"
	"github.com/twosettle/twosettle/fileio"
)

// command is one subcommand: it parses its own arguments and returns the exit code.
type command struct {
	summary string
	run     func(args []string, stdout, stderr io.Writer) int
}

// commands are the subcommands by name; files of this package add theirs in init.
var commands = map[string]command{}

func main() { os.Exit(Main(os.Args[1:], os.Stdout, os.Stderr)) }

// Main runs simrun with args and returns its exit code. A failed write to stdout (a full
// device) exits 2: the output was lost.
func Main(args []string, stdout, stderr io.Writer) int {
	return fileio.Checked("simrun", stdout, stderr, func(stdout io.Writer) int { return mainOf(args, stdout, stderr) }, ExitInterrupted)
}

func mainOf(args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 {
		switch args[0] {
		case "help", "-h", "-help", "--help":
			if args[0] == "help" && len(args) > 1 {
				return help(args[1], stdout, stderr)
			}
			usage(stdout)
			return 0
		case "version", "--version", "-version":
			fmt.Fprintln(stdout, version("simrun"))
			return 0
		}
		if c, ok := commands[args[0]]; ok {
			if isHelp(args[1:]) {
				return help(args[0], stdout, stderr)
			}
			return c.run(args[1:], stdout, stderr)
		}
		if !strings.HasPrefix(args[0], "-") && !looksLikePath(args[0]) {
			fmt.Fprintf(stderr, "simrun: unknown command %q\n", args[0])
			usage(stderr)
			return 2
		}
	}
	if isHelp(args) {
		return help("run", stdout, stderr)
	}
	return commands["run"].run(args, stdout, stderr)
}

func looksLikePath(s string) bool {
	if strings.ContainsAny(s, "/.") {
		return true
	}
	_, err := os.Stat(s)
	return err == nil
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: simrun [command] [arguments]   (the default command is run)")
	var names []string
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-9s %s\n", n, commands[n].summary)
	}
	fmt.Fprintln(w, "exit codes: 0 all good, 1 a check failed, 2 bad usage or invalid input (fuzz: 130 interrupted)")
	fmt.Fprintln(w, "simrun help CMD or simrun CMD -h: a command's flags; simrun --version: the build")
}

// parse parses flags and positional arguments in any order (flags may follow paths).
func parse(fs *flag.FlagSet, args []string, stderr io.Writer) ([]string, bool) {
	fs.SetOutput(stderr)
	setUsage(fs)
	var rest []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, false
		}
		args = fs.Args()
		if len(args) == 0 {
			return rest, true
		}
		rest = append(rest, args[0])
		args = args[1:]
	}
}

// countFlag is a positive whole-number flag (--seeds, --start) whose bad value is named
// as such (flag.Uint64 answered "-5" with "parse error").
type countFlag struct{ v uint64 }

func (c *countFlag) String() string { return strconv.FormatUint(c.v, 10) }
func (c *countFlag) Set(v string) error {
	n, err := strconv.ParseUint(v, 10, 64)
	if err != nil || n == 0 {
		return fmt.Errorf("must be a positive whole number, not %q", v)
	}
	c.v = n
	return nil
}

// seedFlag is a uint64 flag that records whether it was set.
type seedFlag struct {
	v   uint64
	set bool
}

func (s *seedFlag) String() string { return strconv.FormatUint(s.v, 10) }
func (s *seedFlag) Set(v string) error {
	n, err := strconv.ParseUint(v, 0, 64)
	if err != nil || n == 0 {
		return fmt.Errorf("a seed is a positive whole number")
	}
	s.v, s.set = n, true
	return nil
}

// knownMutant reports whether name is "" (no mutant) or a mutant of engine/mutant; an
// unknown name is reported on stderr as cmd's bad usage, with the names there are.
func knownMutant(cmd, name string, stderr io.Writer) bool {
	if name == "" {
		return true
	}
	if _, ok := mutant.Lookup(name); !ok {
		fmt.Fprintf(stderr, "%s: unknown mutant %q (the mutants are %s)\n", cmd, name, mutant.Names())
		return false
	}
	return true
}
