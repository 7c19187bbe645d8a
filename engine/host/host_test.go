package host

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/twosettle/twosettle/engine/questions"
	"github.com/twosettle/twosettle/engine/session"
	"github.com/twosettle/twosettle/engine/wire"
)

func TestConfig(t *testing.T) {
	for _, c := range []Config{
		{ToolMode: "fast"},
		{ToolMode: "timed", DefaultTimeoutSec: -2},
		{ToolMode: "timed", DefaultTimeoutSec: 2147484},
		{ToolMode: "timed", DefaultTimeoutSet: true}, // TOOL-3: a configured default of 0 is refused, not 120 s
		{WriteWindowMs: -5},
		{Mutant: "no-flush"},
	} {
		if _, err := New(c); err == nil {
			t.Errorf("config %+v accepted", c)
		}
	}
	for _, c := range []Config{{}, {ToolMode: "legacy"}, {ToolMode: "timed", DefaultTimeoutSec: -1}, {WriteWindowMs: -1}, {WriteWindowMs: 1000}} {
		if _, err := New(c); err != nil {
			t.Errorf("config %+v refused: %v", c, err)
		}
	}
}

func TestHostTool(t *testing.T) {
	t.Run("TOOL-1 a legacy host records the legacy schema and never tracks its calls", func(t *testing.T) {
		r := timedRun(t, Config{ToolMode: questions.ModeLegacy})
		s := r.session("s1")
		if logHas(s, `"timeout"`) {
			t.Fatal("legacy header has a timeout")
		}
		effs := r.do(10, ask("c1", "5"))
		if len(r.h.State().Waits) != 0 || r.view("s1") != "active=[] settled=[]" {
			t.Fatalf("legacy call tracked or timed: %s", r.view("s1"))
		}
		ev := eventID(t, effs, "A")
		effs = r.do(20, wire.EventResult{Client: "A", Gen: 1, RPCID: "r", EventID: ev, Outcome: wire.Outcome{Kind: wire.OutcomeResult, Value: json.RawMessage(batchA)}})
		if res, _, ok := result(effs, "c1"); !ok || res.Text != batchA {
			t.Fatalf("result %+v", res)
		}
	})
	t.Run("TOOL-2 the timed host's header carries the timeout and a call without one waits 120 s", func(t *testing.T) {
		r := timedRun(t, Config{})
		if !logHas(r.session("s1"), `"timeout":{"type":"integer"`) {
			t.Fatal("timed header lacks the timeout")
		}
		r.do(1000, ask("c1", ""))
		w := r.h.State().Waits
		if len(w) != 1 || w[0].Deadline != 121000 || r.view("s1") != "active=[c1:open] settled=[]" {
			t.Fatalf("waits %+v view %s", w, r.view("s1"))
		}
		r.do(1000, wire.Tick{})
		if at, ok := r.h.NextDeadline(); !ok || at > 121000 {
			t.Fatalf("next deadline %d %v", at, ok)
		}
	})
	t.Run("TOOL-3 a bad per-call timeout is a tool error before any client sees a question", func(t *testing.T) {
		r := timedRun(t, Config{})
		effs := r.do(10, ask("c1", "0"))
		res, _, ok := result(effs, "c1")
		if !ok || !res.IsError || !strings.Contains(res.Text, "timeout must be -1 or a positive integer") {
			t.Fatalf("result %+v", res)
		}
		for _, f := range frames(effs, "A") {
			if _, ok := f.(wire.Waterfall); ok {
				t.Fatal("a client saw the question")
			}
		}
	})
	t.Run("CALLER-2 an owned child's timed question fails with DELEGATED_CALLER", func(t *testing.T) {
		r := timedRun(t, Config{})
		r.do(0, wire.OpenSession{Session: "k", Owner: "s1"})
		r.do(0, wire.Send{Session: "k", Target: session.NextTurn, Text: "sub"})
		effs := r.do(1, wire.ToolCall{Session: "k", CallID: "c1", Name: questions.ToolName, Args: askArgs("5")})
		res, _, ok := result(effs, "c1")
		if !ok || res.Err.Code != wire.DelegatedCaller || !strings.Contains(res.Text, "final result") {
			t.Fatalf("result %+v", res)
		}
	})
	t.Run("CALLER-3 a child resumed as a root by a remote call may ask", func(t *testing.T) {
		r := timedRun(t, Config{})
		r.do(0, wire.OpenSession{Session: "k", Owner: "s1"})
		r.do(1, wire.CloseSession{Session: "k"})
		r.do(2, wire.Call{Client: "A", Gen: 1, RPCID: "r1", Endpoint: wire.EndpointDiscard, Args: json.RawMessage(`{"agentId":"k","messageId":"none"}`)})
		// discard does not resume; attachWait does (GW-8)
		effs := r.do(3, wire.StreamOpen{Client: "A", Gen: 1, StreamID: "w", Endpoint: wire.EndpointAttachWait, Args: json.RawMessage(`{"agentId":"k","callId":"c9"}`)})
		if got := streamFrames(effs, "w"); len(got) != 1 || got[0] != "end" {
			t.Fatalf("attach to a resumed session: %v", got)
		}
		if s := r.session("k"); !s.Live || !s.Root {
			t.Fatalf("k live %v root %v", s.Live, s.Root)
		}
		effs = r.do(4, wire.Direct{ID: "d", Op: wire.OpAskTimed, Session: "k", Agent: wire.AgentLive,
			Body: json.RawMessage(`{"questions":[{"id":"a","question":"?"}],"callId":"c1","timeoutMs":1000}`)})
		if _, done := directResult(effs, "d"); done || len(r.h.State().Waits) != 1 {
			t.Fatalf("resumed root could not ask: %v", effs)
		}
	})
	t.Run("CALLER-1 a stale instance fails with CALLER_NOT_LIVE through the service", func(t *testing.T) {
		r := timedRun(t, Config{})
		effs := r.do(1, wire.Direct{ID: "d", Op: wire.OpAsk, Session: "s1", Agent: wire.AgentStale, Body: json.RawMessage(`{"questions":[{"id":"a","question":"?"}]}`)})
		if d, ok := directResult(effs, "d"); !ok || !d.Err.HasCode(wire.CallerNotLive) {
			t.Fatalf("direct %+v", d)
		}
	})
}

