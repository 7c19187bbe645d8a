package harness

import (
	"sort"

	"github.com/twosettle/twosettle/engine/client"
	"github.com/twosettle/twosettle/engine/wire"
	"github.com/twosettle/twosettle/scenarios"
	"github.com/twosettle/twosettle/sim"
)

// Plan is a scenario compiled for one run: the simulator's configuration, the reference
// host's and clients' configurations, and how each simulator step maps back to the
// scenario.
type Plan struct {
	Seed    uint64
	Sim     sim.Config
	Host    wire.HostConfig
	Clients []client.Config // in sim.Config.Clients order
	// Origin[i] is the scenario step index of sim step i (-1: a Session opened at time 0
	// or an expectation's probe).
	Origin []int
	// Inputs[i] is the canonical text of the input sim step i delivers to a port ("" for
	// faults, network actions and probes): how a Reject record is traced to its step.
	Inputs []string
	// Probes maps each expectation time to the label of its probe.
	Probes map[scenarios.Duration]string
	// ServiceIDs are the result ids of the scenario's service steps (by step index).
	ServiceIDs []string
	// Holding names the clients declared hold: true, which Execute runs as answerers that
	// hold every delivery (holdingClient) instead of reference clients.
	Holding map[string]bool
}

// ProbeLabel is the label of the probe an expectation at time t reads.
func ProbeLabel(t scenarios.Duration) string { return "expect@" + t.String() }

// Compile turns a valid scenario into a Plan at seed (0: the scenario's own seed).
func Compile(s *scenarios.Scenario, seed uint64) *Plan {
	if seed == 0 {
		seed = s.Seed
	}
	if seed == 0 {
		seed = scenarios.DefaultSeed
	}
	p := &Plan{Seed: seed, Probes: map[scenarios.Duration]string{}, ServiceIDs: scenarios.ServiceIDs(s)}
	p.Host = HostConfig(s)

	clients := append([]scenarios.Client(nil), s.Clients...)
	sort.SliceStable(clients, func(i, j int) bool { return clients[i].Name < clients[j].Name })
	for i, c := range clients {
		cc := sim.ClientConfig{
			Name:        c.Name,
			Mux:         sim.Latency{Min: span(c.Latency.Min), Max: span(c.Latency.Max)},
			Clock:       sim.Clock{Offset: span(c.Skew), DriftPPM: c.Drift},
			Offline:     c.Offline,
			ReconnectMs: -1,
		}
		cc.HTTP = cc.Mux
		if c.HTTP != nil {
			cc.HTTP = sim.Latency{Min: span(c.HTTP.Min), Max: span(c.HTTP.Max)}
		}
		if c.Reconnect != nil {
			cc.ReconnectMs = span(*c.Reconnect)
		}
		p.Sim.Clients = append(p.Sim.Clients, cc)
		p.Clients = append(p.Clients, client.Config{Name: c.Name, TickMs: c.Tick.Ms(), Seed: clientSeed(seed, i)})
		if c.Hold {
			if p.Holding == nil {
				p.Holding = map[string]bool{}
			}
			p.Holding[c.Name] = true
		}
	}

	p.Sim.Seed = seed
	p.Sim.Limit = instant(s.Limit)
	switch s.AutoEnd {
	case scenarios.Never:
		p.Sim.Model.AutoEndMs = -1
	default:
		p.Sim.Model.AutoEndMs = span(s.AutoEnd)
	}
	if x := s.Explore; x != nil {
		p.Sim.Faults = sim.FaultConfig{
			CrashPerMin: x.Faults.Crash, DisconnectPerMin: x.Faults.Disconnect, ReloadPerMin: x.Faults.Reload,
			ClockJumpPerMin: x.Faults.ClockJump, PartitionPerMin: x.Faults.Partition, LoseHTTPPerMin: x.Faults.Lose,
		}
		p.Sim.Healed = instant(x.Healed)
	}

	first := FirstSession(s)
	add := func(origin int, st sim.Step, input string) {
		p.Sim.Steps = append(p.Sim.Steps, st)
		p.Origin = append(p.Origin, origin)
		p.Inputs = append(p.Inputs, input)
	}
	sessions := s.Sessions
	if len(sessions) == 0 {
		sessions = []scenarios.Session{{Name: scenarios.DefaultSession}}
	}
	for _, x := range sessions {
		cmd := wire.OpenSession{Session: x.Name, Owner: x.Owner}
		add(-1, sim.Step{At: 0, Host: cmd, Line: x.Pos.Line}, cmd.String())
	}

	// Probes go after every step at their time.
	times := map[scenarios.Duration]bool{}
	for _, e := range s.Expect {
		if !e.End {
			times[e.At] = true
		}
	}
	var probeTimes []scenarios.Duration
	for t := range times {
		probeTimes = append(probeTimes, t)
		p.Probes[t] = ProbeLabel(t)
	}
	sort.Slice(probeTimes, func(i, j int) bool { return probeTimes[i] < probeTimes[j] })
	addProbes := func(upTo scenarios.Duration, inclusive bool) {
		for len(probeTimes) > 0 && (probeTimes[0] < upTo || inclusive && probeTimes[0] == upTo) {
			add(-1, sim.Step{At: instant(probeTimes[0]), Probe: ProbeLabel(probeTimes[0])}, "")
			probeTimes = probeTimes[1:]
		}
	}
	for i := range s.Steps {
		st := &s.Steps[i]
		addProbes(st.At, false)
		session := st.Session
		if session == "" {
			session = first
		}
		out := sim.Step{At: instant(st.At), Line: st.Pos.Line}
		input := stepCompilers[st.Kind()](p, i, st, session, &out)
		add(i, out, input)
	}
	addProbes(1<<62, true)
	return p
}

