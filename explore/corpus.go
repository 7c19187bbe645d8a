package explore

import (
	"errors"
	"path/filepath"
	"strings"

	"github.com/twosettle/twosettle/harness"
	"github.com/twosettle/twosettle/scenarios"
)

// CorpusEntry is one scenario of a failure corpus: the shrunk failures of earlier
// campaigns (the fuzz-SEED.yaml files they wrote, or any scenario file), replayed first
// in every campaign given the corpus (docs/ci.md, "A failure corpus").
type CorpusEntry struct {
	File     string
	Scenario *scenarios.Scenario
}

// CorpusResult is a corpus scenario's run in a campaign: it passes (Invariant "") or
// fails with Invariant and Message; Replay is the line that reruns it.
type CorpusResult struct {
	File      string `json:"file"`
	Invariant string `json:"invariant,omitempty"`
	Message   string `json:"message,omitempty"`
	Replay    string `json:"replay"`
}

// Failed reports whether the scenario failed.
func (r CorpusResult) Failed() bool { return r.Invariant != "" }

// LoadCorpus reads a corpus: every .yaml of each directory (or each file) in paths, in
// name order, with their digest for the campaign's Identity (Digest of the base names and
// contents). A file that does not decode is an error, named with its line and column.
func LoadCorpus(paths []string) ([]CorpusEntry, string, error) {
	es, err := harness.Load(paths)
	if err != nil {
		return nil, "", err
	}
	var out []CorpusEntry
	files := map[string][]byte{}
	for _, e := range es {
		s, err := scenarios.Decode(e.Path, e.Data)
		if err != nil {
			return nil, "", err
		}
		base := filepath.Base(e.Path)
		if _, dup := files[base]; dup {
			return nil, "", errors.New("corpus: two files named " + base)
		}
		files[base] = e.Data
		out = append(out, CorpusEntry{File: e.Path, Scenario: s})
	}
	return out, Digest(files), nil
}

// runCorpus runs the corpus with r, in order, each at its own seed.
func (c *Campaign) runCorpus(r *Runner) []CorpusResult {
	var out []CorpusResult
	for _, e := range c.Corpus {
		o, _ := r.Run(e.Scenario)
		res := CorpusResult{File: e.File, Replay: ReplayCommand(e.File, c.Options)}
		if o.Failed() {
			res.Invariant, res.Message = o.Invariant(), OneLine(o.Message())
			if res.Message == "" {
				res.Message = res.Invariant
			}
		}
		out = append(out, res)
	}
	return out
}

// CorpusFailures counts the corpus scenarios that failed.
func (r *Report) CorpusFailures() int {
	n := 0
	for _, c := range r.Corpus {
		if c.Failed() {
			n++
		}
	}
	return n
}

// corpusName is a corpus result's testcase name: "corpus NAME.yaml".
func corpusName(file string) string {
	return "corpus " + strings.TrimSpace(filepath.Base(file))
}