func TestHostWait(t *testing.T) {
	t.Run("WAIT-4 the claim's one frame is the host's remainingMs: pulled at 2000 of a 1000+5000 wait, 4000", func(t *testing.T) {
		r := timedRun(t, Config{})
		r.do(1000, ask("c1", "5"))
		effs := r.do(2000, attach("A", 1, "w", "c1"))
		if got := streamFrames(effs, "w"); len(got) != 1 || got[0] != `item {"remainingMs":4000}` {
			t.Fatalf("claim frames %v", got)
		}
		effs = r.do(50000, wire.Tick{})
		if _, _, ok := result(effs, "c1"); ok || len(streamFrames(effs, "w")) != 0 {
			t.Fatal("claimed wait expired or its stream changed")
		}
	})
	t.Run("WAIT-5 released at 3000, the wait is open at 5999 and expires at 6000", func(t *testing.T) {
		r := timedRun(t, Config{})
		r.do(1000, ask("c1", "5"))
		r.do(2000, attach("A", 1, "w", "c1"))
		effs := r.do(3000, wire.StreamCancel{Client: "A", Gen: 1, StreamID: "w"})
		if len(streamFrames(effs, "w")) != 0 {
			t.Fatal("a cancelled stream got a frame")
		}
		if effs := r.do(5999, wire.Tick{}); len(waitKinds(effs)) != 0 {
			t.Fatalf("notes at 5999: %v", waitKinds(effs))
		}
		effs = r.do(6000, wire.Tick{})
		res, at, ok := result(effs, "c1")
		if !ok || at != 6000 || res.Text != string(questions.PendingText("c1")) {
			t.Fatalf("result %+v at %d", res, at)
		}
	})
	t.Run("WAIT-5 a lost link releases the last claim past the deadline: expiry in the same Apply", func(t *testing.T) {
		r := timedRun(t, Config{})
		r.do(1000, ask("c1", "5"))
		r.do(2000, attach("A", 1, "w", "c1"))
		effs := r.do(9000, wire.Disconnect{Client: "A"})
		if got := strings.Join(waitKinds(effs), " "); got != "released armed expired closed" {
			t.Fatalf("notes %s", got)
		}
		if _, at, ok := result(effs, "c1"); !ok || at != 9000 {
			t.Fatal("no pending result in the disconnect's Apply")
		}
	})
	t.Run("WAIT-3 a delivered but unclaimed request expires at its deadline", func(t *testing.T) {
		r := timedRun(t, Config{})
		effs := r.do(0, ask("c1", "5"))
		eventID(t, effs, "A")
		effs = r.do(5000, wire.Tick{})
		if _, at, ok := result(effs, "c1"); !ok || at != 5000 {
			t.Fatal("no expiry at 5000")
		}
		if fs := frames(effs, "A"); len(fs) == 0 {
			t.Fatal("no cancel")
		} else if _, ok := fs[0].(wire.Cancel); !ok {
			t.Fatalf("first frame %s, want the cancel", fs[0])
		}
	})
	t.Run("WAIT-6 with another claim held, attaching after the deadline yields 0", func(t *testing.T) {
		r := timedRun(t, Config{})
		r.do(0, wire.Connect{Client: "B"})
		r.do(0, ask("c1", "5"))
		r.do(100, attach("A", 1, "w", "c1"))
		effs := r.do(7000, attach("B", 1, "v", "c1"))
		if got := streamFrames(effs, "v"); len(got) != 1 || got[0] != `item {"remainingMs":0}` {
			t.Fatalf("frames %v", got)
		}
	})
	t.Run("WAIT-7 attaching to an unknown call ends with no frame", func(t *testing.T) {
		r := timedRun(t, Config{})
		effs := r.do(0, attach("A", 1, "w", "nope"))
		if got := streamFrames(effs, "w"); len(got) != 1 || got[0] != "end" {
			t.Fatalf("frames %v", got)
		}
	})
	t.Run("WAIT-9 a turn cancel closes the wait: ASK_ABORTED, the claim stream ends, no timer", func(t *testing.T) {
		r := timedRun(t, Config{})
		r.do(0, ask("c1", "5"))
		r.do(10, attach("A", 1, "w", "c1"))
		effs := r.do(20, wire.CancelTurn{Session: "s1", KeepInbox: true})
		res, _, ok := result(effs, "c1")
		if !ok || res.Err.Code != wire.AskAborted {
			t.Fatalf("result %+v", res)
		}
		if got := streamFrames(effs, "w"); len(got) != 1 || got[0] != "end" {
			t.Fatalf("claim stream %v", got)
		}
		if st := r.h.State(); len(st.Waits) != 0 || len(st.Pending) != 0 {
			t.Fatalf("waits %v pending %v", st.Waits, st.Pending)
		}
		if _, ok := r.h.NextDeadline(); ok {
			// only a write window may remain
			if at, _ := r.h.NextDeadline(); at > 20+200 {
				t.Fatalf("timer left at %d", at)
			}
		}
		if r.view("s1") != "active=[] settled=[]" {
			t.Fatalf("view %s", r.view("s1"))
		}
	})
}

