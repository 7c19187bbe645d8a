package conform

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/twosettle/twosettle/oracle"
	"github.com/twosettle/twosettle/scenarios"
)

// A small catalogue for the rules: INV-A guards, INV-B (introspection) guards
// R-2, INV-C (introspection) guards R-3.
var testCatalogue = []oracle.Invariant{
	{Name: "INV-A", Guards: []string{"R-1", "R-3"}},
	{Name: "INV-B", Guards: []string{"R-2"}, Needs: oracle.NeedsWaitNote},
	{Name: "INV-C", Guards: []string{"R-3"}, Needs: oracle.NeedsHostState},
}

var testIDs = []string{"R-1", "R-2", "R-3", "R-9"}

func rowFor(t *testing.T, rows []RequirementRow, id string) RequirementRow {
	t.Helper()
	for _, r := range rows {
		if r.ID == id {
			return r
		}
	}
	t.Fatalf("no row %s", id)
	return RequirementRow{}
}

func TestRequirementRules(t *testing.T) {
	pass := func(name string, covers ...string) ScenarioResult {
		return ScenarioResult{Name: name, Status: StatusPass, Covers: covers}
	}
	fail := func(name string, covers ...string) ScenarioResult {
		return ScenarioResult{Name: name, Status: StatusFail, Covers: covers, Failures: []string{"expectation x.yaml:1: no"}}
	}
	na := func(name string, missing []string, covers ...string) ScenarioResult {
		return ScenarioResult{Name: name, Status: StatusNotApplicable, Covers: covers, Missing: missing}
	}
	lost := func(name string, covers ...string) ScenarioResult {
		return ScenarioResult{Name: name, Status: StatusBroken, Covers: covers, Lost: "host exited"}
	}
	withViolated := func(s ScenarioResult, v ...string) ScenarioResult { s.Violated = v; return s }
	introspection := []string{"INV-B", "INV-C"}

	tests := []struct {
		name       string
		runs       []ScenarioResult
		notChecked []string
		id         string
		want       RequirementRow
	}{
		{
			name: "fail: a covering scenario failed",
			runs: []ScenarioResult{pass("b", "R-9"), fail("a", "R-9")},
			id:   "R-9",
			want: RequirementRow{Status: StatusFail, Scenarios: []string{"a", "b"}, Failed: []string{"a"}},
		},
		{
			name: "fail: a guarding invariant was violated in another scenario's run",
			runs: []ScenarioResult{pass("p", "R-1"), withViolated(fail("f"), "INV-A")},
			id:   "R-1",
			want: RequirementRow{Status: StatusFail, Scenarios: []string{"p"}, Failed: []string{"INV-A"},
				Invariants: []string{"INV-A"}, Checked: []string{"INV-A"}},
		},
		{
			name: "fail: failing scenarios then violated invariants",
			runs: []ScenarioResult{withViolated(fail("z", "R-3"), "INV-C", "INV-A"), fail("y", "R-3")},
			id:   "R-3",
			want: RequirementRow{Status: StatusFail, Scenarios: []string{"y", "z"}, Failed: []string{"y", "z", "INV-A", "INV-C"},
				Invariants: []string{"INV-A", "INV-C"}, Checked: []string{"INV-A", "INV-C"}},
		},
		{
			name: "pass: a covering scenario passed",
			runs: []ScenarioResult{pass("a", "R-9"), pass("a", "R-9")},
			id:   "R-9",
			want: RequirementRow{Status: StatusPass, Scenarios: []string{"a"}},
		},
		{
			name: "pass: a guarding invariant was checked over a run that covers something else",
			runs: []ScenarioResult{pass("other", "R-9")},
			id:   "R-1",
			want: RequirementRow{Status: StatusPass, Invariants: []string{"INV-A"}, Checked: []string{"INV-A"}},
		},
		{
			name:       "pass: one checked invariant is enough when another is not checked",
			runs:       []ScenarioResult{fail("other", "R-9")},
			notChecked: introspection,
			id:         "R-3",
			want:       RequirementRow{Status: StatusPass, Invariants: []string{"INV-A", "INV-C"}, Checked: []string{"INV-A"}},
		},
		{
			name:       "pass: a passing scenario beats an unchecked invariant",
			runs:       []ScenarioResult{pass("a", "R-2")},
			notChecked: introspection,
			id:         "R-2",
			want:       RequirementRow{Status: StatusPass, Scenarios: []string{"a"}, Invariants: []string{"INV-B"}},
		},
		{
			name:       "not-checked: its only invariant needs introspection",
			runs:       []ScenarioResult{pass("other", "R-9")},
			notChecked: introspection,
			id:         "R-2",
			want: RequirementRow{Status: StatusNotChecked, Invariants: []string{"INV-B"},
				Note: "needs introspection for INV-B"},
		},
		{
			name:       "not-checked comes before not-applicable",
			runs:       []ScenarioResult{pass("other", "R-9"), na("n", []string{"ptc"}, "R-2")},
			notChecked: introspection,
			id:         "R-2",
			want: RequirementRow{Status: StatusNotChecked, Invariants: []string{"INV-B"},
				Note: "needs introspection for INV-B; needs feature ptc"},
		},
		{
			name: "not-applicable: every covering scenario needs a missing feature",
			runs: []ScenarioResult{na("n1", []string{"ptc"}, "R-9"), na("n2", []string{"fork", "ptc"}, "R-9"), pass("other")},
			id:   "R-9",
			want: RequirementRow{Status: StatusNotApplicable, Note: "needs features fork, ptc"},
		},
		{
			name: "not-applicable: a lost run among them is no verdict",
			runs: []ScenarioResult{na("n1", []string{"ptc"}, "R-9"), lost("l", "R-9")},
			id:   "R-9",
			want: RequirementRow{Status: StatusNotApplicable, Note: "needs feature ptc; no verdict: host lost in l"},
		},
		{
			name: "not-covered: nothing covers or guards it",
			runs: []ScenarioResult{pass("other", "R-1")},
			id:   "R-9",
			want: RequirementRow{Status: StatusNotCovered, Note: "no scenario of this run covers it and no invariant guards it"},
		},
		{
			name: "not-covered: its only scenario lost the host, whose violations do not count",
			runs: []ScenarioResult{withViolated(lost("l", "R-9", "R-1"), "INV-A")},
			id:   "R-1",
			want: RequirementRow{Status: StatusNotCovered, Invariants: []string{"INV-A"}, Note: "no verdict: host lost in l"},
		},
		{
			name: "not-covered: invariants guard it but no run reached a verdict",
			runs: []ScenarioResult{na("n", []string{"ptc"}, "R-9")},
			id:   "R-1",
			want: RequirementRow{Status: StatusNotCovered, Invariants: []string{"INV-A"}, Note: "no run reached a verdict"},
		},
		{
			name: "an unknown status is a lost run, not a pass",
			runs: []ScenarioResult{{Name: "odd", Status: "passed", Covers: []string{"R-9"}}},
			id:   "R-9",
			want: RequirementRow{Status: StatusNotCovered, Note: "no verdict: host lost in odd"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rep := &Report{Scenarios: tc.runs, NotChecked: tc.notChecked}
			rows := rep.requirementRows(testIDs, testCatalogue)
			if len(rows) != len(testIDs) {
				t.Fatalf("%d rows, want %d", len(rows), len(testIDs))
			}
			for i, id := range testIDs {
				if rows[i].ID != id {
					t.Fatalf("row %d is %s, want %s", i, rows[i].ID, id)
				}
			}
			want := tc.want
			want.ID = tc.id
			for _, l := range []*[]string{&want.Scenarios, &want.Failed, &want.Invariants, &want.Checked} {
				if *l == nil {
					*l = []string{}
				}
			}
			if diff := cmp.Diff(want, rowFor(t, rows, tc.id)); diff != "" {
				t.Errorf("row (-want +got):\n%s", diff)
			}
		})
	}
}

