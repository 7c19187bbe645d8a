package explore

import (
	"errors"
	"strconv"
	"strings"

	"github.com/twosettle/twosettle/scenarios"
)

// ErrPasses is ShrinkScenario's answer for a scenario that passes the oracle: there is
// nothing to shrink.
var ErrPasses = errors.New("nothing to shrink: the scenario passes the oracle")

// Shrunk is what ShrinkScenario made of a failing scenario.
type Shrunk struct {
	// Scenario is the shrunk scenario (or the input itself, without its expectations,
	// when no smaller case reproduces through the harness).
	Scenario *scenarios.Scenario
	// YAML is Scenario encoded; Transcript is what simrun replay prints for it.
	YAML, Transcript []byte
	// Invariant is the first invariant the input violates (or RunError); the shrunk
	// scenario's first failure is the same.
	Invariant string
	Message   string // one line: the input's first failure
	Stats     ShrinkStats
}

// ShrinkScenario shrinks any failing scenario, hand-written or generated (a fuzz
// failure, a mutant witness, a library finding), against the host opts describe: it runs
// s at its own seed, takes its first violated invariant, shrinks with Shrink keeping that
// invariant first, marks the steps the run refuses (refused:), renames it <name>-shrunk
// and checks, as Final does, that its YAML decoded back fails the same way through the
// harness (simrun replay). s's expectations are made bare probes first: what they assert
// describes the original run (a deleted call would make them invalid, and an oracle:
// violation expectation would hide the failure from replay), but the snapshot each takes
// at its time is where the oracle's snapshot invariants judge, so a failure seen only at
// a probe still reproduces. s is not modified. A scenario that passes is ErrPasses;
// one the host or the simulator refuses, or whose host is lost, is an error.
func ShrinkScenario(s *scenarios.Scenario, opts Options, b ShrinkBudget) (*Shrunk, error) {
	r := NewRunner(opts)
	c := clone(s)
	c.Expect = probesOnly(s)
	out, _ := r.Run(c)
	switch {
	case out.Kind == InvalidScenario, out.Kind == HostLost:
		return nil, out.Err // a lost host is a broken run: nothing to shrink
	case !out.Failed():
		return nil, ErrPasses
	}
	res := &Shrunk{Invariant: out.Invariant(), Message: OneLine(out.Message())}
	small, st := Shrink(r, c, res.Invariant, b)
	res.Stats = st
	name := strings.TrimSuffix(s.Name, "-shrunk") + "-shrunk"
	why := failureText(res.Invariant, res.Message)
	summary := func(x *scenarios.Scenario) func(*Outcome) string {
		return func(*Outcome) string {
			return "simrun shrink of " + s.Name + " (" + strconv.Itoa(len(s.Steps)) + " -> " + strconv.Itoa(len(x.Steps)) +
				" steps) fails " + why
		}
	}
	yaml, transcript, err := finish(r, small, res.Invariant, opts, name, summary(small))
	if err != nil && small != c {
		small = c
		res.Stats.StepsAfter = len(c.Steps)
		yaml, transcript, err = finish(r, c, res.Invariant, opts, name, summary(c))
	}
	if err != nil {
		return nil, err
	}
	back, _ := scenarios.Decode(name+".yaml", yaml)
	res.Scenario, res.YAML, res.Transcript = back, yaml, transcript
	return res, nil
}

// probesOnly is s's expectations with their assertions dropped: at each time one
// expectation had (an at: end one is dropped, the run's end is always judged), an
// expectation that asserts only that the first Session exists, so the run still takes its
// snapshot there.
func probesOnly(s *scenarios.Scenario) []scenarios.Expectation {
	session := scenarios.DefaultSession
	if len(s.Sessions) > 0 {
		session = s.Sessions[0].Name
	}
	var out []scenarios.Expectation
	seen := map[scenarios.Duration]bool{}
	for _, e := range s.Expect {
		if e.End || seen[e.At] {
			continue
		}
		seen[e.At] = true
		out = append(out, scenarios.Expectation{At: e.At, Kind: scenarios.ExpectAgent, Subject: session})
	}
	return out
}