func TestHostAsk(t *testing.T) {
	t.Run("ASK-12 a client answer before expiry is the tool result; the claim closes and the other client is cancelled", func(t *testing.T) {
		r := timedRun(t, Config{})
		r.do(0, wire.Connect{Client: "B"})
		effs := r.do(0, ask("c1", "5"))
		ev := eventID(t, effs, "A")
		if eventID(t, effs, "B") != ev {
			t.Fatal("GW-5: different event ids")
		}
		r.do(10, attach("A", 1, "w", "c1"))
		effs = r.do(4999, wire.EventResult{Client: "A", Gen: 1, RPCID: "r", EventID: ev, Outcome: wire.Outcome{Kind: wire.OutcomeResult, Value: json.RawMessage(batchA)}})
		if res, _, ok := result(effs, "c1"); !ok || res.IsError || res.Text != batchA {
			t.Fatalf("result %+v", res)
		}
		if got := streamFrames(effs, "w"); len(got) != 1 || got[0] != "end" {
			t.Fatalf("claim stream %v", got)
		}
		cancelled := false
		for _, f := range frames(effs, "B") {
			if c, ok := f.(wire.Cancel); ok && c.EventID == ev {
				cancelled = true
			}
		}
		for _, f := range frames(effs, "A") {
			if _, ok := f.(wire.Cancel); ok {
				t.Fatal("the winner got a cancel")
			}
		}
		if !cancelled {
			t.Fatal("GW-1: the loser got no cancel")
		}
		if v := r.view("s1"); v != "active=[] settled=[c1{a=[x]}]" {
			t.Fatalf("view %s", v)
		}
	})
	t.Run("ASK-9 a client ASK_TIMED_OUT rejection becomes pending; ASK_CANCELLED propagates", func(t *testing.T) {
		for _, c := range []struct {
			code, want string
		}{{wire.AskTimedOut, "pending"}, {wire.AskCancelled, wire.AskCancelled}} {
			r := timedRun(t, Config{})
			effs := r.do(0, ask("c1", "5"))
			ev := eventID(t, effs, "A")
			effs = r.do(100, wire.EventResult{Client: "A", Gen: 1, RPCID: "r", EventID: ev, Outcome: wire.Outcome{Kind: wire.OutcomeRejected,
				Error: &wire.Error{Name: wire.UserQuestionErrorName, Code: c.code, Message: "m"}}})
			res, _, _ := result(effs, "c1")
			if c.want == "pending" {
				if res.Text != string(questions.PendingText("c1")) || r.view("s1") != "active=[c1:continued] settled=[]" {
					t.Fatalf("%s: %+v", c.code, res)
				}
			} else if res.Err.Code != c.want || r.view("s1") != "active=[] settled=[]" {
				t.Fatalf("%s: %+v %s", c.code, res, r.view("s1"))
			}
		}
	})
	t.Run("ASK-10 every client passing holds the timed ask until the deadline", func(t *testing.T) {
		r := timedRun(t, Config{})
		effs := r.do(0, ask("c1", "5"))
		ev := eventID(t, effs, "A")
		effs = r.do(10, wire.EventResult{Client: "A", Gen: 1, RPCID: "r", EventID: ev, Outcome: wire.Outcome{Kind: wire.OutcomeNext}})
		if _, _, ok := result(effs, "c1"); ok {
			t.Fatal("NO_PROVIDER surfaced")
		}
		effs = r.do(5000, wire.Tick{})
		if res, _, ok := result(effs, "c1"); !ok || res.Text != string(questions.PendingText("c1")) {
			t.Fatalf("result %+v", res)
		}
	})
	t.Run("ASK-4 a legacy ask with no client connected waits; every client passing is NO_PROVIDER", func(t *testing.T) {
		r := timedRun(t, Config{ToolMode: questions.ModeLegacy})
		effs := r.do(0, ask("c1", ""))
		ev := eventID(t, effs, "A")
		effs = r.do(10, wire.EventResult{Client: "A", Gen: 1, RPCID: "r", EventID: ev, Outcome: wire.Outcome{Kind: wire.OutcomeNext}})
		if res, _, ok := result(effs, "c1"); !ok || res.Err.Code != wire.NoProvider {
			t.Fatalf("result %+v", res)
		}
	})
}