func TestRequirementsRealCatalogue(t *testing.T) {
	ids := scenarios.RequirementIDs()
	rows := (&Report{}).Requirements()
	if len(rows) != len(ids) {
		t.Fatalf("%d rows, want %d", len(rows), len(ids))
	}
	for i, row := range rows {
		if row.ID != ids[i] || row.Status != StatusNotCovered || row.Text == "" {
			t.Fatalf("row %d of an empty report: %+v", i, row)
		}
	}

	// Introspection invariants not checked: a requirement guarded only by
	// INV-WAIT-LIFECYCLE is not-checked, with the feature named.
	var notChecked []string
	for _, inv := range oracle.Catalogue() {
		if inv.Needs == oracle.NeedsWaitNote || inv.Needs == oracle.NeedsHostState {
			notChecked = append(notChecked, inv.Name)
		}
	}
	rep := &Report{Scenarios: []ScenarioResult{{Name: "a", Status: StatusPass, Covers: []string{"WAIT-1"}}}, NotChecked: notChecked}
	only := ""
	guards := map[string][]string{}
	for _, inv := range oracle.Catalogue() {
		for _, id := range inv.Guards {
			guards[id] = append(guards[id], inv.Name)
		}
	}
	for _, id := range ids {
		if g := guards[id]; len(g) == 1 && g[0] == "INV-WAIT-LIFECYCLE" {
			only = id
			break
		}
	}
	rows = rep.Requirements()
	if w := rowFor(t, rows, "WAIT-1"); w.Status != StatusPass || !cmp.Equal(w.Scenarios, []string{"a"}) {
		t.Errorf("WAIT-1: %+v", w)
	}
	if only == "" {
		t.Skip("no requirement is guarded by INV-WAIT-LIFECYCLE alone any more")
	}
	if w := rowFor(t, rows, only); w.Status != StatusNotChecked || w.Note != "needs introspection for INV-WAIT-LIFECYCLE" {
		t.Errorf("%s: %+v", only, w)
	}
}

