package conform

import (
	"fmt"
	"strconv"

	"github.com/twosettle/twosettle/explore"
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