// stepCompiler compiles scenario step i (about session) into out and returns the
// canonical text of the input it delivers to a port ("" for faults, network actions and
// probes).
type stepCompiler func(p *Plan, i int, st *scenarios.Step, session string, out *sim.Step) string

// stepCompilers are the compilers by step kind (scenarios.StepKinds), one file each
// (step_<kind>.go, the name of the scenarios file that declares the kind);
// TestEveryKindHasItsHarnessFile checks each kind has one.
var stepCompilers = map[string]stepCompiler{}

func registerCompiler(kind string, c stepCompiler) {
	if stepCompilers[kind] != nil {
		panic("harness: two compilers for the " + kind + " step")
	}
	stepCompilers[kind] = c
}

// FirstSession is the Session a step that names none is about.
func FirstSession(s *scenarios.Scenario) string {
	if len(s.Sessions) > 0 {
		return s.Sessions[0].Name
	}
	return scenarios.DefaultSession
}

func clientSeed(seed uint64, i int) uint64 {
	x := seed + uint64(i+1)*0x9E3779B97F4A7C15
	x ^= x >> 31
	x *= 0xBF58476D1CE4E5B9
	return x ^ x>>29
}

// serviceQuestions converts questions to the service vocabulary (wire.Question).
func serviceQuestions(qs []scenarios.Question) []wire.Question {
	out := make([]wire.Question, len(qs))
	for i, q := range qs {
		w := wire.Question{ID: q.ID, Question: q.Question}
		if q.Header != "" {
			h := q.Header
			w.Header = &h
		}
		if q.Detail != "" {
			d := q.Detail
			w.Detail = &d
		}
		for _, o := range q.Options {
			opt := wire.Option{Label: o.Label}
			if o.Description != "" {
				d := o.Description
				opt.Description = &d
			}
			w.Options = append(w.Options, opt)
		}
		if q.Multi {
			t := true
			w.MultiSelect = &t
		}
		if q.PlanReview != "" {
			w.Intent = &wire.Intent{Kind: wire.IntentPlanReview, Approve: q.PlanReview}
		}
		out[i] = w
	}
	return out
}

// AnswerItems converts a scenario batch to the wire's.
func AnswerItems(as []scenarios.AnswerItem) []wire.AnswerItem {
	out := make([]wire.AnswerItem, len(as))
	for i, a := range as {
		sel := a.Selected
		if sel == nil {
			sel = []string{}
		}
		out[i] = wire.AnswerItem{ID: a.ID, Selected: sel, Custom: a.Custom}
	}
	return out
}