func TestSummaryAndConformant(t *testing.T) {
	rep := &Report{Scenarios: []ScenarioResult{
		{Name: "a", Status: StatusPass}, {Name: "b", Status: StatusPass}, {Name: "c", Status: StatusFail},
		{Name: "d", Status: StatusNotApplicable}, {Name: "e", Status: StatusBroken}, {Name: "f", Status: ""},
	}}
	if p, f, na, b := rep.Summary(); p != 2 || f != 1 || na != 1 || b != 2 {
		t.Errorf("Summary = %d, %d, %d, %d", p, f, na, b)
	}
	if rep.Conformant() {
		t.Error("a report with a failure is conformant")
	}
	for _, tc := range []struct {
		runs []ScenarioResult
		want bool
	}{
		{nil, false}, // nothing judged: no verdict, never a pass
		{[]ScenarioResult{{Status: StatusNotApplicable}}, false},
		{[]ScenarioResult{{Status: StatusPass}, {Status: StatusNotApplicable}}, true},
		{[]ScenarioResult{{Status: StatusPass}, {Status: StatusBroken}}, false},
		{[]ScenarioResult{{Status: StatusPass}, {Status: StatusFail}}, false},
		// an invariant violated in a run the lead marked pass still fails its requirements
		{[]ScenarioResult{{Status: StatusPass, Violated: []string{"INV-LOG-SEQ"}}}, false},
	} {
		if got := (&Report{Scenarios: tc.runs}).Conformant(); got != tc.want {
			t.Errorf("Conformant(%+v) = %v, want %v", tc.runs, got, tc.want)
		}
	}
}

