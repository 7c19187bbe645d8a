package conform

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"sort"
	"strings"
	"time"

	"github.com/benbjohnson/clock"
	"github.com/twosettle/twosettle/conform/variant"
	"github.com/twosettle/twosettle/explore"
	"github.com/twosettle/twosettle/fileio"
	"github.com/twosettle/twosettle/harness"
	"github.com/twosettle/twosettle/junit"
	"github.com/twosettle/twosettle/scenarios"
)

// Main is the conform command (cmd/conform): it returns the exit code (0 conformant, 1
// a failure, 2 bad usage, invalid input or a host that does not speak the protocol).
//
//	conform --host 'CMD ARGS' [--seed N] [--json FILE] [--junit FILE] [--timeout D] [--allow-partial] [-v] [FILES|DIRS]
//	conform --realtime --host 'CMD ARGS' [--seeds N] [--start S] [--budget D] [--early D] [--late D] [...] [FILES]
//	conform fuzz --host 'CMD ARGS' [--seeds N | --duration D] [--start S] [--shard K/N] [--workers W] [--out DIR] [--corpus DIR] [--json FILE] [--junit FILE]
//	conform --profile projection --host 'CMD ARGS' [--library=false] [--seeds N] [--edge N] [--start S] [--out DIR] [--json FILE] [--junit FILE] [-v] [LOG.jsonl|DIR...]
//	conform projection --log FILE.jsonl [--view FILE.jsonl] | --log DIR --view DIR
//	conform refhost [--mutant NAME] [--variant NAME[,NAME...]] [--real-timers]
//	conform --client 'CMD ARGS' [...] / conform fuzz --client 'CMD ARGS' [...] / conform refclient [--mutant NAME]
//
// A failed write to stdout (a full device) exits 2: the output was lost. (refhost's and
// refclient's stdout is the protocol: a failed write there ends them already.)
func Main(args []string, stdin io.Reader, stdout, stderr io.Writer, env []string) int {
	if len(args) > 0 && (args[0] == "refhost" || args[0] == "refclient") {
		return mainOf(args, stdin, stdout, stderr, env)
	}
	return fileio.Checked("conform", stdout, stderr, func(stdout io.Writer) int { return mainOf(args, stdin, stdout, stderr, env) }, ExitInterrupted)
}

func mainOf(args []string, stdin io.Reader, stdout, stderr io.Writer, env []string) int {
	if len(args) > 0 {
		switch args[0] {
		case "version", "--version", "-version":
			fmt.Fprintln(stdout, versionLine())
			return 0
		case "help":
			if len(args) > 1 {
				return commandHelp(args[1], stdout, stderr, env)
			}
		}
		if name, ok := helpWanted(args); ok {
			return commandHelp(name, stdout, stderr, env)
		}
		switch args[0] {
		case "refhost":
			return refhostMain(args[1:], stdin, stdout, stderr)
		case "refclient":
			return refclientMain(args[1:], stdin, stdout, stderr)
		case "fuzz":
			return fuzzMain(args[1:], stdout, stderr, env)
		case "projection":
			return projectionLogMain(args[1:], stdout, stderr)
		case "run":
			args = args[1:]
		case "help", "-h", "-help", "--help":
			fmt.Fprint(stdout, usage)
			return 0
		}
	}
	name, rest, ok := takeProfile(args)
	if !ok {
		fmt.Fprintln(stderr, "conform: --profile needs a value (the profiles are "+strings.Join(profileNames, ", ")+")")
		return 2
	}
	profile, err := ParseProfile(name)
	if err != nil {
		fmt.Fprintln(stderr, "conform:", err)
		return 2
	}
	return runProfile(profile, rest, stdout, stderr, env)
}

