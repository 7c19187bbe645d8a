package conform

import (
	"encoding/json"
	"fmt"

	"github.com/twosettle/twosettle/explore"
)

// fuzzReport is conform fuzz --json: the judged process under its role ("host" or
// "client"), the campaign's counters and coverage, its identity (a merge refuses shards
// of different campaigns), exactly the seeds it ran, the corpus's results and, in a
// merged report only, its shards (docs/ci.md, "Merging shards").
type fuzzReport struct {
	Role        string            `json:"role"`
	Host        string            `json:"host,omitempty"`
	Client      string            `json:"client,omitempty"`
	SeedsRun    uint64            `json:"seeds_run"`
	Failures    []explore.Failure `json:"failures"`
	Interrupted bool              `json:"interrupted"`
	ElapsedMs   int64             `json:"elapsed_ms"`
	fuzzCoverage
	Shard    string                 `json:"shard,omitempty"`
	Campaign *explore.Identity      `json:"campaign"`
	Covered  []explore.SeedRange    `json:"covered"`
	Corpus   []explore.CorpusResult `json:"corpus,omitempty"`
	Merged   *explore.MergeInfo     `json:"merged,omitempty"`
}

// fuzzReplay is the line that replays a conform fuzz failure (or corpus scenario) file
// against the judged process: conform --host CMD -v FILE (--client for a client).
func fuzzReplay(role, cmd, file string) string {
	flag := "--host"
	if role == RoleClient {
		flag = "--client"
	}
	return fmt.Sprintf("conform %s %s -v %s", flag, ShellQuote(cmd), ShellQuote(file))
}

// MergedFuzzJSON is the conform fuzz --json report of merged shards (simrun merge): the
// first shard's report with the merged counters, situations and seeds, and the replay
// line of each failure for the JUnit report.
func MergedFuzzJSON(m *explore.Merged) ([]byte, func(explore.Failure) string, error) {
	var j fuzzReport
	if err := json.Unmarshal(m.First.Raw, &j); err != nil {
		return nil, nil, fmt.Errorf("%s: %v", m.First.Path, err)
	}
	rep := m.Report
	j.SeedsRun, j.Failures, j.Interrupted, j.ElapsedMs = rep.SeedsRun, rep.Failures, rep.Interrupted, rep.Elapsed.Milliseconds()
	if j.Failures == nil {
		j.Failures = []explore.Failure{}
	}
	j.Situations, j.Reached = m.Situations, explore.ReachedIn(m.Situations)
	j.Unreached = explore.Unreached(m.Situations, j.CannotReach)
	j.Shard, j.Covered, j.Corpus, j.Merged = "", rep.Covered, rep.Corpus, &m.Info
	j.Campaign = &m.Identity
	role, cmd := m.Identity.Config["role"], m.Identity.Config["process"]
	replay := func(f explore.Failure) string { return fuzzReplay(role, cmd, f.File) }
	b, _ := json.MarshalIndent(j, "", "  ")
	return append(b, '\n'), replay, nil
}
