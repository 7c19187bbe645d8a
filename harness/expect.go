package harness

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/twosettle/twosettle/engine/session"
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

func (r *Result) checkHostConfigOnly(s *scenarios.Scenario) {
	for i := range s.Expect {
		e := &s.Expect[i]
		r.Expectations++
		switch {
		case e.Kind != scenarios.ExpectHostConfig:
			r.fail(e, "%s: the host refused its configuration, so the run never started: %v", e.Kind, r.HostConfigErr)
		case e.Subject == "accepted":
			r.fail(e, "host-config: expected the host to accept its configuration, but it refused it: %v", r.HostConfigErr)
		case e.Contains != "" && !strings.Contains(r.HostConfigErr.Error(), e.Contains):
			r.fail(e, "host-config: refused as expected, but with %q, which does not contain %q", r.HostConfigErr.Error(), e.Contains)
		}
	}
	if len(s.Expect) == 0 {
		r.Failures = append(r.Failures, Failure{Pos: s.Pos, Msg: "the host refused its configuration: " + r.HostConfigErr.Error() + " (add a host-config: refused expectation if that is what the scenario shows)"})
	}
}

func (r *Result) checkExpectations(s *scenarios.Scenario, plan *Plan) {
	expectsViolation := false
	for i := range s.Expect {
		e := &s.Expect[i]
		if e.Kind == scenarios.ExpectOracle && e.Subject == "violation" {
			expectsViolation = true
		}
	}
	if r.Verdict != nil && r.Verdict.Status == "violation" && !expectsViolation {
		r.Failures = append(r.Failures, Failure{Pos: s.Pos, Msg: "the oracle found a violation:\n" + r.Verdict.Text})
	}
	first := FirstSession(s)
	for i := range s.Expect {
		e := &s.Expect[i]
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
		if e.Kind == scenarios.ExpectAgent {
			session = e.Subject
		}
		r.check(e, v, session, plan)
	}
}

