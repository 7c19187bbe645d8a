package explore

import (
	"errors"
	"io"
	"strings"

	"github.com/twosettle/twosettle/engine/wire"
	"github.com/twosettle/twosettle/harness"
	"github.com/twosettle/twosettle/oracle"
	"github.com/twosettle/twosettle/scenarios"
	"github.com/twosettle/twosettle/sim"
	"github.com/twosettle/twosettle/trace"
)

// Options say which host a scenario runs against.
type Options struct {
	// Mutant switches on a named bug of the reference engine (engine/mutant): the host
	// (host.Config.Mutant) and every client (client.Config.Mutant) get it; "" is the
	// correct engine.
	Mutant string
	// Host builds each run's host (shared by the workers: it must be safe for concurrent
	// use); nil is the reference host with Mutant. With Host set, Mutant reaches only the
	// clients.
	Host harness.HostFactory
	// Client builds each run's clients (shared by the workers: it must be safe for
	// concurrent use); nil is the reference client with Mutant. With Client set, Mutant
	// reaches only the host.
	Client harness.ClientFactory
	// ReplayHost is how a command line names Host: simrun's --host argument, shell-quoted
	// ("" for the reference host). A failure's replay line carries it (ReplayCommand).
	ReplayHost string
	// ReplayClient is how a command line names Client: simrun's --client argument,
	// shell-quoted ("" for the reference client).
	ReplayClient string
	// Skip names oracle invariants the host cannot be judged on (a host without
	// introspection: conform.NotChecked); they are not checked, never failed.
	Skip []string
}

// hosts is the factory a run uses.
func (o Options) hosts() harness.HostFactory {
	if o.Host != nil {
		return o.Host
	}
	return harness.ReferenceHost(o.Mutant)
}

// clients is the client factory a run uses.
func (o Options) clients() harness.ClientFactory {
	if o.Client != nil {
		return o.Client
	}
	return harness.ReferenceClient(o.Mutant)
}

// CheckOptions reports whether opts can build a host (an unknown mutant cannot).
func CheckOptions(opts Options) error {
	h, err := opts.hosts()(wire.HostConfig{})
	if c, ok := h.(io.Closer); ok {
		c.Close()
	}
	return err
}

// Pseudo-invariants: a failure that is not an oracle violation.
const (
	// RunError: the simulator stopped with an error (a port broke its contract, the
	// record budget or the timer guard ran out).
	RunError = "RUN-ERROR"
	// InvalidScenario: the scenario could not run (the host refused its configuration,
	// the simulator refused a step): a generator bug, never the engine's.
	InvalidScenario = "INVALID"
	// HostLost: the host was lost (an external host crashed, hung or broke the
	// protocol). Not shrunk: the run is broken, not a verdict on the scenario.
	HostLost = "HOST-LOST"
)

// Outcome is what one run produced. Trace and Plan are valid until the Runner's next Run.
type Outcome struct {
	Verdict oracle.Verdict
	// Err is a run error (RunError) or why the scenario could not run (InvalidScenario).
	Err   error
	Kind  string // "", RunError or InvalidScenario
	Trace *trace.Trace
	Plan  *harness.Plan
}

// Failed reports whether the run failed: a violation, a run error or an invalid scenario.
func (o *Outcome) Failed() bool { return o.Kind != "" || o.Verdict.Status == oracle.Violation }

// Invariant names the failure: the first violated invariant, RunError or InvalidScenario
// ("" when the run passed).
func (o *Outcome) Invariant() string {
	if o.Kind != "" {
		return o.Kind
	}
	if b := o.Verdict.First(); b != nil {
		return b.Invariant
	}
	return ""
}

// Has reports whether the run fails with invariant (a violation of it anywhere in the
// verdict, or the pseudo-invariant of its error).
func (o *Outcome) Has(invariant string) bool {
	if o.Kind != "" {
		return o.Kind == invariant
	}
	return o.Verdict.Has(invariant)
}

// Message is a one-line description of the failure.
func (o *Outcome) Message() string {
	if o.Err != nil {
		return o.Err.Error()
	}
	if b := o.Verdict.First(); b != nil {
		return b.Invariant + ": " + b.Message
	}
	return ""
}