const usage = `usage:
  conform --host 'CMD ARGS' [--seed N] [--json FILE] [--junit FILE] [--timeout D] [--max-line N] [--allow-partial] [-v] [FILES|DIRS]
      run the scenario library (or the given scenario files) against the host process
  conform --realtime --host 'CMD ARGS' [--seeds N] [--start S] [--budget D] [--early D] [--late D] [...] [FILES]
      a host on its own timers: generated scenarios suited to real time (or the given files), paced
      on the real clock and judged within a tolerance; not replayable
  conform fuzz --host 'CMD ARGS' [--seeds N | --duration D] [--start S] [--shard K/N] [--workers W] [--out DIR] [--corpus DIR] [--json FILE] [--junit FILE]
      run the swarm fuzzer against the host (one process per worker), generating only what its features
      allow (the summary says what was left out and why); failures are shrunk and written; a shard
      (--shard) also writes DIR/shard-K-of-N.json, which simrun merge joins with the other shards'
  conform --profile projection --host 'CMD ARGS' [--library=false] [--seeds N] [--edge N] [--start S] [--out DIR] [--json FILE] [--junit FILE] [-v] [LOG.jsonl|DIR...]
      the projection profile: the host is a userQuestions fold; every Session of the library, of N fuzz
      seeds and of N generated edge logs (or the given log files, a directory meaning its *.jsonl) is streamed to it event by event and
      each view compared with the reference fold's
  conform projection --log FILE.jsonl [--view FILE.jsonl] | --log DIR --view DIR
      fold a recorded Session log with the reference projection and print the view after each event;
      with --view, compare your recorded views and report the first event where they differ
      (directories: every *.jsonl log with the view file of the same name)
  conform --profile wait --host 'CMD ARGS' [--seeds N] [--start S] [--no-library] [--only NAME] [--out DIR]
          [--realtime [--early D] [--late D]] [--json FILE] [--junit FILE] [-v] [SCRIPTS]
      the timed wait alone: library-derived and generated wait scripts against the host
      (--realtime: paced on the real clock for a host on its own timers; not replayable)
  conform refhost [--mutant NAME] [--variant NAME[,NAME...]] [--real-timers]
      serve the reference host over the protocol on stdin/stdout (the example adapter; every profile;
      --real-timers: the host profile on its own timers, for --realtime; --variant: behind
      correct-but-different variants such as ids-uuid, reorder, write-through, json-style)
  conform --client 'CMD ARGS' [same flags as --host] / conform fuzz --client 'CMD ARGS' [...]
      the same with the reference host and the process as every client of a run
  conform refclient [--mutant NAME]
      serve the reference client over the protocol (the example client adapter)

The protocol is twosettle-conform/1 (docs/PROTOCOL.md). Exit codes: 0 conformant, 1 a failure,
2 bad usage, invalid input or a host that does not speak the protocol.
`

// helpWanted reports which command -h, -help or --help (before any "--") asks about.
func helpWanted(args []string) (string, bool) {
	name := "run"
	if len(args) > 0 {
		switch args[0] {
		case "run", "fuzz", "refhost", "projection":
			name, args = args[0], args[1:]
		}
	}
	if p, _, ok := takeProfile(args); ok && name == "run" && p != "" && p != ProfileHost {
		name = "--profile " + p
	}
	for _, a := range args {
		switch a {
		case "--":
			return "", false
		case "-h", "-help", "--help":
			return name, true
		}
	}
	return "", false
}

// commandHelp prints a command's usage line and its flags on stdout (exit 0): the
// command is run with -h, which only prints them.
func commandHelp(name string, stdout, stderr io.Writer, env []string) int {
	var b strings.Builder
	switch name {
	case "run":
		runMain([]string{"-h"}, io.Discard, &b, env)
	case "fuzz":
		fuzzMain([]string{"-h"}, io.Discard, &b, env)
	case "refhost":
		refhostMain([]string{"-h"}, strings.NewReader(""), io.Discard, &b)
	case "projection":
		projectionLogMain([]string{"-h"}, io.Discard, &b)
	case "--profile " + ProfileProjection:
		projectionMain([]string{"-h"}, io.Discard, &b, env)
	case "--profile " + ProfileWait:
		runWaitProfile([]string{"-h"}, io.Discard, &b, env)
	default:
		fmt.Fprintf(stderr, "conform help: unknown command %q (the commands are run, fuzz, refhost, projection)\n", name)
		return 2
	}
	fmt.Fprint(stdout, usage)
	fmt.Fprintln(stdout)
	fmt.Fprint(stdout, strings.Replace(b.String(), "Usage of ", "flags of ", 1))
	return 0
}