func (r *Result) check(e *scenarios.Expectation, v view, session string, plan *Plan) {
	what := e.Kind + " " + e.Subject + " " + v.when
	ss, hasSession := v.host.Session(session)
	switch e.Kind {
	case scenarios.ExpectHostConfig:
		if e.Subject == "refused" {
			r.fail(e, "host-config: expected the host to refuse its configuration, but it accepted it")
		}
	case scenarios.ExpectOracle:
		switch {
		case r.Verdict == nil:
			r.fail(e, "oracle: no oracle ran")
		case r.Verdict.Status != e.Subject:
			r.fail(e, "oracle: expected %s, got:\n%s", e.Subject, r.Verdict.Text)
		case e.Contains != "" && !strings.Contains(r.Verdict.Text, e.Contains):
			r.fail(e, "oracle: %s as expected, but the verdict does not mention %q:\n%s", e.Subject, e.Contains, r.Verdict.Text)
		}
	case scenarios.ExpectToolResult:
		if !hasSession {
			r.fail(e, "%s: there is no Session %s", what, session)
			return
		}
		r.checkToolResult(e, ss, what)
	case scenarios.ExpectResult:
		r.checkServiceResult(e, v, what)
	case scenarios.ExpectReply:
		r.checkReplies(e, v, what)
	case scenarios.ExpectView, scenarios.ExpectInbox:
		if !hasSession {
			r.fail(e, "%s: there is no Session %s", e.Kind+" "+v.when, session)
			return
		}
		got := ss.Questions.String()
		if e.Kind == scenarios.ExpectInbox {
			got = ss.Inbox.String()
		}
		if got != e.Subject {
			r.fail(e, "%s of %s %s is %q, not %q", e.Kind, session, v.when, got, e.Subject)
		}
		if e.ViewQuestions != nil {
			r.checkViewQuestions(e, ss.Questions, session, v.when)
		}
	case scenarios.ExpectEvent:
		if !hasSession {
			r.fail(e, "event %s: there is no Session %s", v.when, session)
			return
		}
		n := 0
		var times []string
		for _, ev := range ss.Log {
			if !strings.HasPrefix(ev.Data.String(), e.Subject) {
				continue
			}
			times = append(times, strconv.FormatInt(ev.Time, 10))
			if e.Time == nil || ev.Time == e.Time.Ms() {
				n++
			}
		}
		r.checkCount(e, n, fmt.Sprintf("events of %s starting %q %s", session, e.Subject, v.when), times)
	case scenarios.ExpectRecord:
		n := 0
		var times []string
		var b []byte
		for _, rec := range v.records {
			if rec.Kind == trace.Probe {
				continue
			}
			b = rec.AppendTo(b[:0])
			if !bytes.Contains(b, []byte(e.Subject)) {
				continue
			}
			times = append(times, strconv.FormatInt(rec.Time, 10))
			if e.Time == nil || rec.Time == e.Time.Ms() {
				n++
			}
		}
		r.checkCount(e, n, fmt.Sprintf("records containing %q %s", e.Subject, v.when), times)
	case scenarios.ExpectHostWait:
		var w *wire.WaitState
		for i := range v.host.Waits {
			if v.host.Waits[i].Session == session && v.host.Waits[i].CallID == e.Subject {
				w = &v.host.Waits[i]
			}
		}
		switch {
		case e.None:
			if w != nil {
				r.fail(e, "%s: expected no wait, found deadline=%d claims=%d timer=%d", what, w.Deadline, w.Claims, w.TimerAt)
			}
		case w == nil:
			r.fail(e, "%s: there is no wait (waits: %s)", what, waitList(v.host.Waits))
		default:
			if e.Claims != nil && w.Claims != *e.Claims {
				r.fail(e, "%s: %d claims, not %d", what, w.Claims, *e.Claims)
			}
			if e.Deadline != nil && w.Deadline != e.Deadline.Ms() {
				r.fail(e, "%s: deadline %s, not %s", what, msText(w.Deadline), e.Deadline)
			}
			if e.Timer == "none" && w.TimerAt != -1 {
				r.fail(e, "%s: a timer is armed for %s, expected none", what, msText(w.TimerAt))
			} else if e.Timer != "" && e.Timer != "none" {
				want, _ := scenarios.ParseDuration(e.Timer)
				if w.TimerAt != want.Ms() {
					r.fail(e, "%s: timer %s, not %s", what, timerText(w.TimerAt), e.Timer)
				}
			}
		}
	case scenarios.ExpectReservation:
		var res *wire.ReservationState
		for i := range v.host.Reservations {
			if v.host.Reservations[i].Session == session && v.host.Reservations[i].CallID == e.Subject {
				res = &v.host.Reservations[i]
			}
		}
		switch {
		case e.None && res != nil:
			r.fail(e, "%s: expected no reservation, found message %s", what, res.MessageID)
		case !e.None && res == nil:
			r.fail(e, "%s: there is no reservation", what)
		case res != nil && e.Claimed != nil && (res.ClaimedTurn != -1) != *e.Claimed:
			r.fail(e, "%s: claimed-turn=%d, expected claimed=%v", what, res.ClaimedTurn, *e.Claimed)
		}
	case scenarios.ExpectAgent:
		if !hasSession {
			r.fail(e, "%s: there is no Session %s", what, session)
			return
		}
		if e.Live != nil && ss.Live != *e.Live {
			r.fail(e, "%s: live=%v", what, ss.Live)
		}
		if e.Root != nil && ss.Root != *e.Root {
			r.fail(e, "%s: root=%v", what, ss.Root)
		}
		if e.Phase != "" && ss.Phase != e.Phase {
			r.fail(e, "%s: phase %s", what, ss.Phase)
		}
	case scenarios.ExpectCard, scenarios.ExpectRow, scenarios.ExpectNode, scenarios.ExpectDraft:
		c, ok := clientState(v, e, plan)
		if !ok {
			r.fail(e, "%s: no client %s in the state", what, e.Client)
			return
		}
		switch e.Kind {
		case scenarios.ExpectCard:
			r.checkCard(e, c, session, what)
		case scenarios.ExpectRow:
			r.checkRow(e, c, session, what)
		case scenarios.ExpectNode:
			r.checkNode(e, c, session, what)
		default:
			r.checkDraft(e, c, session, what)
		}
	case scenarios.ExpectConversation:
		var c *wire.ClientState
		for i := range v.clients {
			if v.clients[i].Client == e.Subject {
				c = &v.clients[i]
			}
		}
		if c == nil {
			r.fail(e, "%s: no such client in the state", what)
			return
		}
		var lines []string
		for _, x := range c.Conversation {
			if x.Session == session {
				lines = append(lines, x.String())
			}
		}
		if e.Lines != nil && strings.Join(lines, "\n") != strings.Join(e.Lines, "\n") {
			r.fail(e, "%s: the conversation of %s is\n  %s", what, session, strings.Join(lines, "\n  "))
		}
		if e.Contains != "" && !strings.Contains(strings.Join(lines, "\n"), e.Contains) {
			r.fail(e, "%s: no entry contains %q:\n  %s", what, e.Contains, strings.Join(lines, "\n  "))
		}
	case scenarios.ExpectLink:
		var c *wire.ClientState
		for i := range v.clients {
			if v.clients[i].Client == e.Subject {
				c = &v.clients[i]
			}
		}
		if c == nil {
			r.fail(e, "%s: no such client in the state", what)
			return
		}
		if e.Connected != nil && c.Connected != *e.Connected {
			r.fail(e, "%s: connected=%v", what, c.Connected)
		}
		if e.Gen != nil && c.Gen != *e.Gen {
			r.fail(e, "%s: generation %d, not %d", what, c.Gen, *e.Gen)
		}
	}
}

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