// sampleReport has one result of each status.
func sampleReport() *Report {
	return &Report{
		Protocol: "twosettle-conform/1",
		Command:  "conform refhost --mutant late-ack",
		Host:     HostInfo{Name: "refhost", Version: "1.0", Features: []string{"direct", "fork"}},
		Scenarios: []ScenarioResult{
			{Name: "wait-expires", Path: "library/wait-expires.yaml", Seed: 1, Covers: []string{"R-1"}, Status: StatusPass, DurationMs: 12},
			{
				Name: "late-answer", Path: "library/late-answer.yaml", Seed: 7, Covers: []string{"R-9"}, Status: StatusFail,
				Failures: []string{
					"expectation library/late-answer.yaml:12: want reply true, got false",
					"transcript differs from the reference at record 0042",
				},
				Divergence: "  0041 host apply send\n> 0042 host effect reply true\n",
				Replay:     "conform --host 'conform refhost' --scenario library/late-answer.yaml --seed 7",
				HostLog:    "writing\r\nacked\n",
				DurationMs: 1500,
			},
			{Name: "ptc-sub-call", Path: "library/ptc-sub-call.yaml", Covers: []string{"R-3", "R-4"}, Status: StatusNotApplicable, Missing: []string{"ptc"}},
			{Name: "fuzz-seed-9", Seed: 9, Covers: []string{"R-6"}, Status: StatusBroken, Lost: "no reply within 5s", HostLog: "panic: \x1b[31mboom\n", DurationMs: 5000},
		},
		NotChecked: []string{"INV-C", "INV-B"},
	}
}

var sampleIDs = []string{"R-1", "R-2", "R-3", "R-4", "R-5", "R-6", "R-9"}

func TestWriteText(t *testing.T) {
	rep := sampleReport()
	var b bytes.Buffer
	if err := rep.writeText(&b, rep.requirementRows(sampleIDs, testCatalogue)); err != nil {
		t.Fatal(err)
	}
	want := `conformance of refhost 1.0 (twosettle-conform/1)
command:     conform refhost --mutant late-ack
features:    direct, fork
not checked: INV-B, INV-C

ok   wait-expires
FAIL late-answer
     expectation library/late-answer.yaml:12: want reply true, got false
     transcript differs from the reference at record 0042
     divergence:
         0041 host apply send
       > 0042 host effect reply true
     replay: conform --host 'conform refhost' --scenario library/late-answer.yaml --seed 7
     host log:
       writing
       acked
n/a  ptc-sub-call (needs ptc)
LOST fuzz-seed-9: no reply within 5s
     host log:
       panic: \x1b[31mboom

requirements: 2 pass, 1 fail, 1 not-applicable, 1 not-checked, 2 not-covered
  R-1  pass            1 scenario, 1 invariant
  R-2  not-checked     needs introspection for INV-B
  R-3  pass            1 invariant
  R-4  not-applicable  needs feature ptc
  R-5  not-covered     no scenario of this run covers it and no invariant guards it
  R-6  not-covered     no verdict: host lost in fuzz-seed-9
  R-9  fail            failed: late-answer

judged: 3 of 7 requirement ids (pass or fail); not judged: 1 not-applicable, 1 not-checked, 2 not-covered (the rows say why)

1 passed, 2 failed, 1 skipped
`
	if got := b.String(); got != want {
		t.Errorf("text (-want +got):\n%s", cmp.Diff(want, got))
	}

	// The real rendering: the same scenario part, a row per requirement id, the same last line.
	b.Reset()
	if err := rep.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	got := b.String()
	if !strings.HasPrefix(got, want[:strings.Index(want, "requirements:")]) || !strings.HasSuffix(got, "\n\n1 passed, 2 failed, 1 skipped\n") {
		t.Errorf("WriteText:\n%s", got)
	}
	rows := 0
	for _, line := range strings.Split(got, "\n") {
		if f := strings.Fields(line); len(f) >= 2 && scenarios.KnownRequirement(f[0]) && strings.HasPrefix(line, "  ") {
			rows++
		}
	}
	if n := len(scenarios.RequirementIDs()); rows != n {
		t.Errorf("%d requirement rows, want %d", rows, n)
	}
}

