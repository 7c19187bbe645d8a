package timeline_test

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/twosettle/twosettle/harness"
	"github.com/twosettle/twosettle/timeline"
)

// A bar on a call's row starts and ends at the records that start and end it, each at its
// own slot of its instant's sequence sub-axis, not at the first slot of the instant: in a
// race settled inside one instant the answer, the claims' ends, the wait's close and the
// settlement then read left to right in the order they happened.
func TestCallRowsStandAtTheirRecordsInsideAnInstant(t *testing.T) {
	_, pg := page(t, libraryEntry(t, "multi2-a-answer-before-b-answer-after"), "")
	es := parse(t, pg)
	markX := map[string]float64{}
	for _, e := range with(es, "g", "data-r") {
		if e.attrs["class"] == "mk" {
			markX[e.attrs["data-r"]] = num(t, e.attrs["data-x"])
		}
	}
	t.Run("WAIT-2 every phase, claim and end of a call's row starts at its record's mark", func(t *testing.T) {
		n := 0
		for _, e := range es {
			cls := e.attrs["class"]
			if !strings.HasPrefix(cls, "ph ") && cls != "claim" && !strings.HasPrefix(cls, "end ") {
				continue
			}
			x, ok := markX[e.attrs["data-r"]]
			if !ok {
				continue // a state only the final state showed
			}
			n++
			if got := num(t, e.attrs["data-x"]); got != x {
				t.Errorf("%s of %s at x=%v, its record's mark at x=%v", cls, e.attrs["data-r"], got, x)
			}
		}
		if n < 4 {
			t.Fatalf("only %d call-row elements checked", n)
		}
	})
	t.Run("GW-1 CLAIM-2 the answer, then both claims end, then the wait closes, then the call settles, in one instant", func(t *testing.T) {
		var answer, closed, settled float64
		var claimEnds []float64
		for i, e := range es {
			switch cls := e.attrs["class"]; {
			case cls == "pt" && i+1 < len(es) && es[i+1].attrs["class"] == "ans":
				answer = num(t, e.attrs["data-x"])
			case cls == "claim":
				claimEnds = append(claimEnds, num(t, e.attrs["data-x2"]))
			case cls == "cls":
				closed = num(t, e.attrs["data-x"]) + 1 // its 2 px mark's middle
			case cls == "end settled":
				settled = num(t, e.attrs["data-x"])
			}
		}
		if answer == 0 || closed == 0 || settled == 0 || len(claimEnds) != 2 {
			t.Fatalf("answer %v, claims ending at %v, closed %v, settled %v", answer, claimEnds, closed, settled)
		}
		for _, x := range claimEnds {
			if !(answer < x && x < closed) {
				t.Errorf("a claim ends at x=%v, not between the answer (%v) and the wait's close (%v)", x, answer, closed)
			}
		}
		if !(closed < settled) {
			t.Errorf("the wait closes at x=%v, not before the settlement at x=%v", closed, settled)
		}
	})
}

func num(t *testing.T, s string) float64 {
	t.Helper()
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		t.Fatalf("not a number: %q", s)
	}
	return f
}

// faultsAtTheEnd has two faults in the run's last instant on clients with long names:
// their labels would run past the picture's right edge.
const faultsAtTheEnd = `name: faults-at-the-end
summary: Two disconnects in the run's last instant, their labels at the right edge.
mode: timed
timeout: 5
clients:
  laptop-in-the-kitchen: {latency: 10ms}
  phone-on-the-train: {latency: 10ms}
steps:
  - {at: 0s, model: {prompt: Set up the project}}
  - {at: 1s, net: {disconnect: laptop-in-the-kitchen}}
  - {at: 1s, net: {disconnect: phone-on-the-train}}
`

func faultsAtTheEndPage(t *testing.T) []byte {
	t.Helper()
	path := filepath.Join(t.TempDir(), "faults-at-the-end.yaml")
	if err := os.WriteFile(path, []byte(faultsAtTheEnd), 0o644); err != nil {
		t.Fatal(err)
	}
	_, pg := page(t, harness.FileEntry(path, []byte(faultsAtTheEnd)), "")
	return pg
}

// A fault label that would run past the picture's right edge ends at its rule instead,
// so it is read whole (the script does the same at every zoom).
func TestFaultLabelsStayInsideThePicture(t *testing.T) {
	es := parse(t, faultsAtTheEndPage(t))
	width := num(t, with(es, "svg", "id")[0].attrs["width"])
	n := 0
	for _, e := range es {
		if e.attrs["class"] != "fl" {
			continue
		}
		n++
		label := e.text // its own text; the title is a child element
		x, w := num(t, e.attrs["x"]), float64(len([]rune(label)))*5.6
		from, to := x, x+w
		if e.attrs["text-anchor"] == "end" {
			from, to = x-w, x
		}
		if from < 0 || to > width {
			t.Errorf("fault label %q spans x=%v..%v, outside the picture's 0..%v", label, from, to, width)
		}
	}
	if n != 2 {
		t.Fatalf("%d fault labels, want 2", n)
	}
}

// Each widened instant has a bracket on the sequence sub-axis, from its first record's
// slot to its last, labelled with its instant and its number of records.
func TestBusyInstantsAreBracketed(t *testing.T) {
	r, pg := page(t, libraryEntry(t, "multi2-a-answer-before-b-answer-after"), "")
	per := map[int64]int{}
	for _, rec := range r.Trace.Records {
		per[rec.Time]++
	}
	es := parse(t, pg)
	markX := map[string]float64{}
	for _, e := range with(es, "g", "data-r") {
		if e.attrs["class"] == "mk" {
			markX[e.attrs["data-r"]] = num(t, e.attrs["data-x"])
		}
	}
	var got []string
	for _, e := range es {
		if e.attrs["class"] == "subl" {
			got = append(got, e.text+" from "+e.attrs["data-x"]+" to "+e.attrs["data-x2"])
		}
	}
	var want []string
	first := map[int64]int{}
	for i, rec := range r.Trace.Records {
		if _, ok := first[rec.Time]; !ok {
			first[rec.Time] = i
		}
		if n := per[rec.Time]; n > 1 && (i+1 == len(r.Trace.Records) || r.Trace.Records[i+1].Time != rec.Time) {
			x0, x1 := markX[timeline.RecID(first[rec.Time])], markX[timeline.RecID(i)]
			want = append(want, timeline.FmtMs(rec.Time)+" · "+strconv.Itoa(n)+" records from "+strconv.FormatFloat(x0, 'f', 1, 64)+" to "+strconv.FormatFloat(x1, 'f', 1, 64))
		}
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") || !strings.Contains(strings.Join(got, "\n"), "3.01s · 17 records") {
		t.Fatalf("brackets:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