func timerText(at int64) string {
	if at == -1 {
		return "none"
	}
	return msText(at)
}

func waitList(ws []wire.WaitState) string {
	if len(ws) == 0 {
		return "none"
	}
	var out []string
	for _, w := range ws {
		out = append(out, w.Session+"/"+w.CallID)
	}
	return strings.Join(out, ", ")
}

// lastResult finds the last tool/result of call (or the tool/ptc-dispatch of a sub-call).
func lastResult(log []session.Event, call string) (ev session.Event, isErr bool, code, text string, ok bool) {
	for _, x := range log {
		switch d := x.Data.(type) {
		case session.ToolResult:
			if d.CallID == call {
				ev, isErr, code, text, ok = x, d.IsError, d.Err.Code, d.Text, true
			}
		case session.PTCDispatch:
			if d.SubCallID == call {
				ev, isErr, code, text, ok = x, d.IsError, d.Err.Code, d.Text, true
			}
		}
	}
	return
}

func (r *Result) checkToolResult(e *scenarios.Expectation, ss wire.SessionState, what string) {
	ev, isErr, code, text, ok := lastResult(ss.Log, e.Subject)
	if e.None {
		if ok {
			r.fail(e, "%s: expected no result, found %s", what, ev.Data.String())
		}
		return
	}
	if !ok {
		r.fail(e, "%s: there is no result yet", what)
		return
	}
	r.checkOutcome(e, what, ev.Data.String(), isErr, code, text, text)
	if e.Time != nil && ev.Time != e.Time.Ms() {
		r.fail(e, "%s: the result was recorded at t=%d, not %s", what, ev.Time, e.Time)
	}
}

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

func (r *Result) checkServiceResult(e *scenarios.Expectation, v view, what string) {
	for _, rec := range v.records {
		d, ok := rec.Payload.(wire.DirectResult)
		if !ok || rec.Kind != trace.Out || d.ID != e.Subject {
			continue
		}
		if e.None {
			r.fail(e, "%s: expected no result yet, found %s", what, d.String())
			return
		}
		if e.Time != nil && rec.Time != e.Time.Ms() {
			r.fail(e, "%s: the result came at t=%d, not %s", what, rec.Time, e.Time)
		}
		code, msg := "", string(d.Value)
		if d.Err != nil {
			code, msg = d.Err.Code, d.Err.Message
		}
		r.checkOutcome(e, what, d.String(), d.Err != nil, code, string(d.Value), msg)
		return
	}
	if !e.None {
		r.fail(e, "%s: there is no result yet", what)
	}
}