func TestHostGateway(t *testing.T) {
	t.Run("GW-5 a reconnecting client gets the pending request again under its event id", func(t *testing.T) {
		r := timedRun(t, Config{})
		effs := r.do(0, ask("c1", "5"))
		ev := eventID(t, effs, "A")
		r.do(10, wire.Disconnect{Client: "A"})
		effs = r.do(20, wire.Connect{Client: "A"})
		fs := frames(effs, "A")
		if len(fs) < 2 {
			t.Fatalf("frames %v", fs)
		}
		if rd, ok := fs[0].(wire.Ready); !ok || rd.Gen != 2 {
			t.Fatalf("first frame %s", fs[0])
		}
		if w, ok := fs[1].(wire.Waterfall); !ok || w.EventID != ev {
			t.Fatalf("replay %s", fs[1])
		}
		// and the Session comes as a Reset with the whole log
		var up wire.SessionUpdate
		for _, f := range fs {
			if u, ok := f.(wire.SessionUpdate); ok {
				up = u
			}
		}
		if !up.Reset || len(up.Events) != len(r.session("s1").Log) || up.Questions.String() != "active=[c1:open] settled=[]" {
			t.Fatalf("update %s", up)
		}
	})
	t.Run("GW-8 a remote call resolves a closed Session's root by resuming it; replies are envelopes", func(t *testing.T) {
		r := timedRun(t, Config{})
		r.do(0, ask("c1", "5"))
		r.do(5000, wire.Tick{})
		r.do(5001, wire.EndStep{Session: "s1", Final: true})
		r.do(5002, wire.CloseSession{Session: "s1"})
		effs := r.do(6000, answerCall("r1", "c1", batchA))
		env, _ := reply(effs, "r1")
		if env.String() != `{"ok":true,"value":true}` {
			t.Fatalf("reply %s", env)
		}
		s := r.session("s1")
		if !s.Live || !s.Root || s.Questions.String() != "active=[] settled=[c1{a=[x]}]" {
			t.Fatalf("after resume: live %v root %v view %s", s.Live, s.Root, s.Questions)
		}
		effs = r.do(6001, answerCall("r2", "c1", batchA))
		if env, _ := reply(effs, "r2"); env.String() != `{"ok":true,"value":false}` {
			t.Fatalf("second answer %s", env)
		}
	})
	t.Run("GW-8 malformed args are gateway/arguments-invalid and an unknown Session lookup-not-found", func(t *testing.T) {
		r := timedRun(t, Config{})
		cases := []struct {
			endpoint, args, code string
		}{
			{wire.EndpointAnswer, `{"agentId":"s1","callId":"c1"}`, wire.GatewayArgumentsInvalid},
			{wire.EndpointAnswer, `{"agentId":"s1","callId":"c1","answer":{},"x":1}`, wire.GatewayArgumentsInvalid},
			{wire.EndpointAnswer, `{"agentId":1,"callId":"c1","answer":{}}`, wire.GatewayArgumentsInvalid},
			{wire.EndpointAnswer, `{"agentId":null,"callId":"c1","answer":{}}`, wire.GatewayArgumentsInvalid},
			{wire.EndpointAnswer, `{"agentId":"s1","callId":"c1","answer":[]}`, wire.GatewayArgumentsInvalid},
			{wire.EndpointAnswer, `[]`, wire.GatewayArgumentsInvalid},
			{wire.EndpointAnswer, ``, wire.GatewayArgumentsInvalid},
			{wire.EndpointAnswer, `{"agentId":"nope","callId":"c1","answer":{}}`, wire.GatewayNotFound},
			{wire.EndpointDiscard, `{"agentId":"s1"}`, wire.GatewayArgumentsInvalid},
			{wire.EndpointDiscard, `{"agentId":"nope","messageId":"m"}`, wire.GatewayNotFound},
			{"nope/nope", `{}`, wire.GatewayUnknownEndpoint},
		}
		for i, c := range cases {
			rpc := "r" + string(rune('a'+i))
			effs := r.do(1, wire.Call{Client: "A", Gen: 1, RPCID: rpc, Endpoint: c.endpoint, Args: json.RawMessage(c.args)})
			env, _ := reply(effs, rpc)
			if env.OK || env.Error == nil || env.Error.Code != c.code {
				t.Errorf("%s %s: %s", c.endpoint, c.args, env)
			}
		}
		for _, a := range []string{`{"agentId":"s1"}`, `{"agentId":"s1","callId":5}`, `5`} {
			effs := r.do(2, wire.StreamOpen{Client: "A", Gen: 1, StreamID: "x" + a, Endpoint: wire.EndpointAttachWait, Args: json.RawMessage(a)})
			if got := streamFrames(effs, "x"+a); len(got) != 1 || got[0] != "error "+wire.GatewayArgumentsInvalid {
				t.Errorf("attach %s: %v", a, got)
			}
		}
	})
	t.Run("GW-7 losing a connection ends its claim streams and keeps the request pending", func(t *testing.T) {
		r := timedRun(t, Config{})
		r.do(0, ask("c1", "5"))
		r.do(10, attach("A", 1, "w", "c1"))
		effs := r.do(20, wire.Disconnect{Client: "A"})
		if len(frames(effs, "A")) != 0 {
			t.Fatal("frames to a lost link")
		}
		st := r.h.State()
		if len(st.Pending) != 1 || len(st.Pending[0].Deliveries) != 0 || st.Waits[0].Claims != 0 || st.Waits[0].TimerAt != 5000 {
			t.Fatalf("state %+v %+v", st.Pending, st.Waits)
		}
	})
}

