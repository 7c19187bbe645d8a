package conform

import (
	"encoding/xml"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"
)

// JUnit XML, in the dialect of Jenkins' junit-10.xsd (which GitLab's and GitHub's test
// reporters read too): <testsuites> holds two <testsuite>s, "scenarios" and
// "requirements". Every string goes through encoding/xml (so <, &, " are escaped) after
// the characters XML 1.0 cannot carry at all (NUL and the other C0 controls but tab,
// newline and carriage return; U+FFFE, U+FFFF) are removed, and invalid UTF-8 is
// replaced by U+FFFD: a host's stderr cannot make the file unreadable.

type junitSuites struct {
	XMLName  xml.Name     `xml:"testsuites"`
	Name     string       `xml:"name,attr"`
	Tests    int          `xml:"tests,attr"`
	Failures int          `xml:"failures,attr"`
	Errors   int          `xml:"errors,attr"`
	Time     string       `xml:"time,attr"`
	Suites   []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name       string           `xml:"name,attr"`
	Tests      int              `xml:"tests,attr"`
	Failures   int              `xml:"failures,attr"`
	Errors     int              `xml:"errors,attr"`
	Skipped    int              `xml:"skipped,attr"`
	Time       string           `xml:"time,attr"`
	Properties *junitProperties `xml:"properties"`
	Cases      []junitCase      `xml:"testcase"`
}

type junitProperties struct {
	Props []junitProperty `xml:"property"`
}

type junitProperty struct {
	Name  string `xml:"name,attr"`
	Value string `xml:"value,attr"`
}

type junitCase struct {
	Name      string        `xml:"name,attr"`
	Classname string        `xml:"classname,attr"`
	Time      string        `xml:"time,attr"`
	Skipped   *junitOutcome `xml:"skipped"`
	Error     *junitOutcome `xml:"error"`
	Failure   *junitOutcome `xml:"failure"`
	SystemOut *junitText    `xml:"system-out"`
	SystemErr *junitText    `xml:"system-err"`
}

// junitOutcome is a <failure>, <error> or <skipped> element: a message and a type
// attribute and, for failures and errors, the details as text.
type junitOutcome struct {
	Message string
	Type    string
	Text    string
}

// MarshalXML writes the text as character data in which newlines stay newlines
// (encoding/xml's struct chardata would write them as &#xA;), escaped all the same.
func (o *junitOutcome) MarshalXML(e *xml.Encoder, start xml.StartElement) error {
	start.Attr = []xml.Attr{{Name: xml.Name{Local: "message"}, Value: xmlSafe(o.Message)}}
	if o.Type != "" {
		start.Attr = append(start.Attr, xml.Attr{Name: xml.Name{Local: "type"}, Value: xmlSafe(o.Type)})
	}
	return encodeTextElement(e, start, o.Text)
}

// junitText is <system-out> or <system-err>.
type junitText string

func (t *junitText) MarshalXML(e *xml.Encoder, start xml.StartElement) error {
	return encodeTextElement(e, start, string(*t))
}

func encodeTextElement(e *xml.Encoder, start xml.StartElement, text string) error {
	if err := e.EncodeToken(start); err != nil {
		return err
	}
	if text = xmlSafe(text); text != "" {
		if err := e.EncodeToken(xml.CharData(text)); err != nil {
			return err
		}
	}
	return e.EncodeToken(start.End())
}

// JUnit classnames of the two suites.
const (
	JUnitScenarioClass    = "conform.scenarios"
	JUnitRequirementClass = "conform.requirements"
)

// WriteJUnit writes the report as JUnit XML for CI test reporters:
//
//   - suite "scenarios": a testcase per scenario result, in the report's order (classname
//     conform.scenarios, name the scenario's name, time its DurationMs in seconds). A failed
//     one has <failure type="fail"> (message its first failed check, text every check, the
//     divergence and the replay command); a not-applicable one <skipped message="needs
//     ptc"/>; a broken one <error type="broken" message="host lost: …"> with the replay
//     command. The host log, when there is one, is the testcase's <system-err>; the path,
//     seed, covered ids and replay command are its <system-out>.
//   - suite "requirements": a testcase per row of Requirements (classname
//     conform.requirements, name the id, time 0). A failed row has <failure type="fail">
//     naming the failing scenarios and violated invariants; not-applicable, not-checked
//     and not-covered rows are <skipped> with the status and the note as message. The
//     evidence is the <system-out>.
//
// Each suite carries tests, failures, errors, skipped and time; <testsuites> carries
// tests, failures, errors and time, the attributes junit-10.xsd allows there (skipped is
// not one of them: it is on each suite). The host's identity, protocol, features and
// command are properties of the scenarios suite.
func (r *Report) WriteJUnit(w io.Writer) error { return r.writeJUnit(w, r.Requirements()) }

