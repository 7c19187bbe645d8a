package sysexplore

import (
	"errors"
	"sort"
	"strconv"
	"strings"

	"github.com/twosettle/twosettle/explore"
	"github.com/twosettle/twosettle/scenarios"
)

// WitnessScenario turns a violation's run into a scenario: the world's fixed steps and the
// placed steps at the times they were placed (a placed step after the fixed steps of its
// instant), at seed. The schedule within an instant is the seed's, not the explorer's: a
// scenario has no other way to say it, so Reproduce searches the seeds for one that
// fails the same way.
func (c *Config) WitnessScenario(v *Violation, seed uint64) *scenarios.Scenario {
	back, err := scenarios.Decode(c.Scenario.Name+".yaml", scenarios.Encode(c.Scenario))
	if err != nil {
		panic("sysexplore: the world does not survive its own encoding: " + err.Error())
	}
	steps := append([]scenarios.Step(nil), back.Steps[:c.Base]...)
	for _, p := range v.Placed {
		st := back.Steps[c.Base+p.idx]
		st.At = scenarios.Duration(p.At)
		steps = append(steps, st)
	}
	sort.SliceStable(steps, func(i, j int) bool { return steps[i].At < steps[j].At })
	back.Steps = steps
	back.Seed = seed
	return back
}

// Witness is a violation made into a file a person can replay.
type Witness struct {
	File       string `json:"file,omitempty"`
	Transcript string `json:"transcript,omitempty"`
	Replay     string `json:"replay,omitempty"`
	Seed       uint64 `json:"seed,omitempty"`
	// SeedsTried: how many seeds the search for one that reproduces took.
	SeedsTried int    `json:"seeds_tried"`
	Shrunk     bool   `json:"shrunk"`
	Steps      int    `json:"steps"`
	Err        string `json:"error,omitempty"`
}

// Reproduce finds a seed at which v's scenario fails with v's invariant (trying seeds 1
// to maxSeeds), shrinks it with explore's shrinker (unless noShrink), and writes it to
// dir as explore-<config>-<invariant>.yaml with its transcript, like a fuzz failure.
func (c *Config) Reproduce(v *Violation, opts explore.Options, dir string, maxSeeds int, noShrink bool, b explore.ShrinkBudget) Witness {
	r := explore.NewRunner(opts)
	var w Witness
	var s *scenarios.Scenario
	for seed := uint64(1); seed <= uint64(maxSeeds); seed++ {
		w.SeedsTried++
		cand := c.WitnessScenario(v, seed)
		out, _ := r.Run(cand)
		if out.Has(v.Invariant) {
			s, w.Seed = cand, seed
			break
		}
	}
	if s == nil {
		w.Err = "no seed in 1.." + strconv.Itoa(maxSeeds) + " reproduces it as a scenario (the schedule within an instant is a seed's): replay it with --path " + v.Path
		return w
	}
	if !noShrink {
		if sh, _ := explore.Shrink(r, s, v.Invariant, b); sh != nil {
			s, w.Shrunk = sh, true
		}
	}
	name := "explore-" + c.Name + "-" + strings.ToLower(strings.TrimPrefix(v.Invariant, "INV-"))
	summary := "simrun explore " + c.Name + " (path " + shortPath(v.Path) + ") fails " + v.Message
	yaml, transcript, err := explore.FinalNamed(r, s, v.Invariant, opts, name, summary)
	if err != nil && w.Shrunk {
		// the shrunk case did not survive the harness: write the unshrunk one
		s, w.Shrunk = c.WitnessScenario(v, w.Seed), false
		yaml, transcript, err = explore.FinalNamed(r, s, v.Invariant, opts, name, summary)
	}
	if err != nil {
		w.Err = err.Error()
		return w
	}
	w.Steps = len(s.Steps)
	if dir == "" {
		return w
	}
	f, t, err := explore.Write(dir, name, yaml, transcript)
	if err != nil {
		w.Err = err.Error()
		return w
	}
	w.File, w.Transcript, w.Replay = f, t, explore.ReplayCommand(f, opts)
	return w
}

func shortPath(p string) string {
	if len(p) > 60 {
		return p[:57] + "..."
	}
	return p
}

// ParsePath reads a --path: comma-separated choices.
func ParsePath(s string) ([]int, error) {
	if strings.TrimSpace(s) == "" {
		return nil, nil
	}
	var out []int
	for _, f := range strings.Split(s, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 0 {
			return nil, errors.New("--path: " + strconv.Quote(f) + " is not a choice (a number >= 0)")
		}
		out = append(out, n)
	}
	return out, nil
}