// Runner runs scenarios one after another against fresh ports, reusing the simulator's
// and the oracle's buffers (one per worker). It is not safe for concurrent use.
type Runner struct {
	opts     Options
	sim      *sim.Runner
	tr       trace.Trace
	ports    map[string]wire.ClientPort
	checkers map[oracleKey]*oracle.Checker
	sit      situations
}

type oracleKey struct{ timeout, healed int64 }

// NewRunner returns a runner for the host opts describe.
func NewRunner(opts Options) *Runner {
	return &Runner{opts: opts, sim: sim.NewRunner(), ports: map[string]wire.ClientPort{}, checkers: map[oracleKey]*oracle.Checker{}}
}

func (r *Runner) checker(s *scenarios.Scenario) *oracle.Checker {
	o := harness.OracleOptions(s)
	o.Skip = r.opts.Skip
	k := oracleKey{o.DefaultTimeoutMs, o.HealedAt}
	c, ok := r.checkers[k]
	if !ok {
		if len(r.checkers) >= 16 {
			clear(r.checkers)
		}
		c = oracle.NewChecker(o)
		r.checkers[k] = c
	}
	return c
}

// Run compiles s (at its own seed), runs it and checks the oracle. Situations reached
// are in the returned bit set (see Situations).
func (r *Runner) Run(s *scenarios.Scenario) (Outcome, Reached) {
	plan := harness.Compile(s, 0)
	out := Outcome{Plan: plan, Trace: &r.tr}
	x := harness.ExecuteWith(plan, r.opts.hosts(), r.opts.clients(), r.sim, r.ports, &r.tr)
	switch {
	case x.Lost != nil:
		out.Kind, out.Err = HostLost, errors.New("the host was lost: "+x.Lost.Err.Error())
		return out, Reached{}
	case x.ConfigErr != nil:
		out.Kind, out.Err = InvalidScenario, errors.New("the host refused its configuration: "+x.ConfigErr.Error())
		return out, Reached{}
	case x.Refused != nil:
		out.Kind, out.Err = InvalidScenario, errors.New("the simulator refused the scenario: "+x.SimErr.Error())
		return out, Reached{}
	case x.SimErr != nil:
		out.Kind, out.Err = RunError, errors.New("the run failed: "+x.SimErr.Error())
	}
	out.Verdict = r.checker(s).Check(&r.tr)
	return out, r.sit.scan(&r.tr, s)
}

// Refusals marks every step of s that the run refused with refused: (the error text), as
// simrun replay expects a scenario to say: it traces each host or client Reject record
// back to its step the way the harness does (same time, same input, same actor, first
// unused). It returns how many steps it marked. Compile ignores refused:, so marking
// changes nothing in the run.
func Refusals(s *scenarios.Scenario, plan *harness.Plan, tr *trace.Trace) int {
	n := 0
	for i := range s.Steps {
		s.Steps[i].Refused = ""
	}
	for _, rf := range plan.Refusals(tr) {
		if o := plan.Origin[rf.Step]; o >= 0 && scenarios.Refusable(&s.Steps[o]) {
			s.Steps[o].Refused = refusedText(rf.Err)
			n++
		}
	}
	return n
}

// refusedText is the part of an error a refused: line keeps: its first line (the
// harness matches it as a substring).
func refusedText(err string) string {
	if i := strings.IndexByte(err, '\n'); i >= 0 {
		err = err[:i]
	}
	if strings.TrimSpace(err) == "" {
		return "refused"
	}
	return err
}

// Scan reports the situations a trace reached, as Run does for its own runs: for a
// caller that runs the simulator itself (package sysexplore) on s's world.
func (r *Runner) Scan(tr *trace.Trace, s *scenarios.Scenario) Reached { return r.sit.scan(tr, s) }

// Check judges a trace of s's world with the oracle (with Options.Skip), as Run does.
func (r *Runner) Check(tr *trace.Trace, s *scenarios.Scenario) oracle.Verdict {
	return r.checker(s).Check(tr)
}
