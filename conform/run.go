package conform

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/twosettle/twosettle/engine/wire"
	"github.com/twosettle/twosettle/harness"
	"github.com/twosettle/twosettle/judge"
	"github.com/twosettle/twosettle/oracle"
	"github.com/twosettle/twosettle/scenarios"
	"github.com/twosettle/twosettle/trace"
)

// Options say which host a conformance run judges.
type Options struct {
	// Pool is the host under test.
	Pool *Pool
	// Info is what the host declared (Pool.Hello).
	Info HostInfo
	// Command is the host command line, for the report and the replay commands.
	Command string
	// Seed overrides every scenario's seed (0: each scenario's own).
	Seed uint64
	// Verbose keeps each run's comparable transcript in the result (conform -v).
	Verbose bool
	// Realtime runs the host on its own timers, paced on a clock (nil: on the runner's
	// virtual time).
	Realtime *RealtimeOptions
	// hosts builds the hosts instead of Pool (tests: a host in-process).
	hosts harness.HostFactory
}

// Run is one scenario run against the host: the result the report shows, and the
// host's comparable transcript when Options.Verbose.
type Run struct {
	Result     ScenarioResult
	Transcript []byte
	// MaxSlackMs is, in real time, the largest timing slack the run saw.
	MaxSlackMs int64
}

// RunScenario runs s against the host and against the reference engine at the same
// seed, and judges the host's run (docs/PROTOCOL.md "How a run is judged"): the
// scenario's expectations (less those the host need not show: unjudged), the oracle
// (less what the host's features do not let it check) and the equivalence of the run's
// observable behaviour with the reference's (package judge). A scenario that needs a
// feature the host lacks is not applicable; a host without write-window runs write
// through, on both sides, every scenario whose expectations and oracle the reference
// also passes write through.
func RunScenario(s *scenarios.Scenario, path string, opts Options) Run {
	plan := harness.Compile(s, opts.Seed)
	res := ScenarioResult{Name: s.Name, Path: path, Seed: plan.Seed, Covers: append([]string(nil), s.Covers...)}
	res.Replay = replayCommand(opts.Command, path, opts.Seed)
	needs := Needs(&plan.Sim, plan.Host)
	writeThrough := false
	if has(needs, FeatureWriteWindow) && !has(opts.Info.Features, FeatureWriteWindow) && !declaresWindow(s) {
		writeThrough, needs = true, without(needs, FeatureWriteWindow)
	}
	if miss := missing(needs, opts.Info.Features); len(miss) > 0 {
		res.Status, res.Missing = StatusNotApplicable, miss
		return Run{Result: res}
	}
	intro := has(opts.Info.Features, FeatureIntrospection)
	runtime := has(opts.Info.Features, FeatureReferenceRuntime)
	skip := NotChecked(opts.Info.Features)
	config := func(f harness.HostFactory) harness.HostFactory {
		if !writeThrough {
			return f
		}
		return func(cfg wire.HostConfig) (wire.HostPort, error) {
			cfg.WriteWindowMs = -1
			return f(cfg)
		}
	}

	// The reference's run first: its minted ids name the host's, and a write-through
	// run that the reference itself does not pass tests the write window.
	ref := &harness.Result{}
	var refVerdict oracle.Verdict
	refJudge := func(tr *trace.Trace, s *scenarios.Scenario) harness.Verdict {
		refVerdict = oracle.Check(tr, harness.OracleOptions(s))
		return harness.Verdict{Text: refVerdict.String(), Status: refVerdict.Status.String()}
	}
	refOpts := harness.Options{Seed: opts.Seed, Host: config(canonicalFactory(harness.ReferenceHost(""), nil))}
	if writeThrough {
		refOpts.Oracle = refJudge // only to tell whether the reference passes it write-through
	}
	harness.RunScenario(ref, s, refOpts)
	if writeThrough && (len(ref.Failures) > 0 || ref.Invalid != nil) {
		res.Status, res.Missing = StatusNotApplicable, []string{FeatureWriteWindow}
		res.WindowNote = "its expectations or the oracle need the reference runtime's write-behind window"
		return Run{Result: res}
	}
	var minted *judge.Minted
	if ref.Trace != nil {
		m := judge.MintedIDs(ref.Trace)
		minted = &m
	} else {
		minted = &judge.Minted{}
	}

	// The host's run, with a factory that remembers its process (for the stderr tail).
	var proc *Process
	hosts := opts.hosts
	if hosts == nil {
		hosts = opts.Pool.Factory
	}
	factory := func(cfg wire.HostConfig) (wire.HostPort, error) {
		h, err := hosts(cfg)
		if ph, ok := h.(*ProcessHost); ok {
			proc = ph.Process()
		}
		return h, err
	}
	rto := &realtimeHost{} // the run's real-time port, once the factory made it
	if opts.Realtime != nil {
		factory = realtimeFactory(factory, opts.Realtime, &rto)
		res.Replay = "" // nothing replays a run on real timers exactly
	}
	var verdict oracle.Verdict
	judgeRun := func(tr *trace.Trace, s *scenarios.Scenario) harness.Verdict {
		o := harness.OracleOptions(s)
		o.Skip = skip
		verdict = oracle.Check(tr, o)
		return harness.Verdict{Text: verdict.String(), Status: verdict.Status.String()}
	}
	start := time.Now()
	got := &harness.Result{}
	harness.RunScenario(got, s, harness.Options{Seed: opts.Seed, Oracle: judgeRun, Host: config(canonicalFactory(factory, minted)), AnyRefusalText: true,
		Unjudged: unjudged(opts.Info.Features, ref.Trace)})
	res.DurationMs = time.Since(start).Milliseconds()
	res.NotJudged = got.NotJudged
	res.WriteThrough = writeThrough
	hostLog := func() string {
		if proc == nil {
			return ""
		}
		return proc.Stderr()
	}
	if rto.noVerdict != "" {
		res.Status, res.Lost = StatusBroken, rto.noVerdict
		return Run{Result: res, MaxSlackMs: rto.maxSlack}
	}
	if got.Lost != nil {
		res.Status, res.Lost, res.HostLog = StatusBroken, got.Lost.Err.Error(), hostLog()
		return Run{Result: res, MaxSlackMs: rto.maxSlack}
	}

	var ids []string // the requirement ids the failed checks judge (nil: the scenario's covers)
	wholeScenario := false
	if got.Invalid != nil {
		res.Failures = append(res.Failures, "the host's run could not be judged: "+firstLine(got.Invalid.Error()))
		wholeScenario = true
	}
	for _, f := range got.Failures {
		res.Failures = append(res.Failures, f.String())
		wholeScenario = true // an expectation judges what its scenario covers
	}
	if len(got.Failures) > 0 && len(s.Covers) > 0 {
		res.Failures = append(res.Failures, "the failed expectations judge what the scenario covers: "+strings.Join(s.Covers, ", "))
	}
	for _, b := range verdict.Violations {
		res.Violated = append(res.Violated, b.Invariant)
	}
	sort.Strings(res.Violated)
	run := Run{}
	if got.Trace != nil && ref.Trace != nil {
		jo := judge.Options{Runtime: runtime}
		mine := judge.Observe(got.Trace, jo)
		if d := judge.Compare(judge.Observe(ref.Trace, jo), mine); d != nil {
			reqs := judge.Requirements(d.Kind, s.Covers)
			res.Divergence = d.String()
			line := "the run's observable behaviour differs from the reference engine's"
			if len(reqs) > 0 {
				line += "; this comparison judges " + strings.Join(reqs, ", ")
				ids = append(ids, reqs...)
			} else {
				wholeScenario = true
			}
			res.Failures = append(res.Failures, line)
		} else if runtime {
			// A host that declares the reference runtime is held to its transcript too.
			if d := Divergence(Comparable(s.Name, ref.Trace, intro), Comparable(s.Name, got.Trace, intro)); d != "" {
				res.Divergence = d
				res.Failures = append(res.Failures, "the transcript differs from the reference engine's (the host declares "+FeatureReferenceRuntime+")")
				wholeScenario = true
			}
		}
		if opts.Verbose {
			run.Transcript = []byte(mine.Text())
		}
	} else if (got.HostConfigErr == nil) != (ref.HostConfigErr == nil) {
		res.Failures = append(res.Failures, "the host's configuration refusal differs from the reference engine's: host "+errText(got.HostConfigErr)+", reference "+errText(ref.HostConfigErr))
		wholeScenario = true
	}
	if !wholeScenario && len(ids) > 0 {
		res.FailedIDs = uniqueSorted(ids)
	}
	res.Status = StatusPass
	if len(res.Failures) > 0 {
		res.Status, res.HostLog = StatusFail, hostLog()
		if rt := opts.Realtime; rt != nil {
			if rto.timing != "" {
				res.Failures = append(res.Failures, "timing: "+rto.timing)
			}
			res.Failures = append(res.Failures, fmt.Sprintf("largest timing slack seen: %dms (tolerance: %s)", rto.maxSlack, rt.Tolerance))
			if rt.Rerun != nil {
				res.Failures = append(res.Failures, "not replayable (real time); run it again with: "+rt.Rerun(s, path))
			}
		}
	}
	run.Result, run.MaxSlackMs = res, rto.maxSlack
	return run
}