func (r *Report) writeJUnit(w io.Writer, rows []RequirementRow) error {
	scen := junitSuite{Name: "scenarios", Cases: make([]junitCase, 0, len(r.Scenarios))}
	scen.Properties = &junitProperties{Props: []junitProperty{
		{Name: "host.name", Value: xmlSafe(r.Host.Name)},
		{Name: "host.version", Value: xmlSafe(r.Host.Version)},
		{Name: "host.features", Value: xmlSafe(strings.Join(r.Host.Features, ","))},
		{Name: "protocol", Value: xmlSafe(r.Protocol)},
		{Name: "command", Value: xmlSafe(r.Command)},
		{Name: "notChecked", Value: xmlSafe(strings.Join(uniqueSorted(r.NotChecked), ","))},
	}}
	var totalMs int64
	for i := range r.Scenarios {
		s := &r.Scenarios[i]
		ms := max(s.DurationMs, 0)
		totalMs += ms
		c := junitCase{Name: xmlSafe(s.Name), Classname: JUnitScenarioClass, Time: seconds(ms)}
		out := scenarioSystemOut(s)
		c.SystemOut = &out
		if s.HostLog != "" && s.status() != StatusPass {
			log := junitText(s.HostLog)
			c.SystemErr = &log
		}
		switch s.status() {
		case StatusPass:
		case StatusFail:
			scen.Failures++
			c.Failure = &junitOutcome{Message: failureMessage(s), Type: "fail", Text: failureText(s)}
		case StatusNotApplicable:
			scen.Skipped++
			c.Skipped = &junitOutcome{Message: s.needsText()}
		default:
			scen.Errors++
			text := s.lostReason()
			if s.Replay != "" {
				text += "\nreplay: " + s.Replay
			}
			c.Error = &junitOutcome{Message: shortMessage("host lost: " + s.lostReason()), Type: "broken", Text: text}
		}
		scen.Cases = append(scen.Cases, c)
	}
	scen.Tests = len(scen.Cases)
	scen.Time = seconds(totalMs)

	reqs := junitSuite{Name: "requirements", Time: seconds(0), Cases: make([]junitCase, 0, len(rows))}
	for _, row := range rows {
		c := junitCase{Name: xmlSafe(row.ID), Classname: JUnitRequirementClass, Time: seconds(0)}
		out := junitText(requirementSystemOut(row))
		c.SystemOut = &out
		switch row.Status {
		case StatusPass:
		case StatusFail:
			reqs.Failures++
			c.Failure = &junitOutcome{
				Message: shortMessage("failed: " + strings.Join(row.Failed, ", ")),
				Type:    "fail",
				Text:    r.requirementFailureText(row),
			}
		default:
			reqs.Skipped++
			msg := row.Status
			if row.Note != "" {
				msg += ": " + row.Note
			}
			c.Skipped = &junitOutcome{Message: shortMessage(msg)}
		}
		reqs.Cases = append(reqs.Cases, c)
	}
	reqs.Tests = len(reqs.Cases)

	doc := junitSuites{
		Name:     "twosettle conform",
		Tests:    scen.Tests + reqs.Tests,
		Failures: scen.Failures + reqs.Failures,
		Errors:   scen.Errors + reqs.Errors,
		Time:     seconds(totalMs),
		Suites:   []junitSuite{scen, reqs},
	}
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(doc); err != nil {
		return err
	}
	if err := enc.Close(); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n")
	return err
}

// seconds formats milliseconds as seconds with three decimals ("1.250").
func seconds(ms int64) string {
	if ms < 0 {
		ms = 0
	}
	return strconv.FormatInt(ms/1000, 10) + "." + fmt.Sprintf("%03d", ms%1000)
}

// failureMessage is the first failed check of a run, and how many more there are.
func failureMessage(s *ScenarioResult) string {
	switch {
	case len(s.Failures) > 0:
		msg := s.Failures[0]
		if n := len(s.Failures) - 1; n > 0 {
			msg += fmt.Sprintf(" (and %d more)", n)
		}
		return shortMessage(msg)
	case s.Divergence != "":
		return "transcript differs from the reference"
	case len(s.Violated) > 0:
		return shortMessage("violated: " + strings.Join(s.Violated, ", "))
	}
	return "failed"
}

