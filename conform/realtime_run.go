package conform

import (
	"flag"
	"fmt"
	"io"
	"time"

	"github.com/benbjohnson/clock"
	"github.com/twosettle/twosettle/engine/wire"
	"github.com/twosettle/twosettle/explore"
	"github.com/twosettle/twosettle/harness"
	"github.com/twosettle/twosettle/scenarios"
)

// RealtimeOptions run the host profile in real time (docs/PROTOCOL.md, "Real-time
// mode"): Options.Realtime.
type RealtimeOptions struct {
	Tolerance
	Clock clock.Clock // the clock steps are paced on: clock.New(), or a test's mock
	// Rerun is the command that runs the scenario again, for a failure's report (a
	// real-time run is not replayable).
	Rerun func(s *scenarios.Scenario, path string) string
}

// realtimeFactory wraps the host factory's ports in realtimeHost: each run's pacer starts
// when the host has started (its clock starts no later), and *last is the run's port, read
// for what the run saw once it is over.
func realtimeFactory(inner harness.HostFactory, rt *RealtimeOptions, last **realtimeHost) harness.HostFactory {
	return func(cfg wire.HostConfig) (wire.HostPort, error) {
		h, err := inner(cfg)
		if err != nil {
			return h, err
		}
		p := &pacer{clk: rt.Clock}
		p.start()
		rh, err := newRealtimeHost(h, cfg, p, rt.Tolerance)
		if err != nil {
			// The reference refuses a configuration the host accepted: the run is
			// judged on that (the comparison of refusals), on virtual time.
			return h, nil
		}
		if ph, ok := h.(*ProcessHost); ok {
			ph.realtime = true
		}
		*last = rh
		return rh, nil
	}
}

// DefaultRealtimeBudget is the longest virtual duration of a generated scenario real-time
// mode runs (conform --realtime --budget): it lasts that long on the wall clock.
const DefaultRealtimeBudget = 6 * time.Second

// RealtimeScreen says why a scenario is not suited to real time ("" it is), from a run of
// the reference engine at its seed: it lasts longer than budget (0: any length), a step or
// a state read comes within the tolerance before a host timer is due (tooClose), two host
// timers are due that close together, or no host timer fires in it (real time would add
// nothing to a run on virtual time). A suited scenario's steps that the reference refuses
// are marked refused: (explore.Refusals), as a generated scenario's are when it is
// written, so the harness runs it as the fuzzer does.
func RealtimeScreen(s *scenarios.Scenario, tol Tolerance, budget time.Duration) string {
	sc, out := screenRun(s, tol)
	switch {
	case out.Err != nil:
		return "the reference engine does not run it: " + out.Err.Error()
	case out.Failed():
		return "the reference engine fails it: " + out.Message()
	case sc.why != "":
		return sc.why
	case budget > 0 && sc.last > budget.Milliseconds():
		return fmt.Sprintf("it lasts %dms of virtual time, more than the budget (%s)", sc.last, budget)
	case sc.fired == 0:
		return "no host timer fires in it"
	}
	explore.Refusals(s, out.Plan, out.Trace)
	return ""
}

// RealtimeLength is how long a scenario lasts in virtual time at its seed (the time of its
// last step), from a run of the reference engine: a real-time run of it lasts that long.
func RealtimeLength(s *scenarios.Scenario) time.Duration {
	sc, _ := screenRun(s, Tolerance{})
	return time.Duration(sc.last) * time.Millisecond
}

// screenRun runs s (at its own seed) against the reference engine behind a screenPort.
func screenRun(s *scenarios.Scenario, tol Tolerance) (*screenPort, explore.Outcome) {
	sc := &screenPort{tol: tol}
	ref := harness.ReferenceHost("")
	factory := func(cfg wire.HostConfig) (wire.HostPort, error) {
		h, err := ref(cfg)
		if err != nil {
			return h, err
		}
		sc.HostPort = h
		return sc, nil
	}
	out, _ := explore.NewRunner(explore.Options{Host: factory}).Run(s)
	return sc, out
}

// screenPort is the reference host as RealtimeScreen runs it: it notes the first step or
// state read too close before a timer, the last step's time and the timers that fired.
type screenPort struct {
	wire.HostPort
	tol   Tolerance
	why   string
	last  int64
	fired int
}

func (p *screenPort) Apply(at wire.Time, cmd wire.Command) ([]wire.Effect, error) {
	d, ok := p.HostPort.NextDeadline()
	if p.why == "" && tooClose(at, d, ok, p.tol) {
		p.why = fmt.Sprintf("a step (%s at %d) comes %dms before a host timer due at %d", cmd, at, d-at, d)
	}
	if ok && d <= at {
		p.fired++
	}
	p.last = at.Ms()
	effs, err := p.HostPort.Apply(at, cmd)
	if next, nok := p.HostPort.NextDeadline(); p.why == "" && ok && d <= at && tooClose(at, next, nok, p.tol) {
		p.why = fmt.Sprintf("a host timer due at %d comes %dms after the timers due at %d", next, next-at, at)
	}
	return effs, err
}

func (p *screenPort) State() wire.HostState {
	if d, ok := p.HostPort.NextDeadline(); p.why == "" && tooClose(wire.Time(p.last), d, ok, p.tol) {
		p.why = fmt.Sprintf("a state read at %d comes %dms before a host timer due at %d", p.last, d.Ms()-p.last, d)
	}
	return p.HostPort.State()
}