// versionLine is "conform VERSION (revision R[, modified]) GOVERSION" from the build info
// (explore.Build, the identity a campaign's shards carry too).
func versionLine() string { return "conform " + explore.Build() }

func version() string {
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" {
		return bi.Main.Version
	}
	return "(devel)"
}

func refhostMain(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("conform refhost", flag.ContinueOnError)
	fs.SetOutput(stderr)
	mutant := fs.String("mutant", "", "switch on one of the reference engine's named bugs")
	realTimers := fs.Bool("real-timers", false, "the host profile on its own timers, ignoring \"now\" (for conform --realtime)")
	variantSpec := fs.String("variant", "", "serve the reference host behind correct-but-different variants, comma-separated: "+
		strings.Join(variant.Names(), ", ")+" (docs/PROTOCOL.md, \"Correct-but-different hosts\")")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "conform refhost: unexpected argument %q\n", fs.Arg(0))
		return 2
	}
	variants, err := variant.Parse(*variantSpec)
	if err != nil {
		fmt.Fprintln(stderr, "conform refhost: --variant:", err)
		return 2
	}
	var clk clock.Clock
	if *realTimers {
		clk = clock.New()
	}
	if err := ServeVariants(stdin, stdout, *mutant, variants, version(), clk); err != nil {
		fmt.Fprintln(stderr, "conform refhost:", err)
		return 2
	}
	return 0
}

func refclientMain(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("conform refclient", flag.ContinueOnError)
	fs.SetOutput(stderr)
	mutant := fs.String("mutant", "", "switch on one of the reference engine's client-side bugs")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "conform refclient: unexpected argument %q\n", fs.Arg(0))
		return 2
	}
	if err := ServeClient(stdin, stdout, *mutant, version()); err != nil {
		fmt.Fprintln(stderr, "conform refclient:", err)
		return 2
	}
	return 0
}

// hostFlags are the flags every command that drives a host (or a client) has.
type hostFlags struct {
	host    string
	client  string // --client: the process is every client of a run, the host is the reference
	timeout time.Duration
	maxLine int
	profile string // the profile asked for in the hello ("": the whole host)
}

func (h *hostFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&h.host, "host", "", "the host command line (split like a shell's words; no shell features)")
	fs.StringVar(&h.client, "client", "", "the client command line: the process is every client of a run, with the reference host")
	fs.DurationVar(&h.timeout, "timeout", DefaultTimeout, "how long to wait for each reply of the host (or client) process")
	fs.IntVar(&h.maxLine, "max-line", DefaultMaxLine, "the largest line the host (or client) process may write, in bytes")
}

