package conform

import (
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/twosettle/twosettle/oracle"
	"github.com/twosettle/twosettle/scenarios"
)

// HostInfo is what the host said of itself in its hello.
type HostInfo struct {
	Name, Version string
	Features      []string // declared features, sorted (e.g. "crash-cut","direct","fork","inbox-faults","introspection","ptc","restart","source")
	Profiles      []string // the profiles its hello offers, sorted (["host"] when it names none)
}

// Scenario statuses.
const (
	StatusPass          = "pass"
	StatusFail          = "fail"
	StatusNotApplicable = "not-applicable" // needs a feature the host did not declare
	StatusBroken        = "broken"         // the host was lost (crash, hang, protocol violation): no verdict
)

// Requirement statuses beyond pass, fail and not-applicable (see Report.Requirements).
const (
	StatusNotChecked = "not-checked" // its only evidence is invariants the host's features do not let the oracle check
	StatusNotCovered = "not-covered" // nothing in this run gave evidence for it
)

// ScenarioResult is one scenario (or one fuzz seed) run against the host.
type ScenarioResult struct {
	Name    string
	Path    string // file, "" for a generated run
	Seed    uint64
	Covers  []string // requirement ids the scenario covers
	Status  string
	Missing []string // features it needs that the host lacks (not-applicable)
	// Failures are the failed checks, one line each: "expectation file:line: …",
	// "INV-X at 0042: …" (oracle), "transcript differs from the reference at record 0042".
	Failures []string
	Violated []string // invariant names the oracle found broken
	// Divergence is the first divergent record against the reference engine's transcript
	// of the same scenario and seed, with a few lines of context ("" when identical).
	Divergence string
	Replay     string // the one command line that replays exactly this run
	HostLog    string // the tail of the host's stderr, when it matters (a failure, a lost host)
	Lost       string // why the host was lost (StatusBroken)
	DurationMs int64  // wall time of the run (not deterministic: JUnit time attribute only, not in text/JSON)
	// FailedIDs are the requirement ids the failed checks judge, when every failure
	// names its own (a difference of observable behaviour, judge.Requirements); nil: a
	// failure judges everything the scenario covers (an expectation, a refusal).
	FailedIDs []string
	// NotJudged are the expectations left out for this host, with why (unjudged).
	NotJudged []string
	// WriteThrough: the host has no write-window, and both runs were write-through.
	WriteThrough bool
	// WindowNote says why a write-through host could not run it (not-applicable).
	WindowNote string
}

// Roles: what a report judged, named in every form of it (text, JSON, JUnit).
const (
	RoleHost   = "host"   // the process was the host (the default)
	RoleClient = "client" // the process was every client of each run; the host the reference
)

// Report is a whole conformance run.
type Report struct {
	Protocol string // "twosettle-conform/1"
	Command  string // the process's command line
	// Role is what the report judged: RoleHost ("" too) or RoleClient. Host is then the
	// judged process's hello, whatever its role.
	Role      string
	Host      HostInfo
	Scenarios []ScenarioResult
	// NotChecked are invariants the host's declared features do not let the oracle check
	// (e.g. those that need "introspection"); filled by the lead's code, see Needs below.
	NotChecked []string
	// Profile is the part of the protocol judged ("" or "host": the whole host). Judged
	// are the requirement ids a profile's run judges, in the report's order
	// (ProfileRequirements; the wait profile: WaitRequirementIDs): when set, Requirements
	// has a row for exactly those ids, judged from the results' Covers only (the invariant
	// catalogue judges whole hosts); nil: every id, with the catalogue (the host profile).
	// JudgedNotes adds its note to a row (an id the profile judges only in part).
	Profile     string
	Judged      []string
	JudgedNotes map[string]string
	// Realtime is set for a run paced on a real clock (real-time mode): such a run is not
	// replayable, and every form of the report says so.
	Realtime *RealtimeInfo
	// Interrupted is a profile run stopped before its last input (Ctrl-C): not conformant.
	Interrupted bool
	// Floor are the requirement ids a run must judge (pass or fail) to give a verdict
	// (conform's library run of a whole host: Floor); nil sets none. A run that judged no
	// scenario at all never gives one.
	Floor []string
	// AllowPartial accepts a run that judged fewer ids than the floor (--allow-partial:
	// a team adopting a part on purpose); a run that judged nothing still fails.
	AllowPartial bool
}