func failureText(s *ScenarioResult) string {
	var b strings.Builder
	for _, f := range s.Failures {
		b.WriteString(f + "\n")
	}
	if len(s.Violated) > 0 {
		b.WriteString("violated: " + strings.Join(s.Violated, ", ") + "\n")
	}
	if s.Divergence != "" {
		b.WriteString("divergence:\n" + strings.TrimRight(s.Divergence, "\n") + "\n")
	}
	if s.Replay != "" {
		b.WriteString("replay: " + s.Replay + "\n")
	}
	return b.String()
}

func scenarioSystemOut(s *ScenarioResult) junitText {
	var b strings.Builder
	if s.Path != "" {
		b.WriteString("path: " + s.Path + "\n")
	}
	b.WriteString("seed: " + strconv.FormatUint(s.Seed, 10) + "\n")
	if len(s.Covers) > 0 {
		b.WriteString("covers: " + strings.Join(s.Covers, ", ") + "\n")
	}
	if s.Replay != "" {
		b.WriteString("replay: " + s.Replay + "\n")
	}
	return junitText(b.String())
}

func requirementSystemOut(row RequirementRow) string {
	var b strings.Builder
	if row.Text != "" {
		b.WriteString(row.Text + "\n")
	}
	b.WriteString("status: " + row.Status + "\n")
	if len(row.Scenarios) > 0 {
		b.WriteString("scenarios: " + strings.Join(row.Scenarios, ", ") + "\n")
	}
	if len(row.Invariants) > 0 {
		b.WriteString("invariants: " + strings.Join(row.Invariants, ", ") + "\n")
	}
	if len(row.Checked) > 0 {
		b.WriteString("checked: " + strings.Join(row.Checked, ", ") + "\n")
	}
	if row.Note != "" {
		b.WriteString("note: " + row.Note + "\n")
	}
	return b.String()
}

// requirementFailureText names, for a failed row, each failing scenario with its first
// failed check and each violated invariant with the runs that violated it.
func (r *Report) requirementFailureText(row RequirementRow) string {
	failed := map[string]bool{}
	for _, f := range row.Failed {
		failed[f] = true
	}
	var b strings.Builder
	for i := range r.Scenarios {
		s := &r.Scenarios[i]
		if s.status() == StatusFail && failed[s.Name] && contains(s.Covers, row.ID) {
			b.WriteString("scenario " + s.Name + ": " + failureMessage(s) + "\n")
			if s.Replay != "" {
				b.WriteString("  replay: " + s.Replay + "\n")
			}
		}
	}
	for _, inv := range row.Failed {
		var in []string
		for i := range r.Scenarios {
			s := &r.Scenarios[i]
			if s.ran() && contains(s.Violated, inv) {
				in = append(in, s.Name)
			}
		}
		if len(in) > 0 {
			b.WriteString("invariant " + inv + " violated in " + strings.Join(uniqueSorted(in), ", ") + "\n")
		}
	}
	return b.String()
}

func contains(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}

// shortMessage is a message attribute: the first line of s, at most 300 characters.
func shortMessage(s string) string {
	if i := strings.IndexAny(s, "\r\n"); i >= 0 {
		s = s[:i] + " …"
	}
	if utf8.RuneCountInString(s) > 300 {
		rs := []rune(s)
		s = string(rs[:300]) + "…"
	}
	return xmlSafe(s)
}

// xmlSafe returns s as text XML 1.0 can carry: invalid UTF-8 replaced by U+FFFD, and
// the characters outside XML's Char production (C0 controls but tab, newline and
// carriage return; U+FFFE and U+FFFF) removed. encoding/xml escapes the rest.
func xmlSafe(s string) string {
	ok := utf8.ValidString(s)
	if ok {
		for _, c := range s {
			if !xmlChar(c) {
				ok = false
				break
			}
		}
	}
	if ok {
		return s
	}
	s = strings.ToValidUTF8(s, "\uFFFD")
	return strings.Map(func(c rune) rune {
		if xmlChar(c) {
			return c
		}
		return -1
	}, s)
}

func xmlChar(c rune) bool {
	return c == '\t' || c == '\n' || c == '\r' ||
		(c >= 0x20 && c <= 0xD7FF) || (c >= 0xE000 && c <= 0xFFFD) || (c >= 0x10000 && c <= 0x10FFFF)
}