// open starts the host's first process and reads its hello.
func (h *hostFlags) open(name string, env []string, stderr io.Writer) (*Pool, HostInfo, bool) {
	if h.host != "" && h.client != "" {
		fmt.Fprintf(stderr, "%s: --host and --client judge one process each: give one of them\n", name)
		return nil, HostInfo{}, false
	}
	role, flagName := RoleHost, "--host"
	if h.client != "" {
		h.host = h.client // the command line the pool runs; the run path knows the role
		role, flagName = RoleClient, "--client"
	} else if h.host == "" {
		fmt.Fprintf(stderr, "%s: --host 'CMD ARGS' (or --client 'CMD ARGS') is required (try --host 'conform refhost')\n", name)
		return nil, HostInfo{}, false
	}
	if h.timeout <= 0 || h.maxLine <= 0 || h.maxLine > MaxLineLimit {
		fmt.Fprintf(stderr, "%s: --timeout must be positive and --max-line between 1 and %d bytes\n", name, MaxLineLimit)
		return nil, HostInfo{}, false
	}
	argv, err := SplitCommand(h.host)
	if err != nil {
		fmt.Fprintf(stderr, "%s: %s: %v\n", name, flagName, err)
		return nil, HostInfo{}, false
	}
	pool := NewPool(argv, ProcessOptions{Timeout: h.timeout, MaxLine: h.maxLine, Env: env, Profile: h.profile})
	info, err := pool.Hello()
	if err != nil {
		// The Process words its failures for a host; name the role it was started for.
		msg := err.Error()
		if role == RoleClient {
			msg = strings.ReplaceAll(msg, "the host", "the client")
		}
		fmt.Fprintf(stderr, "%s: the %s cannot be used: %s\n", name, role, msg)
		pool.Close()
		return nil, HostInfo{}, false
	}
	if h.client != "" && len(info.Features) > 0 {
		fmt.Fprintf(stderr, "%s: note: the client declares features (%s); a client has none in %s (is it a host?)\n", name, strings.Join(info.Features, ", "), Protocol)
	}
	for _, f := range info.Features {
		if h.client != "" {
			break
		}
		if !knownFeature(f) {
			fmt.Fprintf(stderr, "%s: note: the host declares feature %q, which %s does not know; it is ignored\n", name, f, Protocol)
		}
	}
	return pool, info, true
}