func (r *Result) checkReplies(e *scenarios.Expectation, v view, what string) {
	n := 0
	var seen []string
	for _, rec := range v.records {
		d, ok := rec.Payload.(wire.Reply)
		if !ok || rec.Kind != trace.Out || d.Client != e.Subject {
			continue
		}
		seen = append(seen, d.Envelope.String())
		switch {
		case e.Error != "":
			if d.Envelope.OK || d.Envelope.Error == nil || d.Envelope.Error.Code != e.Error {
				continue
			}
		case e.Value != "":
			if !d.Envelope.OK || !jsonEqual(string(d.Envelope.Value), e.Value) {
				continue
			}
		}
		n++
	}
	if len(seen) == 0 {
		seen = []string{"none"}
	}
	switch {
	case e.Count == nil && n == 0:
		r.fail(e, "%s: no matching reply (replies: %s)", what, strings.Join(seen, " "))
	case e.Count != nil && n != *e.Count:
		r.fail(e, "%s: %d matching replies, not %d (replies: %s)", what, n, *e.Count, strings.Join(seen, " "))
	}
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

// matchCard reports whether a card (or draft) key is the one an expectation names: a
// call id (key question:<session>:<call>) or #N (the N-th unkeyed card, key
// question:<page>:<N>).
func cardKeyMatches(key, session, subject string) bool {
	if strings.HasPrefix(subject, "#") {
		return strings.HasSuffix(key, ":"+subject[1:]) && !strings.HasPrefix(key, "question:"+session+":")
	}
	return key == "question:"+session+":"+subject
}

func (r *Result) checkCard(e *scenarios.Expectation, c wire.ClientState, session, what string) {
	var card *wire.CardState
	var keys []string
	for i := range c.Cards {
		keys = append(keys, c.Cards[i].Key)
		if cardKeyMatches(c.Cards[i].Key, session, e.Subject) && (c.Cards[i].CallID == "") == strings.HasPrefix(e.Subject, "#") {
			card = &c.Cards[i]
		}
	}
	if e.None {
		if card != nil {
			r.fail(e, "%s on %s: expected no card, found %s", what, c.Client, card.String())
		}
		return
	}
	if card == nil {
		if len(keys) == 0 {
			keys = []string{"none"}
		}
		r.fail(e, "%s on %s: there is no such card (cards: %s)", what, c.Client, strings.Join(keys, ", "))
		return
	}
	shown := card.String()
	check := func(ok bool, field string) {
		if !ok {
			r.fail(e, "%s on %s: %s differs: %s", what, c.Client, field, shown)
		}
	}
	if e.State != "" {
		check(card.State == e.State, "state")
	}
	if e.Wait != "" {
		check(card.WaitState == e.Wait, "wait")
	}
	if e.Channel != "" {
		check(card.Channel == e.Channel, "channel")
	}
	if e.Countdown != "" {
		got := "none"
		if card.Countdown != nil {
			state := "paused"
			if card.Countdown.Running {
				state = "running"
			}
			got = msText(card.Countdown.RemainingMs) + " " + state
		}
		check(got == e.Countdown, "countdown (expected "+e.Countdown+", got "+got+")")
	}
	if e.Shown != nil {
		check(card.Shown == *e.Shown, "shown")
	}
	if e.Closed != nil {
		check(card.Closed == *e.Closed, "closed")
	}
	if e.Busy != nil {
		check(card.Busy == *e.Busy, "busy")
	}
	if e.Hint != "" {
		check(card.Hint == e.Hint || r.anyHintText && card.Hint != "", "hint")
	}
	if e.Seat != nil {
		check(card.Seat == *e.Seat, "seat")
	}
	if e.Focus != nil {
		check(card.Focus == *e.Focus, "focus")
	}
	if e.CardKind != "" {
		check(card.Kind == e.CardKind, "kind")
	}
	if e.Draft != "" {
		check(card.Draft == e.Draft, "draft")
	}
	if e.ViewQuestions != nil {
		if got, want := questionsJSON(card.Questions), questionsJSON(serviceQuestions(e.ViewQuestions)); got != want {
			r.fail(e, "%s on %s: the card holds the questions %s, not %s", what, c.Client, got, want)
		}
	}
}

// questionsJSON is the JSON a card's or a node's questions are compared in: a
// multi-select false is the same as none (a model may write either).
func questionsJSON(qs []wire.Question) string {
	norm := make([]wire.Question, len(qs))
	for i, q := range qs {
		if q.MultiSelect != nil && !*q.MultiSelect {
			q.MultiSelect = nil
		}
		norm[i] = q
	}
	return string(wire.AppendQuestionsJSON(nil, norm))
}

func (r *Result) checkRow(e *scenarios.Expectation, c wire.ClientState, session, what string) {
	var row *wire.RowState
	for i := range c.Rows {
		if c.Rows[i].Session == session && c.Rows[i].CallID == e.Subject {
			row = &c.Rows[i]
		}
	}
	if e.None {
		if row != nil {
			r.fail(e, "%s on %s: expected no row, found %s", what, c.Client, row.String())
		}
		return
	}
	if row == nil {
		r.fail(e, "%s on %s: there is no such row", what, c.Client)
		return
	}
	shown := row.String()
	if e.Summary != "" && row.Summary != e.Summary {
		r.fail(e, "%s on %s: summary %q, not %q (%s)", what, c.Client, row.Summary, e.Summary, shown)
	}
	if e.State != "" && row.State != e.State {
		r.fail(e, "%s on %s: state %s, not %s (%s)", what, c.Client, row.State, e.State, shown)
	}
	if e.Action != nil && row.Action != *e.Action {
		r.fail(e, "%s on %s: action %q, not %q (%s)", what, c.Client, row.Action, *e.Action, shown)
	}
	if e.Expanded != nil && row.Expanded != *e.Expanded {
		r.fail(e, "%s on %s: expanded=%v (%s)", what, c.Client, row.Expanded, shown)
	}
	if e.Lines != nil && strings.Join(row.Transcript, "\n") != strings.Join(e.Lines, "\n") {
		r.fail(e, "%s on %s: transcript %q, not %q", what, c.Client, row.Transcript, e.Lines)
	}
	if e.Contains != "" {
		found := false
		for _, l := range row.Transcript {
			found = found || strings.Contains(l, e.Contains)
		}
		if !found {
			r.fail(e, "%s on %s: no transcript line contains %q (%s)", what, c.Client, e.Contains, shown)
		}
	}
}

func (r *Result) checkNode(e *scenarios.Expectation, c wire.ClientState, session, what string) {
	var nodes []wire.NodeState
	for _, n := range c.Nodes {
		if n.Session == session && n.CallID == e.Subject {
			nodes = append(nodes, n)
		}
	}
	switch {
	case e.None:
		if len(nodes) > 0 {
			r.fail(e, "%s on %s: expected no node, found %s", what, c.Client, nodes[0].String())
		}
		return
	case e.Count != nil && len(nodes) != *e.Count:
		r.fail(e, "%s on %s: %d nodes, not %d", what, c.Client, len(nodes), *e.Count)
		return
	case len(nodes) == 0:
		r.fail(e, "%s on %s: there is no node for the call", what, c.Client)
		return
	}
	n := nodes[len(nodes)-1]
	if e.Lines != nil && strings.Join(n.Lines, "\n") != strings.Join(e.Lines, "\n") {
		r.fail(e, "%s on %s: lines %q, not %q", what, c.Client, n.Lines, e.Lines)
	}
	if e.Raw != nil && (len(n.Lines) != 0 || n.Text != *e.Raw) {
		r.fail(e, "%s on %s: expected the raw text %q, got %s", what, c.Client, *e.Raw, n.String())
	}
	if e.ViewQuestions != nil {
		if got, want := questionsJSON(n.Questions), questionsJSON(serviceQuestions(e.ViewQuestions)); got != want {
			r.fail(e, "%s on %s: the reply records the questions %s, not %s", what, c.Client, got, want)
		}
	}
	if e.Message != "" && n.MessageID != e.Message {
		r.fail(e, "%s on %s: message %s, not %s", what, c.Client, n.MessageID, e.Message)
	}
	if e.Outcome != "" && n.Outcome != e.Outcome {
		r.fail(e, "%s on %s: outcome %q, not %q", what, c.Client, n.Outcome, e.Outcome)
	}
	if e.Time != nil && n.Time != e.Time.Ms() {
		r.fail(e, "%s on %s: time %s, not %s", what, c.Client, msText(n.Time), e.Time)
	}
}

func (r *Result) checkDraft(e *scenarios.Expectation, c wire.ClientState, session, what string) {
	var d *wire.DraftState
	for i := range c.Drafts {
		if cardKeyMatches(c.Drafts[i].Key, session, e.Subject) {
			d = &c.Drafts[i]
		}
	}
	switch {
	case e.None && d != nil:
		r.fail(e, "%s on %s: expected no draft, found %s", what, c.Client, d.JSON)
	case !e.None && d == nil:
		r.fail(e, "%s on %s: there is no stored draft", what, c.Client)
	case d != nil && e.Contains != "" && !strings.Contains(d.JSON, e.Contains):
		r.fail(e, "%s on %s: the draft %s does not contain %q", what, c.Client, d.JSON, e.Contains)
	}
}