func TestWriteTextOnlyPasses(t *testing.T) {
	rep := &Report{Protocol: "twosettle-conform/1", Host: HostInfo{Name: "h"}, Scenarios: []ScenarioResult{
		{Name: "a", Status: StatusPass}, {Name: "b", Status: StatusPass}, {Name: "c", Status: StatusPass},
	}}
	var b bytes.Buffer
	if err := rep.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
	if last := lines[len(lines)-1]; last != "3 passed, 0 failed" {
		t.Errorf("last line %q", last)
	}
	if !rep.Conformant() {
		t.Error("only passes is not conformant")
	}
	b.Reset()
	if err := (&Report{}).WriteText(&b); err != nil || !strings.HasSuffix(b.String(), "\n0 passed, 0 failed\n") {
		t.Errorf("empty report: %v\n%s", err, b.String())
	}
}

// A host's text cannot drive the terminal or forge a line of the report (such as the
// last one that CI parses).
func TestWriteTextEscapesHostText(t *testing.T) {
	rep := &Report{Scenarios: []ScenarioResult{{
		Name:     "evil\n0 passed, 0 failed",
		Status:   StatusFail,
		Failures: []string{"bell\a and \u202e reversed and bad \xff byte"},
		HostLog:  "line\x00one\rover\n\x1b]0;title\x07",
	}}}
	var b bytes.Buffer
	if err := rep.writeText(&b, nil); err != nil {
		t.Fatal(err)
	}
	want := `conformance of (unnamed host) (protocol unknown)
features:    (none)

FAIL evil\n0 passed, 0 failed
     bell\x07 and \u202e reversed and bad \ufffd byte
     host log:
       line\x00one\rover
       \x1b]0;title\x07

0 passed, 1 failed
`
	want = strings.Replace(want, `\ufffd`, "\uFFFD", 1)
	if got := b.String(); got != want {
		t.Errorf("text (-want +got):\n%s", cmp.Diff(want, got))
	}
}

