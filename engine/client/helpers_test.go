package client

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/twosettle/twosettle/engine/session"
	"github.com/twosettle/twosettle/engine/wire"
)

// h drives one client with exact client times.
type h struct {
	t *testing.T
	c *Client
}

func newH(t *testing.T) *h { return &h{t: t, c: New(Config{Name: "c1", Seed: 7})} }

func newHWith(t *testing.T, cfg Config) *h { return &h{t: t, c: New(cfg)} }

func strs(effs []wire.ClientEffect) []string {
	out := make([]string, len(effs))
	for i, e := range effs {
		out[i] = e.String()
	}
	return out
}

// at applies in at client time now and returns the effects' texts; an error fails.
func (x *h) at(now int64, in wire.ClientInput) []string {
	x.t.Helper()
	effs, err := x.c.Apply(wire.Time(now), in)
	if err != nil {
		x.t.Fatalf("at %d %s: %v", now, in, err)
	}
	return strs(effs)
}

// try applies in and returns the effects and the error.
func (x *h) try(now int64, in wire.ClientInput) ([]string, error) {
	effs, err := x.c.Apply(wire.Time(now), in)
	return strs(effs), err
}

// user applies a user action.
func (x *h) user(now int64, kind string, fields ...string) []string {
	x.t.Helper()
	return x.at(now, wire.User{Action: act(kind, fields...)})
}

func (x *h) userErr(now int64, kind string, fields ...string) error {
	x.t.Helper()
	effs, err := x.c.Apply(wire.Time(now), wire.User{Action: act(kind, fields...)})
	if err == nil {
		x.t.Fatalf("at %d %s: want an error, got effects %v", now, kind, strs(effs))
	}
	if len(effs) != 0 {
		x.t.Fatalf("at %d %s: refused action emitted %v", now, kind, strs(effs))
	}
	return err
}

// act builds a user action from key=value fields: card, q, label, text, session.
func act(kind string, fields ...string) wire.UserAction {
	a := wire.UserAction{Kind: kind}
	for _, f := range fields {
		k, v, _ := strings.Cut(f, "=")
		switch k {
		case "card":
			a.Card = v
		case "q":
			a.Question = v
		case "label":
			a.Label = v
		case "text":
			a.Text = v
		case "session":
			a.Session = v
		default:
			panic("bad field " + f)
		}
	}
	return a
}

func (x *h) card(callOrKey string) wire.CardState {
	x.t.Helper()
	for _, c := range x.c.State().Cards {
		if c.CallID == callOrKey || c.Key == callOrKey {
			return c
		}
	}
	x.t.Fatalf("no card %s in %v", callOrKey, x.c.State().Cards)
	return wire.CardState{}
}

func (x *h) hasCard(call string) bool {
	for _, c := range x.c.State().Cards {
		if c.CallID == call {
			return true
		}
	}
	return false
}

func (x *h) row(call string) wire.RowState {
	x.t.Helper()
	for _, r := range x.c.State().Rows {
		if r.CallID == call {
			return r
		}
	}
	x.t.Fatalf("no row %s in %v", call, x.c.State().Rows)
	return wire.RowState{}
}

func (x *h) countdown(call string) string {
	x.t.Helper()
	cd := x.card(call).Countdown
	if cd == nil {
		return "none"
	}
	return cd.String()
}

func (x *h) next() int64 {
	x.t.Helper()
	at, ok := x.c.NextDeadline()
	if !ok {
		return -1
	}
	return at.Ms()
}

func expect(t *testing.T, got []string, want ...string) {
	t.Helper()
	if len(got) == 0 && len(want) == 0 {
		return
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("effects:\n  got  %q\n  want %q", got, want)
	}
}

// Questions used by the tests.
func q(id, text string, labels ...string) wire.Question {
	qq := wire.Question{ID: id, Question: text}
	for _, l := range labels {
		qq.Options = append(qq.Options, wire.Option{Label: l})
	}
	return qq
}

