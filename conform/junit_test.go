package conform

import (
	"bytes"
	"encoding/xml"
	"strings"
	"testing"

	"github.com/twosettle/twosettle/scenarios"
)

// What a CI reporter reads of a JUnit file.
type xSuites struct {
	XMLName  xml.Name `xml:"testsuites"`
	Tests    int      `xml:"tests,attr"`
	Failures int      `xml:"failures,attr"`
	Errors   int      `xml:"errors,attr"`
	Time     string   `xml:"time,attr"`
	Suites   []xSuite `xml:"testsuite"`
}

type xSuite struct {
	Name       string `xml:"name,attr"`
	Tests      int    `xml:"tests,attr"`
	Failures   int    `xml:"failures,attr"`
	Errors     int    `xml:"errors,attr"`
	Skipped    int    `xml:"skipped,attr"`
	Time       string `xml:"time,attr"`
	Properties []struct {
		Name  string `xml:"name,attr"`
		Value string `xml:"value,attr"`
	} `xml:"properties>property"`
	Cases []xCase `xml:"testcase"`
}

type xOutcome struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr"`
	Text    string `xml:",chardata"`
}

type xCase struct {
	Name      string    `xml:"name,attr"`
	Classname string    `xml:"classname,attr"`
	Time      string    `xml:"time,attr"`
	Failure   *xOutcome `xml:"failure"`
	Error     *xOutcome `xml:"error"`
	Skipped   *xOutcome `xml:"skipped"`
	SystemOut string    `xml:"system-out"`
	SystemErr string    `xml:"system-err"`
}

func parseJUnit(t *testing.T, data []byte) xSuites {
	t.Helper()
	var doc xSuites
	dec := xml.NewDecoder(bytes.NewReader(data))
	dec.Strict = true
	if err := dec.Decode(&doc); err != nil {
		t.Fatalf("the JUnit output does not parse: %v\n%s", err, data)
	}
	return doc
}

// (tests, failures, errors, skipped) of a suite, counted from its testcases.
func countCases(s xSuite) (tests, failures, errors, skipped int) {
	for _, c := range s.Cases {
		tests++
		if c.Failure != nil {
			failures++
		}
		if c.Error != nil {
			errors++
		}
		if c.Skipped != nil {
			skipped++
		}
	}
	return
}

