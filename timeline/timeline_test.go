package timeline_test

import (
	"bytes"
	"encoding/xml"
	"io"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/twosettle/twosettle/harness"
	"github.com/twosettle/twosettle/timeline"
)

// page runs a scenario through the harness (as simrun timeline does) and renders it.
func page(t *testing.T, e harness.Entry, mutant string) (*harness.Result, []byte) {
	t.Helper()
	opts := harness.DefaultOptions()
	opts.Mutant = mutant
	r := harness.RunEntry(e, opts)
	if r.Invalid != nil {
		t.Fatalf("%s: %v", e.Path, r.Invalid)
	}
	in := timeline.Input{Scenario: r.Scenario.Name, Summary: r.Scenario.Summary, Seed: r.Seed, Mutant: mutant, Trace: r.Trace}
	if r.Verdict != nil {
		in.Verdict = r.Verdict.Text
	}
	return r, timeline.Render(in)
}

// elem is one parsed element: its name, attributes and text.
type elem struct {
	name  string
	attrs map[string]string
	text  string
	depth int
}

// parse checks the page is well-formed XML (strict: every tag closed, every entity an
// XML one) and returns its elements in document order.
func parse(t *testing.T, page []byte) []elem {
	t.Helper()
	d := xml.NewDecoder(bytes.NewReader(page))
	d.Strict = true
	var out []elem
	var stack []int
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("the page is not well-formed: %v", err)
		}
		switch x := tok.(type) {
		case xml.StartElement:
			e := elem{name: x.Name.Local, attrs: map[string]string{}, depth: len(stack)}
			for _, a := range x.Attr {
				e.attrs[a.Name.Local] = a.Value
			}
			out = append(out, e)
			stack = append(stack, len(out)-1)
		case xml.EndElement:
			stack = stack[:len(stack)-1]
		case xml.CharData:
			if len(stack) > 0 {
				out[stack[len(stack)-1]].text += string(x)
			}
		}
	}
	if len(stack) != 0 {
		t.Fatalf("%d elements left open", len(stack))
	}
	return out
}

func with(es []elem, name, attr string) []elem {
	var out []elem
	for _, e := range es {
		if e.name == name {
			if _, ok := e.attrs[attr]; ok || attr == "" {
				out = append(out, e)
			}
		}
	}
	return out
}

// selfContained fails unless the page references nothing outside itself: its one script
// is the inline one the package writes (no src), its only URLs are in-page fragments
// (url(#…), href="#…") and the SVG namespace.
func selfContained(t *testing.T, name string, pg []byte) {
	t.Helper()
	if n := bytes.Count(pg, []byte("<script")); n != 1 || !bytes.Contains(pg, []byte("<script>//<![CDATA[\n")) {
		t.Fatalf("%s: %d script elements, or not the inline one", name, n)
	}
	for _, bad := range []string{"http://", "https://", "@import", "url(", " src=\"", "href=\"", "//<![CDATA["} {
		for i := 0; ; {
			j := bytes.Index(pg[i:], []byte(bad))
			if j < 0 {
				break
			}
			rest := string(pg[i+j:])
			ok := strings.HasPrefix(rest, "http://www.w3.org/2000/svg") || strings.HasPrefix(rest, "url(#") ||
				strings.HasPrefix(rest, "href=\"#") || strings.HasPrefix(rest, "//<![CDATA[\n(function")
			if !ok {
				t.Fatalf("%s: the page is not self-contained: %q at %d", name, bad, i+j)
			}
			i += j + len(bad)
		}
	}
}

func TestLibraryTimelinesAreWellFormedAndDeterministic(t *testing.T) {
	entries := harness.Library("")
	if len(entries) < 50 {
		t.Fatalf("only %d library scenarios", len(entries))
	}
	for _, e := range entries {
		r, a := page(t, e, "")
		_, b := page(t, e, "")
		if !bytes.Equal(a, b) {
			t.Fatalf("%s: two renders of the same run differ", e.Path)
		}
		es := parse(t, a)
		if n := len(with(es, "svg", "")); n != 1 {
			t.Fatalf("%s: %d svg elements", e.Path, n)
		}
		selfContained(t, e.Path, a)
		// every record has its mark (a title with its canonical line) and its line
		marks := 0
		for _, x := range with(es, "a", "href") {
			_ = x
			marks++
		}
		if marks < len(r.Trace.Records) {
			t.Fatalf("%s: %d links for %d records", e.Path, marks, len(r.Trace.Records))
		}
		want := `class="verdict none"`
		if r.Verdict != nil {
			want = `class="verdict ` + r.Verdict.Status + `"`
		}
		if !bytes.Contains(a, []byte(want)) {
			t.Fatalf("%s: no verdict in the header", e.Path)
		}
	}
}

