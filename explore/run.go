package explore

import (
	"errors"
	"strings"

	"github.com/twosettle/twosettle/engine/client"
	"github.com/twosettle/twosettle/engine/host"
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
	// NewHost builds the host from the scenario's host configuration; nil builds the
	// reference host (engine/host.New).
	NewHost func(host.Config) (wire.HostPort, error)
}

// CheckOptions reports whether opts can build a host (an unknown mutant cannot).
func CheckOptions(opts Options) error {
	cfg := host.Config{Mutant: opts.Mutant}
	var err error
	if opts.NewHost != nil {
		_, err = opts.NewHost(cfg)
	} else {
		_, err = host.New(cfg)
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

// OracleOptions are the oracle's options for a scenario, the same ones simrun run and
// replay use (harness.ReferenceOracle): the configured default timeout, and the healed
// phase from explore: healed when the scenario names one (else derived from the trace).
func OracleOptions(s *scenarios.Scenario) oracle.Options {
	opts := oracle.Options{DefaultTimeoutMs: 120_000}
	if s.Timeout != nil {
		opts.DefaultTimeoutMs = *s.Timeout * 1000
		if *s.Timeout < 0 {
			opts.DefaultTimeoutMs = -1
		}
	}
	if s.Explore != nil && s.Explore.Healed > 0 {
		opts.HealedAt = s.Explore.Healed.Ms()
	}
	return opts
}

func (r *Runner) checker(s *scenarios.Scenario) *oracle.Checker {
	o := OracleOptions(s)
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
	plan.Host.Mutant = r.opts.Mutant
	var h wire.HostPort
	var err error
	if r.opts.NewHost != nil {
		h, err = r.opts.NewHost(plan.Host)
	} else {
		h, err = host.New(plan.Host)
	}
	if err != nil {
		out.Kind, out.Err = InvalidScenario, errors.New("the host refused its configuration: "+err.Error())
		return out, 0
	}
	clear(r.ports)
	for _, c := range plan.Clients {
		c.Mutant = r.opts.Mutant
		r.ports[c.Name] = client.New(c)
	}
	err = r.sim.Run(&plan.Sim, h, r.ports, &r.tr)
	var ce *sim.ConfigError
	switch {
	case errors.As(err, &ce):
		out.Kind, out.Err = InvalidScenario, errors.New("the simulator refused the scenario: "+err.Error())
		return out, 0
	case err != nil:
		out.Kind, out.Err = RunError, errors.New("the run failed: "+err.Error())
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