// Vacuous says why the report judged too little to be a verdict ("" when it is one):
// no scenario ran to a pass or a failure, or ids of the floor were not judged.
func (r *Report) Vacuous() string {
	pass, fail, _, _ := r.Summary()
	if pass+fail == 0 {
		return "no " + r.unit() + " was judged (each was not applicable or lost): this is no verdict"
	}
	if len(r.Floor) == 0 || r.AllowPartial {
		return ""
	}
	missing := r.unjudgedFloor(r.Requirements())
	if len(missing) == 0 {
		return ""
	}
	return fmt.Sprintf("%d of the %d requirement ids every host is judged on were not judged (%s): this is no verdict; --allow-partial accepts a partial one", len(missing), len(r.Floor), strings.Join(missing, ", "))
}

// unjudgedFloor lists the floor's ids whose row is neither pass nor fail.
func (r *Report) unjudgedFloor(rows []RequirementRow) []string {
	status := map[string]string{}
	for _, row := range rows {
		status[row.ID] = row.Status
	}
	var out []string
	for _, id := range r.Floor {
		if st := status[id]; st != StatusPass && st != StatusFail {
			out = append(out, id)
		}
	}
	return out
}

// judgedLine is the summary of what the rows judged: "judged: 80 of 120 requirement ids
// (pass or fail); not judged: 12 not-applicable, 3 not-checked, 25 not-covered".
func judgedLine(rows []RequirementRow) string {
	judged := 0
	for _, row := range rows {
		if row.Status == StatusPass || row.Status == StatusFail {
			judged++
		}
	}
	line := fmt.Sprintf("judged: %d of %d requirement ids (pass or fail)", judged, len(rows))
	var rest []string
	for _, st := range []string{StatusNotApplicable, StatusNotChecked, StatusNotCovered} {
		n := 0
		for _, row := range rows {
			if row.Status == st {
				n++
			}
		}
		if n > 0 {
			rest = append(rest, strconv.Itoa(n)+" "+st)
		}
	}
	if len(rest) > 0 {
		line += "; not judged: " + strings.Join(rest, ", ") + " (the rows say why)"
	}
	return line
}

// RequirementRow is the verdict on one requirement id (see Report.Requirements).
type RequirementRow struct {
	ID         string
	Text       string   // the requirement's text (docs/REQUIREMENTS.md)
	Status     string   // pass | fail | not-applicable | not-checked | not-covered
	Scenarios  []string // scenarios that cover it and ran (pass/fail), sorted
	Failed     []string // those that failed, and invariants guarding it that were violated
	Invariants []string // invariants of the catalogue that guard it
	// Checked are the invariants of Invariants the oracle checked over at least one run
	// that ran (pass or fail); empty when no run ran.
	Checked []string
	Note    string // e.g. "needs feature ptc", "needs introspection for INV-WAIT-LIFECYCLE"
}

// passNote says how the run was judged when not in full: " (write-through; 2
// expectations not judged: …)", "" otherwise.
func (s *ScenarioResult) passNote() string {
	var parts []string
	if s.WriteThrough {
		parts = append(parts, "write-through")
	}
	if n := len(s.NotJudged); n > 0 {
		why := s.NotJudged[0]
		if i := strings.LastIndex(why, ": "); i >= 0 {
			why = why[i+2:]
		}
		parts = append(parts, plural(n, "expectation")+" not judged: "+why)
	}
	if len(parts) == 0 {
		return ""
	}
	return " (" + strings.Join(parts, "; ") + ")"
}

// status is a scenario's status as the report counts it: a status that is not one of the
// four is treated as broken (no verdict, and the report fails), never as a pass.
func (s *ScenarioResult) status() string {
	switch s.Status {
	case StatusPass, StatusFail, StatusNotApplicable, StatusBroken:
		return s.Status
	}
	return StatusBroken
}

// role is what r judged: "host" or "client".
func (r *Report) role() string {
	if r.Role == RoleClient {
		return RoleClient
	}
	return RoleHost
}

// lostReason is why the host was lost, with a fallback for a broken result without one.
func (s *ScenarioResult) lostReason() string {
	if s.Lost != "" {
		return s.Lost
	}
	if s.Status != StatusBroken {
		return "unknown status " + strconv.Quote(s.Status)
	}
	return "no reason given"
}

// needsText is "needs ptc" / "needs fork, ptc" for a not-applicable scenario.
func (s *ScenarioResult) needsText() string {
	if len(s.Missing) == 0 {
		return "not applicable"
	}
	if s.WindowNote != "" {
		return "needs " + strings.Join(s.Missing, ", ") + ": " + s.WindowNote
	}
	return "needs " + strings.Join(s.Missing, ", ")
}