func multi(qq wire.Question) wire.Question {
	t := true
	qq.MultiSelect = &t
	return qq
}

var (
	qPkg  = q("pkg", "Which package manager?", "npm", "bun")
	qName = q("name", "Project name?")
)

func ready(gen int) wire.FromHost { return wire.FromHost{Frame: wire.Ready{Gen: gen}} }

// wf is a user-questions/request delivery. wait: "" none, "timed", "keyed".
func wf(ev, sess, call, wait string, qs ...wire.Question) wire.FromHost {
	r := wire.QuestionRequest{Questions: qs}
	switch wait {
	case "timed":
		r.Wait = &wire.Wait{CallID: call, Timed: true}
	case "keyed":
		r.Wait = &wire.Wait{CallID: call}
	}
	return wire.FromHost{Frame: wire.Waterfall{EventID: ev, Event: wire.EventQuestionsRequest, AgentID: sess, Request: r.AppendJSON(nil)}}
}

func item(stream string, ms int64) wire.FromHost {
	return wire.FromHost{Frame: wire.StreamItem{StreamID: stream, Value: json.RawMessage(`{"remainingMs":` + itoa(int(ms)) + `}`)}}
}

func end(stream string) wire.FromHost { return wire.FromHost{Frame: wire.StreamEnd{StreamID: stream}} }

func cancel(ev string) wire.FromHost { return wire.FromHost{Frame: wire.Cancel{EventID: ev}} }

func httpOK(rpc, value string) wire.FromHTTP {
	var v json.RawMessage
	if value != "" {
		v = json.RawMessage(value)
	}
	return wire.FromHTTP{RPCID: rpc, Envelope: wire.OKValue(v)}
}

// view builds a projection view: "c1:open", "c2:continued" rows with the given questions.
func view(qs []wire.Question, rows ...string) wire.QuestionsView {
	var v wire.QuestionsView
	for _, r := range rows {
		id, st, _ := strings.Cut(r, ":")
		v.Active = append(v.Active, wire.PendingRow{CallID: id, Questions: qs, State: st})
	}
	return v
}

func update(sess string, v wire.QuestionsView, inbox wire.InboxView, events ...session.Event) wire.FromHost {
	return wire.FromHost{Frame: wire.SessionUpdate{Session: sess, Reset: true, Events: events, Questions: v, Inbox: inbox}}
}

// logOf numbers events from seq 0.
func logOf(ds ...session.Data) []session.Event {
	out := make([]session.Event, len(ds))
	for i, d := range ds {
		out[i] = session.Event{Seq: i, Time: int64(i), Data: d}
	}
	return out
}

func replyMsg(id, call, text string) session.Message {
	return session.Message{ID: id, Source: session.Source{Kind: session.SourceUserQuestionReply, CallID: call, Outcome: "answered"}, Text: text}
}

const timedAsk = `{"questions":[{"id":"pkg","question":"Which package manager?","options":[{"label":"npm"},{"label":"bun"}]}],"timeout":30}`

// timedCard brings a timed card for c1 in s1 through its handshake at time t0 with
// remaining ms; the claim stream is c1-s1.
func (x *h) timedCard(t0, remaining int64) {
	x.t.Helper()
	x.at(t0, ready(1))
	expect(x.t, x.at(t0, wf("e1", "s1", "c1", "timed", qPkg)),
		`open gen=1 stream=c1-s1 userQuestions/attachWait {"agentId":"s1","callId":"c1"}`)
	x.at(t0, item("c1-s1", remaining))
}

func toolCallEv(call, args string) session.Data {
	return session.ToolCall{Turn: 1, Step: 1, CallID: call, Name: toolName, Arguments: args}
}

func toolResultEv(call, text string) session.Data {
	return session.ToolResult{Turn: 1, Step: 1, CallID: call, Text: text}
}
