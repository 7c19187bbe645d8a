package conform

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"

	"github.com/benbjohnson/clock"
	"github.com/twosettle/twosettle/golden"
)

// realtimeClock is the clock real-time mode paces on (tests give the library's mock).
var realtimeClock = func() clock.Clock { return clock.New() }

// runWaitProfile is `conform --profile wait`: wait scripts (derived from the library,
// generated from seeds, or read from files) against the host, each compared with the
// reference wait; failures shrunk and written with their replay command.
func runWaitProfile(args []string, stdout, stderr io.Writer, env []string) int {
	fs := flag.NewFlagSet("conform --profile wait", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var hf hostFlags
	hf.register(fs)
	seeds := fs.Int("seeds", -1, "how many generated scripts to run (default 200; 5 with --realtime; 0 with script files)")
	start := fs.Uint64("start", 1, "the first generator seed")
	noLibrary := fs.Bool("no-library", false, "do not run the scripts derived from the scenario library")
	only := fs.String("only", "", "run only the library script of this scenario")
	out := fs.String("out", "conform-failures", "the directory shrunk failing scripts are written to")
	jsonOut := fs.String("json", "", "write the report as JSON to this file (- for stdout)")
	junitOut := fs.String("junit", "", "write the report as JUnit XML to this file")
	verbose := fs.Bool("v", false, "print every script's steps")
	realtime := fs.Bool("realtime", false, "pace virtual time on the real clock, for a host on its own timers (not replayable)")
	early := fs.Duration("early", DefaultEarly, "real-time mode: how much before its virtual time an event may land")
	late := fs.Duration("late", DefaultLate, "real-time mode: how much after its virtual time an event may land")
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
	if *early < 0 || *late <= 0 {
		fmt.Fprintln(stderr, "conform --profile wait: --early cannot be negative and --late must be positive")
		return 2
	}
	var scripts []WaitScript
	for _, p := range paths {
		sc, err := ReadWaitScript(p)
		if err != nil {
			if bad := (*scriptError)(nil); !errors.As(err, &bad) {
				err = fmt.Errorf("conform: %w", err)
			}
			fmt.Fprintln(stderr, err)
			return 2
		}
		scripts = append(scripts, sc)
	}
	var tol *Tolerance
	var grid int64
	if *realtime {
		tol = &Tolerance{Early: *early, Late: *late}
		grid = 2*(early.Milliseconds()+late.Milliseconds()) + 10
	}
	if len(paths) == 0 && !*noLibrary && !*realtime {
		lib, err := LibraryWaitScripts()
		if err != nil {
			fmt.Fprintln(stderr, "conform:", err)
			return 2
		}
		for _, sc := range lib {
			if *only == "" || sc.Name == *only {
				scripts = append(scripts, sc)
			}
		}
		if *only != "" && len(scripts) == 0 {
			fmt.Fprintf(stderr, "conform: no library wait script %q\n", *only)
			return 2
		}
	}
	n := *seeds
	if n < 0 {
		switch {
		case len(paths) > 0 || *only != "":
			n = 0
		case *realtime:
			n = 5
		default:
			n = 200
		}
	}
	for i := 0; i < n; i++ {
		scripts = append(scripts, GenerateWaitScript(*start+uint64(i), grid))
	}
	if len(scripts) == 0 {
		fmt.Fprintln(stderr, "conform --profile wait: no scripts to run")
		return 2
	}
	hf.profile = ProfileWait
	pool, info, ok := hf.open("conform", env, stderr)
	if !ok {
		return 2
	}
	defer pool.Close()
	ctx, stop := interruptible(pool, hf.timeout)
	defer stop()
	rep := &Report{Protocol: Protocol, Command: hf.host, Host: info, Profile: ProfileWait, Judged: WaitRequirementIDs}
	wr := waitRun{rt: tol, clk: realtimeClock()}
	if tol != nil {
		rep.Realtime = &RealtimeInfo{Tolerance: *tol}
	}
	var p *Process
	for _, sc := range scripts {
		if ctx.Err() != nil {
			break
		}
		if p == nil || p.Lost() != nil {
			var err error
			if p, err = pool.get(); err != nil {
				fmt.Fprintln(stderr, "conform: the host cannot be used:", err)
				return 2
			}
		}
		r, slack := waitResult(p, sc, wr, hf.host, *out)
		if cutShort(ctx, r) {
			break
		}
		if rep.Realtime != nil {
			rep.Realtime.MaxSlackMs = max(rep.Realtime.MaxSlackMs, slack)
		}
		rep.Scenarios = append(rep.Scenarios, r)
		if *verbose {
			fmt.Fprintf(stdout, "# %s\n", sc.Name)
			for _, s := range sc.Steps {
				fmt.Fprintln(stdout, s)
			}
		}
	}
	if p != nil {
		pool.put(p)
	}
	if ctx.Err() != nil {
		fmt.Fprintln(stderr, "conform: interrupted")
	}
	if code := writeReports(rep, stdout, stderr, *jsonOut, *junitOut); code != 0 {
		return code
	}
	return interruptedExit(ctx, rep.Conformant())
}

// writeReports writes the text report (or the JSON one to stdout with --json -), and the
// JSON and JUnit files asked for; it returns 2 when a file cannot be written.
func writeReports(rep *Report, stdout, stderr io.Writer, jsonOut, junitOut string) int {
	if jsonOut == "-" {
		if err := rep.WriteJSON(stdout); err != nil {
			fmt.Fprintln(stderr, "conform: --json:", err)
			return 2
		}
	} else {
		rep.WriteText(stdout)
	}
	if jsonOut != "" && jsonOut != "-" {
		var b bytes.Buffer
		rep.WriteJSON(&b)
		if err := golden.Write(jsonOut, b.Bytes()); err != nil {
			fmt.Fprintln(stderr, "conform: --json:", err)
			return 2
		}
	}
	if junitOut != "" {
		var b bytes.Buffer
		rep.WriteJUnit(&b)
		if err := golden.Write(junitOut, b.Bytes()); err != nil {
			fmt.Fprintln(stderr, "conform: --junit:", err)
			return 2
		}
	}
	return 0
}
