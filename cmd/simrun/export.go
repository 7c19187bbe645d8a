package main

import (
	"flag"
	"fmt"
	"io"
	"path/filepath"

	"github.com/twosettle/twosettle/fileio"
	"github.com/twosettle/twosettle/golden"
	"github.com/twosettle/twosettle/harness"
	"github.com/twosettle/twosettle/scenarios"
	"github.com/twosettle/twosettle/sessionlog"
)

func init() {
	commands["export"] = command{"write each run's Session logs in the neutral JSON Lines form (one file per Session)", cmdExport}
	synopses["export"] = "simrun export [PATH...] [--seed N] [--out DIR] [--host CMD]\n\nWrites DIR/<scenario>.<session>.jsonl (docs/PROTOCOL.md, \"Session log files\"). Exit 0 written, 1 a run whose host was lost, 2 bad usage or an unwritable --out."
}

// cmdExport is `simrun export [PATH...] [--seed N] [--out DIR] [--host CMD]`: it runs the
// scenarios (default: the library) and writes every Session log of each run's final host
// state to DIR/<scenario>.<session>.jsonl (docs/PROTOCOL.md, "Session log files"), the
// form `conform projection --log` and the projection profile read. Exit 0 written, 1 a
// run whose host was lost (nothing written for it), 2 bad usage, an invalid scenario or
// a file that cannot be written.
func cmdExport(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("simrun export", flag.ContinueOnError)
	var seed seedFlag
	fs.Var(&seed, "seed", "run at this seed instead of each scenario's own")
	out := fs.String("out", "export", "the directory the log files are written to")
	hostCmd := hostFlag(fs)
	paths, ok := parse(fs, args, stderr)
	if !ok {
		return 2
	}
	entries, ok := load(paths, stderr)
	if !ok {
		return 2
	}
	if err := fileio.CheckDir(*out); err != nil {
		fmt.Fprintln(stderr, "simrun export: --out:", err)
		return 2
	}
	hosts, closeHost, ok := openHost("simrun export", *hostCmd, stderr)
	if !ok {
		return 2
	}
	defer closeHost()
	code, files := 0, 0
	for _, e := range entries {
		s, err := scenarios.Decode(e.Path, e.Data)
		if err != nil {
			fmt.Fprintln(stderr, err)
			return 2
		}
		r := &harness.Result{Entry: e}
		harness.RunScenario(r, s, harness.Options{Seed: seed.v, Host: hosts})
		switch {
		case r.Invalid != nil:
			fmt.Fprintln(stderr, r.Invalid)
			return 2
		case r.Lost != nil:
			fmt.Fprintf(stdout, "LOST    %s: %v\n", s.Name, r.Lost.Err)
			code = 1
			continue
		case r.Trace == nil:
			continue
		}
		for _, ss := range r.Trace.Final.Host.Sessions {
			b, err := sessionlog.Append(nil, sessionlog.FromState(ss))
			if err != nil {
				fmt.Fprintf(stderr, "simrun export: %s %s: %v\n", s.Name, ss.ID, err)
				return 2
			}
			file := filepath.Join(*out, s.Name+"."+ss.ID+".jsonl")
			if err := golden.Write(file, b); err != nil {
				fmt.Fprintln(stderr, "simrun export:", err)
				return 2
			}
			fmt.Fprintf(stdout, "wrote   %s (%d events)\n", file, len(ss.Log))
			files++
		}
	}
	fmt.Fprintf(stdout, "%d Session logs from %d runs in %s\n", files, len(entries), *out)
	return code
}
