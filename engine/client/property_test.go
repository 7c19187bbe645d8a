package client

import (
	"encoding/json"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/twosettle/twosettle/engine/session"
	"github.com/twosettle/twosettle/engine/wire"
)

// world is what the property knows of the client's traffic: the streams it opened, the
// HTTP requests awaiting a reply, and what it has already sent.
type world struct {
	now     int64
	gen     int
	streams []string // opened and not yet ended or cancelled
	rpcs    []string
	results map[string]bool // gen/event id → an outcome was sent
	opened  map[string]bool
}

var (
	propCalls    = []string{"c1", "c2", "c3", ""}
	propSessions = []string{"s1", "s2"}
	propQs       = [][]wire.Question{{qPkg}, {qName}, {multi(q("m", "Which?", "a", "b"))}, {qPkg, qName}}
)

func genQuestions(t *rapid.T) []wire.Question { return rapid.SampledFrom(propQs).Draw(t, "qs") }

func genEvents(t *rapid.T) []session.Event {
	n := rapid.IntRange(0, 8).Draw(t, "events")
	var ds []session.Data
	for i := 0; i < n; i++ {
		call := rapid.SampledFrom(propCalls[:3]).Draw(t, "call")
		switch rapid.IntRange(0, 8).Draw(t, "ev") {
		case 0:
			ds = append(ds, session.TurnStart{Turn: rapid.IntRange(1, 3).Draw(t, "turn")})
		case 1:
			ds = append(ds, session.TurnEnd{Turn: rapid.IntRange(1, 3).Draw(t, "turn")})
		case 2:
			ds = append(ds, toolCallEv(call, rapid.SampledFrom([]string{timedAsk, "{", `{"questions":[]}`}).Draw(t, "args")))
		case 3:
			ds = append(ds, toolResultEv(call, rapid.SampledFrom([]string{pendingText, `{"answers":[{"id":"pkg","selected":["bun"]}]}`, "x"}).Draw(t, "text")))
		case 4:
			ds = append(ds, tou)
		case 5:
			ds = append(ds, replyEv("m"+call, call, rapid.SampledFrom([]string{replyBun, "{", ""}).Draw(t, "reply")))
		case 6:
			ds = append(ds, userMsg("u", replyBun))
		case 7:
			ds = append(ds, errResult(call, wire.UserQuestionErrorName, rapid.SampledFrom([]string{wire.AskCancelled, wire.AskAborted}).Draw(t, "code"), "Error"))
		default:
			ds = append(ds, session.ToolCall{CallID: call, Name: "sleep", Arguments: "{}"})
		}
	}
	evs := logOf(ds...)
	if len(evs) > 2 && rapid.IntRange(0, 9).Draw(t, "gap") == 0 {
		evs = append(evs[:1], evs[2:]...) // a gap
	}
	return evs
}

func genView(t *rapid.T) wire.QuestionsView {
	var v wire.QuestionsView
	for _, call := range propCalls[:3] {
		switch rapid.IntRange(0, 4).Draw(t, "row") {
		case 1:
			v.Active = append(v.Active, wire.PendingRow{CallID: call, Questions: genQuestions(t), State: wire.StateOpen})
		case 2:
			v.Active = append(v.Active, wire.PendingRow{CallID: call, Questions: genQuestions(t), State: wire.StateContinued})
		case 3:
			v.Settled = append(v.Settled, wire.SettledRow{CallID: call, Answers: batchBun})
		case 4: // malformed rows
			v.Active = append(v.Active, rapid.SampledFrom([]wire.PendingRow{
				{CallID: "", Questions: []wire.Question{qPkg}, State: wire.StateOpen},
				{CallID: call, State: wire.StateContinued},
				{CallID: call, Questions: []wire.Question{qPkg}, State: "weird"},
				{CallID: call, Questions: []wire.Question{{ID: "", Question: ""}}, State: wire.StateContinued},
			}).Draw(t, "bad"))
		}
	}
	return v
}

func genInbox(t *rapid.T) wire.InboxView {
	var v wire.InboxView
	for _, call := range propCalls[:3] {
		switch rapid.IntRange(0, 5).Draw(t, "inbox") {
		case 1:
			v.NextStep = append(v.NextStep, replyMsg("m"+call, call, replyBun))
		case 2:
			v.NextTurn = append(v.NextTurn, replyMsg("m"+call, call, "{"))
		case 3: // a reply entry without a call id: ignored
			v.NextTurn = append(v.NextTurn, session.Message{ID: "x", Source: session.Source{Kind: session.SourceUserQuestionReply}})
		}
	}
	return v
}

