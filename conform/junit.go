package conform

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/twosettle/twosettle/junit"
)

// JUnit XML through package junit (shared with simrun's --junit): <testsuites> holds two
// <testsuite>s, "scenarios" and "requirements"; junit.Safe cleans every string, so a
// host's stderr cannot make the file unreadable.

type (
	junitSuites     = junit.Suites
	junitSuite      = junit.Suite
	junitProperties = junit.Properties
	junitProperty   = junit.Property
	junitCase       = junit.Case
	junitOutcome    = junit.Outcome
	junitText       = junit.Text
)

var (
	xmlSafe      = junit.Safe
	seconds      = junit.Seconds
	shortMessage = junit.ShortMessage
)

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
//     ptc"/>; a broken one <error type="broken" message="host lost: …"> (client lost: for
//     a client) with the replay command. The process's log, when there is one, is the testcase's <system-err>; the path,
//     seed, covered ids and replay command are its <system-out>.
//   - suite "requirements": a testcase per row of Requirements (classname
//     conform.requirements, name the id, time 0). A failed row has <failure type="fail">
//     naming the failing scenarios and violated invariants; not-applicable, not-checked
//     and not-covered rows are <skipped> with the status and the note as message. The
//     evidence is the <system-out>.
//
// Each suite carries tests, failures, errors, skipped and time; <testsuites> carries
// tests, failures, errors and time, the attributes junit-10.xsd allows there (skipped is
// not one of them: it is on each suite). The role judged (host or client: Report.Role),
// the judged process's identity (role.name, role.version, role.features), protocol and
// command are properties of the scenarios suite, and so is the profile judged (host,
// projection or wait: the ids it judged are the requirements suite); a real-time run (Report.Realtime) adds
// replayable=false and realtime (its tolerance and the largest slack seen), and each of
// its failures says "not replayable".
func (r *Report) WriteJUnit(w io.Writer) error { return r.writeJUnit(w, r.Requirements()) }

func (r *Report) writeJUnit(w io.Writer, rows []RequirementRow) error {
	scen := junitSuite{Name: "scenarios", Cases: make([]junitCase, 0, len(r.Scenarios))}
	scen.Properties = &junitProperties{Props: []junitProperty{
		{Name: "role", Value: r.role()},
		{Name: r.role() + ".name", Value: xmlSafe(r.Host.Name)},
		{Name: r.role() + ".version", Value: xmlSafe(r.Host.Version)},
		{Name: r.role() + ".features", Value: xmlSafe(strings.Join(r.Host.Features, ","))},
		{Name: "protocol", Value: xmlSafe(r.Protocol)},
		{Name: "command", Value: xmlSafe(r.Command)},
		{Name: "notChecked", Value: xmlSafe(strings.Join(uniqueSorted(r.NotChecked), ","))},
		{Name: "profile", Value: xmlSafe(r.profileName())},
	}}
	if rt := r.Realtime; rt != nil {
		scen.Properties.Props = append(scen.Properties.Props,
			junitProperty{Name: "replayable", Value: "false"},
			junitProperty{Name: "realtime", Value: fmt.Sprintf("not replayable: tolerance %s; largest slack seen %dms", rt.Tolerance, rt.MaxSlackMs)})
	}
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
			c.Error = &junitOutcome{Message: shortMessage(r.role() + " lost: " + s.lostReason()), Type: "broken", Text: text}
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
	return junit.Write(w, doc)
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

// profileName is the profile a report judged, "host" when it names none.
func (r *Report) profileName() string {
	if r.Profile == "" {
		return r.role() // the whole host, or the client
	}
	return r.Profile
}
