package judge

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/twosettle/twosettle/engine/session"
	"github.com/twosettle/twosettle/engine/wire"
	"github.com/twosettle/twosettle/trace"
)

func frame(client string, f wire.Frame) wire.Effect {
	return wire.SendFrame{Client: client, Gen: 1, Frame: f}
}

func appended(s string, seq int, d session.Data) wire.Effect {
	return wire.Appended{Session: s, Event: session.Event{Seq: seq, Data: d}}
}

func texts(effs []wire.Effect) []string {
	var out []string
	for _, e := range effs {
		out = append(out, e.String())
	}
	return out
}

func TestCanonicalOrder(t *testing.T) {
	t.Run("frames to different clients inside one Apply are ordered by client, each client's in its own order", func(t *testing.T) {
		effs := []wire.Effect{
			frame("b", wire.Waterfall{EventID: "e1"}), frame("a", wire.Waterfall{EventID: "e1"}),
			frame("b", wire.Cancel{EventID: "e1"}), frame("a", wire.Cancel{EventID: "e1"}),
		}
		swapped := []wire.Effect{effs[1], effs[3], effs[0], effs[2]}
		Canonical(effs)
		Canonical(swapped)
		if a, b := strings.Join(texts(effs), "|"), strings.Join(texts(swapped), "|"); a != b {
			t.Fatalf("two orders of independent frames are not one canonical order:\n%s\n%s", a, b)
		}
		if !strings.HasPrefix(texts(effs)[0], "send a.1 waterfall") || !strings.HasPrefix(texts(effs)[1], "send a.1 cancel") {
			t.Fatalf("client a's frames lost their order: %v", texts(effs))
		}
	})
	t.Run("AGENT-6 durability effects and wait notes keep their places, so a crash cut after k effects keeps the same durable prefix", func(t *testing.T) {
		effs := []wire.Effect{
			frame("b", wire.Ready{Gen: 1}),
			wire.Persisted{Session: "s1", Through: 3},
			wire.Reply{Client: "a", RPCID: "r1"},
			frame("a", wire.Ready{Gen: 1}),
			wire.WaitNote{Session: "s1", CallID: "c1", Kind: wire.WaitClosed},
			frame("a", wire.Cancel{EventID: "e1"}),
			wire.Reply{Client: "a", RPCID: "r2"},
		}
		Canonical(effs)
		if _, ok := effs[1].(wire.Persisted); !ok {
			t.Fatalf("persisted moved: %v", texts(effs))
		}
		if _, ok := effs[4].(wire.WaitNote); !ok {
			t.Fatalf("the wait note moved: %v", texts(effs))
		}
		if _, ok := effs[2].(wire.Reply); !ok {
			t.Fatalf("a reply is not first after the persisted: %v", texts(effs))
		}
	})
	t.Run("a host that sends no wait notes hands the simulator its messages in the same order as one that does", func(t *testing.T) {
		with := []wire.Effect{
			wire.WaitNote{Session: "s1", CallID: "c1", Kind: wire.WaitReleased},
			frame("a", wire.StreamEnd{StreamID: "a-s2"}),
			wire.WaitNote{Session: "s1", CallID: "c1", Kind: wire.WaitClosed},
			wire.Reply{Client: "a", RPCID: "a-r2"},
		}
		without := []wire.Effect{with[1], with[3]}
		Canonical(with)
		Canonical(without)
		var msgs []string
		for _, e := range with {
			if _, note := e.(wire.WaitNote); !note {
				msgs = append(msgs, e.String())
			}
		}
		if strings.Join(msgs, "|") != strings.Join(texts(without), "|") {
			t.Fatalf("with wait notes %v, without %v", texts(with), texts(without))
		}
	})
}

func TestNamesAreRenamedWhereTheVocabularyPutsThem(t *testing.T) {
	// ids "1" and "2" must not rename a seed, a question id or any other "1"
	tr := &trace.Trace{Seed: 1, Records: []trace.Record{
		{Seq: 0, Actor: trace.ActorHost, Kind: trace.Out, Payload: frame("a", wire.Waterfall{EventID: "2", Event: "user-questions/request", AgentID: "s1", Request: json.RawMessage(`{"questions":[{"id":"1","question":"2"}]}`)})},
		{Seq: 1, Actor: trace.ActorHost, Kind: trace.Out, Payload: appended("s1", 0, session.UserMessage{Message: session.Message{ID: "1", Source: session.Source{Kind: "user"}, Text: "1"}})},
	}}
	obs := Observe(tr, Options{})
	got := obs.Text()
	for _, want := range []string{`waterfall ev=⟨e1⟩ user-questions/request agent=s1 {"questions":[{"id":"1","question":"2"}]}`, `user/message ⟨m1⟩ user "1"`} {
		if !strings.Contains(got, want) {
			t.Errorf("the observation lacks %q:\n%s", want, got)
		}
	}
}