func TestWriteJUnit(t *testing.T) {
	rep := sampleReport()
	// A hostile host: markup in its failure, a NUL and other C0 controls in its stderr.
	rep.Scenarios[1].Failures[0] = `expectation <reply ok="yes"> & "more"`
	rep.Scenarios[1].HostLog = "before\x00after\x01\x1b[0m<tag>&amp;\n"
	rep.Scenarios[3].HostLog = "lost \x00 here \xff\n"
	rep.Scenarios[1].Violated = []string{"INV-LOG-SEQ"}
	var b bytes.Buffer
	if err := rep.WriteJUnit(&b); err != nil {
		t.Fatal(err)
	}
	raw := b.Bytes()
	if !bytes.HasPrefix(raw, []byte(xml.Header)) {
		t.Error("no XML declaration")
	}
	if bytes.IndexByte(raw, 0) >= 0 || bytes.IndexByte(raw, 0x1b) >= 0 || bytes.IndexByte(raw, 0x01) >= 0 {
		t.Error("a control character reached the XML")
	}
	doc := parseJUnit(t, raw)

	if len(doc.Suites) != 2 || doc.Suites[0].Name != "scenarios" || doc.Suites[1].Name != "requirements" {
		t.Fatalf("suites: %+v", doc.Suites)
	}
	scen, reqs := doc.Suites[0], doc.Suites[1]
	if scen.Tests != 4 || scen.Failures != 1 || scen.Errors != 1 || scen.Skipped != 1 || scen.Time != "6.512" {
		t.Errorf("scenarios suite: tests %d failures %d errors %d skipped %d time %s", scen.Tests, scen.Failures, scen.Errors, scen.Skipped, scen.Time)
	}
	for _, s := range doc.Suites {
		tests, failures, errors, skipped := countCases(s)
		if s.Tests != tests || s.Failures != failures || s.Errors != errors || s.Skipped != skipped {
			t.Errorf("suite %s says %d/%d/%d/%d, its testcases %d/%d/%d/%d", s.Name, s.Tests, s.Failures, s.Errors, s.Skipped, tests, failures, errors, skipped)
		}
	}
	if doc.Tests != scen.Tests+reqs.Tests || doc.Failures != scen.Failures+reqs.Failures || doc.Errors != scen.Errors+reqs.Errors || doc.Time != "6.512" {
		t.Errorf("testsuites: %+v", doc)
	}
	if n := len(scenarios.RequirementIDs()); reqs.Tests != n {
		t.Errorf("requirements suite has %d tests, want %d", reqs.Tests, n)
	}
	props := map[string]string{}
	for _, p := range scen.Properties {
		props[p.Name] = p.Value
	}
	if props["host.name"] != "refhost" || props["host.features"] != "direct,fork" || props["protocol"] != "twosettle-conform/1" || props["profile"] != "host" {
		t.Errorf("properties: %v", props)
	}

	pass, fail, na, lost := scen.Cases[0], scen.Cases[1], scen.Cases[2], scen.Cases[3]
	if pass.Name != "wait-expires" || pass.Classname != "conform.scenarios" || pass.Time != "0.012" || pass.Failure != nil || pass.Skipped != nil || pass.Error != nil {
		t.Errorf("pass: %+v", pass)
	}
	if fail.Failure == nil || fail.Failure.Type != "fail" || fail.Time != "1.500" {
		t.Fatalf("fail: %+v", fail)
	}
	if want := `expectation <reply ok="yes"> & "more" (and 1 more)`; fail.Failure.Message != want {
		t.Errorf("failure message %q, want %q", fail.Failure.Message, want)
	}
	for _, want := range []string{`expectation <reply ok="yes"> & "more"`, "transcript differs", "> 0042 host effect reply true", "replay: conform --host 'conform refhost'", "violated: INV-LOG-SEQ"} {
		if !strings.Contains(fail.Failure.Text, want) {
			t.Errorf("failure text lacks %q:\n%s", want, fail.Failure.Text)
		}
	}
	if want := "beforeafter[0m<tag>&amp;\n"; fail.SystemErr != want {
		t.Errorf("system-err %q, want %q", fail.SystemErr, want)
	}
	if na.Skipped == nil || na.Skipped.Message != "needs ptc" || na.Time != "0.000" {
		t.Errorf("not-applicable: %+v", na)
	}
	if lost.Error == nil || lost.Error.Message != "host lost: no reply within 5s" || lost.SystemErr != "lost  here \uFFFD\n" {
		t.Errorf("broken: %+v", lost)
	}

	byID := map[string]xCase{}
	for _, c := range reqs.Cases {
		if c.Classname != "conform.requirements" {
			t.Errorf("requirement %s classname %q", c.Name, c.Classname)
		}
		byID[c.Name] = c
	}
	// INV-LOG-SEQ was violated: the requirements it guards fail, naming it.
	for _, id := range []string{"AGENT-6", "PROJ-12"} {
		c := byID[id]
		if c.Failure == nil || !strings.Contains(c.Failure.Message, "INV-LOG-SEQ") || !strings.Contains(c.Failure.Text, "invariant INV-LOG-SEQ violated in late-answer") {
			t.Errorf("%s: %+v", id, c)
		}
	}
	// Rows that are neither pass nor fail are skipped with their status and note.
	for _, row := range rep.Requirements() {
		c := byID[row.ID]
		switch row.Status {
		case StatusPass:
			if c.Failure != nil || c.Skipped != nil {
				t.Errorf("%s passes but: %+v", row.ID, c)
			}
		case StatusFail:
			if c.Failure == nil {
				t.Errorf("%s fails but has no failure", row.ID)
			}
		default:
			if c.Skipped == nil || !strings.HasPrefix(c.Skipped.Message, row.Status) || !strings.Contains(c.Skipped.Message, row.Note) {
				t.Errorf("%s (%s, %q): %+v", row.ID, row.Status, row.Note, c)
			}
		}
	}

	var again bytes.Buffer
	if err := rep.WriteJUnit(&again); err != nil || !bytes.Equal(again.Bytes(), raw) {
		t.Error("WriteJUnit is not deterministic")
	}
}

