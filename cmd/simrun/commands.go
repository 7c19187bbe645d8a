package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"time"

	"github.com/twosettle/twosettle/fileio"
	"github.com/twosettle/twosettle/golden"
	"github.com/twosettle/twosettle/harness"
	"github.com/twosettle/twosettle/scenarios"
)

func init() {
	commands["run"] = command{"run scenarios (default: the embedded library), compare goldens, check expectations and the oracle", cmdRun}
	commands["check"] = command{"validate scenario files only", cmdCheck}
	commands["replay"] = command{"rerun a saved scenario (a fuzz failure, a shrunk case) and print its transcript", cmdReplay}
	commands["coverage"] = command{"print each requirement id with the scenarios and invariants that exercise it", cmdCoverage}
}

func load(paths []string, stderr io.Writer) ([]harness.Entry, bool) {
	if len(paths) == 0 {
		return harness.Library(""), true
	}
	es, err := harness.Load(paths)
	if err != nil {
		fmt.Fprintln(stderr, "simrun:", err)
		return nil, false
	}
	return es, true
}

func cmdRun(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("simrun run", flag.ContinueOnError)
	var seed seedFlag
	fs.Var(&seed, "seed", "run at this seed instead of each scenario's own (goldens are then not compared)")
	update := fs.Bool("update", false, "rewrite the goldens with this run's transcripts (review the diff)")
	verbose := fs.Bool("v", false, "print every transcript")
	asJSON := fs.Bool("json", false, "print one JSON object with the per-scenario results")
	junitOut := fs.String("junit", "", "also write the results as JUnit XML to this file (for CI test reporters)")
	hostCmd := hostFlag(fs)
	clientCmd := clientFlag(fs)
	paths, ok := parse(fs, args, stderr)
	if !ok {
		return 2
	}
	if !checkJUnit("simrun run", *junitOut, stderr) {
		return 2
	}
	begin := time.Now()
	entries, ok := load(paths, stderr)
	if !ok {
		return 2
	}
	if len(entries) == 0 {
		fmt.Fprintln(stdout, "simrun: the scenario library is empty")
		fmt.Fprintln(stdout, harness.Summary{}.Line())
		return 0
	}
	if *update {
		for _, e := range entries {
			if e.GoldenPath == "" {
				fmt.Fprintln(stderr, "simrun:", harness.ErrNoSourceTree)
				return 2
			}
			if err := fileio.CheckDir(filepath.Dir(e.GoldenPath)); err != nil {
				fmt.Fprintln(stderr, "simrun: --update:", err)
				return 2
			}
		}
	}
	hosts, closeHost, ok := openHost("simrun run", *hostCmd, stderr)
	if !ok {
		return 2
	}
	defer closeHost()
	clients, closeClient, ok := openClient("simrun run", *clientCmd, stderr)
	if !ok {
		return 2
	}
	defer closeClient()
	opts := harness.DefaultOptions()
	opts.Seed, opts.Host = seed.v, hosts
	opts.StreamTranscript = true // rendered for a golden only; -v streams it
	clientOptions(&opts, clients)
	var results []*harness.Result
	for _, e := range entries {
		r := harness.RunEntry(e, opts)
		if *update {
			r.Golden = harness.Update(r)
		}
		results = append(results, r)
		if *asJSON {
			continue
		}
		if *verbose {
			r.WriteTranscript(stdout) // a failed write is the command's (fileio.Output)
		}
		fmt.Fprintln(stdout, r.Line())
		for _, l := range r.Details() {
			fmt.Fprintln(stdout, l)
		}
		if *update && r.Golden.Err != nil {
			fmt.Fprintln(stdout, "        "+r.Golden.String())
		} else if *update && r.Golden.State == "updated" {
			fmt.Fprintln(stdout, "        wrote "+r.Golden.Path)
		}
	}
	sum := harness.Summarize(results)
	if *asJSON {
		stdout.Write(harness.JSON(results))
	} else {
		fmt.Fprintln(stdout, sum.Line())
	}
	code := sum.ExitCode()
	if *junitOut != "" && !writeJUnit("simrun run", *junitOut, runJUnit(results, time.Since(begin)), stderr) {
		return 2
	}
	if *update && code == 1 {
		// An update accepts the new transcripts; what still fails is an expectation or
		// the oracle, which an update does not fix.
		for _, r := range results {
			if r.Golden.Err != nil {
				return 2
			}
		}
	}
	return code
}