func TestWriteJSON(t *testing.T) {
	rep := sampleReport()
	var b bytes.Buffer
	if err := rep.WriteJSON(&b); err != nil {
		t.Fatal(err)
	}
	var got struct {
		Protocol   string `json:"protocol"`
		Command    string `json:"command"`
		Conformant *bool  `json:"conformant"`
		Host       struct {
			Name     string   `json:"name"`
			Version  string   `json:"version"`
			Features []string `json:"features"`
		} `json:"host"`
		Summary struct {
			Pass, Fail, NotApplicable, Broken int
		} `json:"summary"`
		RequirementSummary map[string]int `json:"requirementSummary"`
		NotChecked         []string       `json:"notChecked"`
		Scenarios          []struct {
			Name       string   `json:"name"`
			Path       string   `json:"path"`
			Seed       uint64   `json:"seed"`
			Covers     []string `json:"covers"`
			Status     string   `json:"status"`
			Missing    []string `json:"missing"`
			Failures   []string `json:"failures"`
			Violated   []string `json:"violated"`
			Divergence string   `json:"divergence"`
			Replay     string   `json:"replay"`
			HostLog    string   `json:"hostLog"`
			Lost       string   `json:"lost"`
		} `json:"scenarios"`
		Requirements []struct {
			ID, Text, Status, Note string
			Scenarios, Failed      []string
			Invariants, Checked    []string
		} `json:"requirements"`
	}
	dec := json.NewDecoder(bytes.NewReader(b.Bytes()))
	if err := dec.Decode(&got); err != nil {
		t.Fatalf("%v\n%s", err, b.String())
	}
	if got.Protocol != "twosettle-conform/1" || got.Command != rep.Command || got.Host.Name != "refhost" || got.Host.Version != "1.0" ||
		!cmp.Equal(got.Host.Features, []string{"direct", "fork"}) {
		t.Errorf("header: %+v", got)
	}
	if got.Conformant == nil || *got.Conformant {
		t.Errorf("conformant: %v", got.Conformant)
	}
	if s := got.Summary; s.Pass != 1 || s.Fail != 1 || s.NotApplicable != 1 || s.Broken != 1 {
		t.Errorf("summary: %+v", s)
	}
	if !cmp.Equal(got.NotChecked, []string{"INV-B", "INV-C"}) {
		t.Errorf("notChecked: %v", got.NotChecked)
	}
	if len(got.Scenarios) != 4 {
		t.Fatalf("%d scenarios", len(got.Scenarios))
	}
	s := got.Scenarios[1]
	if s.Name != "late-answer" || s.Seed != 7 || s.Status != StatusFail || len(s.Failures) != 2 || s.Divergence != rep.Scenarios[1].Divergence ||
		s.Replay != rep.Scenarios[1].Replay || s.HostLog != rep.Scenarios[1].HostLog || s.Violated == nil || len(s.Violated) != 0 {
		t.Errorf("scenario 1: %+v", s)
	}
	if s := got.Scenarios[2]; s.Status != StatusNotApplicable || !cmp.Equal(s.Missing, []string{"ptc"}) {
		t.Errorf("scenario 2: %+v", s)
	}
	if s := got.Scenarios[3]; s.Status != StatusBroken || s.Lost != "no reply within 5s" || s.Path != "" {
		t.Errorf("scenario 3: %+v", s)
	}
	ids := scenarios.RequirementIDs()
	if len(got.Requirements) != len(ids) {
		t.Fatalf("%d requirements, want %d", len(got.Requirements), len(ids))
	}
	total := 0
	for _, n := range got.RequirementSummary {
		total += n
	}
	if total != len(ids) {
		t.Errorf("requirementSummary %v adds up to %d, want %d", got.RequirementSummary, total, len(ids))
	}
	for i, row := range got.Requirements {
		if row.ID != ids[i] || row.Status == "" || row.Text == "" || row.Scenarios == nil || row.Invariants == nil {
			t.Errorf("requirement %d: %+v", i, row)
		}
	}

	// Key order is fixed, nothing about time is written, and the output is the same each time.
	out := b.String()
	order := []string{`"protocol"`, `"command"`, `"host"`, `"conformant"`, `"summary"`, `"requirementSummary"`, `"notChecked"`, `"scenarios"`, `"requirements"`}
	last := -1
	for _, k := range order {
		i := strings.Index(out, k)
		if i < last {
			t.Errorf("key %s out of order", k)
		}
		last = i
	}
	if strings.Contains(strings.ToLower(out), "duration") || strings.Contains(out, "1500") {
		t.Error("the JSON carries a duration")
	}
	var again bytes.Buffer
	if err := rep.WriteJSON(&again); err != nil || again.String() != out {
		t.Error("WriteJSON is not deterministic")
	}
	if !json.Valid(b.Bytes()) {
		t.Error("invalid JSON")
	}
}

func TestWriteJSONEmpty(t *testing.T) {
	var b bytes.Buffer
	if err := (&Report{}).WriteJSON(&b); err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b.Bytes(), &m); err != nil {
		t.Fatal(err)
	}
	if m["conformant"] != false || !strings.Contains(m["noVerdict"].(string), "no scenario was judged") {
		t.Errorf("an empty report judged nothing, yet: conformant %v, noVerdict %q", m["conformant"], m["noVerdict"])
	}
	for _, k := range []string{"scenarios", "notChecked"} {
		if l, ok := m[k].([]any); !ok || len(l) != 0 {
			t.Errorf("%s = %#v, want []", k, m[k])
		}
	}
}

// The two tests below came with the first version of this file (through the package's
// own NotChecked and feature names).

func rowOf(t *testing.T, rows []RequirementRow, id string) RequirementRow {
	t.Helper()
	for _, r := range rows {
		if r.ID == id {
			return r
		}
	}
	t.Fatalf("no row %s", id)
	return RequirementRow{}
}