// RealtimeSeeds picks n generated scenarios suited to real time (RealtimeScreen) that need
// no feature outside features (nil: any), the first from seed start on; it looks at no
// more than limit seeds and also returns how many it screened out.
func RealtimeSeeds(start uint64, n, limit int, tol Tolerance, budget time.Duration, features []string) ([]*scenarios.Scenario, int) {
	var out []*scenarios.Scenario
	screened := 0
	for seed := start; len(out) < n && screened < limit; seed++ {
		s := explore.Generate(seed)
		if features != nil {
			plan := harness.Compile(s, 0)
			if len(missing(Needs(&plan.Sim, plan.Host), features)) > 0 {
				screened++
				continue
			}
		}
		if RealtimeScreen(s, tol, budget) != "" {
			screened++
			continue
		}
		out = append(out, s)
	}
	return out, screened
}

// realtimeFlags are conform's flags of real-time mode for the host profile.
type realtimeFlags struct {
	on                  bool
	early, late, budget time.Duration
	seeds               int
	start               uint64
}

func (f *realtimeFlags) register(fs *flag.FlagSet) {
	fs.BoolVar(&f.on, "realtime", false, "run the host on its own timers, pacing virtual time on the real clock (not replayable)")
	fs.DurationVar(&f.early, "early", DefaultEarly, "real-time mode: how much before its virtual time a host's time may land")
	fs.DurationVar(&f.late, "late", DefaultLate, "real-time mode: how much after its virtual time a host's time may land")
	fs.IntVar(&f.seeds, "seeds", -1, "real-time mode: how many generated scenarios suited to real time to run (default 5; 0 with scenario files)")
	fs.Uint64Var(&f.start, "start", 1, "real-time mode: the first generator seed to consider")
	fs.DurationVar(&f.budget, "budget", DefaultRealtimeBudget, "real-time mode: the longest virtual duration of a generated scenario")
}

// check refuses real-time flags without --realtime, and what does not go with it.
func (f *realtimeFlags) check(args []string, files, client bool, seed uint64, stderr io.Writer) bool {
	if !f.on {
		for _, name := range []string{"early", "late", "seeds", "start", "budget"} {
			if hasFlag(args, name) {
				fmt.Fprintf(stderr, "conform: --%s is a flag of real-time mode (--realtime)\n", name)
				return false
			}
		}
		return true
	}
	switch {
	case client:
		fmt.Fprintln(stderr, "conform: --realtime runs a host on its own timers; a client process takes its time from the runner (docs/PROTOCOL.md, \"Real-time mode\")")
	case f.early < 0 || f.late <= 0 || f.budget <= 0 || f.start == 0:
		fmt.Fprintln(stderr, "conform: --early cannot be negative; --late, --budget and --start must be positive")
	case seed != 0 && !files:
		fmt.Fprintln(stderr, "conform: --seed sets the seed of scenario files; generated scenarios in real time run at their own seeds (--start S picks them)")
	default:
		return true
	}
	return false
}

func (f *realtimeFlags) tolerance() Tolerance { return Tolerance{Early: f.early, Late: f.late} }

// generated picks the generated scenarios to run (--seeds, by default 5 without files)
// and says on stderr how many seeds it screened out.
func (f *realtimeFlags) generated(files bool, features []string, stderr io.Writer) []*scenarios.Scenario {
	n := f.seeds
	if n < 0 {
		n = 5
		if files {
			n = 0
		}
	}
	if features == nil {
		features = []string{} // a host that declares none: scenarios that need none
	}
	// A host with few features fits few seeds (one in a few hundred with none): the
	// screen costs well under a millisecond a seed.
	gen, screened := RealtimeSeeds(f.start, n, max(100*n+1000, 20000), f.tolerance(), f.budget, features)
	if len(gen) < n {
		fmt.Fprintf(stderr, "conform: only %d of the %d generated scenarios asked for are suited to real time within %d seeds from %d (--budget %s)\n", len(gen), n, screened+len(gen), f.start, f.budget)
	}
	if screened > 0 {
		fmt.Fprintf(stderr, "conform: real time: %d generated scenarios screened out (longer than --budget %s, a step or a timer within the tolerance of a host timer, no host timer, or a feature the host does not declare)\n", screened, f.budget)
	}
	return gen
}

// tooLong says why a scenario file is not run in real time ("" it is): it would last
// longer on the wall clock than --budget.
func (f *realtimeFlags) tooLong(s *scenarios.Scenario, seed uint64) string {
	if !f.on {
		return ""
	}
	c := *s
	if seed != 0 {
		c.Seed = seed
	}
	if n := RealtimeLength(&c); n > f.budget {
		return fmt.Sprintf("no verdict: it lasts %s of virtual time, more than --budget %s: a real-time run lasts that long on the wall clock (raise --budget to run it anyway)", n, f.budget)
	}
	return ""
}

// options are the run options of real-time mode against host, with the command that runs
// a scenario again.
func (f *realtimeFlags) options(host string, seed uint64) *RealtimeOptions {
	tol := f.tolerance()
	return &RealtimeOptions{Tolerance: tol, Clock: realtimeClock(), Rerun: func(s *scenarios.Scenario, path string) string {
		c := fmt.Sprintf("conform --realtime --early %s --late %s --host %s", tol.Early, tol.Late, ShellQuote(host))
		if seed != 0 {
			c += fmt.Sprintf(" --seed %d", seed)
		}
		if path != "" {
			return c + " " + ShellQuote(path)
		}
		if f.budget != DefaultRealtimeBudget {
			c += " --budget " + f.budget.String()
		}
		return fmt.Sprintf("%s --start %d --seeds 1", c, s.Seed)
	}}
}