func genAction(t *rapid.T) wire.UserAction {
	kind := rapid.SampledFrom([]string{
		wire.ActChoose, wire.ActChoose, wire.ActType, wire.ActSkip, wire.ActSubmit, wire.ActSubmit, wire.ActSubmit,
		wire.ActFocus, wire.ActBlur, wire.ActNext, wire.ActPrev, wire.ActTakeTime, wire.ActHide, wire.ActClose,
		wire.ActReopen, wire.ActDiscard, wire.ActWindowBlur, wire.ActWindowFocus, wire.ActDelegate,
	}).Draw(t, "kind")
	// rapid favours small and boundary draws: the rare kinds sit in the middle.
	switch rapid.IntRange(0, 400).Draw(t, "rare") {
	case 137:
		kind = wire.ActTeardown
	case 251:
		kind = "dance"
	}
	return wire.UserAction{
		Kind:     kind,
		Session:  rapid.SampledFrom([]string{"", "", "", "s1", "s2", "s9"}).Draw(t, "session"),
		Card:     rapid.SampledFrom([]string{"", "", "", "c1", "c2", "c3", "#1", "#2", "#x"}).Draw(t, "card"),
		Question: rapid.SampledFrom([]string{"", "", "", "pkg", "name", "zz"}).Draw(t, "q"),
		Label:    rapid.SampledFrom([]string{"npm", "bun", "a", "b", "nope"}).Draw(t, "label"),
		Text:     rapid.SampledFrom([]string{"", "yarn", "  "}).Draw(t, "text"),
	}
}

func (w *world) genInput(t *rapid.T) wire.ClientInput {
	pick := func(ids []string, fallback string) string {
		if len(ids) == 0 {
			return fallback
		}
		return rapid.SampledFrom(ids).Draw(t, "id")
	}
	ev := rapid.SampledFrom([]string{"e1", "e2", "e3", "e4"}).Draw(t, "event")
	// rapid favours small draws: the common inputs have the small numbers.
	switch n := rapid.IntRange(0, 18).Draw(t, "input"); {
	case n <= 5:
		return wire.User{Action: genAction(t)}
	case n <= 7:
		switch rapid.IntRange(0, 9).Draw(t, "wfkind") {
		case 5:
			return wire.FromHost{Frame: wire.Waterfall{EventID: ev, Event: "approval/request", AgentID: "s1", Request: json.RawMessage(`{}`)}}
		case 6:
			return wire.FromHost{Frame: wire.Waterfall{EventID: ev, Event: wire.EventQuestionsRequest, AgentID: "s1",
				Request: json.RawMessage(rapid.SampledFrom([]string{`{`, `{"questions":[]}`, `{"questions":[{"id":1}]}`, `[]`}).Draw(t, "payload"))}}
		}
		return wf(ev, rapid.SampledFrom(propSessions).Draw(t, "s"), rapid.SampledFrom(propCalls).Draw(t, "c"),
			rapid.SampledFrom([]string{"timed", "keyed", "timed", ""}).Draw(t, "wait"), genQuestions(t)...)
	case n <= 10:
		s := pick(w.streams, "zz")
		if rapid.IntRange(0, 5).Draw(t, "item") == 3 {
			return wire.FromHost{Frame: wire.StreamItem{StreamID: s, Value: json.RawMessage(rapid.SampledFrom([]string{`{}`, `5`, `{"remainingMs":-4}`, `{"remainingMs":1e300}`}).Draw(t, "v"))}}
		}
		return item(s, int64(rapid.IntRange(0, 10000).Draw(t, "ms")))
	case n == 11:
		s := pick(w.streams, "zz")
		if rapid.Bool().Draw(t, "err") {
			return wire.FromHost{Frame: wire.StreamError{StreamID: s, Code: wire.GatewayInternal, Message: "boom"}}
		}
		return end(s)
	case n <= 13:
		sess := rapid.SampledFrom(propSessions).Draw(t, "s")
		return wire.FromHost{Frame: wire.SessionUpdate{Session: sess, Reset: rapid.Bool().Draw(t, "reset"), Events: genEvents(t), Questions: genView(t), Inbox: genInbox(t)}}
	case n == 14:
		id := pick(w.rpcs, "zz")
		return wire.FromHTTP{RPCID: id, Envelope: rapid.SampledFrom([]wire.Envelope{
			wire.OKValue(nil), wire.OKValue(json.RawMessage("true")), wire.OKValue(json.RawMessage("false")),
			wire.OKValue(json.RawMessage("{")), wire.Failure(wire.GatewayInternal, "no"), {OK: false},
		}).Draw(t, "env")}
	case n == 15:
		return cancel(ev)
	case n == 16:
		w.gen++
		return ready(w.gen)
	case n == 17:
		return wire.LinkDown{}
	}
	if rapid.IntRange(0, 3).Draw(t, "reload") == 2 {
		return wire.Reload{}
	}
	return wire.ClientTick{}
}

