package harness

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/twosettle/twosettle/engine/wire"
	"github.com/twosettle/twosettle/scenarios"
	"github.com/twosettle/twosettle/trace"
)

// view is what an expectation looks at: a state (a probe's snapshot or the final one)
// and the records before it.
type view struct {
	host    wire.HostState
	clients []wire.ClientState
	records []trace.Record
	when    string
}

func (r *Result) viewAt(e *scenarios.Expectation, plan *Plan) (view, bool) {
	tr := r.Trace
	if e.End {
		return view{host: tr.Final.Host, clients: tr.Final.Clients, records: tr.Records, when: "at the end"}, true
	}
	label := plan.Probes[e.At]
	for i, rec := range tr.Records {
		if rec.Kind != trace.Probe {
			continue
		}
		if snap, ok := rec.Payload.(trace.Snapshot); ok && snap.Label == label {
			return view{host: snap.Host, clients: snap.Clients, records: tr.Records[:i], when: "at " + e.At.String()}, true
		}
	}
	return view{}, false
}

func (r *Result) fail(e *scenarios.Expectation, format string, args ...any) {
	r.Failures = append(r.Failures, Failure{Pos: e.Pos, Msg: fmt.Sprintf(format, args...)})
}

func (r *Result) checkExpectations(s *scenarios.Scenario, plan *Plan) {
	if r.Verdict != nil && r.Verdict.Status == "violation" && !expectsViolation(s) {
		r.Failures = append(r.Failures, Failure{Pos: s.Pos, Msg: "the oracle found a violation:\n" + r.Verdict.Text})
	}
	first := FirstSession(s)
	for i := range s.Expect {
		e := &s.Expect[i]
		if r.unjudged != nil {
			if why := r.unjudged(e); why != "" {
				r.NotJudged = append(r.NotJudged, e.Pos.String()+": "+e.Kind+" "+e.Subject+": "+why)
				continue
			}
		}
		r.Expectations++
		v, ok := r.viewAt(e, plan)
		if !ok {
			r.fail(e, "the run ended before %s, so nothing could be seen then (the last record is at t=%d)", e.At, r.Trace.Final.Time)
			continue
		}
		session := e.Session
		if session == "" {
			session = first
		}
		r.check(e, v, session, plan)
	}
}

// expectCheck checks one expectation against what it looks at. session is the Session
// it is about (session:, or the first); plan maps clients and probe times.
type expectCheck func(r *Result, e *scenarios.Expectation, v view, session string, plan *Plan)

// expectChecks are the checks by expectation kind, one file each (expect_<kind>.go, the
// name of the scenarios file that declares the kind); TestEveryKindHasItsHarnessFile
// checks each kind the format declares has one.
var expectChecks = map[string]expectCheck{}

func registerCheck(kind string, c expectCheck) {
	if expectChecks[kind] != nil {
		panic("harness: two checks for the " + kind + " expectation")
	}
	expectChecks[kind] = c
}

func (r *Result) check(e *scenarios.Expectation, v view, session string, plan *Plan) {
	if c := expectChecks[e.Kind]; c != nil {
		c(r, e, v, session, plan)
	}
}

// whatOf names an expectation in its failures: kind, subject and when it looked.
func whatOf(e *scenarios.Expectation, v view) string { return e.Kind + " " + e.Subject + " " + v.when }

func (r *Result) checkCount(e *scenarios.Expectation, n int, what string, times []string) {
	at := ""
	if e.Time != nil {
		at = " at t=" + strconv.FormatInt(e.Time.Ms(), 10)
	}
	seen := "none"
	if len(times) > 0 {
		seen = "at t=" + strings.Join(times, ",")
	}
	switch {
	case e.Count == nil && n == 0:
		r.fail(e, "expected %s%s, found none (matches regardless of time: %s)", what, at, seen)
	case e.Count != nil && n != *e.Count:
		r.fail(e, "expected %d %s%s, found %d (matches regardless of time: %s)", *e.Count, what, at, n, seen)
	}
}

func msText(ms int64) string { return scenarios.Duration(ms).String() }

// isPending reports whether a result text is the pending result.
// checkOutcome checks pending / answers / error / text / value / contains against one
// outcome. valueText is the JSON value (result text or direct value); message is where
// contains looks.
func (r *Result) checkOutcome(e *scenarios.Expectation, what, shown string, isErr bool, code, valueText, message string) {
	switch {
	case e.Pending:
		if isErr || !wire.IsPendingResult(valueText) {
			r.fail(e, "%s: expected the pending result, got %s", what, shown)
		}
	case e.HasAns:
		want := string(wire.Answer{Answers: AnswerItems(e.Answers)}.AppendJSON(nil))
		if isErr || !jsonEqual(valueText, want) {
			r.fail(e, "%s: expected the answers %s, got %s", what, want, shown)
		}
	case e.Error != "":
		if !isErr || (e.Error != "any" && code != e.Error) {
			r.fail(e, "%s: expected an error %s, got %s", what, e.Error, shown)
		}
	case e.Text != "":
		if valueText != e.Text {
			r.fail(e, "%s: expected the text %q, got %s", what, e.Text, shown)
		}
	case e.Value != "":
		if isErr || !jsonEqual(valueText, e.Value) {
			r.fail(e, "%s: expected the value %s, got %s", what, e.Value, shown)
		}
	}
	if e.Contains != "" && !strings.Contains(message, e.Contains) {
		r.fail(e, "%s: %q is not in %s", what, e.Contains, shown)
	}
}

func jsonEqual(a, b string) bool {
	var x, y bytes.Buffer
	if json.Compact(&x, []byte(a)) != nil || json.Compact(&y, []byte(b)) != nil {
		return a == b
	}
	return x.String() == y.String()
}

func clientState(v view, e *scenarios.Expectation, plan *Plan) (wire.ClientState, bool) {
	name := e.Client
	if name == "" && len(plan.Clients) == 1 {
		name = plan.Clients[0].Name
	}
	for _, c := range v.clients {
		if c.Client == name {
			return c, true
		}
	}
	return wire.ClientState{}, false
}

// namedClient is the state of the client name (an expectation's subject).
func namedClient(v view, name string) (wire.ClientState, bool) {
	for _, c := range v.clients {
		if c.Client == name {
			return c, true
		}
	}
	return wire.ClientState{}, false
}

// matchCard reports whether a card (or draft) key is the one an expectation names: a
// call id (key question:<session>:<call>) or #N (the N-th unkeyed card, key
// question:<page>:<N>).
func cardKeyMatches(key, session, subject string) bool {
	if strings.HasPrefix(subject, "#") {
		return strings.HasSuffix(key, ":"+subject[1:]) && !strings.HasPrefix(key, "question:"+session+":")
	}
	return key == "question:"+session+":"+subject
}
