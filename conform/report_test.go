package conform

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"strings"
	"testing"
)

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
			{Name: "c", Covers: []string{"CARD-2"}, Status: StatusNotApplicable, Missing: []string{FeaturePTC}},
		}}
	rows := rep.Requirements()
	if r := rowOf(t, rows, "ASK-4"); r.Status != StatusPass {
		t.Errorf("ASK-4 covered by a passing scenario: %s", r.Status)
	}
	if r := rowOf(t, rows, "GW-6"); r.Status != StatusFail {
		t.Errorf("GW-6 covered by a failing scenario: %s", r.Status)
	}
	if r := rowOf(t, rows, "CARD-2"); r.Status != StatusNotApplicable {
		t.Errorf("CARD-2 only covered by a not-applicable scenario: %s (%s)", r.Status, r.Note)
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
