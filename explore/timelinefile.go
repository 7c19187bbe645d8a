package explore

import (
	"errors"
	"strings"

	"github.com/twosettle/twosettle/fileio"
	"github.com/twosettle/twosettle/harness"
	"github.com/twosettle/twosettle/scenarios"
	"github.com/twosettle/twosettle/timeline"
)

// TimelinePath is where a written failure's timeline page goes: beside its YAML, with
// .html for .yaml.
func TimelinePath(yamlPath string) string {
	return strings.TrimSuffix(yamlPath, ".yaml") + ".html"
}

// WriteTimeline draws a written failure as its timeline page (package timeline) beside
// its YAML: the YAML decoded as simrun replay reads it, run once more through the harness
// with the campaign's mutant and host, so the page is exactly what `simrun timeline` of
// that file draws. It returns the page's path.
func WriteTimeline(yamlPath string, yaml []byte, opts Options) (string, error) {
	s, err := scenarios.Decode(yamlPath, yaml)
	if err != nil {
		return "", errors.New("the written scenario does not decode: " + err.Error())
	}
	res := &harness.Result{}
	ho := harness.DefaultOptions()
	ho.Mutant, ho.Host = opts.Mutant, opts.Host
	harness.RunScenario(res, s, ho)
	if res.Trace == nil {
		return "", errors.New("the written scenario did not run")
	}
	in := timeline.Input{Scenario: s.Name, Summary: s.Summary, Source: yamlPath, Seed: res.Seed, Mutant: opts.Mutant,
		Host: opts.ReplayHost, Trace: res.Trace}
	if res.Verdict != nil {
		in.Verdict = res.Verdict.Text
	}
	for _, f := range res.Failures {
		if res.Verdict != nil && strings.HasSuffix(f.Msg, res.Verdict.Text) {
			continue // the oracle's own failure: the verdict box shows it
		}
		in.Notes = append(in.Notes, "FAILED "+f.String())
	}
	path := TimelinePath(yamlPath)
	return path, fileio.WriteAtomic(path, timeline.Render(in))
}