// canonicalFactory wraps every port f builds in a judge.Port: its effects in the
// canonical order and, with minted, its ids under the reference's names.
func canonicalFactory(f harness.HostFactory, minted *judge.Minted) harness.HostFactory {
	return func(cfg wire.HostConfig) (wire.HostPort, error) {
		h, err := f(cfg)
		if err != nil || h == nil {
			return h, err
		}
		return judge.NewPort(h, minted), nil
	}
}

// declaresWindow reports whether the scenario names a write-behind window of its own:
// then it is about the window, and a write-through host cannot run it.
func declaresWindow(s *scenarios.Scenario) bool {
	return s.WriteWindow != nil && *s.WriteWindow != 0
}

func without(ss []string, x string) []string {
	var out []string
	for _, s := range ss {
		if s != x {
			out = append(out, s)
		}
	}
	return out
}

func errText(err error) string {
	if err == nil {
		return "accepted it"
	}
	return strconv.Quote(err.Error())
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i] + " …"
	}
	return s
}

// replayCommand is the command that reruns exactly one scenario against the same host.
func replayCommand(host, path string, seed uint64) string {
	if path == "" {
		return ""
	}
	c := "conform --host " + ShellQuote(host)
	if seed != 0 {
		c += " --seed " + strconv.FormatUint(seed, 10)
	}
	return c + " -v " + ShellQuote(path)
}