func TestReportRequirementRows(t *testing.T) {
	rep := &Report{Protocol: Protocol, Command: "h", Host: HostInfo{Name: "h"},
		NotChecked: NotChecked(nil),
		Scenarios: []ScenarioResult{
			{Name: "a", Covers: []string{"ASK-4"}, Status: StatusPass},
			{Name: "b", Covers: []string{"GW-6"}, Status: StatusFail, Failures: []string{"x"}},
			{Name: "c", Covers: []string{"DRAFT-1"}, Status: StatusNotApplicable, Missing: []string{FeaturePTC}}, // an id no invariant guards
		}}
	rows := rep.Requirements()
	if r := rowOf(t, rows, "ASK-4"); r.Status != StatusPass {
		t.Errorf("ASK-4 covered by a passing scenario: %s", r.Status)
	}
	if r := rowOf(t, rows, "GW-6"); r.Status != StatusFail {
		t.Errorf("GW-6 covered by a failing scenario: %s", r.Status)
	}
	if r := rowOf(t, rows, "DRAFT-1"); r.Status != StatusNotApplicable {
		t.Errorf("DRAFT-1 only covered by a not-applicable scenario: %s (%s)", r.Status, r.Note)
	}
	if rep.Conformant() {
		t.Error("a report with a failure is conformant")
	}
	var text bytes.Buffer
	if err := rep.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(text.String()), "\n")
	if last := lines[len(lines)-1]; last != "1 passed, 1 failed, 1 skipped" {
		t.Errorf("last line %q", last)
	}
}

func TestReportJSONAndJUnitAreWellFormedAndEscaped(t *testing.T) {
	rep := &Report{Protocol: Protocol, Command: "h", Host: HostInfo{Name: "h"},
		Scenarios: []ScenarioResult{
			{Name: "ok-one", Covers: []string{"ASK-4"}, Status: StatusPass},
			{Name: "lost-one", Covers: []string{"GW-6"}, Status: StatusBroken, Lost: "the host <crashed> & \"died\"", HostLog: "panic\x00: boom"},
		}}
	var j bytes.Buffer
	if err := rep.WriteJSON(&j); err != nil {
		t.Fatal(err)
	}
	var parsed map[string]any
	if err := json.Unmarshal(j.Bytes(), &parsed); err != nil {
		t.Fatalf("JSON: %v\n%s", err, j.String())
	}
	if parsed["conformant"] != false {
		t.Errorf("conformant = %v", parsed["conformant"])
	}
	var x bytes.Buffer
	if err := rep.WriteJUnit(&x); err != nil {
		t.Fatal(err)
	}
	if bytes.IndexByte(x.Bytes(), 0) >= 0 {
		t.Error("a NUL reached the XML")
	}
	var suites struct {
		Suites []struct {
			Name   string `xml:"name,attr"`
			Tests  int    `xml:"tests,attr"`
			Errors int    `xml:"errors,attr"`
			Cases  []struct {
				Name  string `xml:"name,attr"`
				Error *struct {
					Message string `xml:"message,attr"`
				} `xml:"error"`
			} `xml:"testcase"`
		} `xml:"testsuite"`
	}
	if err := xml.Unmarshal(x.Bytes(), &suites); err != nil {
		t.Fatalf("XML: %v\n%s", err, x.String())
	}
	if len(suites.Suites) != 2 || suites.Suites[0].Tests != 2 || suites.Suites[0].Errors != 1 {
		t.Fatalf("suites: %+v", suites.Suites)
	}
	var lost string
	for _, c := range suites.Suites[0].Cases {
		if c.Name == "lost-one" && c.Error != nil {
			lost = c.Error.Message
		}
	}
	if !strings.Contains(lost, `<crashed> & "died"`) {
		t.Errorf("the lost host's reason did not survive escaping: %q", lost)
	}
}
