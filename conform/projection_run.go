package conform

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/twosettle/twosettle/explore"
	"github.com/twosettle/twosettle/golden"
	"github.com/twosettle/twosettle/harness"
	"github.com/twosettle/twosettle/scenarios"
	"github.com/twosettle/twosettle/sessionlog"
)

// ProjectionCase is one Session log the projection profile folds on the host.
type ProjectionCase struct {
	Name   string // "library/ask-no-provider/s1", "fuzz/seed-7/s1", "edge/seed-3", or the file
	Path   string // the log file, "" for a generated log
	Seed   uint64 // the fuzz or edge seed, 0 for none
	Log    *sessionlog.Log
	Replay bool // fold it twice: the second fold must give the same views (PROJ-12)
}

// ProjectionInputs are the logs of a projection run: every Session of the scenario
// library (when library is set; each folded twice, PROJ-12) and of fuzz seeds
// [start, start+seeds), run on the reference engine in-process, then edge logs of seeds
// [start, start+edge) (EdgeLog). Each log is normalised through its file form (what a
// host receives is what the reference folds).
func ProjectionInputs(library bool, seeds, edge, start uint64) ([]ProjectionCase, error) {
	var out []ProjectionCase
	add := func(c ProjectionCase) error {
		b, err := sessionlog.Append(nil, c.Log)
		if err != nil {
			return fmt.Errorf("%s: %v", c.Name, err)
		}
		if c.Log, err = sessionlog.Decode(c.Name, b); err != nil {
			return err
		}
		out = append(out, c)
		return nil
	}
	runSessions := func(s *scenarios.Scenario, prefix string, seed uint64, replay bool) error {
		r := &harness.Result{}
		harness.RunScenario(r, s, harness.Options{})
		if r.Trace == nil {
			return nil
		}
		for _, ss := range r.Trace.Final.Host.Sessions {
			if err := add(ProjectionCase{Name: prefix + "/" + ss.ID, Seed: seed, Log: sessionlog.FromState(ss), Replay: replay}); err != nil {
				return err
			}
		}
		return nil
	}
	var lib []harness.Entry
	if library {
		lib = harness.Library("")
	}
	for _, e := range lib {
		s, err := scenarios.Decode(e.Path, e.Data)
		if err != nil {
			return nil, err
		}
		if err := runSessions(s, "library/"+s.Name, 0, true); err != nil {
			return nil, err
		}
	}
	for i := uint64(0); i < seeds; i++ {
		seed := start + i
		if err := runSessions(explore.Generate(seed), "fuzz/seed-"+strconv.FormatUint(seed, 10), seed, false); err != nil {
			return nil, err
		}
	}
	for i := uint64(0); i < edge; i++ {
		seed := start + i
		if err := add(ProjectionCase{Name: "edge/seed-" + strconv.FormatUint(seed, 10), Seed: seed, Log: EdgeLog(seed)}); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// ProjectionOptions configure RunProjection.
type ProjectionOptions struct {
	Argv    []string        // the host command
	Command string          // the host command line, for replay lines
	Process ProcessOptions  // limits (Profile is set to projection)
	OutDir  string          // where shrunk failing logs are written ("" none)
	Shrink  int             // the most folds a shrink may take (0: 200)
	Ctx     context.Context // stops the run when done (nil: never)
}

// lostInARow is how many logs in a row may lose the host before a projection run stops.
const lostInARow = 3

// RunProjection folds every case on the host (one process, a new one after a loss) and
// returns the report: one result per case, the requirement rows those judged. An error
// is a host that cannot be used at all. The run stops early when o.Ctx is done (the
// report then says interrupted) or after lostInARow lost logs in a row.
func RunProjection(cases []ProjectionCase, o ProjectionOptions) (*Report, error) {
	o.Process.Profile = ProfileProjection
	if o.Shrink <= 0 {
		o.Shrink = 200
	}
	ctx := o.Ctx
	if ctx == nil {
		ctx = context.Background()
	}
	ids, notes := ProfileRequirements(ProfileProjection)
	rep := &Report{Protocol: Protocol, Command: o.Command, Profile: ProfileProjection, Judged: ids, JudgedNotes: notes}
	first, err := Start(o.Argv, o.Process)
	if err != nil {
		return nil, err
	}
	rep.Host = first.Info()
	// The current process, closed on Ctrl-C (so the fold in progress ends at once) and at
	// the end.
	var mu sync.Mutex
	cur := first
	stop := make(chan struct{})
	defer func() {
		close(stop)
		mu.Lock()
		cur.Close()
		mu.Unlock()
	}()
	go func() {
		select {
		case <-ctx.Done():
			mu.Lock()
			cur.Close()
			mu.Unlock()
		case <-stop:
		}
	}()
	lost := 0
	for i, c := range cases {
		if ctx.Err() != nil {
			rep.Interrupted = true
			break
		}
		mu.Lock()
		p := cur
		mu.Unlock()
		if p.Lost() != nil {
			p.Close()
			np, err := Start(o.Argv, o.Process)
			if err != nil {
				rep.Scenarios = append(rep.Scenarios, ScenarioResult{Name: c.Name, Path: c.Path, Seed: c.Seed, Status: StatusBroken,
					Lost: fmt.Sprintf("the host could not be restarted (%d logs not folded): %v", len(cases)-i, err)})
				break
			}
			mu.Lock()
			cur, p = np, np
			mu.Unlock()
		}
		r := foldCase(p, c, o)
		if ctx.Err() != nil && r.Status == StatusBroken {
			rep.Interrupted = true // the interrupt killed the host: no verdict on this log
			break
		}
		rep.Scenarios = append(rep.Scenarios, r)
		if r.Status != StatusBroken {
			lost = 0
		} else if lost++; lost >= lostInARow && i+1 < len(cases) {
			rep.Scenarios = append(rep.Scenarios, ScenarioResult{Name: fmt.Sprintf("(%d more logs)", len(cases)-i-1), Status: StatusBroken,
				Lost: fmt.Sprintf("not folded: the host was lost %d logs in a row", lost)})
			break
		}
	}
	return rep, nil
}

// foldCase folds one case on p and judges it.
func foldCase(p *Process, c ProjectionCase, o ProjectionOptions) (res ScenarioResult) {
	start := time.Now()
	res = ScenarioResult{Name: c.Name, Path: c.Path, Seed: c.Seed}
	defer func() { res.DurationMs = time.Since(start).Milliseconds() }()
	ref := foldReference(c.Log)
	lost := func(err error) ScenarioResult {
		res.Status = StatusBroken
		res.Lost = err.Error()
		res.HostLog = p.Stderr()
		return res
	}
	diff, judged, err := foldOn(p, ref)
	if err != nil {
		return lost(err)
	}
	second := false // the difference appeared only when the log was folded again
	if diff == nil && c.Replay {
		// PROJ-12: the same log folded again gives the same views.
		if diff, _, err = foldOn(p, ref); err != nil {
			return lost(err)
		}
		if diff != nil {
			diff.IDs = uniqueSorted(append(diff.IDs, "PROJ-12"))
			second = true
		} else {
			judged = append(judged, "PROJ-12")
		}
	}
	if diff == nil {
		res.Status = StatusPass
		res.Covers = uniqueSorted(judged)
		return res
	}
	res.Status = StatusFail
	res.Covers = diff.IDs
	where := "fold-start"
	if diff.Index >= 0 {
		e := c.Log.Events[diff.Index]
		where = "event #" + strconv.Itoa(e.Seq) + " (" + e.Type() + ")"
	}
	res.Failures = append(res.Failures, fmt.Sprintf("the view after %s is not the reference fold's; this comparison judges %s", where, strings.Join(diff.IDs, ", ")))
	res.Divergence = diff.describe(c.Log, "host's", func(i int) string { return "line " + strconv.Itoa(i+2) + " of its log file" })
	// Shrink to the fewest events that still differ, and write that log. A log that only
	// differs on its second fold is written whole: a shrink folds each candidate once.
	small, sdiff := c.Log, diff
	if second {
		res.Failures = append(res.Failures, "the first fold of this log gave the reference views; the second, on the same process, did not (PROJ-12); not shrunk")
	} else if small, sdiff, err = shrinkLog(p, c.Log, diff, o.Shrink); err != nil {
		return lost(err)
	}
	if len(small.Events) < len(c.Log.Events) {
		res.Failures = append(res.Failures, fmt.Sprintf("shrunk from %d to %d events, still differing after %s", len(c.Log.Events), len(small.Events), sdiffWhere(small, sdiff)))
	}
	if o.OutDir != "" {
		file := filepath.Join(o.OutDir, "projection-"+safeName(c.Name)+".jsonl")
		b, err := sessionlog.Append(nil, small)
		if err == nil {
			err = golden.Write(file, b)
		}
		if err != nil {
			res.Failures = append(res.Failures, "not written: "+err.Error())
		} else {
			res.Failures = append(res.Failures, "wrote "+file)
			res.Replay = "conform --profile projection --host " + ShellQuote(o.Command) + " " + ShellQuote(file)
		}
	}
	if res.Replay == "" && strings.HasPrefix(c.Name, "edge/") {
		res.Replay = "conform --profile projection --host " + ShellQuote(o.Command) + " --library=false --seeds 0 --edge 1 --start " + strconv.FormatUint(c.Seed, 10)
	}
	return res
}

func sdiffWhere(l *sessionlog.Log, d *viewDiff) string {
	if d.Index < 0 {
		return "fold-start"
	}
	return "event #" + strconv.Itoa(l.Events[d.Index].Seq)
}

// safeName makes a case name a file name.
func safeName(s string) string {
	return strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' || r == '.' {
			return r
		}
		return '-'
	}, s)
}

