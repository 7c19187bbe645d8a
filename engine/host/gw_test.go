package host

import (
	"encoding/json"
	"testing"

	"github.com/twosettle/twosettle/engine/questions"
	"github.com/twosettle/twosettle/engine/wire"
)

func cancels(effs []wire.Effect, client, ev string) int {
	n := 0
	for _, f := range frames(effs, client) {
		if c, ok := f.(wire.Cancel); ok && c.EventID == ev {
			n++
		}
	}
	return n
}

func TestHostSettlement(t *testing.T) {
	t.Run("GW-1 the first outcome settles once; a later one is discarded", func(t *testing.T) {
		r := timedRun(t, Config{})
		r.do(0, wire.Connect{Client: "B"})
		effs := r.do(0, ask("c1", "5"))
		ev := eventID(t, effs, "A")
		effs = r.do(10, wire.EventResult{Client: "B", Gen: 1, RPCID: "rb", EventID: ev, Outcome: wire.Outcome{Kind: wire.OutcomeRejected,
			Error: &wire.Error{Name: wire.UserQuestionErrorName, Code: wire.AskCancelled, Message: wire.MsgAskCancelled}}})
		if res, _, ok := result(effs, "c1"); !ok || res.Err.Code != wire.AskCancelled {
			t.Fatalf("result %+v", res)
		}
		if cancels(effs, "A", ev) != 1 || cancels(effs, "B", ev) != 0 {
			t.Fatal("the loser was not cancelled, or the winner was")
		}
		n := len(r.session("s1").Log)
		effs = r.do(20, wire.EventResult{Client: "A", Gen: 1, RPCID: "ra", EventID: ev, Outcome: wire.Outcome{Kind: wire.OutcomeResult, Value: json.RawMessage(batchA)}})
		if env, _ := reply(effs, "ra"); !env.OK {
			t.Fatalf("late outcome reply %s", env)
		}
		if len(r.session("s1").Log) != n {
			t.Fatal("a late outcome changed the log")
		}
	})
	t.Run("GW-3 when the request's host signal aborts every delivery is cancelled", func(t *testing.T) {
		r := timedRun(t, Config{ToolMode: questions.ModeLegacy})
		r.do(0, wire.Connect{Client: "B"})
		effs := r.do(0, ask("c1", ""))
		ev := eventID(t, effs, "A")
		effs = r.do(10, wire.CancelTurn{Session: "s1"})
		if cancels(effs, "A", ev) != 1 || cancels(effs, "B", ev) != 1 {
			t.Fatalf("cancels: %v", effs)
		}
		if res, _, ok := result(effs, "c1"); !ok || res.Err.Code != wire.AskAborted {
			t.Fatalf("result %+v", res)
		}
	})
	t.Run("GW-6 one client's next withdraws only that client; the chain moves on when all passed", func(t *testing.T) {
		r := timedRun(t, Config{ToolMode: questions.ModeLegacy})
		r.do(0, wire.Connect{Client: "B"})
		effs := r.do(0, ask("c1", ""))
		ev := eventID(t, effs, "A")
		effs = r.do(10, wire.EventResult{Client: "A", Gen: 1, RPCID: "ra", EventID: ev, Outcome: wire.Outcome{Kind: wire.OutcomeNext}})
		if _, _, ok := result(effs, "c1"); ok {
			t.Fatal("settled while B still holds the delivery")
		}
		if p := r.h.State().Pending; len(p) != 1 || len(p[0].Deliveries) != 1 || p[0].Deliveries[0] != "B" {
			t.Fatalf("pending %+v", p)
		}
		r.do(20, wire.Disconnect{Client: "B"}) // a disconnect is not a next
		if p := r.h.State().Pending; len(p) != 1 {
			t.Fatal("a disconnect settled the request")
		}
		effs = r.do(30, wire.Connect{Client: "B"})
		if eventID(t, effs, "B") != ev {
			t.Fatal("no replay")
		}
		effs = r.do(40, wire.EventResult{Client: "B", Gen: 2, RPCID: "rb", EventID: ev, Outcome: wire.Outcome{Kind: wire.OutcomeNext}})
		if res, _, ok := result(effs, "c1"); !ok || res.Err.Code != wire.NoProvider {
			t.Fatalf("result %+v", res)
		}
	})
	t.Run("AGENT-5 a continued question stays answerable after its Session is closed and reopened", func(t *testing.T) {
		r := timedRun(t, Config{})
		r.do(0, ask("c1", "5"))
		r.do(5000, wire.Tick{})
		r.do(5001, wire.EndStep{Session: "s1", Final: true})
		r.do(5002, wire.CloseSession{Session: "s1"})
		if v := r.view("s1"); v != "active=[c1:continued] settled=[]" {
			t.Fatalf("after close %s", v)
		}
		// Reopening (a resume through a lookup) manufactures no reply.
		effs := r.do(5003, wire.StreamOpen{Client: "A", Gen: 1, StreamID: "w", Endpoint: wire.EndpointAttachWait, Args: json.RawMessage(`{"agentId":"s1","callId":"c1"}`)})
		if got := streamFrames(effs, "w"); len(got) != 1 || got[0] != "end" {
			t.Fatalf("attach %v", got)
		}
		s := r.session("s1")
		if !s.Live || s.Questions.String() != "active=[c1:continued] settled=[]" || len(s.Inbox.NextStep)+len(s.Inbox.NextTurn) != 0 {
			t.Fatalf("after reopen: %s %s", s.Questions, s.Inbox)
		}
		effs = r.do(5004, answerCall("r", "c1", batchA))
		if env, _ := reply(effs, "r"); env.String() != `{"ok":true,"value":true}` {
			t.Fatalf("reply %s", env)
		}
	})
}
