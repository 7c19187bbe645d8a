package explore

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/twosettle/twosettle/fileio"
	"github.com/twosettle/twosettle/golden"
	"github.com/twosettle/twosettle/harness"
	"github.com/twosettle/twosettle/scenarios"
)

// Failure is one failing seed of a campaign.
type Failure struct {
	Seed      uint64 `json:"seed"`
	Invariant string `json:"invariant"`
	// File is the shrunk scenario's YAML ("" when nothing was written); its transcript is
	// beside it (Transcript).
	File       string `json:"file"`
	Transcript string `json:"transcript,omitempty"`
	Message    string `json:"message"`
	Steps      int    `json:"steps"`        // steps of the generated scenario
	ShrunkTo   int    `json:"shrunk_steps"` // steps of the written one
	// Shrunk: the written scenario is the shrinker's (false with --no-shrink, for a lost
	// host or an invalid scenario, and when the shrunk case did not reproduce).
	Shrunk bool `json:"shrunk"`
	// Replay is the one-line command that replays it.
	Replay string `json:"replay,omitempty"`
	// WriteErr is why the files could not be written.
	WriteErr string `json:"write_error,omitempty"`
	// Timeline is its timeline page beside the YAML (<name>.html; "" when none).
	Timeline string `json:"timeline,omitempty"`
}

// Final prepares a failing scenario for a person: it marks the steps the run refused
// (refused:, so simrun replay accepts them), names and summarises it, and checks that
// the YAML, decoded back as simrun replay reads it, still fails with the invariant
// through the harness. It returns the YAML and the transcript simrun replay prints.
func Final(r *Runner, s *scenarios.Scenario, seed uint64, invariant string, opts Options) (yaml, transcript []byte, err error) {
	s = clone(s)
	s.Seed = seed
	return finish(r, s, invariant, opts, SeedName(seed), func(out *Outcome) string {
		return "simrun fuzz seed " + strconv.FormatUint(seed, 10) + " fails " + failureText(invariant, out.Message())
	})
}

// failureText is "INV-…: message" on one line, naming the invariant once (a violation's
// Message already starts with it; a run error's does not).
func failureText(invariant, message string) string {
	message = OneLine(message)
	if strings.HasPrefix(message, invariant) {
		return message
	}
	return invariant + ": " + message
}

// finish is Final's work after the naming: it runs s once, marks its refusals (s is
// modified), names it, summarises it from that run, encodes it and checks the decoded
// YAML reproduces invariant.
func finish(r *Runner, s *scenarios.Scenario, invariant string, opts Options, name string, summary func(*Outcome) string) (yaml, transcript []byte, err error) {
	out, _ := r.Run(s)
	if !out.Has(invariant) {
		return nil, nil, errors.New("the scenario no longer fails with " + invariant)
	}
	Refusals(s, out.Plan, out.Trace)
	s.Name, s.Summary = name, summary(&out)
	if err := scenarios.Validate(s); err != nil {
		return nil, nil, errors.New("the shrunk scenario is not valid: " + err.Error())
	}
	yaml = scenarios.Encode(s)
	back, err := scenarios.Decode(s.Name+".yaml", yaml)
	if err != nil {
		return nil, nil, errors.New("the shrunk scenario does not decode: " + err.Error())
	}
	res := &harness.Result{}
	ho := harness.DefaultOptions()
	ho.Mutant, ho.Host, ho.Client = opts.Mutant, opts.Host, opts.Client
	harness.RunScenario(res, back, ho)
	switch {
	case res.Lost != nil:
		return nil, nil, errors.New("the host was lost while the harness ran the shrunk scenario: " + res.Lost.Err.Error())
	case res.Invalid != nil:
		return nil, nil, errors.New("the harness cannot run the shrunk scenario: " + res.Invalid.Error())
	case res.Verdict == nil || !verdictHas(res.Verdict.Text, invariant) && !(invariant == RunError && len(res.Failures) > 0):
		return nil, nil, errors.New("the harness does not reproduce " + invariant)
	}
	return yaml, res.Transcript, nil
}

func verdictHas(text, invariant string) bool {
	return strings.Contains(text, "\n  "+invariant+" at ")
}

// OneLine is s's first line, cut to 160 bytes: how a failure's message is shown on one
// line (a campaign's log, the kill matrix).
func OneLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	if len(s) > 160 {
		s = s[:157] + "..."
	}
	return s
}

// Write stores a failure in dir as <name>.yaml with its transcript beside it as
// <name>.golden (so simrun replay also compares the replay with it), each with
// fileio.WriteAtomic, transcript first. A nil transcript writes the
// YAML alone (a lost host's run has none). It returns the YAML's and the transcript's
// paths ("" when none was written).
func Write(dir, name string, yaml, transcript []byte) (string, string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", "", err
	}
	tpath := ""
	ypath := filepath.Join(dir, name+".yaml")
	if transcript != nil {
		tpath = filepath.Join(dir, name+golden.Suffix)
		if err := fileio.WriteAtomic(tpath, transcript); err != nil {
			return "", "", err
		}
	}
	if err := fileio.WriteAtomic(ypath, yaml); err != nil {
		return "", "", err
	}
	return ypath, tpath, nil
}

// ReplayCommand is the one shell line that replays a written failure: against the same
// host (--host opts.ReplayHost when the campaign ran against another host than the
// reference one), with the same clients (--client opts.ReplayClient), and with the
// campaign's mutant switched on when it ran against one, so the replay reproduces the
// same violation and matches the transcript written beside the file.
func ReplayCommand(file string, opts Options) string {
	c := "simrun replay "
	if opts.ReplayHost != "" {
		c += "--host " + opts.ReplayHost + " "
	}
	if opts.ReplayClient != "" {
		c += "--client " + opts.ReplayClient + " "
	}
	if opts.Mutant != "" {
		c += "--mutant " + opts.Mutant + " "
	}
	return c + file
}

// FinalNamed is Final for a failure found some other way than by a fuzz seed (package
// sysexplore): s keeps its own seed, and gets name and summary.
func FinalNamed(r *Runner, s *scenarios.Scenario, invariant string, opts Options, name, summary string) (yaml, transcript []byte, err error) {
	s = clone(s)
	return finish(r, s, invariant, opts, name, func(*Outcome) string { return summary })
}