// projectionMain is conform --profile projection.
func projectionMain(args []string, stdout, stderr io.Writer, env []string) int {
	fs := flag.NewFlagSet("conform --profile projection", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var hf hostFlags
	hf.register(fs)
	library := fs.Bool("library", true, "fold every Session of the scenario library (--library=false: only fuzz and edge logs)")
	seeds := fs.Uint64("seeds", 200, "fuzz seeds whose Sessions are folded (0: none)")
	edge := fs.Uint64("edge", 500, "generated edge logs folded (0: none)")
	start := fs.Uint64("start", 1, "the first fuzz and edge seed")
	out := fs.String("out", "conform-failures", "the directory shrunk failing logs are written to")
	jsonOut := fs.String("json", "", "write the report as JSON to this file (- for stdout)")
	junitOut := fs.String("junit", "", "write the report as JUnit XML to this file")
	verbose := fs.Bool("v", false, "list every log folded, not only failures")
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
	if hf.host == "" {
		fmt.Fprintln(stderr, "conform: --host 'CMD ARGS' is required (try --host 'conform refhost')")
		return 2
	}
	if hf.timeout <= 0 || hf.maxLine <= 0 {
		fmt.Fprintln(stderr, "conform: --timeout and --max-line must be positive")
		return 2
	}
	argv, err := SplitCommand(hf.host)
	if err != nil {
		fmt.Fprintln(stderr, "conform: --host:", err)
		return 2
	}
	var cases []ProjectionCase
	if len(paths) > 0 {
		for _, path := range paths {
			data, err := os.ReadFile(path)
			if err != nil {
				fmt.Fprintln(stderr, "conform:", err)
				return 2
			}
			l, err := sessionlog.Decode(path, data)
			if err != nil {
				fmt.Fprintln(stderr, err)
				return 2
			}
			cases = append(cases, ProjectionCase{Name: path, Path: path, Log: l, Replay: true})
		}
	} else if cases, err = ProjectionInputs(*library, *seeds, *edge, *start); err != nil {
		fmt.Fprintln(stderr, "conform:", err)
		return 2
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, sigterm)
	defer stop()
	rep, err := RunProjection(cases, ProjectionOptions{Argv: argv, Command: hf.host, OutDir: *out, Ctx: ctx,
		Process: ProcessOptions{Timeout: hf.timeout, MaxLine: hf.maxLine, Env: env}})
	if err != nil {
		fmt.Fprintln(stderr, "conform: the host cannot be used:", err)
		return 2
	}
	shown := rep
	if !*verbose {
		// The text lists failures and lost logs; passes are counted on the last line.
		c := *rep
		c.Scenarios = nil
		for _, s := range rep.Scenarios {
			if s.status() != StatusPass {
				c.Scenarios = append(c.Scenarios, s)
			}
		}
		shown = &c
	}
	var text bytes.Buffer
	shown.writeText(&text, rep.Requirements())
	if shown != rep {
		// The last line counts every log, not only those listed.
		t := strings.TrimSuffix(text.String(), "\n")
		t = t[:strings.LastIndex(t, "\n")+1] + rep.lastLine() + "\n"
		text.Reset()
		text.WriteString(t)
	}
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
		if err := golden.Write(*jsonOut, b.Bytes()); err != nil {
			fmt.Fprintln(stderr, "conform: --json:", err)
			return 2
		}
	}
	if *junitOut != "" {
		var b bytes.Buffer
		rep.WriteJUnit(&b)
		if err := golden.Write(*junitOut, b.Bytes()); err != nil {
			fmt.Fprintln(stderr, "conform: --junit:", err)
			return 2
		}
	}
	if rep.Interrupted {
		fmt.Fprintln(stderr, "conform: interrupted")
	}
	if rep.Interrupted || !rep.Conformant() {
		return 1
	}
	return 0
}