// attachedEvents are the event ids whose channel is attached to a card right now.
func attachedEvents(c *Client) map[string]bool {
	out := map[string]bool{}
	c.page.deliveries.each(func(id string, d *delivery) bool {
		if d.phase == phListening && d.card != nil && d.card.waterfall == d {
			out[id] = true
		}
		return true
	})
	return out
}

func stateText(st wire.ClientState) string {
	var b strings.Builder
	for _, k := range st.Cards {
		b.WriteString(k.String() + "\n")
	}
	for _, d := range st.Drafts {
		b.WriteString(d.String() + "\n")
	}
	for _, r := range st.Rows {
		b.WriteString(r.String() + "\n")
	}
	for _, n := range st.Nodes {
		b.WriteString(n.String() + "\n")
	}
	for _, e := range st.Conversation {
		b.WriteString(e.String() + "\n")
	}
	return b.String()
}

func TestPropertyClient(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		c := New(Config{Name: "p", TickMs: rapid.SampledFrom([]int64{1, 250, 1000}).Draw(t, "tick"), Seed: rapid.Uint64().Draw(t, "seed")})
		w := &world{results: map[string]bool{}, opened: map[string]bool{}, gen: 1}
		if _, err := c.Apply(0, ready(1)); err != nil {
			t.Fatal(err)
		}
		steps := rapid.IntRange(1, 60).Draw(t, "steps")
		for i := 0; i < steps; i++ {
			w.now += int64(rapid.IntRange(0, 3000).Draw(t, "dt"))
			if rapid.IntRange(0, 30).Draw(t, "jump") == 0 {
				w.now -= int64(rapid.IntRange(0, 5000).Draw(t, "back"))
			}
			in := w.genInput(t)
			before := c.State()
			beforeText := stateText(before)
			attached := attachedEvents(c)
			gen := c.page.gen
			effs, err := c.Apply(wire.Time(w.now), in)
			after := c.State()
			if err != nil {
				if _, ok := in.(wire.User); !ok {
					t.Fatalf("%s: only user actions may be refused: %v", in, err)
				}
				if len(effs) == 0 && stateText(after) != beforeText {
					t.Fatalf("%s refused (%v) but changed the state:\n%s\n---\n%s", in, err, beforeText, stateText(after))
				}
			}
			if at, ok := c.NextDeadline(); ok && at.Ms() <= w.now && err == nil {
				t.Fatalf("a tick due at %d was left after Apply at %d", at, w.now)
			}
			cardsBefore := map[string]wire.CardState{}
			for _, k := range before.Cards {
				cardsBefore[k.Session+"/"+k.CallID] = k
			}
			for _, e := range effs {
				switch e := e.(type) {
				case wire.OpenStream:
					if w.opened[e.StreamID] || e.Gen != gen {
						t.Fatalf("stream %s opened twice or on a stale generation", e.StreamID)
					}
					w.opened[e.StreamID] = true
					w.streams = append(w.streams, e.StreamID)
				case wire.CancelStream:
					i := indexOf(w.streams, e.StreamID)
					if i < 0 {
						t.Fatalf("%s: cancel of a stream that is not open: %s (open %v)", in, e.StreamID, w.streams)
					}
					w.streams = append(w.streams[:i], w.streams[i+1:]...)
				case wire.SendResult:
					key := itoa(e.Gen) + "/" + e.EventID
					if w.results[key] {
						t.Fatalf("two outcomes for %s", key)
					}
					w.results[key] = true
					w.rpcs = append(w.rpcs, e.RPCID)
					if e.Outcome.Kind == wire.OutcomeResult {
						// Never submits without a channel: an answer goes only through an attached waterfall.
						if _, ok := in.(wire.User); !ok || !attached[e.EventID] {
							t.Fatalf("%s: an answer for %s without an attached waterfall", in, e.EventID)
						}
					}
				case wire.SendCall:
					w.rpcs = append(w.rpcs, e.RPCID)
					if e.Endpoint == wire.EndpointAnswer {
						var args struct{ AgentID, CallID string }
						_ = json.Unmarshal(e.Args, &args)
						if k, ok := cardsBefore[args.AgentID+"/"+args.CallID]; !ok || k.Channel != wire.ChannelRPC {
							t.Fatalf("%s: a late answer for %s/%s without an rpc channel (%v)", in, args.AgentID, args.CallID, k)
						}
					}
				}
			}
			switch in := in.(type) {
			case wire.Reload:
				w.streams = nil
				if len(effs) == 0 || effs[len(effs)-1].String() != "dial" {
					t.Fatalf("reload emitted %v", strs(effs))
				}
			case wire.LinkDown:
				w.streams = nil
			case wire.FromHost:
				if se, ok := in.Frame.(wire.StreamEnd); ok {
					w.streams = remove(w.streams, se.StreamID)
				}
				if se, ok := in.Frame.(wire.StreamError); ok {
					w.streams = remove(w.streams, se.StreamID)
				}
				if _, ok := in.Frame.(wire.Ready); ok {
					w.streams = nil
				}
			case wire.User:
				// A local action never decides that a keyed question is answered: every keyed
				// card stays (teardown and a review card's close aside).
				if in.Action.Kind == wire.ActTeardown {
					break
				}
				for key, k := range cardsBefore {
					if k.CallID == "" || k.Kind == kindReview {
						continue
					}
					found := false
					for _, a := range after.Cards {
						if a.Session+"/"+a.CallID == key {
							found = true
						}
					}
					if !found {
						t.Fatalf("%s removed the keyed card %s", in, key)
					}
				}
			}
			if in, ok := in.(wire.FromHTTP); ok {
				w.rpcs = remove(w.rpcs, in.RPCID)
			}
			for _, e := range effs {
				if _, ok := e.(wire.Dial); ok {
					// A failed $events/result failed the generation (its open claims were
					// cancelled above), or the link went down: no stream survives.
					w.streams = nil
				}
			}
			_ = stateText(after)
		}
	})
}