// ran reports whether the run reached a verdict (pass or fail).
func (s *ScenarioResult) ran() bool {
	st := s.status()
	return st == StatusPass || st == StatusFail
}

// Requirements gives one row per requirement id of scenarios.Requirements(), in that
// order, judged from the scenario results, the invariant catalogue (oracle.Catalogue:
// which invariants guard which ids) and NotChecked. A run "ran" when its status is pass
// or fail; broken and not-applicable runs did not. The first rule that holds decides:
//
//  1. fail: a scenario covering the id failed, or an invariant guarding it is in the
//     Violated list of a run that ran. Failed lists those scenarios (sorted), then
//     those invariants (sorted).
//  2. pass: a scenario covering the id passed, or an invariant guarding it is not in
//     NotChecked and at least one run ran (the oracle checked it over that run).
//  3. not-checked: invariants guard it and every one of them is in NotChecked (its only
//     evidence is what the host's features do not let the oracle check). The note names
//     the feature and the invariants: "needs introspection for INV-WAIT-LIFECYCLE".
//  4. not-applicable: scenarios cover it and every one of them that is not broken was
//     not-applicable (at least one). The note names their missing features: "needs
//     feature ptc".
//  5. not-covered: anything else (no scenario of this run covers it and no invariant
//     guards it, or only lost runs and unchecked ones do). The note says which.
//
// A broken run counts as neither pass nor fail for a requirement (its Violated is
// ignored, it is no verdict); a row whose covering scenarios include lost ones says so
// in its note unless it failed. Broken runs still make the report fail (Conformant).
// Covers ids that are not requirement ids, and Violated names that are not in the
// catalogue, affect no row.
func (r *Report) Requirements() []RequirementRow {
	reqs := scenarios.Requirements()
	ids := make([]string, len(reqs))
	texts := make(map[string]string, len(reqs))
	for i, q := range reqs {
		ids[i] = q.ID
		texts[q.ID] = q.Text
	}
	catalogue := oracle.Catalogue()
	if r.Judged != nil {
		ids, catalogue = r.Judged, nil
	}
	rows := r.requirementRows(ids, catalogue)
	for i := range rows {
		rows[i].Text = texts[rows[i].ID]
		if n := r.JudgedNotes[rows[i].ID]; n != "" {
			if rows[i].Note != "" {
				rows[i].Note += "; "
			}
			rows[i].Note += n
		}
	}
	return rows
}