const twoCalls = `name: hostile-two-calls
summary: Three clients, two calls, one question text that is an HTML injection attempt.
mode: timed
timeout: 3
clients:
  a: {latency: 10ms}
  b: {latency: 10ms}
  c: {latency: 10ms}
steps:
  - {at: 0s, model: {prompt: "go </title><script>alert(1)</script>"}}
  - {at: 0s, model: header}
  - {at: 0s, model: {call: c1, ask: [{id: q, question: "<script>alert('x')</script> & \"more\""}]}}
  - {at: 1s, a: focus}
  - {at: 1s, b: focus}
  - {at: 2s, a: {type: hi}}
  - {at: 2s, a: submit}
  - {at: 3s, model: {prompt: again}}
  - {at: 3s, model: {call: c2, ask: [{id: q, question: "Second?"}]}}
  - {at: 3.5s, net: {disconnect: c}}
`

func TestLanesBarsClaimsAndEscaping(t *testing.T) {
	dir := t.TempDir()
	path := dir + "/hostile-two-calls.yaml"
	if err := os.WriteFile(path, []byte(twoCalls), 0o644); err != nil {
		t.Fatal(err)
	}
	r, pg := page(t, harness.FileEntry(path, []byte(twoCalls)), "")
	es := parse(t, pg)
	var lanes []string
	for _, e := range with(es, "g", "data-actor") {
		lanes = append(lanes, e.attrs["data-actor"])
	}
	if strings.Join(lanes, " ") != "host a b c model sim" && strings.Join(lanes, " ") != "host a b c model net sim" {
		t.Fatalf("lanes %q", lanes)
	}
	calls := map[string]string{}
	for _, e := range with(es, "g", "data-call") {
		if _, dup := calls[e.attrs["data-call"]]; dup {
			t.Fatalf("two bars for %s", e.attrs["data-call"])
		}
		calls[e.attrs["data-call"]] = e.attrs["data-states"]
	}
	if len(calls) != 2 || calls["s1/c1"] != "open settled" || !strings.HasPrefix(calls["s1/c2"], "open") {
		t.Fatalf("bars %v\n%s", calls, r.Transcript)
	}
	claims := map[string]bool{}
	for _, e := range with(es, "rect", "data-client") {
		claims[e.attrs["data-client"]] = true
	}
	if !claims["a"] || !claims["b"] {
		t.Fatalf("claims by %v", claims)
	}
	// hostile text: escaped everywhere, present as text
	selfContained(t, "hostile-two-calls", pg)
	if !bytes.Contains(pg, []byte("&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; &quot;more&quot;")) {
		t.Fatal("the question text is not escaped")
	}
	found := false
	for _, e := range es {
		if strings.Contains(e.text, "<script>alert('x')</script>") {
			found = true
		}
	}
	if !found {
		t.Fatal("the question text does not read back as text")
	}
}

func TestAViolationIsHighlighted(t *testing.T) {
	path := "../killmatrix/testdata/witness/cancel-to-winner.yaml"
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	r, pg := page(t, harness.FileEntry(path, data), "cancel-to-winner")
	if r.Verdict == nil || r.Verdict.Status != "violation" {
		t.Fatalf("the witness does not fail: %+v", r.Verdict)
	}
	es := parse(t, pg)
	var box, hit string
	for _, e := range es {
		if e.name == "div" && e.attrs["class"] == "verdict violation" {
			box = e.text
			for _, x := range es {
				if x.depth > e.depth && x.name == "b" {
					box += " " + x.text
				}
			}
		}
		if e.name == "div" && e.attrs["class"] == "hit" {
			hit = e.attrs["id"]
		}
	}
	if !strings.Contains(box, "INV-GW-CANCEL") || hit != "r0030" {
		t.Fatalf("verdict box %q, highlighted record %q", box, hit)
	}
	if len(with(es, "circle", "class")) == 0 || !bytes.Contains(pg, []byte(`class="ring hit"`)) || !bytes.Contains(pg, []byte(`class="viol"`)) {
		t.Fatal("the violating record's mark is not ringed, or no rule at its time")
	}
	// the same scenario on the correct engine: ok
	_, pg = page(t, harness.FileEntry(path, data), "")
	if !bytes.Contains(pg, []byte(`class="verdict ok"`)) || bytes.Contains(pg, []byte(`class="ring hit"`)) {
		t.Fatal("the correct engine's page is not ok")
	}
}

func TestNoTraceStillRenders(t *testing.T) {
	pg := timeline.Render(timeline.Input{Scenario: "<empty>"})
	es := parse(t, pg)
	if len(with(es, "svg", "")) != 1 || !bytes.Contains(pg, []byte("no oracle verdict")) || !bytes.Contains(pg, []byte("&lt;empty&gt;")) {
		t.Fatalf("%s", pg)
	}
}

func inputOf(r *harness.Result, mutant string) timeline.Input {
	in := timeline.Input{Scenario: r.Scenario.Name, Summary: r.Scenario.Summary, Seed: r.Seed, Mutant: mutant, Trace: r.Trace}
	if r.Verdict != nil {
		in.Verdict = r.Verdict.Text
	}
	return in
}