func TestWriteJUnitRequirementStatuses(t *testing.T) {
	rep := sampleReport()
	var b bytes.Buffer
	if err := rep.writeJUnit(&b, rep.requirementRows(sampleIDs, testCatalogue)); err != nil {
		t.Fatal(err)
	}
	reqs := parseJUnit(t, b.Bytes()).Suites[1]
	want := map[string]string{ // id: "failure: message" or "skipped: message" or ""
		"R-1": "",
		"R-2": "skipped: not-checked: needs introspection for INV-B",
		"R-3": "",
		"R-4": "skipped: not-applicable: needs feature ptc",
		"R-5": "skipped: not-covered: no scenario of this run covers it and no invariant guards it",
		"R-6": "skipped: not-covered: no verdict: host lost in fuzz-seed-9",
		"R-9": "failure: failed: late-answer",
	}
	if reqs.Tests != 7 || reqs.Failures != 1 || reqs.Skipped != 4 || reqs.Errors != 0 {
		t.Errorf("requirements suite: %+v", reqs)
	}
	for _, c := range reqs.Cases {
		got := ""
		switch {
		case c.Failure != nil:
			got = "failure: " + c.Failure.Message
		case c.Skipped != nil:
			got = "skipped: " + c.Skipped.Message
		}
		if got != want[c.Name] {
			t.Errorf("%s: %q, want %q", c.Name, got, want[c.Name])
		}
	}
	if c := reqs.Cases[6]; c.Failure == nil || !strings.Contains(c.Failure.Text, "scenario late-answer: expectation library/late-answer.yaml:12") {
		t.Errorf("R-9 failure text: %+v", c.Failure)
	}
}

func TestWriteJUnitOnlyPasses(t *testing.T) {
	rep := &Report{Scenarios: []ScenarioResult{{Name: "a", Status: StatusPass, DurationMs: 1}, {Name: "b", Status: StatusPass, DurationMs: 2001}}}
	var b bytes.Buffer
	if err := rep.WriteJUnit(&b); err != nil {
		t.Fatal(err)
	}
	doc := parseJUnit(t, b.Bytes())
	if s := doc.Suites[0]; s.Tests != 2 || s.Failures != 0 || s.Errors != 0 || s.Skipped != 0 || s.Time != "2.002" {
		t.Errorf("scenarios suite: %+v", s)
	}
	if doc.Failures != 0 || doc.Errors != 0 {
		t.Errorf("testsuites: %+v", doc)
	}
}

func TestXMLSafe(t *testing.T) {
	for in, want := range map[string]string{
		"plain":             "plain",
		"a\x00b":            "ab",
		"tab\tnl\ncr\r":     "tab\tnl\ncr\r",
		"\x01\x08\x0b\x1f":  "",
		"bad\xffutf8":       "bad\uFFFDutf8",
		"\uFFFE\uFFFFok":    "ok",
		"emoji 🙂 and é":     "emoji 🙂 and é",
		"\x7f DEL is legal": "\x7f DEL is legal",
	} {
		if got := xmlSafe(in); got != want {
			t.Errorf("xmlSafe(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestSeconds(t *testing.T) {
	for ms, want := range map[int64]string{0: "0.000", 1: "0.001", 999: "0.999", 1000: "1.000", 61234: "61.234", -5: "0.000"} {
		if got := seconds(ms); got != want {
			t.Errorf("seconds(%d) = %q, want %q", ms, got, want)
		}
	}
}

// A profile's JUnit report says which part of the protocol it judged, as its text and
// JSON forms do, so a CI dashboard does not read a projection run as a whole host's.
func TestWriteJUnitNamesTheProfile(t *testing.T) {
	for _, profile := range []string{ProfileProjection, ProfileWait} {
		rep := sampleReport()
		rep.Profile = profile
		var b bytes.Buffer
		if err := rep.WriteJUnit(&b); err != nil {
			t.Fatal(err)
		}
		doc := parseJUnit(t, b.Bytes())
		got := ""
		for _, p := range doc.Suites[0].Properties {
			if p.Name == "profile" {
				got = p.Value
			}
		}
		if got != profile {
			t.Errorf("profile %s: the scenarios suite's profile property is %q", profile, got)
		}
	}
}
