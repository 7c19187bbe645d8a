package timeline_test

import (
	"strings"
	"testing"

	"github.com/twosettle/twosettle/timeline"
)

// The notes under a run's verdict (its failed expectations, its golden's diff): a note of
// one line is a paragraph; a note of several lines folds under its first line and keeps
// its lines as lines, so a golden's diff reads as a diff and not as one paragraph.
func TestNotesOfSeveralLinesFold(t *testing.T) {
	one := "FAILED s.yaml:19:5: card c1 at 2s on a: wait differs"
	diff := "golden g.golden differs: the run departs from the golden at line 51 (record 0048):\n    0047 t=1000 a@1000 in user take-time\n  - 0048 t=2000 <a>\n  + 0048 t=5040 b@5040 in tick"
	es := parse(t, timeline.Render(timeline.Input{Scenario: "x", Notes: []string{one, diff}}))
	var got []string
	for i, e := range es {
		switch {
		case e.name == "p" && e.attrs["class"] == "notes":
			got = append(got, e.name+": "+e.text)
		case e.name == "details" && e.attrs["class"] == "notes" && i+2 < len(es):
			got = append(got, "details", es[i+1].name+": "+es[i+1].text, es[i+2].name+": "+es[i+2].text)
		}
	}
	want := []string{"p: " + one, "details", "summary: " + strings.SplitN(diff, "\n", 2)[0], "pre: " + strings.SplitN(diff, "\n", 2)[1]}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("notes:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