func TestTwoRunsOnOneAxis(t *testing.T) {
	path := "../killmatrix/testdata/witness/cancel-to-winner.yaml"
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	ok, _ := page(t, harness.FileEntry(path, data), "")
	bad, _ := page(t, harness.FileEntry(path, data), "cancel-to-winner")
	t.Run("identical runs: no divergence, said so", func(t *testing.T) {
		pg, differ := timeline.RenderAgainst(inputOf(ok, ""), inputOf(ok, ""))
		es := parse(t, pg)
		selfContained(t, "identical", pg)
		if differ || !bytes.Contains(pg, []byte(`class="divergence same"`)) || bytes.Contains(pg, []byte(`class="divrule"`)) {
			t.Fatalf("identical runs: differ=%v", differ)
		}
		if n := len(with(es, "g", "data-actor")); n != 2*3 {
			t.Fatalf("%d lanes for two runs of three actors", n)
		}
	})
	t.Run("GW-9 the mutant's extra cancel is the first divergent record, ringed and ruled in both runs", func(t *testing.T) {
		pg, differ := timeline.RenderAgainst(inputOf(ok, ""), inputOf(bad, "cancel-to-winner"))
		es := parse(t, pg)
		selfContained(t, "against", pg)
		if !differ {
			t.Fatal("no divergence")
		}
		var divs []string
		for _, e := range es {
			if e.name == "div" && slices.Contains(strings.Fields(e.attrs["class"]), "div") {
				divs = append(divs, e.attrs["id"])
			}
		}
		if strings.Join(divs, " ") != "ar0030 br0030" {
			t.Fatalf("divergent records %v", divs)
		}
		if bytes.Count(pg, []byte(`class="divring"`)) != 2 || bytes.Count(pg, []byte(`class="divrule"`)) != 2 {
			t.Fatal("the divergent record is not ringed and ruled in both runs")
		}
		var box string
		for _, e := range es {
			if e.name == "span" && (e.attrs["class"] == "minus" || e.attrs["class"] == "plus") {
				box += e.text + "\n"
			}
		}
		if !strings.Contains(box, "- A 0030 t=1977 host out append s1 #6") || !strings.Contains(box, "+ B 0030 t=1977 host out send a.1 cancel ev=e1") {
			t.Fatalf("divergence box:\n%s", box)
		}
		// both verdicts, labelled
		if !bytes.Contains(pg, []byte("<b>A oracle: ok</b>")) || !bytes.Contains(pg, []byte("<b>B oracle: violation</b>")) {
			t.Fatal("the two verdicts are not both shown")
		}
	})
	t.Run("a run that ends early and a final state that differs", func(t *testing.T) {
		short := *ok.Trace
		short.Records = short.Records[:20]
		pg, differ := timeline.RenderAgainst(inputOf(ok, ""), timeline.Input{Scenario: "short", Trace: &short})
		parse(t, pg)
		if !differ || !bytes.Contains(pg, []byte("B has no record 20 (its run ended)")) || bytes.Count(pg, []byte(`class="divrule"`)) != 2 {
			t.Fatal("a shorter run's missing record is not shown")
		}
		final := *ok.Trace
		final.Final.Time++
		pg, differ = timeline.RenderAgainst(inputOf(ok, ""), timeline.Input{Scenario: "final", Trace: &final})
		parse(t, pg)
		if !differ || !bytes.Contains(pg, []byte("the final state</b>, line 1")) {
			t.Fatal("a final-state divergence is not shown")
		}
	})
}

// Everything new on the page that comes from a scenario or a host (the host command, the
// scenario names of two runs, the divergent transcript lines, a client name on its clock
// line) is escaped, and reads back as the same text.
func TestNewContentIsEscaped(t *testing.T) {
	dir := t.TempDir()
	path := dir + "/hostile-two-calls.yaml"
	other := strings.Replace(twoCalls, "go </title>", "went </title>", 1)
	r, _ := page(t, harness.FileEntry(path, []byte(twoCalls)), "")
	r2, _ := page(t, harness.FileEntry(path, []byte(other)), "")
	a, b := inputOf(r, ""), inputOf(r2, "")
	a.Host = `node <img src=x onerror=alert(1)> "host.js"`
	b.Scenario = `<script>alert("b")</script>`
	for name, pg := range map[string][]byte{"one": timeline.Render(a), "two": func() []byte { p, _ := timeline.RenderAgainst(a, b); return p }()} {
		es := parse(t, pg)
		selfContained(t, name, pg)
		if bytes.Contains(pg, []byte("<img")) || bytes.Contains(pg, []byte(`<script>alert`)) {
			t.Fatalf("%s: raw markup from the input", name)
		}
		texts := ""
		for _, e := range es {
			texts += e.text + "\n"
		}
		if !strings.Contains(texts, `host node <img src=x onerror=alert(1)> "host.js"`) {
			t.Fatalf("%s: the host command does not read back as text", name)
		}
		if name == "two" && (!strings.Contains(texts, `<script>alert("b")</script>`) || !strings.Contains(texts, `+ B 0001 t=0 host in send s1 next-turn "went </title><script>alert(1)</script>"`)) {
			t.Fatalf("%s: the scenario name or the divergent line does not read back as text", name)
		}
	}
}
