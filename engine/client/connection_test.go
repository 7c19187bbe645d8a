package client

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/twosettle/twosettle/engine/session"
	"github.com/twosettle/twosettle/engine/wire"
)

func TestConnection(t *testing.T) {
	t.Run("link loss aborts deliveries without outcomes and dials", func(t *testing.T) {
		x := newH(t)
		x.timedCard(0, 30000)
		x.at(0, wf("e2", "s1", "", "", qName))
		expect(t, x.at(100, wire.LinkDown{}), "dial")
		st := x.c.State()
		if st.Connected || len(st.Cards) != 1 || st.Cards[0].Channel != wire.ChannelNone || st.Cards[0].Countdown != nil {
			t.Fatalf("%+v", st.Cards)
		}
		if _, ok := x.c.NextDeadline(); ok {
			t.Fatal("no countdown without a channel")
		}
		// The old stream is gone; the replay in the new generation claims again.
		expect(t, x.at(200, end("c1-s1")))
		x.at(300, ready(2))
		expect(t, x.at(300, wf("e1", "s1", "c1", "timed", qPkg)),
			`open gen=2 stream=c1-s2 userQuestions/attachWait {"agentId":"s1","callId":"c1"}`)
		x.at(310, item("c1-s2", 1000))
		expect(t, x.at(1310, wire.ClientTick{}), `result gen=2 rpc=c1-r1 ev=e1 `+timedOut)
	})
	t.Run("a new Ready replaces a live generation; a repeated one is ignored", func(t *testing.T) {
		x := newH(t)
		x.timedCard(0, 30000)
		expect(t, x.at(10, ready(1)))
		if x.card("c1").Channel != wire.ChannelWaterfall {
			t.Fatal("a repeated Ready ended the generation")
		}
		expect(t, x.at(20, ready(2)))
		if st := x.c.State(); st.Gen != 2 || x.card("c1").Channel != wire.ChannelNone {
			t.Fatal(st)
		}
		expect(t, x.at(30, item("c1-s1", 5)))
	})
	t.Run("a failed result of the live generation fails it", func(t *testing.T) {
		x := newH(t)
		x.timedCard(0, 30000)
		x.at(0, wf("e2", "s1", "c2", "timed", qPkg))
		x.at(0, item("c1-s2", 30000))
		x.user(10, wire.ActChoose, "label=npm")
		x.user(20, wire.ActSubmit) // c2 holds the seat
		expect(t, x.at(30, wire.FromHTTP{RPCID: "c1-r1", Envelope: wire.Failure(wire.GatewayInternal, "identifies no active event stream")}),
			`cancel gen=1 stream=c1-s1`, `cancel gen=1 stream=c1-s2`, "dial")
		// A failure for an older generation is ignored.
		y := newH(t)
		y.timedCard(0, 30000)
		y.user(5, wire.ActChoose, "label=npm")
		y.user(6, wire.ActSubmit)
		y.at(7, wire.LinkDown{})
		y.at(8, ready(2))
		expect(t, y.at(9, wire.FromHTTP{RPCID: "c1-r1", Envelope: wire.Failure(wire.GatewayInternal, "identifies no active event stream")}))
		if !y.c.State().Connected {
			t.Fatal("an old generation's failure failed the new one")
		}
	})
	t.Run("waterfalls the client cannot answer are handed on", func(t *testing.T) {
		x := newH(t)
		expect(t, x.at(0, wf("e0", "s1", "c1", "timed", qPkg))) // before Ready: ignored
		x.at(0, ready(1))
		expect(t, x.at(1, wire.FromHost{Frame: wire.Waterfall{EventID: "e1", Event: "approval/request", AgentID: "s1", Request: json.RawMessage(`{}`)}}),
			`result gen=1 rpc=c1-r1 ev=e1 next`)
		expect(t, x.at(2, wf("e2", "", "c1", "timed", qPkg)), `result gen=1 rpc=c1-r2 ev=e2 next`)
		for i, p := range []string{`{`, `[]`, `{"questions":[]}`, `{"questions":[{"id":"a"}]}`, `{"questions":"x"}`} {
			ev := "m" + itoa(i)
			expect(t, x.at(3, wire.FromHost{Frame: wire.Waterfall{EventID: ev, Event: wire.EventQuestionsRequest, AgentID: "s1", Request: json.RawMessage(p)}}),
				`result gen=1 rpc=c1-r`+itoa(3+i)+` ev=`+ev+` next`)
		}
		if len(x.c.State().Cards) != 0 {
			t.Fatal(x.c.State().Cards)
		}
		expect(t, x.at(4, wire.FromHost{Frame: wire.Waterfall{Event: wire.EventQuestionsRequest, AgentID: "s1", Request: json.RawMessage(`{}`)}}))
		x.at(5, wf("e9", "s1", "c1", "keyed", qPkg))
		expect(t, x.at(6, wf("e9", "s1", "c1", "keyed", qPkg))) // a repeated event id
	})
	t.Run("malformed claim frames", func(t *testing.T) {
		for _, v := range []string{`{}`, `5`, `"x"`, `{"remainingMs":"9"}`, `null`} {
			x := newH(t)
			x.at(0, ready(1))
			x.at(0, wf("e1", "s1", "c1", "timed", qPkg))
			x.at(0, wire.FromHost{Frame: wire.StreamItem{StreamID: "c1-s1", Value: json.RawMessage(v)}})
			if k := x.card("c1"); k.Channel != wire.ChannelWaterfall || k.Countdown != nil {
				t.Errorf("%s: the wait is claimed with no local countdown: %s", v, k)
			}
		}
		x := newH(t)
		x.timedCard(100, -50)
		if x.next() != 1100 || x.countdown("c1") != "0ms running" {
			t.Fatal(x.next(), x.countdown("c1"))
		}
	})
	t.Run("malformed projection rows, inbox entries and logs are ignored", func(t *testing.T) {
		x := newH(t)
		x.at(0, ready(1))
		bad := wire.QuestionsView{Active: []wire.PendingRow{
			{CallID: "", Questions: qs(qPkg), State: wire.StateContinued},
			{CallID: "c1", State: wire.StateContinued},
			{CallID: "c2", Questions: qs(qPkg), State: "done"},
			{CallID: "c3", Questions: qs(wire.Question{ID: "x"}), State: wire.StateContinued},
			{CallID: "c4", Questions: qs(qPkg), State: wire.StateContinued},
		}}
		inbox := wire.InboxView{NextStep: []session.Message{
			{ID: "m", Source: session.Source{Kind: session.SourceUserQuestionReply}}, // no call id
			{ID: "n", Source: session.Source{Kind: session.SourceUser, CallID: "c4"}},
		}}
		gap := []session.Event{{Seq: 0, Data: session.TurnStart{Turn: 1}}, {Seq: 2, Data: userMsg("u", "x")}}
		x.at(0, wire.FromHost{Frame: wire.SessionUpdate{Session: "s1", Reset: true, Events: gap, Questions: bad, Inbox: inbox}})
		st := x.c.State()
		if len(st.Cards) != 1 || st.Cards[0].CallID != "c4" || st.Cards[0].Channel != wire.ChannelRPC {
			t.Fatal(st.Cards)
		}
		if len(x.c.page.sessions.at("s1").events()) != 1 {
			t.Fatal("a gap must stop the log")
		}
		// Appends after a gap are ignored until a reset; a reset heals it.
		x.at(1, wire.FromHost{Frame: wire.SessionUpdate{Session: "s1", Events: []session.Event{{Seq: 1, Data: userMsg("u", "x")}}}})
		if len(x.c.page.sessions.at("s1").events()) != 1 {
			t.Fatal("appended after a gap")
		}
		x.at(2, update("s1", wire.QuestionsView{}, noInbox, logOf(session.TurnStart{Turn: 1}, userMsg("u", "x"))...))
		x.at(3, wire.FromHost{Frame: wire.SessionUpdate{Session: "s1", Events: []session.Event{{Seq: 1, Data: userMsg("u", "x")}, {Seq: 2, Data: userMsg("v", "y")}}}})
		if len(x.c.page.sessions.at("s1").events()) != 3 {
			t.Fatal(len(x.c.page.sessions.at("s1").events()))
		}
		expect(t, x.at(4, wire.FromHost{Frame: wire.SessionUpdate{}})) // no session id
		expect(t, x.at(5, wire.FromHost{}))                            // no frame
		expect(t, x.at(6, wire.FromHTTP{RPCID: "nope", Envelope: wire.OKValue(nil)}))
	})
	t.Run("refusals say what exists and change nothing", func(t *testing.T) {
		x := newH(t)
		x.timedCard(0, 30000)
		x.at(0, wf("e2", "s1", "", "", qName))
		before := stateText(x.c.State())
		for _, tc := range []struct{ kind, field, want string }{
			{wire.ActSubmit, "card=c9", "no card c9 (cards: c1 (shown), #1 (seat))"},
			{wire.ActFocus, "card=c1", "not in the composer seat of session s1 (the seat shows #1)"},
			{wire.ActChoose, "q=zz", "card #1 has no question \"zz\" (questions: name)"},
			{wire.ActChoose, "label=x", "has no options"},
			{wire.ActTakeTime, "card=", "card #1 has no countdown"},
			{wire.ActSubmit, "session=s2", "no session \"s2\" (sessions: s1)"},
			{wire.ActReopen, "card=c1", "no tool row for c1 (rows: none)"},
			{wire.ActDiscard, "card=c1", "no queued reply for \"c1\" (queued replies: none)"},
			{"dance", "card=", "unknown user action \"dance\""},
			{wire.ActFocus, "card=#1", "card #1 already has the focus"}, // it autofocused (CD-8)
			{wire.ActNext, "card=", "card #1 is on question 1 of 1"},
			{wire.ActWindowFocus, "card=", "already has the focus"},
		} {
			err := x.userErr(10, tc.kind, tc.field)
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("%s %s: %v", tc.kind, tc.field, err)
			}
		}
		if after := stateText(x.c.State()); after != before {
			t.Fatalf("a refused action changed the state:\n%s\n---\n%s", before, after)
		}
	})
	t.Run("a refused action fires no due tick; an allowed one fires it first", func(t *testing.T) {
		x := newH(t)
		x.timedCard(0, 2000)
		x.userErr(5000, wire.ActSubmit, "card=c9")
		if x.card("c1").Channel != wire.ChannelWaterfall || x.next() != 2000 {
			t.Fatal("the refused action ran the tick")
		}
		// Take time at the very tick that expires the card: the tick wins, the action is refused.
		got, err := x.try(5000, wire.User{Action: act(wire.ActTakeTime)})
		if err == nil || len(got) != 1 || got[0] != expired("c1-r1") {
			t.Fatal(got, err)
		}
	})
}
