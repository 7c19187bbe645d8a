package conform

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/twosettle/twosettle/engine/wire"
	"github.com/twosettle/twosettle/harness"
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
// seed, and judges the host's run: the scenario's expectations, the oracle (less what
// the host's features do not let it check) and the comparison with the reference
// transcript. A scenario that needs a feature the host lacks is not applicable.
func RunScenario(s *scenarios.Scenario, path string, opts Options) Run {
	plan := harness.Compile(s, opts.Seed)
	res := ScenarioResult{Name: s.Name, Path: path, Seed: plan.Seed, Covers: append([]string(nil), s.Covers...)}
	res.Replay = replayCommand(opts.Command, path, opts.Seed)
	if miss := missing(Needs(&plan.Sim, plan.Host), opts.Info.Features); len(miss) > 0 {
		res.Status, res.Missing = StatusNotApplicable, miss
		return Run{Result: res}
	}
	intro := has(opts.Info.Features, FeatureIntrospection)
	skip := NotChecked(opts.Info.Features)

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
	judge := func(tr *trace.Trace, s *scenarios.Scenario) harness.Verdict {
		o := harness.OracleOptions(s)
		o.Skip = skip
		verdict = oracle.Check(tr, o)
		return harness.Verdict{Text: verdict.String(), Status: verdict.Status.String()}
	}
	start := time.Now()
	got := &harness.Result{}
	harness.RunScenario(got, s, harness.Options{Seed: opts.Seed, Oracle: judge, Host: factory, AnyRefusalText: true})
	res.DurationMs = time.Since(start).Milliseconds()
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

	ref := &harness.Result{}
	harness.RunScenario(ref, s, harness.Options{Seed: opts.Seed})

	if got.Invalid != nil {
		res.Failures = append(res.Failures, "the host's run could not be judged: "+firstLine(got.Invalid.Error()))
	}
	for _, f := range got.Failures {
		res.Failures = append(res.Failures, f.String())
	}
	for _, b := range verdict.Violations {
		res.Violated = append(res.Violated, b.Invariant)
	}
	sort.Strings(res.Violated)
	run := Run{}
	if got.Trace != nil && ref.Trace != nil {
		mine := Comparable(s.Name, got.Trace, intro)
		if d := Divergence(Comparable(s.Name, ref.Trace, intro), mine); d != "" {
			res.Divergence = d
			res.Failures = append(res.Failures, "the transcript differs from the reference engine's")
		}
		if opts.Verbose {
			run.Transcript = mine
		}
	} else if (got.HostConfigErr == nil) != (ref.HostConfigErr == nil) {
		res.Failures = append(res.Failures, "the host's configuration refusal differs from the reference engine's: host "+errText(got.HostConfigErr)+", reference "+errText(ref.HostConfigErr))
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