func TestObservationLeavesOutTheRuntimesBookkeeping(t *testing.T) {
	withTurns := &trace.Trace{Records: []trace.Record{
		{Seq: 0, Actor: trace.ActorHost, Kind: trace.Out, Payload: appended("s1", 0, session.TurnStart{Turn: 1})},
		{Seq: 1, Actor: trace.ActorHost, Kind: trace.Out, Payload: appended("s1", 1, session.ToolCall{Turn: 1, Step: 1, CallID: "c1", Name: "ask_user_question", Arguments: "{}"})},
		{Seq: 2, Actor: trace.ActorHost, Kind: trace.Out, Payload: wire.Persisted{Session: "s1", Through: 2}},
		{Seq: 3, Actor: trace.ActorHost, Kind: trace.Out, Payload: frame("a", wire.SessionUpdate{Session: "s1", Events: []session.Event{{Seq: 0, Data: session.TurnStart{Turn: 1}}}})},
	}}
	without := &trace.Trace{Records: []trace.Record{
		{Seq: 0, Actor: trace.ActorHost, Kind: trace.Out, Payload: appended("s1", 0, session.ToolCall{Turn: 7, Step: 3, CallID: "c1", Name: "ask_user_question", Arguments: "{}"})},
	}}
	if d := Compare(Observe(withTurns, Options{}), Observe(without, Options{})); d != nil {
		t.Fatalf("turn events, seqs, persistence and an update that shows nothing new were compared:\n%s", d)
	}
	if d := Compare(Observe(withTurns, Options{Runtime: true}), Observe(without, Options{Runtime: true})); d == nil {
		t.Fatal("with Runtime the reference runtime's bookkeeping is compared, and it differs here")
	}
}

func TestCompare(t *testing.T) {
	rec := func(seq int, t int64, p trace.Payload) trace.Record {
		return trace.Record{Seq: seq, Time: t, Actor: trace.ActorHost, Kind: trace.Out, Payload: p}
	}
	a1, b1 := frame("a", wire.Ready{Gen: 1}), frame("b", wire.Ready{Gen: 1})
	a2 := frame("a", wire.StreamEnd{StreamID: "a-s1"})
	t.Run("GW-1 the order inside one instant of frames to different clients is free", func(t *testing.T) {
		x := &trace.Trace{Records: []trace.Record{rec(0, 10, a1), rec(1, 10, b1)}}
		y := &trace.Trace{Records: []trace.Record{rec(0, 10, b1), rec(1, 10, a1)}}
		if d := Compare(Observe(x, Options{}), Observe(y, Options{})); d != nil {
			t.Fatalf("%s", d)
		}
	})
	t.Run("WAIT-4 one client's frames in another order differ, and the difference names the claim's ids", func(t *testing.T) {
		x := &trace.Trace{Records: []trace.Record{rec(0, 10, a1), rec(1, 10, a2)}}
		y := &trace.Trace{Records: []trace.Record{rec(0, 10, a2), rec(1, 10, a1)}}
		d := Compare(Observe(x, Options{}), Observe(y, Options{}))
		if d == nil || d.Stream != "frames to a" || d.Index != 0 {
			t.Fatalf("difference %+v", d)
		}
		if got := Requirements(d.Kind, []string{"WAIT-5", "LATE-1"}); strings.Join(got, ",") != "GW-5,GW-7" && d.Kind == "ready" {
			t.Fatalf("a ready frame's difference judges %v", got)
		}
		if got := Requirements("stream", []string{"WAIT-5", "LATE-1"}); strings.Join(got, ",") != "WAIT-5" {
			t.Fatalf("a stream frame in a scenario covering WAIT-5 judges %v", got)
		}
	})
	t.Run("a time differs", func(t *testing.T) {
		x := &trace.Trace{Records: []trace.Record{rec(0, 10, a1)}}
		y := &trace.Trace{Records: []trace.Record{rec(0, 11, a1)}}
		if d := Compare(Observe(x, Options{}), Observe(y, Options{})); d == nil || !strings.Contains(d.String(), "- t=10") || !strings.Contains(d.String(), "+ t=11") {
			t.Fatalf("difference %v", d)
		}
	})
	t.Run("an item one side lacks", func(t *testing.T) {
		x := &trace.Trace{Records: []trace.Record{rec(0, 10, a1), rec(1, 20, a2)}}
		y := &trace.Trace{Records: []trace.Record{rec(0, 10, a1)}}
		d := Compare(Observe(x, Options{}), Observe(y, Options{}))
		if d == nil || !d.HasRef || d.HasHost || !strings.Contains(d.String(), "+ (nothing)") {
			t.Fatalf("difference %v", d)
		}
	})
}

