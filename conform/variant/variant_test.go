package variant

import (
	"encoding/json"
	"errors"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/twosettle/twosettle/engine/session"
	"github.com/twosettle/twosettle/engine/wire"
)

// fake is a host that answers each Apply with the next canned effects (and error) and
// keeps the commands it was given.
type fake struct {
	effs  [][]wire.Effect
	errs  []error
	state wire.HostState
	got   []wire.Command
}

func (f *fake) Apply(_ wire.Time, cmd wire.Command) ([]wire.Effect, error) {
	f.got = append(f.got, cmd)
	i := len(f.got) - 1
	var effs []wire.Effect
	var err error
	if i < len(f.effs) {
		effs = f.effs[i]
	}
	if i < len(f.errs) {
		err = f.errs[i]
	}
	return effs, err
}
func (f *fake) NextDeadline() (wire.Time, bool) { return 0, false }
func (f *fake) State() wire.HostState           { return f.state }

func texts(effs []wire.Effect) []string {
	var out []string
	for _, e := range effs {
		out = append(out, e.String())
	}
	return out
}

func mustVariant(t *testing.T, name string) Variant {
	t.Helper()
	v, err := Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func msg(id string) session.Message {
	return session.Message{ID: id, Source: session.Source{Kind: session.SourceUser}, Text: "hi"}
}

func TestLookupParseAndFeatures(t *testing.T) {
	all := []string{"append-event", "crash-cut", "direct", "fork", "inbox-faults", "introspection", "ptc", "restart", "sleep", "source", "write-window"}
	for _, tc := range []struct {
		spec string
		want []string // features declared over all
	}{
		{"", all},
		{"ids-uuid,ids-numbers,reorder,persist-late,refusal-words,json-style", all},
		{"write-through", slices.DeleteFunc(slices.Clone(all), func(f string) bool { return f == "write-window" })},
		{"no-introspection", slices.DeleteFunc(slices.Clone(all), func(f string) bool { return f == "introspection" })},
		{"write-through, no-introspection", slices.DeleteFunc(slices.Clone(all), func(f string) bool { return f == "introspection" || f == "write-window" })},
		{"minimal", nil},
		{"reorder,minimal", nil},
	} {
		l, err := Parse(tc.spec)
		if err != nil {
			t.Fatalf("%q: %v", tc.spec, err)
		}
		if got := l.Features(all); !slices.Equal(got, tc.want) {
			t.Errorf("%q declares %v, want %v", tc.spec, got, tc.want)
		}
	}
	if _, err := Parse("ids-uuid,nope"); err == nil || !strings.Contains(err.Error(), "ids-numbers") {
		t.Errorf("an unknown name: %v (the error lists the names)", err)
	}
	if l, _ := Parse("reorder,json-style"); !l.JSONStyle() || l.Name() != "reorder,json-style" {
		t.Errorf("json-style: %v %q", l.JSONStyle(), l.Name())
	}
	if len(Names()) != 9 {
		t.Errorf("names: %v", Names())
	}
}

func TestConfig(t *testing.T) {
	cfg := wire.HostConfig{ToolMode: "timed", WriteWindowMs: 200}
	for _, tc := range []struct {
		spec string
		want wire.Duration
	}{
		{"reorder", 200}, {"write-through", -1}, {"minimal", -1}, {"ids-uuid,minimal", -1},
	} {
		l, _ := Parse(tc.spec)
		var got wire.HostConfig
		f := l.Factory(func(c wire.HostConfig) (wire.HostPort, error) { got = c; return &fake{}, nil })
		if _, err := f(cfg); err != nil {
			t.Fatal(err)
		}
		if got.WriteWindowMs != tc.want || got.ToolMode != "timed" {
			t.Errorf("%s: the inner host is built with %+v", tc.spec, got)
		}
	}
	// A refusal of the configuration is the inner host's, as it is.
	refuse := errors.New("bad timeout")
	f := List{mustVariant(t, NameReorder)}.Factory(func(wire.HostConfig) (wire.HostPort, error) { return nil, refuse })
	if _, err := f(cfg); err != refuse {
		t.Errorf("refusal: %v", err)
	}
}

var uuidShape = regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`)

func TestIDsOut(t *testing.T) {
	inner := &fake{
		effs: [][]wire.Effect{{
			wire.SendFrame{Client: "a", Gen: 1, Frame: wire.Waterfall{EventID: "e1", Event: wire.EventQuestionsRequest, AgentID: "s1", Request: json.RawMessage(`{"questions":[]}`)}},
			wire.Appended{Session: "s1", Event: session.Event{Seq: 3, Data: session.InboxSpliced{Target: session.NextStep, Inserted: []session.Message{msg("msg-1")}}}},
			wire.Appended{Session: "s1", Event: session.Event{Seq: 4, Data: session.UserMessage{Message: msg("msg-1")}}},
			wire.SendFrame{Client: "b", Gen: 2, Frame: wire.SessionUpdate{Session: "s1", Events: []session.Event{{Seq: 3, Data: session.InboxSpliced{Target: session.NextStep, Inserted: []session.Message{msg("msg-1"), msg("msg-2")}}}},
				Inbox: wire.InboxView{NextStep: []session.Message{msg("msg-2")}}}},
			wire.SendFrame{Client: "a", Gen: 1, Frame: wire.Cancel{EventID: "e1"}},
			wire.Reply{Client: "a", Gen: 1, RPCID: "r1", Envelope: wire.Failure("x", "no message msg-2 (event e1); e12 stays")},
			wire.SendFrame{Client: "a", Gen: 1, Frame: wire.StreamError{StreamID: "st", Code: "c", Message: "msg-1 gone"}},
			wire.DirectResult{ID: "d1", Value: json.RawMessage(`{"messageId":"msg-2","x":"msg-1"}`)},
			wire.WaitNote{Session: "s1", CallID: "c1", Kind: wire.WaitClosed, Reason: "completion"},
		}},
		state: wire.HostState{
			Sessions:     []wire.SessionState{{ID: "s1", Log: []session.Event{{Data: session.UserMessage{Message: msg("msg-2")}}}, Inbox: wire.InboxView{NextTurn: []session.Message{msg("msg-1")}}}},
			Reservations: []wire.ReservationState{{Session: "s1", CallID: "c1", MessageID: "msg-2"}},
			Pending:      []wire.PendingEvent{{EventID: "e1", AgentID: "s1"}},
		},
	}
	for _, tc := range []struct {
		name     string
		e1, m1   string // the variant's first event and message id
		m2       string
		wantText []string
	}{
		{NameIDsNumbers, "1", "1", "2", nil},
		{NameIDsUUID, "", "", "", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			inner.got = nil
			p := mustVariant(t, tc.name).Wrap(inner)
			effs, err := p.Apply(1, wire.Tick{})
			if err != nil {
				t.Fatal(err)
			}
			e1 := effs[0].(wire.SendFrame).Frame.(wire.Waterfall).EventID
			m1 := effs[1].(wire.Appended).Event.Data.(session.InboxSpliced).Inserted[0].ID
			upd := effs[3].(wire.SendFrame).Frame.(wire.SessionUpdate)
			m2 := upd.Inbox.NextStep[0].ID
			if tc.e1 != "" && (e1 != tc.e1 || m1 != tc.m1 || m2 != tc.m2) {
				t.Errorf("ids %s %s %s, want %s %s %s", e1, m1, m2, tc.e1, tc.m1, tc.m2)
			}
			if tc.e1 == "" {
				for _, id := range []string{e1, m1, m2} {
					if !uuidShape.MatchString(id) {
						t.Errorf("%q is not uuid-shaped", id)
					}
				}
			}
			if e1 == "e1" || m1 == "msg-1" || m1 == m2 {
				t.Fatalf("not renamed: %s %s %s", e1, m1, m2)
			}
			// Consistent everywhere: the same inner id is the same variant id.
			checks := map[string][2]string{
				"admission":      {effs[2].(wire.Appended).Event.Data.(session.UserMessage).Message.ID, m1},
				"update event 0": {upd.Events[0].Data.(session.InboxSpliced).Inserted[0].ID, m1},
				"update event 1": {upd.Events[0].Data.(session.InboxSpliced).Inserted[1].ID, m2},
				"cancel":         {effs[4].(wire.SendFrame).Frame.(wire.Cancel).EventID, e1},
				"reply error":    {effs[5].(wire.Reply).Envelope.Error.Message, "no message " + m2 + " (event " + e1 + "); e12 stays"},
				"stream error":   {effs[6].(wire.SendFrame).Frame.(wire.StreamError).Message, m1 + " gone"},
				"direct value":   {string(effs[7].(wire.DirectResult).Value), `{"messageId":"` + m2 + `","x":"msg-1"}`},
				"wait note":      {effs[8].String(), "wait s1/c1 closed reason=completion"},
			}
			for what, c := range checks {
				if c[0] != c[1] {
					t.Errorf("%s: %q, want %q", what, c[0], c[1])
				}
			}
			st := p.State()
			if id := st.Sessions[0].Log[0].Data.(session.UserMessage).Message.ID; id != m2 {
				t.Errorf("state log: %s", id)
			}
			if id := st.Sessions[0].Inbox.NextTurn[0].ID; id != m1 {
				t.Errorf("state inbox: %s", id)
			}
			if st.Reservations[0].MessageID != m2 || st.Pending[0].EventID != e1 {
				t.Errorf("state volatile: %+v %+v", st.Reservations, st.Pending)
			}
			// The inner host's values are not touched.
			if inner.state.Reservations[0].MessageID != "msg-2" || inner.effs[0][1].(wire.Appended).Event.Data.(session.InboxSpliced).Inserted[0].ID != "msg-1" {
				t.Error("the wrapper changed the inner host's values")
			}

			// Commands that name ids get the inner host's back; ids the variant never
			// minted become aliases the inner host cannot know, shown back as they were.
			cmds := []wire.Command{
				wire.EventResult{Client: "a", Gen: 1, RPCID: "r2", EventID: e1, Outcome: wire.Outcome{Kind: wire.OutcomeNext}},
				wire.Call{Client: "a", Gen: 1, RPCID: "r3", Endpoint: wire.EndpointDiscard, Args: json.RawMessage(`{ "agentId":"s1", "messageId" : "` + m2 + `" }`)},
				wire.StreamOpen{Client: "a", Gen: 1, StreamID: "st2", Endpoint: wire.EndpointAttachWait, Args: json.RawMessage(`{"agentId":"s1","callId":"c1"}`)},
				wire.AppendEvent{Session: "s1", Event: session.Event{Data: session.UserMessage{Message: msg(m1)}}},
				wire.AppendEvent{Session: "s1", Event: session.Event{Data: session.InboxSpliced{Target: session.NextTurn, Inserted: []session.Message{msg("hand-1")}}}},
				wire.EventResult{Client: "a", Gen: 1, RPCID: "r4", EventID: "e1", Outcome: wire.Outcome{Kind: wire.OutcomeNext}},
				wire.Call{Client: "a", Gen: 1, RPCID: "r5", Endpoint: wire.EndpointDiscard, Args: json.RawMessage(`{"agentId":"s1","messageId":"msg-1"}`)},
				wire.Call{Client: "a", Gen: 1, RPCID: "r6", Endpoint: wire.EndpointDiscard, Args: json.RawMessage(`{bad`)},
			}
			for _, c := range cmds {
				p.Apply(2, c)
			}
			want := []string{
				`event-result a.1 rpc=r2 ev=e1 next`,
				`call a.1 rpc=r3 inbox/discard { "agentId":"s1", "messageId" : "msg-2" }`,
				`stream-open a.1 stream=st2 userQuestions/attachWait {"agentId":"s1","callId":"c1"}`,
				`append-event s1 user/message msg-1 user "hi"`,
				`append-event s1 agent/inbox/spliced queued next-turn start=0 +[x:hand-1 user "hi"]`,
				`event-result a.1 rpc=r4 ev=x:e1 next`,
				`call a.1 rpc=r5 inbox/discard {"agentId":"s1","messageId":"x:msg-1"}`,
				`call a.1 rpc=r6 inbox/discard {bad`,
			}
			if got := texts2(inner.got[1:]); !slices.Equal(got, want) {
				t.Errorf("the inner host got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
			// An alias shows back as the id the runner named.
			ids := p.(*ids)
			if got := ids.r.out(kindMessage, "x:hand-1"); got != "hand-1" {
				t.Errorf("alias shown as %q", got)
			}
			if got := ids.r.out(kindEvent, "x:e1"); got != "e1" {
				t.Errorf("alias shown as %q", got)
			}
		})
	}
}

func texts2(cs []wire.Command) []string {
	var out []string
	for _, c := range cs {
		out = append(out, c.String())
	}
	return out
}

// A refusal's words are renamed like any text; a lost port's error is left alone.
func TestIDsRefusalAndLoss(t *testing.T) {
	lost := &wire.PortLost{Err: errors.New("gone msg-1")}
	inner := &fake{
		effs: [][]wire.Effect{{wire.Appended{Session: "s", Event: session.Event{Data: session.UserMessage{Message: msg("msg-1")}}}}},
		errs: []error{nil, errors.New("no message msg-1"), lost},
	}
	p := mustVariant(t, NameIDsNumbers).Wrap(inner)
	p.Apply(1, wire.Tick{})
	if _, err := p.Apply(1, wire.Tick{}); err == nil || err.Error() != "no message 1" {
		t.Errorf("refusal: %v", err)
	}
	if _, err := p.Apply(1, wire.Tick{}); err != lost {
		t.Errorf("loss: %v", err)
	}
}

// isBefore reports whether a comes before b in effs (by text).
func isBefore(effs []string, a, b string) bool {
	return slices.Index(effs, a) < slices.Index(effs, b)
}

func TestReorder(t *testing.T) {
	upd := func(c, s string) wire.Effect {
		return wire.SendFrame{Client: c, Gen: 1, Frame: wire.SessionUpdate{Session: s}}
	}
	in := []wire.Effect{
		wire.Appended{Session: "s1", Event: session.Event{Seq: 1, Data: session.TurnStart{Turn: 1}}}, // 0
		upd("a", "s1"), // 1
		upd("b", "s1"), // 2
		wire.Reply{Client: "c", Gen: 1, RPCID: "r1", Envelope: wire.OKValue(json.RawMessage("true"))},           // 3
		wire.SendFrame{Client: "a", Gen: 1, Frame: wire.StreamItem{StreamID: "x", Value: json.RawMessage(`1`)}}, // 4
		wire.DirectResult{ID: "d1", Value: json.RawMessage(`true`)},                                             // 5
		wire.Persisted{Session: "s1", Through: 2},                                                               // 6
		wire.Reply{Client: "c", Gen: 1, RPCID: "r2", Envelope: wire.OKValue(json.RawMessage("true"))},           // 7
		wire.Appended{Session: "s2", Event: session.Event{Seq: 1, Data: session.TurnStart{Turn: 1}}},            // 8
		wire.WaitNote{Session: "s1", CallID: "c1", Kind: wire.WaitExpired},                                      // 9
		upd("b", "s2"), // 10
		wire.SendFrame{Client: "a", Gen: 1, Frame: wire.StreamEnd{StreamID: "x"}}, // 11
	}
	inner := &fake{effs: [][]wire.Effect{in}}
	p := mustVariant(t, NameReorder).Wrap(inner)
	out, _ := p.Apply(1, wire.Tick{})
	got := texts(out)
	want := texts(in)
	if slices.Equal(got, want) {
		t.Fatal("nothing moved")
	}
	sorted := slices.Clone(got)
	slices.Sort(sorted)
	slices.Sort(want)
	if !slices.Equal(sorted, want) {
		t.Fatalf("not a permutation: %v", got)
	}
	s := texts(in)
	for _, tc := range []struct {
		a, b int
		keep bool
		why  string
	}{
		{1, 4, true, "frames to one client"},
		{3, 7, true, "replies to one client"},
		{0, 1, true, "appended before what follows it"},
		{5, 6, true, "a direct result before a later log effect"},
		{6, 7, true, "durable before acknowledged"},
		{8, 9, true, "log effects of different Sessions"},
		{9, 10, true, "a wait note and a later frame"},
		{1, 2, false, "frames to different clients"},
		{2, 3, false, "a reply to one client and frames to another"},
		{2, 5, false, "a direct result and frames"},
		{10, 11, false, "frames to different clients"},
	} {
		if tc.keep && !isBefore(got, s[tc.a], s[tc.b]) {
			t.Errorf("%s: %d moved after %d:\n%s", tc.why, tc.a, tc.b, strings.Join(got, "\n"))
		}
		if !tc.keep && isBefore(got, s[tc.a], s[tc.b]) {
			t.Errorf("%s: %d still before %d (the variant should show the other order):\n%s", tc.why, tc.a, tc.b, strings.Join(got, "\n"))
		}
	}
}

func TestPersistLate(t *testing.T) {
	p1 := wire.Persisted{Session: "s1", Through: 3}
	p2 := wire.Persisted{Session: "s2", Through: 1}
	fa := wire.SendFrame{Client: "a", Gen: 1, Frame: wire.Cancel{EventID: "e1"}}
	fb := wire.SendFrame{Client: "b", Gen: 1, Frame: wire.Cancel{EventID: "e1"}}
	ok := wire.Reply{Client: "a", Gen: 1, RPCID: "r1", Envelope: wire.Envelope{OK: true}}
	ack := wire.Reply{Client: "a", Gen: 1, RPCID: "r2", Envelope: wire.OKValue(json.RawMessage("true"))}
	nack := wire.Reply{Client: "a", Gen: 1, RPCID: "r3", Envelope: wire.OKValue(json.RawMessage("false"))}
	ap := wire.Appended{Session: "s1", Event: session.Event{Seq: 3, Data: session.TurnStart{Turn: 2}}}
	dr := wire.DirectResult{ID: "d", Value: json.RawMessage("true")}
	for _, tc := range []struct {
		name    string
		in, out []wire.Effect
	}{
		{"after the frames and replies that follow", []wire.Effect{p1, fa, ok, fb}, []wire.Effect{fa, ok, fb, p1}},
		{"after a refused answer", []wire.Effect{p1, nack, fa}, []wire.Effect{nack, fa, p1}},
		{"never after an acknowledgement", []wire.Effect{fa, p1, fb, ack, fa}, []wire.Effect{fa, fb, p1, ack, fa}},
		{"not past an appended event", []wire.Effect{p1, fa, ap, fb}, []wire.Effect{fa, p1, ap, fb}},
		{"not past a direct result", []wire.Effect{p1, dr}, []wire.Effect{p1, dr}},
		{"persisted effects keep their order", []wire.Effect{p1, fa, p2, fb}, []wire.Effect{fa, p1, fb, p2}},
		{"nothing to pass", []wire.Effect{fa, p1}, []wire.Effect{fa, p1}},
	} {
		inner := &fake{effs: [][]wire.Effect{tc.in}}
		out, _ := mustVariant(t, NamePersistLate).Wrap(inner).Apply(1, wire.Tick{})
		if got, want := texts(out), texts(tc.out); !slices.Equal(got, want) {
			t.Errorf("%s:\n%s\nwant\n%s", tc.name, strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
	}
}

func TestCutFor(t *testing.T) {
	// inner: 0 frame, 1 persisted, 2 frame, 3 persisted, 4 frame
	persisted := []bool{false, true, false, true, false}
	src := []int{0, 2, 1, 4, 3} // persisted reported late
	for k, want := range []int{0, 0, 0, 2, 2, 4, 4} {
		if got := cutFor(k, src, persisted); got != want {
			t.Errorf("cut after %d: inner %d, want %d", k, got, want)
		}
	}
	if got := cutFor(3, []int{0, 2, 4}, []bool{false, false, false, false, false}); got != 0 {
		t.Errorf("nothing persisted: %d", got)
	}
}

// A crash after the variant's first k effects keeps what the persisted effects among
// them reported: the inner host is cut after the prefix that holds the same ones.
func TestCrashCutIsTranslated(t *testing.T) {
	p1 := wire.Persisted{Session: "s1", Through: 3}
	fa := wire.SendFrame{Client: "a", Gen: 1, Frame: wire.Cancel{EventID: "e1"}}
	wn := wire.WaitNote{Session: "s1", CallID: "c", Kind: wire.WaitExpired}
	for _, tc := range []struct {
		variant string
		in      []wire.Effect
		cut     int
		want    int
	}{
		{NamePersistLate, []wire.Effect{p1, fa, fa}, 2, 0},         // variant: fa fa p1
		{NamePersistLate, []wire.Effect{p1, fa, fa}, 3, 1},         // p1 included
		{NameNoIntrospection, []wire.Effect{wn, wn, p1, fa}, 1, 3}, // variant: p1 fa
		{NameNoIntrospection, []wire.Effect{wn, wn, p1, fa}, 0, 0}, // nothing
		{NameReorder, []wire.Effect{fa, p1}, 1, 0},                 // independent: the variant shows p1 first
		{NameIDsUUID, []wire.Effect{p1, fa}, 1, 1},                 // ids keep positions
		{NameRefusalWords, []wire.Effect{p1, fa}, 1, 1},
	} {
		inner := &fake{effs: [][]wire.Effect{tc.in}}
		p := mustVariant(t, tc.variant).Wrap(inner)
		out, _ := p.Apply(1, wire.Tick{})
		p.Apply(2, wire.Restart{CutAfter: tc.cut})
		got := inner.got[1].(wire.Restart).CutAfter
		// the expected inner cut: the shortest prefix holding the persisted effects among
		// the variant's first cut effects
		n := 0
		for _, e := range out[:min(tc.cut, len(out))] {
			if _, ok := e.(wire.Persisted); ok {
				n++
			}
		}
		want := 0
		if n > 0 {
			want = slices.IndexFunc(tc.in, func(e wire.Effect) bool { _, ok := e.(wire.Persisted); return ok }) + 1
		}
		if got != want {
			t.Errorf("%s cut after %d of %v: inner cut %d, want %d", tc.variant, tc.cut, texts(out), got, want)
		}
		p.Apply(3, wire.Restart{CutAfter: -1})
		if got := inner.got[2].(wire.Restart).CutAfter; got != -1 {
			t.Errorf("%s: a restart between commands became cut %d", tc.variant, got)
		}
	}
}

func TestNoIntrospection(t *testing.T) {
	in := []wire.Effect{
		wire.WaitNote{Session: "s1", CallID: "c1", Kind: wire.WaitCreated, Deadline: 5},
		wire.Appended{Session: "s1", Event: session.Event{Seq: 1, Data: session.TurnStart{Turn: 1}}},
		wire.WaitNote{Session: "s1", CallID: "c1", Kind: wire.WaitArmed, At: 5},
	}
	st := wire.HostState{
		Sessions:     []wire.SessionState{{ID: "s1", Persisted: 2, Inbox: wire.InboxView{NextTurn: []session.Message{msg("m")}}}},
		Waits:        []wire.WaitState{{Session: "s1", CallID: "c1"}},
		Reservations: []wire.ReservationState{{Session: "s1", CallID: "c1", MessageID: "m"}},
		Clients:      []wire.ConnState{{Client: "a", Gen: 1}},
		Pending:      []wire.PendingEvent{{EventID: "e1"}},
	}
	for _, name := range []string{NameNoIntrospection, NameMinimal} {
		inner := &fake{effs: [][]wire.Effect{in}, state: st}
		p := mustVariant(t, name).Wrap(inner)
		out, _ := p.Apply(1, wire.Tick{})
		if got := texts(out); !slices.Equal(got, texts(in[1:2])) {
			t.Errorf("%s: %v", name, got)
		}
		got := p.State()
		want := wire.HostState{Sessions: st.Sessions}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: state %+v", name, got)
		}
	}
}

func TestRefusalWords(t *testing.T) {
	lost := &wire.PortLost{Err: errors.New("gone")}
	eff := []wire.Effect{wire.Persisted{Session: "s", Through: 1}}
	inner := &fake{effs: [][]wire.Effect{eff, eff, nil}, errs: []error{nil, errors.New("host: unknown session \"s9\""), lost}}
	p := mustVariant(t, NameRefusalWords).Wrap(inner)
	if out, err := p.Apply(1, wire.Tick{}); err != nil || len(out) != 1 {
		t.Errorf("no refusal: %v %v", out, err)
	}
	out, err := p.Apply(1, wire.CloseSession{Session: "s9"})
	if err == nil || strings.Contains(err.Error(), "unknown session") || !strings.Contains(err.Error(), "close-session") || len(out) != 1 {
		t.Errorf("refusal: %v (effects %v)", err, out)
	}
	if _, err := p.Apply(1, wire.Tick{}); err != lost {
		t.Errorf("a lost port's error: %v", err)
	}
}

// Every wrapper passes on a lost inner port and closes a closable one.
type closing struct {
	fake
	closed int
}

func (c *closing) Close() error         { c.closed++; return nil }
func (c *closing) Lost() *wire.PortLost { return &wire.PortLost{Err: errors.New("x")} }

func TestWrappersPassLossAndClose(t *testing.T) {
	for _, v := range All() {
		inner := &closing{}
		p := v.Wrap(inner)
		if wire.LostOf(p) == nil {
			t.Errorf("%s hides the loss of its host", v.Name)
		}
		if c, ok := p.(interface{ Close() error }); ok {
			c.Close()
		}
		if inner.closed != 1 {
			t.Errorf("%s: closed %d times", v.Name, inner.closed)
		}
	}
}

func TestRestyle(t *testing.T) {
	for _, line := range []string{
		`{"type":"applied","n":2,"effects":[{"kind":"reply","client":"a","gen":1,"rpcId":"r","envelope":{"ok":true,"value":{"b":1,"a":[1,2]}}},{"kind":"send-frame","client":"a","gen":1,"frame":{"kind":"waterfall","eventId":"e1","event":"x","agentId":"s","request":{"questions":[],"z":{}}}}],"deadline":5}`,
		`{"type":"state","n":3,"state":{"sessions":[],"waits":[]}}`,
		`{"type":"hello","protocol":"twosettle-conform/1","name":"x","version":"1","features":["a","b"]}`,
		`{"type":"applied","n":2,"effects":[],"error":"a \"quoted\" {refusal}"}`,
	} {
		got := string(Restyle([]byte(line)))
		if got == line || !strings.Contains(got, ": ") {
			t.Errorf("not restyled: %s", got)
		}
		var a, b any
		if err := json.Unmarshal([]byte(line), &a); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal([]byte(got), &b); err != nil {
			t.Fatalf("%s: %v", got, err)
		}
		if !reflect.DeepEqual(a, b) {
			t.Errorf("another value:\n%s\n%s", line, got)
		}
		if strings.Index(got, `"type"`) < strings.Index(got, `"n"`) && strings.Contains(got, `"n"`) {
			t.Errorf("keys kept their order: %s", got)
		}
	}
	// Payloads are copied byte for byte.
	got := string(Restyle([]byte(`{"kind":"x","value":{"b":1,"a":2},"request":[1,2],"other":{"b":1,"a":2}}`)))
	want := `{ "other": { "a": 2, "b": 1 }, "request": [1,2], "value": {"b":1,"a":2}, "kind": "x" }`
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	if got := string(Restyle([]byte(`{bad`))); got != `{bad` {
		t.Errorf("invalid JSON: %s", got)
	}
}
