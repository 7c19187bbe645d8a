package tracemodel

import (
	"encoding/json"
	"testing"

	"github.com/twosettle/twosettle/engine/session"
	"github.com/twosettle/twosettle/engine/wire"
	"github.com/twosettle/twosettle/trace"
)

// recs numbers records and gives each its time.
type recs []trace.Record

func (rs *recs) add(t int64, actor string, kind trace.Kind, p trace.Payload) int {
	*rs = append(*rs, trace.Record{Seq: len(*rs), Time: t, Actor: actor, Kind: kind, ClientTime: t, Payload: p})
	return len(*rs) - 1
}

func host(rs *recs, t int64, kind trace.Kind, p trace.Payload) int {
	return rs.add(t, trace.ActorHost, kind, p)
}

func appended(s string, d session.Data) wire.Appended {
	return wire.Appended{Session: s, Event: session.Event{Data: d}}
}

const askArgs = `{"questions":[{"id":"q","question":"Go?"}]}`

func attach(call string) json.RawMessage {
	return json.RawMessage(`{"agentId":"s1","callId":"` + call + `"}`)
}

func TestFoldACallItsWaitItsClaimAndItsPendingResult(t *testing.T) {
	var rs recs
	host(&rs, 0, trace.In, wire.Send{Session: "s1"})
	ask := host(&rs, 0, trace.Out, appended("s1", session.ToolCall{CallID: "c1", Name: ToolName, Arguments: askArgs}))
	created := host(&rs, 0, trace.Out, wire.WaitNote{Session: "s1", CallID: "c1", Kind: wire.WaitCreated, Deadline: 5000})
	open := host(&rs, 100, trace.In, wire.StreamOpen{Client: "a", Gen: 1, StreamID: "a-s1", Endpoint: wire.EndpointAttachWait, Args: attach("c1")})
	host(&rs, 100, trace.Out, wire.WaitNote{Session: "s1", CallID: "c1", Kind: wire.WaitClaimed, Claims: 1, Remaining: 4900})
	end := host(&rs, 5000, trace.Out, wire.SendFrame{Client: "a", Gen: 1, Frame: wire.StreamEnd{StreamID: "a-s1"}})
	expired := host(&rs, 5000, trace.Out, wire.WaitNote{Session: "s1", CallID: "c1", Kind: wire.WaitExpired})
	result := host(&rs, 5000, trace.Out, appended("s1", session.ToolResult{CallID: "c1", Text: `{"pending":true,"callId":"c1"}`}))
	other := host(&rs, 5000, trace.Out, appended("s1", session.ToolCall{CallID: "x", Name: "run_code", Arguments: `{}`}))
	run := Fold(&trace.Trace{Records: rs, Final: trace.Final{Time: 6000}})

	if len(run.Calls) != 1 {
		t.Fatalf("calls %d, want 1 (run_code is not a question call)", len(run.Calls))
	}
	c := run.Calls[0]
	if c.Key() != "s1/c1" || c.Kind != Tool || c.Rec != ask || len(c.Questions()) != 1 || c.Questions()[0] != "Go?" {
		t.Fatalf("call %+v", c)
	}
	t.Run("PROJ-3 PROJ-4 a tool call opens the call and a pending result continues it", func(t *testing.T) {
		want := []Phase{{Open, 0, ask}, {Continued, 5000, result}}
		if len(c.Phases) != 2 || c.Phases[0] != want[0] || c.Phases[1] != want[1] {
			t.Fatalf("phases %+v, want %+v", c.Phases, want)
		}
		if len(c.Results) != 1 || c.Results[0].Kind != Pending || run.Facts[result].Result.Kind != Pending {
			t.Fatalf("results %+v", c.Results)
		}
	})
	t.Run("WAIT-1 the wait has its deadline and its notes; the call its marks", func(t *testing.T) {
		if len(run.Waits) != 1 || run.Waits[0].Deadline != 5000 || len(run.Waits[0].Notes) != 3 || run.Facts[created].Wait != run.Waits[0] {
			t.Fatalf("waits %+v", run.Waits)
		}
		if len(c.Marks) != 2 || c.Marks[0] != (Mark{Kind: Deadline, At: 5000, Rec: created}) || c.Marks[1] != (Mark{Kind: Expired, At: 5000, Rec: expired}) {
			t.Fatalf("marks %+v", c.Marks)
		}
	})
	t.Run("WAIT-4 CLAIM-3 the claim stream runs from the host's stream-open to its end frame", func(t *testing.T) {
		if len(c.Claims) != 1 {
			t.Fatalf("claims %+v", c.Claims)
		}
		s := c.Claims[0]
		if s.Open != open || s.End != end || s.Why != EndFrame || s.EndAt != 5000 || run.Facts[end].Stream != s {
			t.Fatalf("stream %+v", s)
		}
	})
	if run.Facts[other].Call != nil || run.End != 6000 {
		t.Fatalf("the run_code call is about no question call; end %d", run.End)
	}
}

