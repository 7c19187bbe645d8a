package explore

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/twosettle/twosettle/junit"
)

// JUnit is a campaign as a JUnit XML document (package junit's dialect), the --junit
// report of `simrun fuzz` and `conform fuzz`: a testcase per failing seed (name "seed N",
// classname the command with its space as a dot, e.g. simrun.fuzz) with its invariant,
// the files written and the replay line replay gives for it, and one testcase "campaign"
// for the whole campaign, an <error> when it was interrupted before every seed ran or (a
// merge) a shard was missing. A corpus scenario is a testcase "corpus NAME.yaml" before
// the seeds. The suite's properties are the seeds run, the shard and the seeds covered
// (RangesString of Covered).
func (r *Report) JUnit(command, shard string, replay func(Failure) string) junit.Suites {
	class := strings.ReplaceAll(command, " ", ".")
	s := junit.Suite{Name: "fuzz", Time: junit.Seconds(r.Elapsed.Milliseconds())}
	s.Properties = &junit.Properties{Props: []junit.Property{
		{Name: "seeds_run", Value: strconv.FormatUint(r.SeedsRun, 10)},
		{Name: "shard", Value: junit.Safe(shard)},
		{Name: "covered", Value: RangesString(r.Covered)},
	}}
	for _, cr := range r.Corpus {
		c := junit.Case{Name: junit.Safe(corpusName(cr.File)), Classname: class, Time: "0.000"}
		out := junit.Text(junit.Safe(cr.File + "\nreplay: " + cr.Replay))
		c.SystemOut = &out
		if cr.Failed() {
			c.Failure = &junit.Outcome{Message: junit.ShortMessage(cr.Message), Type: cr.Invariant,
				Text: cr.Invariant + ": " + cr.Message + "\nreplay: " + cr.Replay + "\n"}
			s.Failures++
		}
		s.Cases = append(s.Cases, c)
	}
	for _, f := range r.Failures {
		c := junit.Case{Name: "seed " + strconv.FormatUint(f.Seed, 10), Classname: class, Time: "0.000"}
		text := f.Invariant + ": " + f.Message + "\n"
		if f.File != "" {
			text += "wrote " + f.File + "\nreplay: " + replay(f) + "\n"
		}
		if f.WriteErr != "" {
			text += "not written: " + f.WriteErr + "\n"
		}
		c.Failure = &junit.Outcome{Message: junit.ShortMessage(f.Message), Type: f.Invariant, Text: text}
		s.Failures++
		s.Cases = append(s.Cases, c)
	}
	camp := junit.Case{Name: "campaign", Classname: class, Time: s.Time}
	summary := junit.Text(fmt.Sprintf("%d seeds, %d failures", r.SeedsRun, len(r.Failures)))
	camp.SystemOut = &summary
	switch {
	case len(r.Missing) > 0:
		camp.Error = &junit.Outcome{Message: "shards missing: " + strings.Join(r.Missing, ", "), Type: "missing-shard"}
		s.Errors++
	case r.Interrupted:
		camp.Error = &junit.Outcome{Message: "interrupted before every seed ran", Type: "interrupted"}
		s.Errors++
	}
	s.Cases = append(s.Cases, camp)
	s.Tests = len(s.Cases)
	return junit.Suites{Name: command, Tests: s.Tests, Failures: s.Failures, Errors: s.Errors, Time: s.Time, Suites: []junit.Suite{s}}
}