func TestHostLate(t *testing.T) {
	t.Run("LATE-8 answer() resumes nothing: a stale caller fails, the remote lookup resumes first", func(t *testing.T) {
		r := timedRun(t, Config{})
		r.do(0, ask("c1", "5"))
		r.do(5000, wire.Tick{})
		r.do(5001, wire.CloseSession{Session: "s1"})
		effs := r.do(5002, wire.Direct{ID: "d", Op: wire.OpAnswer, Session: "s1", Agent: wire.AgentStale, Body: json.RawMessage(`{"callId":"c1","answer":` + batchA + `}`)})
		if d, _ := directResult(effs, "d"); !d.Err.HasCode(wire.CallerNotLive) {
			t.Fatalf("stale answer %+v", d)
		}
		if r.session("s1").Live {
			t.Fatal("answer() resumed the Session")
		}
		if _, err := r.try(5003, wire.Direct{ID: "d2", Op: wire.OpAnswer, Session: "s1", Agent: wire.AgentLive, Body: json.RawMessage(`{"callId":"c1","answer":` + batchA + `}`)}); err == nil {
			t.Fatal("direct live answer with no live agent was accepted")
		}
		effs = r.do(5004, answerCall("r", "c1", batchA))
		if env, _ := reply(effs, "r"); env.String() != `{"ok":true,"value":true}` {
			t.Fatalf("reply %s", env)
		}
	})
	t.Run("PROJ-8 a reply sent with its source by another producer settles with an empty batch when its text is unusable", func(t *testing.T) {
		r := timedRun(t, Config{})
		r.do(0, ask("c1", "1"))
		r.do(1000, wire.Tick{})
		if v := r.view("s1"); v != "active=[c1:continued] settled=[]" {
			t.Fatalf("view %s", v)
		}
		reply := session.Source{Kind: session.SourceUserQuestionReply, CallID: "c1", Outcome: "answered"}
		// A source with a call id but no kind is refused and changes nothing.
		r.do(1500, wire.Tick{})
		if effs, err := r.try(1500, wire.Send{Session: "s1", Target: session.NextStep, Text: "x", Source: session.Source{CallID: "c1"}}); err == nil || len(effs) != 0 {
			t.Fatalf("a kindless source: %v %v", effs, err)
		}
		r.do(2000, wire.Send{Session: "s1", Target: session.NextStep, Text: "bun, please", Source: reply})
		if v := r.view("s1"); v != "active=[c1:continued] settled=[]" {
			t.Fatalf("queuing settled it (PROJ-9): %s", v)
		}
		r.do(2000, wire.EndStep{Session: "s1", Final: true}) // the next step admits the reply
		s := r.session("s1")
		if !logHas(s, `user/message msg-2 user-question-reply(call=c1,outcome=answered) "bun, please"`) {
			t.Fatalf("log %v", s.Log)
		}
		if v := s.Questions.String(); v != "active=[] settled=[c1{}]" {
			t.Fatalf("view %s", v)
		}
	})
	t.Run("LATE-5 a failed steer releases the reservation and the RPC fails with its error; a later answer is accepted", func(t *testing.T) {
		r := timedRun(t, Config{})
		r.do(0, ask("c1", "5"))
		r.do(5000, wire.Tick{})
		r.do(5000, wire.FailInboxWrite{Session: "s1"})
		logLen := len(r.session("s1").Log)
		effs := r.do(6000, answerCall("r1", "c1", batchA))
		env, _ := reply(effs, "r1")
		if env.OK || env.Error == nil || !strings.Contains(env.Error.Message, "storage write error") {
			t.Fatalf("reply %s", env)
		}
		if s := r.session("s1"); len(s.Log) != logLen || len(s.Inbox.NextStep) != 0 || len(r.h.State().Reservations) != 0 {
			t.Fatalf("a failed steer left a trace: log %d->%d inbox %v reservations %v", logLen, len(s.Log), s.Inbox, r.h.State().Reservations)
		}
		// The fault was one-shot: the same answer now goes through (no REPLY_QUEUED).
		effs = r.do(6100, answerCall("r2", "c1", batchA))
		if env, _ := reply(effs, "r2"); env.String() != `{"ok":true,"value":true}` {
			t.Fatalf("reply %s", env)
		}
		// A prompt to a cold Session whose write fails is refused before the resume.
		r.do(7000, wire.OpenSession{Session: "s2"})
		r.do(7000, wire.Restart{CutAfter: -1})
		r.do(7000, wire.FailInboxWrite{Session: "s2"})
		if _, err := r.try(7100, wire.Send{Session: "s2", Target: session.NextTurn, Text: "x"}); err == nil || r.session("s2").Live {
			t.Fatalf("err %v live %v", err, r.session("s2").Live)
		}
		// A restart disarms an armed fault; an unknown Session is refused.
		r.do(7200, wire.FailInboxWrite{Session: "s2"})
		r.do(7300, wire.Restart{CutAfter: -1})
		r.do(7400, wire.Send{Session: "s2", Target: session.NextTurn, Text: "y"})
		if _, err := r.try(7500, wire.FailInboxWrite{Session: "nope"}); err == nil {
			t.Fatal("a fault on an unknown Session was taken")
		}
	})
	t.Run("LATE-2 over the wire: a second answer while the reply waits is REPLY_QUEUED with its code", func(t *testing.T) {
		r := timedRun(t, Config{})
		r.do(0, ask("c1", "5"))
		r.do(0, wire.ToolCall{Session: "s1", CallID: "z", Name: "sleep", Args: `{"ms":100000}`})
		r.do(5000, wire.Tick{})
		r.do(6000, answerCall("r1", "c1", batchA))
		effs := r.do(6001, answerCall("r2", "c1", batchA))
		env, _ := reply(effs, "r2")
		if env.OK || env.Error.Code != wire.ReplyQueued {
			t.Fatalf("reply %s", env)
		}
		effs = r.do(6002, answerCall("r3", "c1", `{"answers":[]}`))
		if env, _ := reply(effs, "r3"); env.Error.Code != wire.ReplyQueued {
			t.Fatalf("reply %s", env)
		}
	})
	t.Run("LATE-7 discarding the queued reply over the wire lets the question be answered again", func(t *testing.T) {
		r := timedRun(t, Config{})
		r.do(0, ask("c1", "5"))
		r.do(0, wire.ToolCall{Session: "s1", CallID: "z", Name: "sleep", Args: `{"ms":100000}`})
		r.do(5000, wire.Tick{})
		r.do(6000, answerCall("r1", "c1", batchA))
		in := r.session("s1").Inbox
		if len(in.NextStep) != 1 {
			t.Fatalf("inbox %s", in)
		}
		effs := r.do(6001, wire.Call{Client: "A", Gen: 1, RPCID: "d", Endpoint: wire.EndpointDiscard, Args: json.RawMessage(`{"agentId":"s1","messageId":"` + in.NextStep[0].ID + `"}`)})
		if env, _ := reply(effs, "d"); env.String() != `{"ok":true,"value":true}` {
			t.Fatalf("discard %s", env)
		}
		if len(r.h.State().Reservations) != 0 || r.view("s1") != "active=[c1:continued] settled=[]" {
			t.Fatal("reservation kept or view changed")
		}
		effs = r.do(6002, answerCall("r2", "c1", batchA))
		if env, _ := reply(effs, "r2"); env.String() != `{"ok":true,"value":true}` {
			t.Fatalf("answer again %s", env)
		}
		effs = r.do(100000, wire.Tick{}) // the sleep ends, the step ends, the reply is admitted
		r.do(100001, wire.EndStep{Session: "s1", Final: true})
		if v := r.view("s1"); v != "active=[] settled=[c1{a=[x]}]" {
			t.Fatalf("view %s", v)
		}
		_ = effs
	})
}