func TestFoldACrashCutVoidsTheApplysLaterEffects(t *testing.T) {
	t.Run("AGENT-6 Restart{CutAfter: 1} voids the effects after the first", func(t *testing.T) {
		var rs recs
		host(&rs, 0, trace.In, wire.Send{Session: "s1"})
		kept := host(&rs, 0, trace.Out, appended("s1", session.ToolCall{CallID: "c1", Name: ToolName, Arguments: askArgs}))
		rs.add(0, "a", trace.In, wire.LinkDown{}) // another actor's record does not count
		v1 := host(&rs, 0, trace.Out, wire.WaitNote{Session: "s1", CallID: "c1", Kind: wire.WaitCreated, Deadline: 5000})
		v2 := host(&rs, 0, trace.Out, wire.Persisted{Session: "s1", Through: 1})
		rs.add(0, trace.ActorSim, trace.Fault, trace.Injected{Kind: "crash", Point: "after-effect", Cut: 1, Of: 3})
		restart := host(&rs, 0, trace.In, wire.Restart{CutAfter: 1})
		after := host(&rs, 0, trace.Out, appended("s1", session.ToolResult{CallID: "c1", IsError: true}))
		run := Fold(&trace.Trace{Records: rs})
		for i, f := range run.Facts {
			want := i == v1 || i == v2
			if f.Voided != want {
				t.Errorf("record %d voided %v, want %v", i, f.Voided, want)
			}
		}
		if run.Facts[kept].Voided || run.Facts[after].Voided {
			t.Fatal("kept effects voided")
		}
		if len(run.Restarts) != 1 || run.Restarts[0] != (Restart{Rec: restart, Crash: true, CutAfter: 1}) {
			t.Fatalf("restarts %+v", run.Restarts)
		}
	})
	t.Run("a restart between commands voids nothing and is no crash", func(t *testing.T) {
		var rs recs
		host(&rs, 0, trace.In, wire.Send{Session: "s1"})
		host(&rs, 0, trace.Out, wire.Persisted{Session: "s1", Through: 1})
		host(&rs, 10, trace.In, wire.Restart{CutAfter: -1})
		run := Fold(&trace.Trace{Records: rs})
		if run.Facts[1].Voided || run.Restarts[0].Crash {
			t.Fatalf("facts %+v restarts %+v", run.Facts, run.Restarts)
		}
	})
}

func TestFoldClientClaimStreams(t *testing.T) {
	for _, c := range []struct {
		name string
		end  trace.Payload // what ends the stream after its frame
		kind trace.Kind
		who  string
	}{
		{"CLAIM-6 the host's end frame", wire.FromHost{Frame: wire.StreamEnd{StreamID: "a-s1"}}, trace.In, "a"},
		{"CLAIM-6 the host's error frame", wire.FromHost{Frame: wire.StreamError{StreamID: "a-s1", Code: "X"}}, trace.In, "a"},
		{"GW-7 the client's link going down", wire.LinkDown{}, trace.In, "a"},
		{"GW-7 the page reloading", wire.Reload{}, trace.In, "a"},
		{"the client crashing", trace.Injected{Kind: "client-crash", Target: "a", Of: -1}, trace.Fault, trace.ActorSim},
	} {
		t.Run(c.name+" ends a client's claim stream", func(t *testing.T) {
			var rs recs
			open := rs.add(0, "a", trace.Out, wire.OpenStream{Gen: 1, StreamID: "a-s1", Endpoint: wire.EndpointAttachWait, Args: attach("c1")})
			mid := rs.add(10, "b", trace.In, wire.LinkDown{}) // another client's
			frame := rs.add(20, "a", trace.In, wire.FromHost{Frame: wire.StreamItem{StreamID: "a-s1", Value: json.RawMessage(`{"remainingMs":100}`)}})
			held := rs.add(30, "b", trace.In, wire.LinkDown{})
			end := rs.add(40, c.who, c.kind, c.end)
			after := rs.add(50, "b", trace.In, wire.LinkDown{})
			run := Fold(&trace.Trace{Records: rs})
			if len(run.Client) != 1 || len(run.Calls) != 1 {
				t.Fatalf("client streams %+v calls %+v", run.Client, run.Calls)
			}
			s := run.Client[0]
			if s.Open != open || s.Frame != frame || s.End != end || s.Call != run.Calls[0] || run.Facts[frame].ClientStream != s {
				t.Fatalf("stream %+v", s)
			}
			if !s.Waiting(mid) || s.Claimed(mid) || s.Waiting(held) || !s.Claimed(held) || s.Claimed(after) || s.Waiting(after) {
				t.Fatal("WAIT-3 CD-3 waiting before the frame, claimed after it, neither after the end")
			}
		})
	}
}

