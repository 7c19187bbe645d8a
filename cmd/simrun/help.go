package main

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/twosettle/twosettle/explore"
)

// synopses are each command's usage line (and what a reader needs besides its flags),
// printed by `simrun help CMD` and `simrun CMD -h` above the command's flags.
var synopses = map[string]string{
	"run":      "simrun [run] [PATH...] [--seed N] [--update] [-v] [--json] [--junit FILE] [--host CMD] [--client CMD]\n\nWith no PATH: the embedded scenario library. Ends with \"N passed, N failed\".\n--client CMD runs a client process (docs/PROTOCOL.md, Clients) as every client: a refused: step or a hint: expectation then accepts the UI's own words, and goldens compare exactly (conform --client normalises what a UI mints and words).",
	"check":    "simrun check PATH... [--json]\n\nValidates scenario files (or every .yaml of a directory) without running them.",
	"replay":   "simrun replay FILE [--seed N] [--mutant NAME] [--json] [--host CMD] [--client CMD]\n\nPrints the transcript on stdout and the verdict on stderr (--json: one JSON object instead).",
	"coverage": "simrun coverage [PATH...] [--json]\n\nExit 1 when a requirement id is covered by nothing.",
	"fuzz":     "simrun fuzz [--seeds N | --duration D] [--start S] [--shard K/N] [--workers W] [--out DIR] [--json] [--junit FILE] [--corpus DIR] [--no-shrink] [--mutant NAME] [--host CMD] [--client CMD]\n\nA shard (--shard) also writes its report to DIR/shard-K-of-N.json for simrun merge; every report says exactly which seeds ran (\"covered\"). Exit 0 no violation, 1 some, 2 bad usage or an unwritable --out/--junit, 130 interrupted (Ctrl-C, SIGTERM) before every seed ran with none found.",
	"shrink":   "simrun shrink FILE [--mutant NAME] [--out FILE2] [--budget D] [--json] [--host CMD]\n\nWrites FILE.shrunk.yaml (or FILE2); exit 2 when the scenario passes (nothing to shrink).",
	"timeline": timelineHelp,
	"record":   "simrun record FILE [--seed N] [--mutant NAME] [--host CMD] -o RUNFILE   (-o - writes to stdout)",
	"expect":   "simrun expect [--any-refusal-text] SCENARIO.yaml RUNFILE\n\nExit 0 every expectation holds, 1 one fails, 2 bad input.",
	"merge":    "simrun merge [--out DIR] [--json FILE] [--junit FILE] SHARD...\n\nEach SHARD is a shard's --out directory (its record shard-K-of-N.json and its failure files) or a fuzz report file, of simrun fuzz or conform fuzz. Writes the report one campaign of the same seeds would: the text (or --json -), --json FILE and --junit FILE in the shards' command's format, the failures' files in --out. Refuses shards of different builds or campaigns and a repeated shard (exit 2, nothing written); names a missing shard (exit 2 after writing). Exit 1 a failure, 130 a shard interrupted with none found.",
	"mutants":  "simrun mutants [--only NAME,...] [--seeds N] [--start S] [--budget D] [--workers W] [--no-library] [--out DIR] [--json] [--junit FILE] [--host CMD]\n\nExit 0 when the oracle kills every mutant, 1 otherwise, 2 bad usage or a witness that could not be written.",
}

// setUsage makes fs's -h print the command's synopsis, summary and flags.
func setUsage(fs *flag.FlagSet) {
	fs.Usage = func() {
		w := fs.Output()
		name := strings.TrimPrefix(fs.Name(), "simrun ")
		syn, more, _ := strings.Cut(synopses[name], "\n\n")
		if syn == "" {
			syn = fs.Name() + " [flags]"
		}
		fmt.Fprintln(w, "usage: "+syn)
		if c, ok := commands[name]; ok {
			fmt.Fprintln(w)
			fmt.Fprintln(w, c.summary)
		}
		if more != "" {
			fmt.Fprintln(w, more)
		}
		n := 0
		fs.VisitAll(func(*flag.Flag) { n++ })
		if n == 0 {
			fmt.Fprintln(w, "\nno flags")
			return
		}
		fmt.Fprintln(w, "\nflags:")
		fs.PrintDefaults()
	}
}

// isHelp reports whether args ask for help (-h, -help, --help before any "--").
func isHelp(args []string) bool {
	for _, a := range args {
		switch a {
		case "--":
			return false
		case "-h", "-help", "--help":
			return true
		}
	}
	return false
}

// help prints command name's usage and flags on stdout: exit 0, or 2 for no such command.
func help(name string, stdout, stderr io.Writer) int {
	c, ok := commands[name]
	if !ok {
		fmt.Fprintf(stderr, "simrun help: unknown command %q\n", name)
		usage(stderr)
		return 2
	}
	var b bytes.Buffer
	c.run([]string{"-h"}, io.Discard, &b) // a command's -h only prints its usage
	stdout.Write(b.Bytes())
	return 0
}

// version is "simrun VERSION (revision R[, modified]) GOVERSION" from the build info: the
// module version ("(devel)" in a source tree) and the VCS revision the binary was built
// from, when the go command recorded one (explore.Build, the identity a campaign's shards
// carry too).
func version(prog string) string { return prog + " " + explore.Build() }
