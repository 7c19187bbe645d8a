package host

import (
	"strconv"
	"strings"
	"testing"

	"github.com/twosettle/twosettle/engine/session"
	"github.com/twosettle/twosettle/engine/wire"
)

// wire.AppendEvent writes a Session event by hand: the log, the projection and the
// reservations see it as if the runtime had recorded it.
func TestAppendEvent(t *testing.T) {
	t.Run("PROJ-6 a malformed recorded result of a timed call removes its question", func(t *testing.T) {
		r := timedRun(t, Config{})
		r.do(10, ask("c1", "30"))
		if v := r.view("s1"); v != "active=[c1:open] settled=[]" {
			t.Fatalf("view %s", v)
		}
		effs := r.do(20, wire.AppendEvent{Session: "s1", Event: session.Event{Data: session.ToolResult{Turn: 1, Step: 1, CallID: "c1", Text: `{"pending":tru`}}})
		var got []string
		for _, e := range effs {
			if a, ok := e.(wire.Appended); ok {
				got = append(got, a.Event.String())
			}
		}
		s := r.session("s1")
		if len(got) != 1 || !strings.HasPrefix(got[0], "#"+strconv.Itoa(len(s.Log)-1)+" t=20 tool/result turn=1 step=1 call=c1 ok") {
			t.Fatalf("appended %q", got)
		}
		if v := r.view("s1"); v != "active=[] settled=[]" {
			t.Fatalf("view after the malformed result %s", v)
		}
	})
	t.Run("PROJ-4 a recorded pending PTC dispatch result enters the view as continued", func(t *testing.T) {
		r := timedRun(t, Config{})
		pending := `{"pending":true,"callId":"c2:ptc:1","message":"x"}`
		r.do(10, wire.AppendEvent{Session: "s1", Event: session.Event{Data: session.PTCDispatch{Root: "c2", Parent: "c2", SubCallID: "c2:ptc:1", Name: "ask_user_question", Arguments: askArgs(""), Text: pending}}})
		if v := r.view("s1"); v != "active=[c2:ptc:1:continued] settled=[]" {
			t.Fatalf("view %s", v)
		}
	})
	t.Run("noise on another Session leaves this one's view alone", func(t *testing.T) {
		r := timedRun(t, Config{})
		r.do(0, wire.OpenSession{Session: "s2"})
		r.do(10, ask("c1", "30"))
		r.do(20, wire.AppendEvent{Session: "s2", Event: session.Event{Data: session.ToolResult{Turn: 1, Step: 1, CallID: "c1", Text: "noise"}}})
		if v := r.view("s1"); v != "active=[c1:open] settled=[]" {
			t.Fatalf("view %s", v)
		}
	})
	t.Run("a command that names a seq or time, no event, or no Session is refused", func(t *testing.T) {
		r := timedRun(t, Config{})
		for _, c := range []wire.AppendEvent{
			{Session: "s1", Event: session.Event{Seq: 3, Data: session.TurnStart{Turn: 9}}},
			{Session: "s1", Event: session.Event{Time: 5, Data: session.TurnStart{Turn: 9}}},
			{Session: "s1"},
			{Session: "nope", Event: session.Event{Data: session.TurnStart{Turn: 9}}},
		} {
			n := len(r.session("s1").Log)
			if _, err := r.try(30, c); err == nil {
				t.Errorf("%s accepted", c)
			}
			if len(r.session("s1").Log) != n {
				t.Errorf("%s appended", c)
			}
		}
	})
}

func TestClaimReply(t *testing.T) {
	t.Run("LATE-6 LATE-7 a reply claimed by hand into a turn is released by that turn's end only", func(t *testing.T) {
		r := timedRun(t, Config{})
		r.do(10, ask("c1", "1"))
		r.do(1010, wire.Tick{})
		r.do(2000, wire.Direct{ID: "d", Op: wire.OpAnswer, Session: "s1", Agent: wire.AgentLive, Body: []byte(`{"callId":"c1","answer":{"answers":[{"id":"a","selected":["x"]}]}}`)})
		claimed := func() int {
			for _, x := range r.h.State().Reservations {
				if x.Session == "s1" && x.CallID == "c1" {
					return x.ClaimedTurn
				}
			}
			return -2
		}
		if got := claimed(); got != -1 {
			t.Fatalf("reservation before the claim: %d", got)
		}
		n := len(r.session("s1").Log)
		r.do(2100, wire.ClaimReply{Session: "s1", CallID: "c1", Turn: 7})
		if got := claimed(); got != 7 || len(r.session("s1").Log) != n {
			t.Fatalf("after the claim: claimed-turn %d, log %d events (was %d)", got, len(r.session("s1").Log), n)
		}
		r.do(2200, wire.AppendEvent{Session: "s1", Event: session.Event{Data: session.TurnEnd{Turn: 6, Reason: session.TurnEndReason{Kind: session.EndCompleted}}}})
		if got := claimed(); got != 7 {
			t.Fatalf("another turn's end released it: %d", got)
		}
		r.do(2300, wire.AppendEvent{Session: "s1", Event: session.Event{Data: session.TurnEnd{Turn: 7, Reason: session.TurnEndReason{Kind: session.EndCompleted}}}})
		if got := claimed(); got != -2 {
			t.Fatalf("its turn's end kept it: %d", got)
		}
		if _, err := r.try(2400, wire.ClaimReply{Session: "s1", CallID: "c9", Turn: 1}); err == nil {
			t.Fatal("a claim of no queued reply was accepted")
		}
	})
}