func indexOf(s []string, x string) int {
	for i, v := range s {
		if v == x {
			return i
		}
	}
	return -1
}

func remove(s []string, x string) []string {
	if i := indexOf(s, x); i >= 0 {
		return append(s[:i], s[i+1:]...)
	}
	return s
}

// The same inputs give the same effects and the same state, byte for byte.
func TestPropertyDeterministic(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		seed := rapid.Uint64().Draw(t, "seed")
		a, b := New(Config{Name: "p", Seed: seed}), New(Config{Name: "p", Seed: seed})
		w := &world{results: map[string]bool{}, opened: map[string]bool{}, gen: 1}
		a.Apply(0, ready(1))
		b.Apply(0, ready(1))
		for i := rapid.IntRange(1, 50).Draw(t, "steps"); i > 0; i-- {
			w.now += int64(rapid.IntRange(0, 3000).Draw(t, "dt"))
			in := w.genInput(t)
			ea, erra := a.Apply(wire.Time(w.now), in)
			sa := strings.Join(strs(ea), "\n")
			eb, errb := b.Apply(wire.Time(w.now), in)
			if sb := strings.Join(strs(eb), "\n"); sa != sb || (erra == nil) != (errb == nil) {
				t.Fatalf("%s diverged:\n%s\n---\n%s", in, sa, sb)
			}
			for _, e := range ea {
				switch e := e.(type) {
				case wire.OpenStream:
					w.streams = append(w.streams, e.StreamID)
				case wire.SendResult:
					w.rpcs = append(w.rpcs, e.RPCID)
				case wire.SendCall:
					w.rpcs = append(w.rpcs, e.RPCID)
				}
			}
			if x, y := stateText(a.State()), stateText(b.State()); x != y {
				t.Fatalf("state diverged:\n%s\n---\n%s", x, y)
			}
		}
	})
}