func TestHostRestart(t *testing.T) {
	t.Run("AGENT-2 a restart keeps the log and inbox and loses waits, claims, reservations and connections", func(t *testing.T) {
		r := timedRun(t, Config{})
		r.do(0, ask("c1", "5"))
		r.do(0, ask("c2", "60"))
		r.do(0, wire.ToolCall{Session: "s1", CallID: "z", Name: "sleep", Args: `{"ms":100000}`})
		r.do(100, attach("A", 1, "w", "c2"))
		r.do(5000, wire.Tick{})
		r.do(6000, answerCall("r1", "c1", batchA))
		before := r.h.State()
		if len(before.Waits) != 1 || before.Waits[0].Claims != 1 || len(before.Reservations) != 1 || len(before.Clients) != 1 || len(before.Pending) != 1 {
			t.Fatalf("before: %+v", before)
		}
		s := r.session("s1")
		durable := s.Log[:s.Persisted]
		replyID := s.Inbox.NextStep[0].ID
		effs := r.do(7000, wire.Restart{CutAfter: -1})
		after := r.h.State()
		if len(after.Waits) != 0 || len(after.Clients) != 0 || len(after.Pending) != 0 {
			t.Fatalf("after: %+v", after)
		}
		s2 := r.session("s1")
		for i, e := range durable {
			if s2.Log[i].String() != e.String() {
				t.Fatalf("log changed at %d: %s, was %s", i, s2.Log[i], e)
			}
		}
		// The inbox came back: the restored reply was claimed (the reservation re-created and
		// released by its admission) and admitted as user/message.
		if len(after.Reservations) != 0 || !logHas(s2, "user/message "+replyID) {
			t.Fatalf("restored reply not admitted: %v", after.Reservations)
		}
		if len(frames(effs, "A")) != 0 {
			t.Fatal("frames sent across a restart")
		}
		// AGENT-3: the cut-off c2 is TOOL_OUTCOME_UNKNOWN and continued; c1 settled by the reply.
		if v := s2.Questions.String(); v != "active=[c2:continued] settled=[c1{a=[x]}]" {
			t.Fatalf("view %s", v)
		}
		// Clients must reconnect and get a Reset of every Session.
		effs = r.do(7001, wire.Connect{Client: "A"})
		var up wire.SessionUpdate
		for _, f := range frames(effs, "A") {
			if u, ok := f.(wire.SessionUpdate); ok {
				up = u
			}
		}
		if !up.Reset || len(up.Events) != len(s2.Log) {
			t.Fatalf("update %s", up)
		}
	})
	t.Run("AGENT-5 a prompt to a cold Session resumes its root; its continued question stays answerable", func(t *testing.T) {
		r := timedRun(t, Config{})
		r.do(0, ask("c1", "5"))
		r.do(100, wire.Restart{CutAfter: -1})
		if r.session("s1").Live {
			t.Fatal("a restart left s1 live")
		}
		// The model's commands inside a turn never resume: a cold Session has no turn.
		before := fmt.Sprint(r.h.State())
		for _, cmd := range []wire.Command{
			wire.Header{Session: "s1"}, ask("c2", "5"), wire.EndStep{Session: "s1", Final: true},
			wire.CancelTurn{Session: "s1"}, wire.Send{Session: "s1", Target: "later", Text: "x"},
			wire.Send{Session: "nope", Target: session.NextTurn, Text: "x"},
		} {
			if effs, err := r.try(150, cmd); err == nil || len(effs) != 0 {
				t.Fatalf("%s on a cold Session: %v %v", cmd, effs, err)
			}
		}
		if after := fmt.Sprint(r.h.State()); after != before {
			t.Fatalf("a refused command changed the host:\n%s\n%s", before, after)
		}
		// A prompt resumes the root and wakes it; the step admits the prompt (AGENT-1).
		r.do(200, wire.Send{Session: "s1", Target: session.NextTurn, Text: "later"})
		s := r.session("s1")
		if !s.Live || !s.Root || !logHas(s, "turn/start turn=2") || !logHas(s, `user/message msg-2 user "later"`) {
			t.Fatalf("live %v root %v log %v", s.Live, s.Root, s.Log)
		}
		if v := s.Questions.String(); v != "active=[c1:continued] settled=[]" {
			t.Fatalf("view %s", v)
		}
		r.do(200, wire.Header{Session: "s1"})
		if !logHas(r.session("s1"), "request/header reason=resume") {
			t.Fatal("the resumed instance's first header is not reason=resume")
		}
		r.do(200, ask("c2", "5"))
		// A steer to a closed Session resumes it too, and wakes it when idle.
		r.do(300, wire.OpenSession{Session: "s2"})
		r.do(300, wire.CloseSession{Session: "s2"})
		r.do(400, wire.Send{Session: "s2", Target: session.NextStep, Text: "steer"})
		if s2 := r.session("s2"); !s2.Live || !s2.Root || !logHas(s2, `user/message`) {
			t.Fatalf("s2 live %v root %v log %v", s2.Live, s2.Root, s2.Log)
		}
	})
	t.Run("AGENT-3 a question cut off by a restart is repaired and late-answerable", func(t *testing.T) {
		r := timedRun(t, Config{})
		r.do(0, ask("c1", "5"))
		r.do(100, wire.Restart{CutAfter: -1})
		s := r.session("s1")
		if !logHas(s, "err="+session.ToolOutcomeUnknownName+"/"+session.ToolOutcomeUnknown) || s.Questions.String() != "active=[c1:continued] settled=[]" {
			t.Fatalf("view %s", s.Questions)
		}
		r.do(200, wire.Connect{Client: "A"})
		effs := r.do(300, wire.Call{Client: "A", Gen: 2, RPCID: "r", Endpoint: wire.EndpointAnswer, Args: json.RawMessage(`{"agentId":"s1","callId":"c1","answer":` + batchA + `}`)})
		if env, _ := reply(effs, "r"); env.String() != `{"ok":true,"value":true}` {
			t.Fatalf("reply %s", env)
		}
		if v := r.view("s1"); v != "active=[] settled=[c1{a=[x]}]" {
			t.Fatalf("view %s", v)
		}
	})
	t.Run("AGENT-4 a PTC question is late-answerable only if its dispatch record was persisted", func(t *testing.T) {
		for _, persisted := range []bool{false, true} {
			r := timedRun(t, Config{WriteWindowMs: 1000})
			runCode := `{"calls":[{"name":"ask_user_question","arguments":` + askArgs("5") + `}]}`
			r.do(0, wire.ToolCall{Session: "s1", CallID: "p", Name: "run_code", Args: runCode})
			r.do(0, wire.ToolCall{Session: "s1", CallID: "z", Name: "sleep", Args: `{"ms":100000}`})
			r.do(5000, wire.Tick{}) // the sub-call goes pending; its record rides the window
			if v := r.view("s1"); v != "active=[p:ptc:1:continued] settled=[]" {
				t.Fatalf("view %s", v)
			}
			at := int64(5500)
			if persisted {
				at = 7000 // the window closed at 6000
			}
			r.do(at, wire.Restart{CutAfter: -1})
			r.do(at+1, wire.Connect{Client: "A"})
			effs := r.do(at+2, wire.Call{Client: "A", Gen: 2, RPCID: "r", Endpoint: wire.EndpointAnswer,
				Args: json.RawMessage(`{"agentId":"s1","callId":"p:ptc:1","answer":` + batchA + `}`)})
			env, _ := reply(effs, "r")
			want := `{"ok":true,"value":false}`
			if persisted {
				want = `{"ok":true,"value":true}`
			}
			if env.String() != want {
				t.Fatalf("persisted=%v: reply %s, view %s", persisted, env, r.view("s1"))
			}
		}
	})
	t.Run("AGENT-6 a crash cut between the Persisted of a reply and its Reply keeps the reply", func(t *testing.T) {
		setup := func() *run {
			r := timedRun(t, Config{WriteWindowMs: 10000})
			r.do(0, ask("c1", "5"))
			r.do(0, wire.ToolCall{Session: "s1", CallID: "z", Name: "sleep", Args: `{"ms":100000}`})
			r.do(5000, wire.Tick{})
			return r
		}
		r := setup()
		effs := r.do(6000, answerCall("r1", "c1", batchA))
		_, ri := reply(effs, "r1")
		pi := -1
		for i, e := range effs[:ri] {
			if p, ok := e.(wire.Persisted); ok && p.Session == "s1" && p.Through == len(r.session("s1").Log) {
				pi = i
			}
		}
		if ri < 0 || pi < 0 || pi > ri {
			t.Fatalf("no Persisted of the reply before its Reply: %v", effs)
		}
		replyID := r.session("s1").Inbox.NextStep[0].ID
		for k := 0; k <= len(effs); k++ {
			r := setup()
			r.do(6000, answerCall("r1", "c1", batchA))
			r.do(6001, wire.Restart{CutAfter: k})
			s := r.session("s1")
			kept := logHas(s, "+["+replyID+" ")
			if k > ri && !kept {
				t.Fatalf("cut after %d: the client was told true but the reply is lost", k)
			}
			if k <= pi && kept {
				t.Fatalf("cut after %d (before its Persisted at %d): the reply survived", k, pi)
			}
			if kept && s.Questions.String() != "active=[] settled=[c1{a=[x]}]" {
				t.Fatalf("cut after %d: restored reply not admitted: %s", k, s.Questions)
			}
			if !kept && s.Questions.String() != "active=[c1:continued] settled=[]" {
				t.Fatalf("cut after %d: view %s", k, s.Questions)
			}
		}
	})
	t.Run("PROJ-12 a restart refolds the same view from the durable log", func(t *testing.T) {
		r := timedRun(t, Config{WriteWindowMs: -1})
		r.do(0, ask("c1", "5"))
		r.do(5000, wire.Tick{})
		r.do(5001, wire.EndStep{Session: "s1", Final: true})
		before := r.view("s1")
		r.do(6000, wire.Restart{CutAfter: -1})
		if after := r.view("s1"); after != before {
			t.Fatalf("view %s after restart, was %s", after, before)
		}
	})
}

