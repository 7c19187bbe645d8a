package conform

import (
	"strings"
	"testing"

	"github.com/twosettle/twosettle/engine/session"
	"github.com/twosettle/twosettle/engine/wire"
	"github.com/twosettle/twosettle/sim"
	"github.com/twosettle/twosettle/trace"
)

// a small trace whose host-minted ids and refusal text are parameters.
func mintedTrace(msg, ev, refusal string, note bool) *trace.Trace {
	recs := []trace.Record{
		{Actor: trace.ActorHost, Kind: trace.In, Payload: wire.Send{Session: "s1", Target: session.NextTurn, Text: "hi"}},
		{Actor: trace.ActorHost, Kind: trace.Out, Payload: wire.Appended{Session: "s1", Event: session.Event{Seq: 0, Data: session.InboxSpliced{Target: session.NextTurn, Inserted: []session.Message{{ID: msg, Source: session.Source{Kind: session.SourceUser}, Text: "hi"}}}}}},
	}
	if note {
		recs = append(recs, trace.Record{Actor: trace.ActorHost, Kind: trace.Out, Payload: wire.WaitNote{Session: "s1", CallID: "c1", Kind: wire.WaitCreated, Deadline: 5000}})
	}
	recs = append(recs,
		trace.Record{Actor: trace.ActorHost, Kind: trace.Out, Payload: wire.SendFrame{Client: "a", Gen: 1, Frame: wire.Waterfall{EventID: ev, Event: wire.EventQuestionsRequest, AgentID: "s1", Request: []byte(`{}`)}}},
		trace.Record{Actor: trace.ActorHost, Kind: trace.In, Payload: wire.EventResult{Client: "a", Gen: 1, RPCID: "a-r1", EventID: ev, Outcome: wire.Outcome{Kind: wire.OutcomeNext}}},
		trace.Record{Actor: trace.ActorHost, Kind: trace.Reject, Payload: trace.Rejected{Input: wire.Tick{}, Err: refusal}},
	)
	for i := range recs {
		recs[i].Seq = i
	}
	return &trace.Trace{Seed: 1, Records: recs}
}

func TestComparableNormalisesOnlyWhatAHostMayChoose(t *testing.T) {
	ref := Comparable("x", mintedTrace("msg-1", "e1", "no live agent", true), true)
	t.Run("minted ids and refusal words are the host's own", func(t *testing.T) {
		got := Comparable("x", mintedTrace("inbox/42", "evt-9f", "session not running", true), true)
		if d := Divergence(ref, got); d != "" {
			t.Fatal(d)
		}
		if strings.Contains(string(got), "evt-9f") || !strings.Contains(string(got), "⟨e1⟩") {
			t.Fatalf("ids not renamed:\n%s", got)
		}
	})
	t.Run("an id reused for two things is a divergence", func(t *testing.T) {
		got := Comparable("x", mintedTrace("same", "same", "r", true), true)
		if Divergence(ref, got) == "" {
			t.Fatal("a host that used one id for a message and an event compares equal")
		}
	})
	t.Run("without introspection wait notes are left out of both sides", func(t *testing.T) {
		a := Comparable("x", mintedTrace("msg-1", "e1", "r", true), false)
		b := Comparable("x", mintedTrace("m", "e", "r", false), false)
		if d := Divergence(a, b); d != "" {
			t.Fatal(d)
		}
		if d := Divergence(Comparable("x", mintedTrace("m", "e", "r", true), true), Comparable("x", mintedTrace("m", "e", "r", false), true)); d == "" {
			t.Fatal("with introspection a missing wait note must diverge")
		}
	})
	t.Run("anything else is compared exactly", func(t *testing.T) {
		tr := mintedTrace("msg-1", "e1", "r", true)
		tr.Records[0].Payload = wire.Send{Session: "s1", Target: session.NextTurn, Text: "hi!"}
		if Divergence(ref, Comparable("x", tr, true)) == "" {
			t.Fatal("a changed message text compares equal")
		}
	})
}

func TestNeedsNamesTheFeaturesARunUses(t *testing.T) {
	cfg := &sim.Config{Steps: []sim.Step{
		{Host: wire.ToolCall{Session: "s1", CallID: "c1", Name: "run_code", Args: "{}"}},
		{Host: wire.OpenSession{Session: "s2", ForkOf: "s1", ForkThrough: 3}},
		{Fault: &sim.Fault{Kind: sim.FaultCrash, Point: sim.PointBeforeAnswerAck}},
	}}
	got := strings.Join(Needs(cfg, wire.HostConfig{WriteWindowMs: -1}), ",")
	if got != "crash-cut,fork,ptc,restart" {
		t.Errorf("needs %s", got)
	}
	if got := strings.Join(Needs(&sim.Config{}, wire.HostConfig{}), ","); got != FeatureWriteWindow {
		t.Errorf("the default 200 ms window needs %s, got %q", FeatureWriteWindow, got)
	}
	if len(NotChecked([]string{FeatureIntrospection})) != 0 || len(NotChecked(nil)) == 0 {
		t.Error("NotChecked: introspection checks everything; without it some invariants are not checked")
	}
}