// requirementRows applies the rules of Requirements to the given ids and catalogue.
func (r *Report) requirementRows(ids []string, catalogue []oracle.Invariant) []RequirementRow {
	notChecked := map[string]bool{}
	for _, n := range r.NotChecked {
		notChecked[n] = true
	}
	guards := map[string][]oracle.Invariant{}
	for _, inv := range catalogue {
		for _, id := range uniqueSorted(inv.Guards) {
			guards[id] = append(guards[id], inv)
		}
	}
	anyRan := false
	violated := map[string]bool{} // invariant names violated in a run that ran
	for i := range r.Scenarios {
		s := &r.Scenarios[i]
		if !s.ran() {
			continue
		}
		anyRan = true
		for _, v := range s.Violated {
			violated[v] = true
		}
	}
	covering := map[string][]*ScenarioResult{}
	for i := range r.Scenarios {
		s := &r.Scenarios[i]
		for _, id := range uniqueSorted(append(append([]string{}, s.Covers...), s.FailedIDs...)) {
			covering[id] = append(covering[id], s)
		}
	}

	rows := make([]RequirementRow, 0, len(ids))
	for _, id := range ids {
		row := RequirementRow{ID: id, Scenarios: []string{}, Failed: []string{}, Invariants: []string{}, Checked: []string{}}
		var passed, failedScen, lost, naMissing []string
		na := 0
		for _, s := range covering[id] {
			switch s.status() {
			case StatusPass:
				passed = append(passed, s.Name)
			case StatusFail:
				// a failure that names its ids judges those only: the scenario's other
				// ids were neither passed nor failed by it
				if len(s.FailedIDs) > 0 && !has(s.FailedIDs, id) {
					continue
				}
				failedScen = append(failedScen, s.Name)
			case StatusNotApplicable:
				na++
				naMissing = append(naMissing, s.Missing...)
			default:
				lost = append(lost, s.Name)
			}
		}
		row.Scenarios = uniqueSorted(append(append([]string{}, passed...), failedScen...))
		var failedInv, unchecked []string
		for _, inv := range guards[id] {
			row.Invariants = append(row.Invariants, inv.Name)
			switch {
			case notChecked[inv.Name]:
				unchecked = append(unchecked, inv.Name)
			case anyRan:
				row.Checked = append(row.Checked, inv.Name)
			}
			if violated[inv.Name] {
				failedInv = append(failedInv, inv.Name)
			}
		}
		row.Invariants = uniqueSorted(row.Invariants)
		row.Checked = uniqueSorted(row.Checked)
		row.Failed = append(uniqueSorted(failedScen), uniqueSorted(failedInv)...)

		var notes []string
		switch {
		case len(row.Failed) > 0:
			row.Status = StatusFail
		case len(passed) > 0 || len(row.Checked) > 0:
			row.Status = StatusPass
		case len(row.Invariants) > 0 && len(unchecked) == len(row.Invariants):
			row.Status = StatusNotChecked
			notes = append(notes, uncheckedNote(unchecked, catalogue))
			if na > 0 {
				notes = append(notes, featureNote(naMissing, r.role()))
			}
		case na > 0 && na+len(lost) == len(covering[id]):
			row.Status = StatusNotApplicable
			notes = append(notes, featureNote(naMissing, r.role()))
			if len(unchecked) > 0 {
				notes = append(notes, uncheckedNote(unchecked, catalogue))
			}
		default:
			row.Status = StatusNotCovered
			switch {
			case len(lost) > 0:
			case len(covering[id]) == 0 && len(row.Invariants) == 0:
				notes = append(notes, "no "+r.unit()+" of this run covers it and no invariant guards it")
			case !anyRan:
				notes = append(notes, "no run reached a verdict")
			}
		}
		if len(lost) > 0 && row.Status != StatusFail {
			notes = append(notes, "no verdict: "+r.role()+" lost in "+strings.Join(uniqueSorted(lost), ", "))
		}
		row.Note = strings.Join(notes, "; ")
		rows = append(rows, row)
	}
	return rows
}

// featureNote is "needs feature ptc" or "needs features fork, ptc" (role names what the
// report judged when nothing is missing).
func featureNote(missing []string, role string) string {
	m := uniqueSorted(missing)
	switch len(m) {
	case 0:
		return "not applicable to this " + role
	case 1:
		return "needs feature " + m[0]
	}
	return "needs features " + strings.Join(m, ", ")
}

// uncheckedNote is "needs introspection for INV-A, INV-B", grouped by what the
// invariants need, in the order of the features' names.
func uncheckedNote(names []string, catalogue []oracle.Invariant) string {
	byNeed := map[string][]string{}
	for _, n := range names {
		need := ""
		for _, inv := range catalogue {
			if inv.Name == n {
				need = invariantFeature(inv)
				break
			}
		}
		byNeed[need] = append(byNeed[need], n)
	}
	needs := make([]string, 0, len(byNeed))
	for k := range byNeed {
		needs = append(needs, k)
	}
	sort.Strings(needs)
	parts := make([]string, 0, len(needs))
	for _, need := range needs {
		list := strings.Join(uniqueSorted(byNeed[need]), ", ")
		if need == "" {
			parts = append(parts, "not checked: "+list)
		} else {
			parts = append(parts, "needs "+need+" for "+list)
		}
	}
	return strings.Join(parts, "; ")
}

// invariantFeature names what an invariant needs as a protocol feature where there is
// one ("introspection": wait-note effects and the volatile state), else the catalogue's
// own words.
func invariantFeature(inv oracle.Invariant) string {
	switch inv.Needs {
	case oracle.NeedsWaitNote, oracle.NeedsHostState:
		return "introspection"
	}
	return inv.Needs
}

// Summary counts the scenario results by status. A result whose status is none of the
// four counts as broken.
func (r *Report) Summary() (pass, fail, na, broken int) {
	for i := range r.Scenarios {
		switch r.Scenarios[i].status() {
		case StatusPass:
			pass++
		case StatusFail:
			fail++
		case StatusNotApplicable:
			na++
		default:
			broken++
		}
	}
	return
}

// Conformant reports whether the host conforms: no scenario failed, none was broken
// (a lost host is no verdict, so it is not a pass), and no requirement failed (an
// invariant violated in a run, whatever that run's status).
func (r *Report) Conformant() bool {
	_, fail, _, broken := r.Summary()
	if fail > 0 || broken > 0 || r.Vacuous() != "" {
		return false
	}
	for _, row := range r.Requirements() {
		if row.Status == StatusFail {
			return false
		}
	}
	return true
}