func TestHostBadInput(t *testing.T) {
	r := timedRun(t, Config{})
	r.do(0, ask("c1", "5"))
	bad := []wire.Command{
		nil,
		wire.OpenSession{Session: "s1"},
		wire.OpenSession{Session: ""},
		wire.OpenSession{Session: "x", Owner: "ghost"},
		wire.OpenSession{Session: "x", ForkOf: "s1", ForkThrough: 999},
		wire.CloseSession{Session: "ghost"},
		wire.Send{Session: "s1", Target: "later", Text: "x"},
		wire.Send{Session: "ghost", Target: session.NextTurn},
		wire.Header{Session: "ghost"},
		wire.ToolCall{Session: "s1", CallID: "c1", Name: questions.ToolName, Args: "{}"},
		wire.ToolCall{Session: "s1", CallID: "", Name: "x"},
		wire.EndStep{Session: "ghost"},
		wire.CancelTurn{Session: "ghost"},
		wire.Direct{ID: "", Op: wire.OpAsk},
		wire.Direct{ID: "d", Op: "shout", Session: "s1", Agent: wire.AgentLive},
		wire.Direct{ID: "d", Op: wire.OpAsk, Session: "s1", Agent: "who"},
		wire.Direct{ID: "d", Op: wire.OpAsk, Session: "s1", Agent: wire.AgentLive, Body: json.RawMessage(`{"questions":"no"}`)},
		wire.Direct{ID: "d", Op: wire.OpAskTimed, Session: "s1", Agent: wire.AgentLive, Body: json.RawMessage(`{}`)},
		wire.Direct{ID: "d", Op: wire.OpAnswer, Session: "s1", Agent: wire.AgentLive, Body: json.RawMessage(`{"callId":"c1"}`)},
		wire.Direct{ID: "d", Op: wire.OpAsk, Session: "ghost", Agent: wire.AgentStale},
		wire.Connect{Client: ""},
		wire.Disconnect{Client: "ghost"},
		wire.StreamOpen{Client: "A", Gen: 7, StreamID: "s", Endpoint: wire.EndpointAttachWait},
		wire.StreamCancel{Client: "ghost", Gen: 1, StreamID: "s"},
	}
	for _, c := range bad {
		before := r.h.State()
		effs, err := r.try(10, c)
		if err == nil {
			t.Errorf("%v accepted", c)
		}
		if len(effs) != 0 {
			t.Errorf("%v: effects %v", c, effs)
		}
		if after := r.h.State(); after.Sessions[0].Questions.String() != before.Sessions[0].Questions.String() || len(after.Sessions) != len(before.Sessions) || len(after.Sessions[0].Log) != len(before.Sessions[0].Log) {
			t.Errorf("%v changed the state", c)
		}
	}
	if _, err := r.h.Apply(5, wire.Tick{}); err == nil {
		t.Error("time going backwards accepted")
	}
	// A Direct whose service answer is an error is an effect, not a command error.
	effs := r.do(20, wire.Direct{ID: "d", Op: wire.OpAskTimed, Session: "s1", Agent: wire.AgentLive, Body: json.RawMessage(`{"questions":[{"id":"a","question":"?"}],"callId":"c9","timeoutMs":1.5}`)})
	if d, ok := directResult(effs, "d"); !ok || !d.Err.HasCode(wire.BadTimeout) {
		t.Fatalf("direct %+v", d)
	}
}