func TestFoldRequestsDirectCallsAndViews(t *testing.T) {
	var rs recs
	connect := host(&rs, 0, trace.In, wire.Connect{Client: "a"})
	req := json.RawMessage(`{"questions":[{"id":"q","question":"Go?"}],"wait":{"callId":"c1","timed":true}}`)
	deliver := host(&rs, 0, trace.Out, wire.SendFrame{Client: "a", Gen: 1, Frame: wire.Waterfall{EventID: "e1", Event: wire.EventQuestionsRequest, AgentID: "s1", Request: req}})
	outcome := host(&rs, 50, trace.In, wire.EventResult{Client: "a", Gen: 1, RPCID: "r1", EventID: "e1", Outcome: wire.Outcome{Kind: wire.OutcomeResult}})
	ask := host(&rs, 60, trace.In, wire.Direct{ID: "d1", Op: wire.OpAskTimed, Session: "s1", Agent: wire.AgentLive, Body: json.RawMessage(`{"questions":[{"id":"q","question":"Now?"}],"wait":{"callId":"d1w"}}`)})
	pend := host(&rs, 70, trace.Out, wire.DirectResult{ID: "d1", Value: json.RawMessage(`{"pending":true,"callId":"d1w"}`)})
	answer := host(&rs, 80, trace.In, wire.Call{Client: "a", Gen: 1, RPCID: "r2", Endpoint: wire.EndpointAnswer, Args: attach("d1w")})
	reply := host(&rs, 80, trace.Out, wire.Reply{Client: "a", Gen: 1, RPCID: "r2", Envelope: wire.OKValue(json.RawMessage(`true`))})
	v1 := host(&rs, 90, trace.Out, wire.SendFrame{Client: "a", Gen: 1, Frame: wire.SessionUpdate{Session: "s1",
		Questions: wire.QuestionsView{Active: []wire.PendingRow{{CallID: "c1", State: wire.StateContinued}}}}})
	v2 := host(&rs, 95, trace.Out, wire.SendFrame{Client: "a", Gen: 1, Frame: wire.SessionUpdate{Session: "s1"}})
	host(&rs, 99, trace.In, wire.Disconnect{Client: "a"})
	run := Fold(&trace.Trace{Records: rs})

	if len(run.Calls) != 2 {
		t.Fatalf("calls %+v", run.Calls)
	}
	c1, d1w := run.Calls[0], run.Calls[1]
	t.Run("GW-5 a request's wait names its call; its outcome is an answer mark", func(t *testing.T) {
		q := run.Request("e1")
		if q == nil || q.Call != c1 || len(q.Deliveries) != 1 || q.Deliveries[0] != (Delivery{"a", 1, deliver}) || len(q.Outcomes) != 1 || run.Facts[outcome].Request != q {
			t.Fatalf("request %+v", q)
		}
		if len(c1.Marks) != 1 || c1.Marks[0] != (Mark{Kind: Answer, At: 50, Rec: outcome, Client: "a"}) {
			t.Fatalf("marks %+v", c1.Marks)
		}
	})
	t.Run("ASK-8 ASK-9 a direct askTimed opens a service call; its pending result continues it", func(t *testing.T) {
		if d1w.Kind != Service || d1w.Rec != ask || len(run.Directs) != 1 || run.Directs[0].Result != pend || run.Facts[pend].Result.Kind != Pending {
			t.Fatalf("call %+v directs %+v", d1w, run.Directs)
		}
		if d1w.State() != Continued {
			t.Fatalf("phases %+v", d1w.Phases)
		}
	})
	t.Run("LATE-1 an answer RPC names its call and its reply", func(t *testing.T) {
		rpc := run.Facts[answer].RPC
		if rpc == nil || rpc.Call != d1w || rpc.Reply != reply || run.Facts[reply].RPC != rpc || !rpc.Envelope.OK {
			t.Fatalf("rpc %+v", rpc)
		}
	})
	t.Run("PROJ-6 a view's rows set the state; a row the next view lacks is removed", func(t *testing.T) {
		if !c1.InView || d1w.InView {
			t.Fatal("in view")
		}
		want := []Phase{{Continued, 90, v1}, {Removed, 95, v2}}
		if len(c1.Phases) != 2 || c1.Phases[0] != want[0] || c1.Phases[1] != want[1] {
			t.Fatalf("phases %+v, want %+v", c1.Phases, want)
		}
	})
	t.Run("GW-7 a connection has its generation, from its connect to its disconnect", func(t *testing.T) {
		if len(run.Conns) != 1 || run.Conns[0].Gen != 1 || run.Conns[0].Rec != connect || run.Conns[0].End != len(rs)-1 {
			t.Fatalf("conns %+v", run.Conns)
		}
	})
}