func cmdCheck(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("simrun check", flag.ContinueOnError)
	asJSON := fs.Bool("json", false, "print one JSON object: each file with its errors (file, line, col, message, hint)")
	paths, ok := parse(fs, args, stderr)
	if !ok {
		return 2
	}
	if len(paths) == 0 {
		fmt.Fprintln(stderr, "usage: simrun check PATH... (scenario files or directories)")
		return 2
	}
	entries, ok := load(paths, stderr)
	if !ok {
		return 2
	}
	bad := 0
	rep := checkJSON{Files: []checkFile{}}
	for _, e := range entries {
		f := checkFile{Path: e.Path, Valid: true, Errors: []checkError{}}
		s, err := scenarios.Decode(e.Path, e.Data)
		if err == nil {
			err = harness.CheckEvents(s) // appended events against the protocol's event form
		}
		if err != nil {
			bad++
			f.Valid = false
			var es scenarios.Errors
			if errors.As(err, &es) {
				for _, x := range es {
					f.Errors = append(f.Errors, checkError{File: x.Pos.File, Line: x.Pos.Line, Col: x.Pos.Col, Message: x.Msg, Hint: x.Hint})
				}
			} else {
				f.Errors = append(f.Errors, checkError{File: e.Path, Message: err.Error()})
			}
			if !*asJSON {
				fmt.Fprintln(stdout, err)
			}
		} else if !*asJSON {
			fmt.Fprintln(stdout, "ok      "+e.Path)
		}
		rep.Files = append(rep.Files, f)
	}
	rep.Valid, rep.Invalid = len(entries)-bad, bad
	if *asJSON {
		b, _ := json.MarshalIndent(rep, "", "  ")
		stdout.Write(append(b, '\n'))
	} else {
		fmt.Fprintf(stdout, "%d valid, %d invalid\n", len(entries)-bad, bad)
	}
	if bad > 0 {
		return 2
	}
	return 0
}

// checkJSON is simrun check --json.
type checkJSON struct {
	Files   []checkFile `json:"files"`
	Valid   int         `json:"valid"`
	Invalid int         `json:"invalid"`
}

type checkFile struct {
	Path   string       `json:"path"`
	Valid  bool         `json:"valid"`
	Errors []checkError `json:"errors"`
}

type checkError struct {
	File    string `json:"file"`
	Line    int    `json:"line"`
	Col     int    `json:"col"`
	Message string `json:"message"`
	Hint    string `json:"hint,omitempty"`
}

func cmdReplay(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("simrun replay", flag.ContinueOnError)
	var seed seedFlag
	fs.Var(&seed, "seed", "replay at this seed instead of the scenario's own")
	mutantName := fs.String("mutant", "", "replay against the reference engine with this named bug switched on (as simrun fuzz --mutant found it)")
	asJSON := fs.Bool("json", false, "print the result as one JSON object (as simrun run --json) instead of the transcript")
	hostCmd := hostFlag(fs)
	clientCmd := clientFlag(fs)
	paths, ok := parse(fs, args, stderr)
	if !ok {
		return 2
	}
	if len(paths) != 1 {
		fmt.Fprintln(stderr, "usage: simrun replay [--seed N] [--mutant NAME] [--host CMD] [--client CMD] FILE")
		return 2
	}
	if !knownMutant("simrun replay", *mutantName, stderr) {
		return 2
	}
	r, ok := runScenarioFile(paths[0], "replay", seed.v, *mutantName, *hostCmd, *clientCmd, stderr)
	if !ok {
		return 2
	}
	if *asJSON {
		stdout.Write(harness.JSON([]*harness.Result{r}))
		return harness.Summarize([]*harness.Result{r}).ExitCode()
	}
	if r.Transcript != nil {
		stdout.Write(r.Transcript)
	}
	fmt.Fprintln(stderr, r.Line())
	for _, l := range r.Details() {
		fmt.Fprintln(stderr, l)
	}
	return harness.Summarize([]*harness.Result{r}).ExitCode()
}

// runScenarioFile reads one scenario file and runs it through the harness, as replay,
// record, shrink and timeline do: at seed (0: its own), with the named mutant, against
// the host process hostCmd and with the client process clientCmd as every client (""
// for the reference host and client). A file it cannot read, or a transcript given
// instead of its scenario (verb says what the command would do with the scenario), is
// reported on stderr and ok is false: bad usage, exit 2.
func runScenarioFile(file, verb string, seed uint64, mutantName, hostCmd, clientCmd string, stderr io.Writer) (r *harness.Result, ok bool) {
	data, err := scenarios.ReadFile(file)
	if err != nil {
		fmt.Fprintln(stderr, "simrun:", err)
		return nil, false
	}
	if bytes.HasPrefix(data, []byte(golden.Banner)) {
		fmt.Fprintf(stderr, "simrun: %s is a transcript; %s its scenario file (the .yaml written beside it)\n", file, verb)
		return nil, false
	}
	hosts, closeHost, ok := openHost("simrun "+verb, hostCmd, stderr)
	if !ok {
		return nil, false
	}
	defer closeHost()
	clients, closeClient, ok := openClient("simrun "+verb, clientCmd, stderr)
	if !ok {
		return nil, false
	}
	defer closeClient()
	opts := harness.DefaultOptions()
	opts.Seed = seed
	opts.Mutant, opts.Host = mutantName, hosts
	clientOptions(&opts, clients)
	return harness.RunEntry(harness.FileEntry(file, data), opts), true
}

func cmdCoverage(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("simrun coverage", flag.ContinueOnError)
	asJSON := fs.Bool("json", false, "print every requirement id with the scenarios and invariants that exercise it, as JSON")
	paths, ok := parse(fs, args, stderr)
	if !ok {
		return 2
	}
	entries, ok := load(paths, stderr)
	if !ok {
		return 2
	}
	rep, err := harness.Coverage(entries)
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 2
	}
	if *asJSON {
		stdout.Write(rep.JSON())
	} else {
		io.WriteString(stdout, rep.Text())
	}
	if len(rep.Uncovered) > 0 {
		return 1
	}
	return 0
}