// lastLine is the report's last line, "N passed, N failed[, N skipped]", where failed
// counts failed and broken scenarios and skipped the not-applicable ones.
func (r *Report) lastLine() string {
	pass, fail, na, broken := r.Summary()
	line := fmt.Sprintf("%d passed, %d failed", pass, fail+broken)
	if na > 0 {
		line += fmt.Sprintf(", %d skipped", na)
	}
	return line
}

// WriteText writes the report for people:
//
//	conformance of refhost 1.0 (twosettle-conform/1)
//	command:     conform refhost
//	features:    direct, fork
//	not checked: INV-WAIT-LIFECYCLE
//
//	ok   a-scenario
//	FAIL b-scenario
//	     expectation b.yaml:12:5: …
//	     divergence:
//	       …
//	     replay: …
//	     host log:
//	       …
//	n/a  c-scenario (needs ptc)
//	LOST d-scenario: host exited with status 2
//
//	requirements: 1 pass, 1 fail, 1 not-applicable
//	  AGENT-1  pass            1 scenario, 2 invariants
//	  …
//
//	1 passed, 2 failed, 1 skipped
//
// Scenarios come in the order given, requirement rows in Requirements' order; the last
// line is exactly "N passed, N failed" (failed counts failed and broken scenarios), with
// ", N skipped" when some scenario was not applicable. There are no durations, so the
// same report always gives the same text. Text from the host (names, failures, its log)
// is shown with control characters escaped (\x1b), so it cannot drive the terminal or
// fake a line of the report.
func (r *Report) WriteText(w io.Writer) error { return r.writeText(w, r.Requirements()) }