func runMain(args []string, stdout, stderr io.Writer, env []string) int {
	args0 := args
	fs := flag.NewFlagSet("conform", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var hf hostFlags
	hf.register(fs)
	seed := fs.Uint64("seed", 0, "run every scenario at this seed instead of its own")
	jsonOut := fs.String("json", "", "write the report as JSON to this file (- for stdout)")
	junitOut := fs.String("junit", "", "write the report as JUnit XML to this file")
	verbose := fs.Bool("v", false, "print each run's transcript as compared (the judged process's run: the host's, or the client's)")
	allowPartial := fs.Bool("allow-partial", false, "accept a library run that judged fewer requirement ids than the floor every host is judged on (a part adopted on purpose)")
	var rt realtimeFlags
	rt.register(fs)
	var paths []string
	for {
		if err := fs.Parse(args); err != nil {
			return 2
		}
		if fs.NArg() == 0 {
			break
		}
		paths = append(paths, fs.Arg(0))
		args = fs.Args()[1:]
	}
	for _, o := range []struct{ flag, path string }{{"--json", *jsonOut}, {"--junit", *junitOut}} {
		if o.path == "" || o.path == "-" {
			continue
		}
		if err := fileio.CheckFile(o.path); err != nil {
			fmt.Fprintf(stderr, "conform: %s: %v\n", o.flag, err)
			return 2
		}
	}
	if !rt.check(args0, len(paths) > 0, hf.client != "", *seed, stderr) {
		return 2
	}
	var entries []harness.Entry
	if len(paths) == 0 && rt.on {
		// generated below: the library's scenarios last minutes of virtual time
	} else if len(paths) == 0 {
		entries = harness.Library("")
	} else {
		var err error
		if entries, err = harness.Load(paths); err != nil {
			fmt.Fprintln(stderr, "conform:", err)
			return 2
		}
	}
	var decoded []*scenarios.Scenario
	bad := false
	for _, e := range entries {
		s, err := scenarios.Decode(e.Path, e.Data)
		if err != nil {
			fmt.Fprintln(stderr, err)
			bad = true
			continue
		}
		decoded = append(decoded, s)
	}
	if bad {
		return 2
	}
	pool, info, ok := hf.open("conform", env, stderr)
	if !ok {
		return 2
	}
	defer pool.Close()
	if rt.on {
		// generated for what the host declares: a scenario it could only skip is no test
		for _, g := range rt.generated(len(paths) > 0, info.Features, stderr) {
			decoded = append(decoded, g)
			entries = append(entries, harness.Entry{})
		}
		if len(decoded) == 0 {
			fmt.Fprintln(stderr, "conform --realtime: no scenarios to run")
			return 2
		}
	}
	ctx, stop := interruptible(pool, hf.timeout)
	defer stop()
	rep := &Report{Protocol: Protocol, Command: hf.host, Host: info, NotChecked: NotChecked(info.Features), AllowPartial: *allowPartial}
	if len(paths) == 0 && !rt.on && hf.client == "" {
		rep.Floor = Floor // the library against a whole host: it must judge what every host is judged on
	}
	if hf.client != "" {
		rep.Role = RoleClient
		rep.NotChecked = nil // the reference host runs with the client: every invariant is checked
	}
	opts := Options{Pool: pool, Info: info, Command: hf.host, Seed: *seed, Verbose: *verbose}
	if rt.on {
		opts.Realtime = rt.options(hf.host, *seed)
		rep.Realtime = &RealtimeInfo{Tolerance: opts.Realtime.Tolerance}
	}
	for i, s := range decoded {
		if ctx.Err() != nil {
			break
		}
		run := RunScenario
		if hf.client != "" {
			run = RunClientScenario
		}
		if why := rt.tooLong(s, *seed); why != "" && entries[i].Path != "" {
			rep.Scenarios = append(rep.Scenarios, ScenarioResult{Name: s.Name, Path: entries[i].Path, Seed: harness.Compile(s, *seed).Seed, Status: StatusBroken, Lost: why})
			continue
		}
		r := run(s, entries[i].Path, opts)
		if cutShort(ctx, r.Result) {
			break
		}
		rep.Scenarios = append(rep.Scenarios, r.Result)
		if rep.Realtime != nil {
			rep.Realtime.MaxSlackMs = max(rep.Realtime.MaxSlackMs, r.MaxSlackMs)
		}
		if *verbose && r.Transcript != nil {
			stdout.Write(r.Transcript)
		}
	}
	if ctx.Err() != nil {
		fmt.Fprintln(stderr, "conform: interrupted")
		rep.Floor = nil // a run cut short is judged by what it ran; its exit (130) says it is no verdict
	}
	var text bytes.Buffer
	rep.WriteText(&text)
	if *jsonOut == "-" {
		if err := rep.WriteJSON(stdout); err != nil {
			fmt.Fprintln(stderr, "conform: --json:", err)
			return 2
		}
	} else {
		stdout.Write(text.Bytes())
	}
	if *jsonOut != "" && *jsonOut != "-" {
		var b bytes.Buffer
		rep.WriteJSON(&b)
		if err := fileio.WriteAtomic(*jsonOut, b.Bytes()); err != nil {
			fmt.Fprintln(stderr, "conform: --json:", err)
			return 2
		}
	}
	if *junitOut != "" {
		var b bytes.Buffer
		rep.WriteJUnit(&b)
		if err := fileio.WriteAtomic(*junitOut, b.Bytes()); err != nil {
			fmt.Fprintln(stderr, "conform: --junit:", err)
			return 2
		}
	}
	return interruptedExit(ctx, verdictOK(ctx, rep))
}

func fuzzMain(args []string, stdout, stderr io.Writer, env []string) int {
	fs := flag.NewFlagSet("conform fuzz", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var hf hostFlags
	hf.register(fs)
	seeds := fs.Uint64("seeds", 0, "how many seeds the campaign covers (default 1000 without --duration)")
	duration := fs.Duration("duration", 0, "stop starting new seeds after this much wall time")
	start := fs.Uint64("start", 1, "the first seed")
	shard := fs.String("shard", "", "run shard K of N of the campaign (K/N)")
	workers := fs.Int("workers", 0, "parallel workers, one host process each (default: GOMAXPROCS)")
	out := fs.String("out", "conform-failures", "the directory failures are written to (YAML + transcript)")
	noShrink := fs.Bool("no-shrink", false, "write failures as generated, without shrinking")
	jsonOut := fs.String("json", "", "write the campaign as JSON to this file (- for stdout): seeds_run, failures, interrupted")
	var corpus []string
	fs.Func("corpus", "replay the scenarios of this directory (or file) first: the shrunk failures of earlier campaigns (repeatable)", func(v string) error {
		corpus = append(corpus, v)
		return nil
	})
	junitOut := fs.String("junit", "", "write the campaign as JUnit XML to this file: a testcase per failing seed and one for the campaign")
	if hasFlag(args, "realtime") {
		fmt.Fprintln(stderr, "conform fuzz: the campaign runs on the runner's time; conform --realtime --seeds N runs generated scenarios in real time")
		return 2
	}
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "conform fuzz: unexpected argument %q\n", fs.Arg(0))
		return 2
	}
	if *start == 0 || *duration < 0 || *workers < 0 || *workers > MaxWorkers {
		fmt.Fprintf(stderr, "conform fuzz: --start is a positive seed; --duration cannot be negative; --workers is 0 to %d (one host process each)\n", MaxWorkers)
		return 2
	}
	if err := fileio.CheckDir(*out); err != nil {
		fmt.Fprintln(stderr, "conform fuzz: --out:", err)
		return 2
	}
	if *jsonOut != "" && *jsonOut != "-" {
		if err := fileio.CheckFile(*jsonOut); err != nil {
			fmt.Fprintln(stderr, "conform fuzz: --json:", err)
			return 2
		}
	}
	if *junitOut != "" {
		if err := fileio.CheckFile(*junitOut); err != nil {
			fmt.Fprintln(stderr, "conform fuzz: --junit:", err)
			return 2
		}
	}
	c := explore.Campaign{Start: *start, Seeds: *seeds, Duration: *duration, Workers: *workers, OutDir: *out, NoShrink: *noShrink}
	if c.Seeds == 0 && c.Duration == 0 {
		c.Seeds = 1000
	}
	if *shard != "" {
		k, n, err := explore.ParseShard(*shard)
		if err != nil {
			fmt.Fprintln(stderr, "conform fuzz: --shard:", err)
			return 2
		}
		c.Shard, c.Shards = k, n
	}
	pool, info, ok := hf.open("conform fuzz", env, stderr)
	if !ok {
		return 2
	}
	defer pool.Close()
	role := RoleHost
	if hf.client != "" {
		role = RoleClient
	}
	// The generator draws only what the host's features allow (a client runs with the
	// reference host: everything), and the oracle leaves out what they do not let it check.
	var skip []string
	c.Gen, skip = FuzzGen(role, info.Features)
	c.Options = explore.Options{Host: pool.Factory, Skip: skip}
	if hf.client != "" {
		c.Options = explore.Options{Client: pool.ClientFactory}
	}
	replay := func(f explore.Failure) string { return fuzzReplay(role, hf.host, f.File) }
	corpusDigest := ""
	if len(corpus) > 0 {
		var err error
		if c.Corpus, corpusDigest, err = explore.LoadCorpus(corpus); err != nil {
			fmt.Fprintln(stderr, "conform fuzz: --corpus:", err)
			return 2
		}
	}
	id := explore.NewIdentity("conform fuzz", c, map[string]string{"role": role, "process": hf.host,
		"process_version": info.Name + " " + info.Version, "timeout": hf.timeout.String(), "max_line": fmt.Sprint(hf.maxLine),
		"no_shrink": fmt.Sprint(*noShrink), "generator": strings.Join(c.Gen.Off(), "; "), "not_checked": strings.Join(skip, ","),
		"corpus": corpusDigest})
	c.OnCorpus = func(r explore.CorpusResult) {
		if r.Failed() {
			fmt.Fprintf(stdout, "FAIL    corpus %s: %s\n        replay: %s\n", r.File, r.Message, fuzzReplay(role, hf.host, r.File))
		}
	}
	c.OnFailure = func(f explore.Failure) {
		fmt.Fprintf(stdout, "FAIL    seed %d: %s\n", f.Seed, f.Message)
		switch {
		case f.File != "":
			fmt.Fprintf(stdout, "        wrote %s and %s\n", f.File, f.Transcript)
			fmt.Fprintf(stdout, "        replay: %s\n", replay(f))
		case f.WriteErr != "":
			fmt.Fprintf(stdout, "        not written: %s\n", f.WriteErr)
		}
	}
	ctx, stop := interruptible(pool, hf.timeout)
	defer stop()
	rep, err := c.Run(ctx)
	if err != nil {
		fmt.Fprintln(stderr, "conform fuzz:", err)
		return 2
	}
	for i := range rep.Corpus {
		rep.Corpus[i].Replay = fuzzReplay(role, hf.host, rep.Corpus[i].File)
	}
	what := fmt.Sprintf("%d seeds", rep.SeedsRun)
	if *shard != "" {
		what += " (shard " + *shard + ")"
	}
	if rep.Interrupted {
		what += ", interrupted"
	}
	names := map[string]int{}
	for _, f := range rep.Failures {
		names[f.Invariant]++
	}
	var inv []string
	for n := range names {
		inv = append(inv, n)
	}
	sort.Strings(inv)
	cov := newFuzzCoverage(rep, skip)
	fmt.Fprintf(stdout, "%s %s %s: %s, %d failures in %s\n", role, info.Name, info.Version, what, len(rep.Failures), rep.Elapsed.Truncate(time.Millisecond))
	for _, n := range inv {
		fmt.Fprintf(stdout, "  %-32s %d\n", n, names[n])
	}
	cov.write(stdout, role)
	if len(rep.Corpus) > 0 {
		fmt.Fprintf(stdout, "corpus: %d scenarios replayed, %d failed\n", len(rep.Corpus), rep.CorpusFailures())
	}
	if c.Shards > 0 || c.Duration > 0 {
		fmt.Fprintf(stdout, "seeds run: %s\n", explore.RangesString(rep.Covered))
	}
	fmt.Fprintf(stdout, "%d passed, %d failed\n", rep.SeedsRun-uint64(len(rep.Failures)), len(rep.Failures))
	failures := rep.Failures
	if failures == nil {
		failures = []explore.Failure{}
	}
	// The judged process is named under its role: "host" or "client".
	j := fuzzReport{Role: role, SeedsRun: rep.SeedsRun, Failures: failures, Interrupted: rep.Interrupted, ElapsedMs: rep.Elapsed.Milliseconds(), fuzzCoverage: cov,
		Shard: *shard, Campaign: &id, Covered: rep.Covered, Corpus: rep.Corpus}
	if role == RoleClient {
		j.Client = info.Name + " " + info.Version
	} else {
		j.Host = info.Name + " " + info.Version
	}
	b, _ := json.MarshalIndent(j, "", "  ")
	b = append(b, '\n')
	if c.Shards > 0 {
		err := os.MkdirAll(c.OutDir, 0o755)
		if err == nil {
			err = fileio.WriteAtomic(filepath.Join(c.OutDir, explore.RecordName(c.Shard, c.Shards)), b)
		}
		if err != nil {
			fmt.Fprintln(stderr, "conform fuzz: the shard's record:", err)
			return 2
		}
	}
	if *jsonOut != "" {
		if *jsonOut == "-" {
			stdout.Write(b)
		} else if err := fileio.WriteAtomic(*jsonOut, b); err != nil {
			fmt.Fprintln(stderr, "conform fuzz: --json:", err)
			return 2
		}
	}
	if *junitOut != "" {
		var b bytes.Buffer
		err := junit.Write(&b, rep.JUnit("conform fuzz", *shard, replay))
		if err == nil {
			err = fileio.WriteAtomic(*junitOut, b.Bytes())
		}
		if err != nil {
			fmt.Fprintln(stderr, "conform fuzz: --junit:", err)
			return 2
		}
	}
	if rep.Interrupted {
		fmt.Fprintln(stderr, "conform fuzz: interrupted")
	}
	return interruptedExit(ctx, len(rep.Failures) == 0 && rep.CorpusFailures() == 0)
}