// fakeHost mints its own ids and records the commands it was given.
type fakeHost struct {
	got   []wire.Command
	effs  []wire.Effect
	state wire.HostState
}

func (h *fakeHost) Apply(now wire.Time, c wire.Command) ([]wire.Effect, error) {
	h.got = append(h.got, c)
	return h.effs, nil
}
func (h *fakeHost) NextDeadline() (wire.Time, bool) { return 0, false }
func (h *fakeHost) State() wire.HostState           { return h.state }

func TestPortNamesTheHostsIdsAsTheReferences(t *testing.T) {
	h := &fakeHost{effs: []wire.Effect{
		frame("a", wire.Waterfall{EventID: "uuid-7"}),
		appended("s1", 0, session.InboxSpliced{Target: session.NextStep, Inserted: []session.Message{{ID: "42", Text: "x"}}}),
	}}
	p := NewPort(h, &Minted{Events: []string{"e1"}, Messages: []string{"msg-2"}})
	effs, _ := p.Apply(0, wire.Tick{})
	if got := strings.Join(texts(effs), "|"); !strings.Contains(got, "ev=e1") || !strings.Contains(got, "+[msg-2 ") {
		t.Fatalf("the host's ids are not under the reference's names: %s", got)
	}
	if h.effs[0].(wire.SendFrame).Frame.(wire.Waterfall).EventID != "uuid-7" {
		t.Fatal("the port wrote into the host's effects")
	}
	h.effs = nil
	p.Apply(1, wire.EventResult{Client: "a", EventID: "e1"})
	p.Apply(2, wire.Call{Client: "a", Endpoint: wire.EndpointDiscard, Args: json.RawMessage(`{"agentId":"s1","messageId":"msg-2"}`)})
	if ev := h.got[1].(wire.EventResult).EventID; ev != "uuid-7" {
		t.Fatalf("the host got event id %q back, not its own", ev)
	}
	if args := string(h.got[2].(wire.Call).Args); !strings.Contains(args, `"messageId":"42"`) {
		t.Fatalf("the host got discard args %s, not its own message id", args)
	}
	h.state = wire.HostState{Pending: []wire.PendingEvent{{EventID: "uuid-7"}}, Reservations: []wire.ReservationState{{MessageID: "42"}}, Sessions: []wire.SessionState{{ID: "s1", Inbox: wire.InboxView{NextStep: []session.Message{{ID: "42"}}}}}}
	st := p.State()
	if st.Pending[0].EventID != "e1" || st.Sessions[0].Inbox.NextStep[0].ID != "msg-2" || st.Reservations[0].MessageID != "msg-2" {
		t.Fatalf("the state keeps the host's ids: %+v", st)
	}
}

func TestMintedIDsSkipsIdsTheRunnerChose(t *testing.T) {
	tr := &trace.Trace{Records: []trace.Record{
		{Seq: 0, Actor: trace.ActorHost, Kind: trace.In, Payload: wire.AppendEvent{Session: "s1", Event: session.Event{Data: session.UserMessage{Message: session.Message{ID: "mine"}}}}},
		{Seq: 1, Actor: trace.ActorHost, Kind: trace.Out, Payload: appended("s1", 0, session.UserMessage{Message: session.Message{ID: "mine"}})},
		{Seq: 2, Actor: trace.ActorHost, Kind: trace.Out, Payload: appended("s1", 1, session.UserMessage{Message: session.Message{ID: "msg-1"}})},
	}}
	if m := MintedIDs(tr); strings.Join(m.Messages, ",") != "msg-1" {
		t.Fatalf("minted %v", m.Messages)
	}
}