func (r *Report) writeText(w io.Writer, rows []RequirementRow) error {
	var b strings.Builder
	name := r.Host.Name
	if name == "" {
		name = "(unnamed " + r.role() + ")"
	}
	if r.Host.Version != "" {
		name += " " + r.Host.Version
	}
	proto := r.Protocol
	if proto == "" {
		proto = "protocol unknown"
	}
	fmt.Fprintf(&b, "conformance of %s (%s)\n", oneLine(name), oneLine(proto))
	if r.Command != "" {
		fmt.Fprintf(&b, "command:     %s\n", oneLine(r.Command))
	}
	if r.role() == RoleClient {
		b.WriteString("judged:      the client (every client of each run, with the reference host)\n")
	}
	if r.Profile != "" && r.Profile != ProfileHost {
		fmt.Fprintf(&b, "profile:     %s\n", oneLine(r.Profile))
	}
	if r.Profile == "" || r.Profile == ProfileHost {
		// features say which scenarios apply (docs/PROTOCOL.md "Features"): a profile
		// judges none of them
		feats := "(none)"
		if len(r.Host.Features) > 0 {
			feats = strings.Join(r.Host.Features, ", ")
		}
		fmt.Fprintf(&b, "features:    %s\n", oneLine(feats))
	}
	if len(r.NotChecked) > 0 {
		fmt.Fprintf(&b, "not checked: %s\n", oneLine(strings.Join(uniqueSorted(r.NotChecked), ", ")))
	}
	if rt := r.Realtime; rt != nil {
		fmt.Fprintf(&b, "timing:      real time, NOT REPLAYABLE (tolerance %s; largest slack seen %dms)\n", rt.Tolerance, rt.MaxSlackMs)
	}

	if len(r.Scenarios) > 0 {
		b.WriteByte('\n')
	}
	const indent = "     "
	for i := range r.Scenarios {
		s := &r.Scenarios[i]
		switch s.status() {
		case StatusPass:
			fmt.Fprintf(&b, "ok   %s%s\n", oneLine(s.Name), s.passNote())
		case StatusNotApplicable:
			fmt.Fprintf(&b, "n/a  %s (%s)\n", oneLine(s.Name), oneLine(s.needsText()))
		case StatusFail:
			fmt.Fprintf(&b, "FAIL %s\n", oneLine(s.Name))
			for _, f := range s.Failures {
				writeIndented(&b, indent, f)
			}
			if len(s.Failures) == 0 && s.Divergence == "" && len(s.Violated) > 0 {
				writeIndented(&b, indent, "violated: "+strings.Join(s.Violated, ", "))
			}
			if note := s.passNote(); note != "" {
				b.WriteString(indent + "judged as" + note + "\n")
			}
			if s.Divergence != "" {
				b.WriteString(indent + "divergence:\n")
				writeIndented(&b, indent+"  ", s.Divergence)
			}
			if s.Replay != "" {
				b.WriteString(indent + "replay: " + oneLine(s.Replay) + "\n")
			}
			if s.HostLog != "" {
				b.WriteString(indent + r.role() + " log:\n")
				writeIndented(&b, indent+"  ", s.HostLog)
			}
		default:
			fmt.Fprintf(&b, "LOST %s: %s\n", oneLine(s.Name), oneLine(s.lostReason()))
			if s.Replay != "" {
				b.WriteString(indent + "replay: " + oneLine(s.Replay) + "\n")
			}
			if s.HostLog != "" {
				b.WriteString(indent + r.role() + " log:\n")
				writeIndented(&b, indent+"  ", s.HostLog)
			}
		}
	}

	if len(rows) > 0 {
		b.WriteString("\nrequirements: " + requirementCounts(rows) + "\n")
		idw := 0
		for _, row := range rows {
			idw = max(idw, len(row.ID))
		}
		for _, row := range rows {
			line := "  " + pad(row.ID, idw+2) + pad(row.Status, len(StatusNotApplicable)+2) + oneLine(rowEvidence(row, r.unit()))
			b.WriteString(strings.TrimRight(line, " ") + "\n")
		}
		b.WriteString("\n" + judgedLine(rows) + "\n")
	}
	if v := r.Vacuous(); v != "" {
		b.WriteString("\nNO VERDICT: " + v + "\n")
	}
	b.WriteString("\n" + r.lastLine() + "\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// requirementCounts is "95 pass, 1 fail, 3 not-checked, 11 not-covered" (statuses with
// no row left out).
func requirementCounts(rows []RequirementRow) string {
	order := []string{StatusPass, StatusFail, StatusNotApplicable, StatusNotChecked, StatusNotCovered}
	n := map[string]int{}
	for _, row := range rows {
		n[row.Status]++
	}
	var parts []string
	for _, st := range order {
		if n[st] > 0 {
			parts = append(parts, strconv.Itoa(n[st])+" "+st)
		}
	}
	return strings.Join(parts, ", ")
}

// unit is what one result of the report is: a Session log in the projection profile, a
// wait script in the wait profile, else a scenario.
func (r *Report) unit() string {
	switch r.Profile {
	case ProfileProjection:
		return "log"
	case ProfileWait:
		return "script"
	}
	return "scenario"
}

// rowEvidence is the last column of the requirement table: the evidence count of a pass,
// what failed, or the note.
func rowEvidence(row RequirementRow, unit string) string {
	switch row.Status {
	case StatusPass:
		var parts []string
		if n := len(row.Scenarios); n > 0 {
			parts = append(parts, plural(n, unit))
		}
		if n := len(row.Checked); n > 0 {
			parts = append(parts, plural(n, "invariant"))
		}
		s := strings.Join(parts, ", ")
		if row.Note != "" {
			s += "; " + row.Note
		}
		return s
	case StatusFail:
		return "failed: " + strings.Join(row.Failed, ", ")
	}
	return row.Note
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return strconv.Itoa(n) + " " + word + "s"
}

func pad(s string, n int) string {
	if len(s) >= n {
		return s + " "
	}
	return s + strings.Repeat(" ", n-len(s))
}

// writeIndented writes text line by line, each line prefixed, control characters
// escaped, trailing blank lines dropped.
func writeIndented(b *strings.Builder, prefix, text string) {
	text = strings.TrimRight(strings.ReplaceAll(text, "\r\n", "\n"), "\n")
	for _, line := range strings.Split(text, "\n") {
		b.WriteString(strings.TrimRight(prefix+safeText(line), " \t") + "\n")
	}
}

// oneLine makes s safe for one line of the text report: invalid UTF-8 becomes U+FFFD,
// control characters (newlines too), DEL, C1 controls and bidirectional overrides are
// escaped as \n, \x1b, \u202e.
func oneLine(s string) string { return safeText(s) }

// safeText escapes what could drive a terminal or break a line of the text report.
// Tabs stay.
func safeText(s string) string {
	clean := true
	for _, c := range s {
		if c == utf8.RuneError || (c != '\t' && unsafeRune(c)) {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		c, w := utf8.DecodeRuneInString(s[i:])
		i += w
		switch {
		case c == utf8.RuneError && w == 1:
			b.WriteRune(utf8.RuneError)
		case c == '\t':
			b.WriteByte('\t')
		case c == '\n':
			b.WriteString(`\n`)
		case c == '\r':
			b.WriteString(`\r`)
		case c < 0x80 && unsafeRune(c):
			fmt.Fprintf(&b, `\x%02x`, c)
		case unsafeRune(c):
			fmt.Fprintf(&b, `\u%04x`, c)
		default:
			b.WriteRune(c)
		}
	}
	return b.String()
}

func unsafeRune(c rune) bool {
	return c < 0x20 || c == 0x7f || (c >= 0x80 && c <= 0x9f) ||
		(c >= 0x202a && c <= 0x202e) || (c >= 0x2066 && c <= 0x2069) || c == 0x200e || c == 0x200f || c == 0x061c
}

// uniqueSorted returns a sorted copy of ss without duplicates (never nil).
func uniqueSorted(ss []string) []string {
	out := append([]string{}, ss...)
	sort.Strings(out)
	k := 0
	for i, s := range out {
		if i == 0 || s != out[k-1] {
			out[k] = s
			k++
		}
	}
	return out[:k]
}

// The JSON form of a report (WriteJSON). Keys are camelCase and come in this order;
// every key is always present (lists as [] when empty, strings as "" when absent).
//
//	protocol, command       strings, as in Report
//	role                    what was judged: "host" or "client" (Report.Role)
//	profile                 the profile judged, only when it is not the whole host
//	host | client           {name, version, features}: the judged process's hello, under
//	                          its role's name
//	conformant              bool: Report.Conformant()
//	replayable              bool: false for a real-time run (Report.Realtime)
//	realtime                {earlyMs, lateMs, maxSlackMs} of a real-time run, else null
//	summary                 {pass, fail, notApplicable, broken}: Report.Summary()
//	requirementSummary      {pass, fail, notApplicable, notChecked, notCovered}: rows per status
//	notChecked              invariant names the oracle could not check for this host, sorted
//	scenarios               [{name, path, seed, covers, status, missing, failures, violated,
//	                          divergence, replay, hostLog | clientLog, lost}], in the
//	                          report's order (the log under the role's name);
//	                          seed is an unsigned 64-bit integer; no durations
//	noVerdict               why the run judged too little to be a verdict ("" when it is
//	                          one: Report.Vacuous); conformant is then false
//	scenarios[].failedIds   the requirement ids its failures judge ([]: all it covers);
//	  .notJudged, .writeThrough  expectations left out for this host, and whether it
//	                          ran write-through (docs/PROTOCOL.md "How a run is judged")
//	requirements            [{id, text, status, scenarios, failed, invariants, checked, note}],
//	                          as Report.Requirements()
type (
	jsonReport struct {
		Protocol           string            `json:"protocol"`
		Command            string            `json:"command"`
		Role               string            `json:"role"`
		Profile            string            `json:"profile,omitempty"`
		Host               *jsonHost         `json:"host,omitempty"`
		Client             *jsonHost         `json:"client,omitempty"`
		Conformant         bool              `json:"conformant"`
		Replayable         bool              `json:"replayable"`
		Realtime           *jsonRealtime     `json:"realtime"`
		Summary            jsonSummary       `json:"summary"`
		RequirementSummary jsonReqSummary    `json:"requirementSummary"`
		NotChecked         []string          `json:"notChecked"`
		NoVerdict          string            `json:"noVerdict"`
		Scenarios          []jsonScenario    `json:"scenarios"`
		Requirements       []jsonRequirement `json:"requirements"`
	}
	jsonHost struct {
		Name     string   `json:"name"`
		Version  string   `json:"version"`
		Features []string `json:"features"`
	}
	jsonRealtime struct {
		EarlyMs    int64 `json:"earlyMs"`
		LateMs     int64 `json:"lateMs"`
		MaxSlackMs int64 `json:"maxSlackMs"`
	}
	jsonSummary struct {
		Pass          int `json:"pass"`
		Fail          int `json:"fail"`
		NotApplicable int `json:"notApplicable"`
		Broken        int `json:"broken"`
	}
	jsonReqSummary struct {
		Pass          int `json:"pass"`
		Fail          int `json:"fail"`
		NotApplicable int `json:"notApplicable"`
		NotChecked    int `json:"notChecked"`
		NotCovered    int `json:"notCovered"`
	}
	jsonScenario struct {
		Name         string   `json:"name"`
		Path         string   `json:"path"`
		Seed         uint64   `json:"seed"`
		Covers       []string `json:"covers"`
		Status       string   `json:"status"`
		Missing      []string `json:"missing"`
		Failures     []string `json:"failures"`
		Violated     []string `json:"violated"`
		Divergence   string   `json:"divergence"`
		Replay       string   `json:"replay"`
		HostLog      *string  `json:"hostLog,omitempty"`
		ClientLog    *string  `json:"clientLog,omitempty"`
		Lost         string   `json:"lost"`
		FailedIDs    []string `json:"failedIds"`
		NotJudged    []string `json:"notJudged"`
		WriteThrough bool     `json:"writeThrough"`
	}
	jsonRequirement struct {
		ID         string   `json:"id"`
		Text       string   `json:"text"`
		Status     string   `json:"status"`
		Scenarios  []string `json:"scenarios"`
		Failed     []string `json:"failed"`
		Invariants []string `json:"invariants"`
		Checked    []string `json:"checked"`
		Note       string   `json:"note"`
	}
)

func nonNil(ss []string) []string {
	if ss == nil {
		return []string{}
	}
	return ss
}

// WriteJSON writes the whole report with its requirement rows as one indented JSON
// document (the form is described at jsonReport's declaration: camelCase keys in a fixed
// order, every key present, no durations), so the same report always gives the same
// bytes. A scenario's status is written as given; summary counts an unknown one as
// broken. Invalid UTF-8 from the host becomes U+FFFD.
func (r *Report) WriteJSON(w io.Writer) error { return r.writeJSON(w, r.Requirements()) }

func (r *Report) writeJSON(w io.Writer, rows []RequirementRow) error {
	pass, fail, na, broken := r.Summary()
	out := jsonReport{
		Protocol:     r.Protocol,
		Command:      r.Command,
		Role:         r.role(),
		Profile:      r.Profile,
		Summary:      jsonSummary{Pass: pass, Fail: fail, NotApplicable: na, Broken: broken},
		NotChecked:   uniqueSorted(r.NotChecked),
		Scenarios:    make([]jsonScenario, 0, len(r.Scenarios)),
		Requirements: make([]jsonRequirement, 0, len(rows)),
	}
	hello := &jsonHost{Name: r.Host.Name, Version: r.Host.Version, Features: nonNil(r.Host.Features)}
	if r.role() == RoleClient {
		out.Client = hello
	} else {
		out.Host = hello
	}
	out.NoVerdict = r.Vacuous()
	out.Conformant = fail == 0 && broken == 0 && out.NoVerdict == ""
	out.Replayable = r.Realtime == nil
	if rt := r.Realtime; rt != nil {
		out.Realtime = &jsonRealtime{EarlyMs: rt.Early.Milliseconds(), LateMs: rt.Late.Milliseconds(), MaxSlackMs: rt.MaxSlackMs}
	}
	for _, s := range r.Scenarios {
		js := jsonScenario{
			Name: s.Name, Path: s.Path, Seed: s.Seed, Covers: nonNil(s.Covers), Status: s.Status,
			Missing: nonNil(s.Missing), Failures: nonNil(s.Failures), Violated: nonNil(s.Violated),
			Divergence: s.Divergence, Replay: s.Replay, Lost: s.Lost,
			FailedIDs: nonNil(s.FailedIDs), NotJudged: nonNil(s.NotJudged), WriteThrough: s.WriteThrough,
		}
		log := s.HostLog
		if r.role() == RoleClient {
			js.ClientLog = &log
		} else {
			js.HostLog = &log
		}
		out.Scenarios = append(out.Scenarios, js)
	}
	for _, row := range rows {
		switch row.Status {
		case StatusPass:
			out.RequirementSummary.Pass++
		case StatusFail:
			out.RequirementSummary.Fail++
			out.Conformant = false
		case StatusNotApplicable:
			out.RequirementSummary.NotApplicable++
		case StatusNotChecked:
			out.RequirementSummary.NotChecked++
		case StatusNotCovered:
			out.RequirementSummary.NotCovered++
		}
		out.Requirements = append(out.Requirements, jsonRequirement{
			ID: row.ID, Text: row.Text, Status: row.Status, Scenarios: nonNil(row.Scenarios), Failed: nonNil(row.Failed),
			Invariants: nonNil(row.Invariants), Checked: nonNil(row.Checked), Note: row.Note,
		})
	}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}
