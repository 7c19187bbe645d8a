package questions

import (
	"reflect"
	"strconv"
	"testing"

	"github.com/twosettle/twosettle/engine/session"
	"github.com/twosettle/twosettle/engine/wire"
	"pgregory.net/rapid"
)

var (
	timedTools  = "[" + string(timedSchema(120)) + "]"
	legacyTools = "[" + string(legacySchema()) + "]"
)

const (
	argsAB    = `{"questions":[{"id":"a","question":"A?"},{"id":"b","question":"B?","header":"H","options":[{"label":"x","description":"d"}],"multi_select":true,"extra":1}],"timeout":30}`
	batchAB   = `{"answers":[{"id":"a","selected":["x"]},{"id":"b","selected":[],"custom":"c"}]}`
	unknownRs = "unknown"
)

// logOf numbers data as a log from seq 0.
func logOf(ds ...session.Data) []session.Event {
	out := make([]session.Event, len(ds))
	for i, d := range ds {
		out[i] = session.Event{Seq: i, Time: int64(i), Data: d}
	}
	return out
}

func hdr(tools string) session.Data { return session.RequestHeader{Reason: "initial", Tools: tools} }
func call(id, args string) session.Data {
	return session.ToolCall{Turn: 1, Step: 1, CallID: id, Name: ToolName, Arguments: args}
}
func res(id, text string) session.Data {
	return session.ToolResult{Turn: 1, Step: 1, CallID: id, Text: text}
}
func resErr(id, code, text string) session.Data {
	return session.ToolResult{Turn: 1, Step: 1, CallID: id, IsError: true, Err: session.ErrorInfo{Name: "E", Code: code}, Text: text}
}
func reply(id, callID, text string) session.Data {
	return session.UserMessage{Message: session.Message{ID: id, Source: session.Source{Kind: session.SourceUserQuestionReply, CallID: callID, Outcome: "answered"}, Text: text}}
}
func pendingFor(id string) string { return string(PendingText(id)) }

func viewString(v wire.QuestionsView) string { return v.String() }

func TestProjection(t *testing.T) {
	t.Run("PROJ-1 the view is folded from existing session events only", func(t *testing.T) {
		log := logOf(hdr(timedTools), session.TurnStart{Turn: 1}, session.StepStart{Turn: 1, Step: 1},
			call("c1", argsAB), res("c1", pendingFor("c1")), session.StepEnd{Turn: 1, Step: 1}, session.TurnEnd{Turn: 1, Reason: session.TurnEndReason{Kind: "completed"}},
			session.InboxSpliced{Target: session.NextStep, Inserted: []session.Message{{ID: "m1", Source: session.Source{Kind: session.SourceUserQuestionReply, CallID: "c1", Outcome: "answered"}, Text: batchAB}}},
			session.TurnStart{Turn: 2}, session.InboxSpliced{Target: session.NextStep, Removed: 1}, reply("m1", "c1", batchAB))
		if got := viewString(Fold(log, 0)); got != `active=[] settled=[c1{a=[x] b=[]+"c"}]` {
			t.Fatalf("view %s", got)
		}
	})
	t.Run("PROJ-2 timed calls are recognised by the latest request/header", func(t *testing.T) {
		cases := []struct {
			name  string
			tools string
			timed bool
		}{
			{"timed schema", timedTools, true},
			{"legacy schema", legacyTools, false},
			{"no tools", ``, false},
			{"placeholder string", `"tools"`, false},
			{"object, not array", `{"name":"ask_user_question","parameters":{"properties":{"timeout":{}}}}`, false},
			{"timeout elsewhere", `[{"name":"ask_user_question","parameters":{"timeout":{}}}]`, false},
			{"another tool with timeout", `[{"name":"sleep","parameters":{"properties":{"timeout":{}}}}]`, false},
			{"properties not an object", `[{"name":"ask_user_question","parameters":{"properties":[]}}]`, false},
			{"minimal timed entry among others", `[{"name":"run_code"},{"name":"ask_user_question","parameters":{"properties":{"timeout":null}}}]`, true},
		}
		for _, c := range cases {
			v := Fold(logOf(hdr(c.tools), call("c1", argsAB)), 0)
			if (len(v.Active) == 1) != c.timed {
				t.Errorf("%s: view %s", c.name, v)
			}
		}
		// The latest header wins, both ways.
		v := Fold(logOf(hdr(timedTools), hdr(legacyTools), call("c1", argsAB)), 0)
		if len(v.Active) != 0 {
			t.Fatal("an older timed header won")
		}
		v = Fold(logOf(hdr(legacyTools), call("c0", argsAB), hdr(timedTools), call("c1", argsAB)), 0)
		if viewString(v) != "active=[c1:open] settled=[]" {
			t.Fatalf("view %s", v)
		}
		// Other tool names are never tracked.
		v = Fold(logOf(hdr(timedTools), session.ToolCall{CallID: "c1", Name: "sleep", Arguments: argsAB}), 0)
		if len(v.Active) != 0 {
			t.Fatal("a sleep call was tracked")
		}
	})
	t.Run("PROJ-3 a valid tool/call opens; unreadable arguments are ignored; a reused id moves to the end as open", func(t *testing.T) {
		v := Fold(logOf(hdr(timedTools), call("c1", argsAB)), 0)
		row, ok := v.Row("c1")
		if !ok || row.State != wire.StateOpen || len(row.Questions) != 2 {
			t.Fatalf("view %s", v)
		}
		b := row.Questions[1]
		if b.Header == nil || *b.Header != "H" || !b.IsMulti() || len(b.Options) != 1 || *b.Options[0].Description != "d" || b.Detail != nil {
			t.Fatalf("question b %+v", b)
		}
		for _, bad := range []string{`nope`, `{}`, `{"questions":[]}`, `{"questions":[{"id":"a"}]}`, `{"questions":[{"id":"a","question":"?","header":1}]}`,
			`{"questions":[{"id":"a","question":"?","options":{}}]}`, `{"questions":[{"id":"a","question":"?","options":[{"label":"x","description":null}]}]}`,
			`{"questions":[{"id":"a","question":"?","multi_select":null}]}`, `{"questions":[1]}`} {
			if v := Fold(logOf(hdr(timedTools), call("c1", bad)), 0); len(v.Active) != 0 {
				t.Errorf("unreadable %s opened: %s", bad, v)
			}
		}
		v = Fold(logOf(hdr(timedTools), call("c1", argsAB), call("c2", argsAB), res("c1", pendingFor("c1")), call("c1", argsAB)), 0)
		if viewString(v) != "active=[c2:open c1:open] settled=[]" {
			t.Fatalf("reused id: %s", v)
		}
	})
	t.Run("PROJ-4 a pending result or TOOL_OUTCOME_UNKNOWN makes the question continued in place", func(t *testing.T) {
		cases := []session.Data{
			res("c1", pendingFor("c1")),
			res("c1", `{"pending":true}`),
			resErr("c1", session.ToolOutcomeUnknown, session.ToolOutcomeUnknownText),
			session.ToolResult{CallID: "c1", IsError: true, Err: session.ErrorInfo{Code: session.ToolOutcomeUnknown}, NoText: true},
			resErr("c1", "OTHER", pendingFor("c1")), // an error result whose text is the pending JSON
			// text plus reasoning: the text block is read, as the peer reads the first text block
			session.ToolResult{CallID: "c1", Text: pendingFor("c1"), Reasoning: "the user is away"},
		}
		for i, d := range cases {
			v := Fold(logOf(hdr(timedTools), call("c1", argsAB), call("c2", argsAB), d), 0)
			if viewString(v) != "active=[c1:continued c2:open] settled=[]" {
				t.Errorf("case %d: %s", i, v)
			}
		}
		if v := Fold(logOf(hdr(timedTools), call("c1", argsAB), res("c1", `{"pending":"true"}`)), 0); len(v.Active) != 0 {
			t.Fatalf("pending:\"true\" is not pending: %s", v)
		}
	})
	t.Run("PROJ-5 a non-error result with a valid batch settles with that batch", func(t *testing.T) {
		v := Fold(logOf(hdr(timedTools), call("c1", argsAB), res("c1", batchAB)), 0)
		s, ok := v.SettledFor("c1")
		if !ok || len(v.Active) != 0 || wire.AnswersString(s.Answers) != `{a=[x] b=[]+"c"}` {
			t.Fatalf("view %s", v)
		}
		v = Fold(logOf(hdr(timedTools), call("c1", argsAB), res("c1", `{"answers":[],"note":1}`)), 0)
		if s, ok := v.SettledFor("c1"); !ok || len(s.Answers) != 0 {
			t.Fatalf("empty batch: %s", v)
		}
	})
	t.Run("PROJ-6 any other result or failure removes the question with no settled record", func(t *testing.T) {
		cases := map[string]session.Data{
			"ASK_CANCELLED":          resErr("c1", wire.AskCancelled, "Error: x"),
			"ASK_ABORTED":            resErr("c1", wire.AskAborted, "Error: x"),
			"isError with a batch":   session.ToolResult{CallID: "c1", IsError: true, Text: batchAB},
			"error info with batch":  session.ToolResult{CallID: "c1", Err: session.ErrorInfo{Name: "E", Code: "X"}, Text: batchAB},
			"non-JSON":               res("c1", "hello"),
			"answers not an array":   res("c1", `{"answers":{}}`),
			"item with an extra key": res("c1", `{"answers":[{"id":"a","selected":[],"x":1}]}`),
			"item custom null":       res("c1", `{"answers":[{"id":"a","selected":[],"custom":null}]}`),
			"no text block":          session.ToolResult{CallID: "c1", NoText: true},
		}
		for name, d := range cases {
			v := Fold(logOf(hdr(timedTools), call("c1", argsAB), d), 0)
			if len(v.Active) != 0 || len(v.Settled) != 0 {
				t.Errorf("%s: %s", name, v)
			}
		}
		// A result for a call that is not active changes nothing.
		if v := Fold(logOf(hdr(timedTools), res("zz", batchAB)), 0); len(v.Settled) != 0 {
			t.Fatal("untracked result settled")
		}
	})
	t.Run("PROJ-7 a PTC sub-call enters as continued on a pending dispatch, once", func(t *testing.T) {
		ptc := session.PTCDispatch{Root: "r", Parent: "r", SubCallID: "r:ptc:1", Name: ToolName, Arguments: argsAB, Text: pendingFor("r:ptc:1")}
		runCode := `[{"name":"run_code","parameters":{"type":"object"}}]`
		v := Fold(logOf(hdr(runCode), ptc), 0)
		if viewString(v) != "active=[r:ptc:1:continued] settled=[]" {
			t.Fatalf("view %s", v)
		}
		v = Fold(logOf(hdr(runCode), ptc, call("x", argsAB), ptc), 0)
		if viewString(v) != "active=[r:ptc:1:continued] settled=[]" {
			t.Fatalf("repeated: %s", v)
		}
		notPending := ptc
		notPending.Text = batchAB
		isErr := ptc
		isErr.IsError = true
		other := ptc
		other.Name = "sleep"
		for i, d := range []session.Data{notPending, isErr, other} {
			if v := Fold(logOf(hdr(runCode), d), 0); len(v.Active) != 0 {
				t.Errorf("case %d entered: %s", i, v)
			}
		}
	})
	t.Run("PROJ-8 a user-question-reply settles the active call with its batch, or an empty one", func(t *testing.T) {
		base := []session.Data{hdr(timedTools), call("c1", argsAB), res("c1", pendingFor("c1"))}
		v := Fold(logOf(append(base, reply("m", "c1", `{"kind":"answer_to_pending_question","answers":[{"id":"a","selected":["x"]}]}`))...), 0)
		if s, ok := v.SettledFor("c1"); !ok || wire.AnswersString(s.Answers) != "{a=[x]}" || len(v.Active) != 0 {
			t.Fatalf("view %s", v)
		}
		for _, text := range []string{"garbage", `{"answers":"no"}`, ""} {
			v := Fold(logOf(append(base, reply("m", "c1", text))...), 0)
			if s, ok := v.SettledFor("c1"); !ok || len(s.Answers) != 0 || s.Answers == nil {
				t.Errorf("%q: %s", text, v)
			}
		}
		noText := session.UserMessage{Message: session.Message{ID: "m", Source: session.Source{Kind: session.SourceUserQuestionReply, CallID: "c1"}, NoText: true}}
		if v := Fold(logOf(append(base, noText)...), 0); len(v.Settled) != 1 {
			t.Fatalf("no text (and no outcome): %s", v)
		}
		// An open entry settles too (docs/PEER.md §8.5); an ordinary message with the same JSON does not.
		v = Fold(logOf(hdr(timedTools), call("c1", argsAB), reply("m", "c1", batchAB)), 0)
		if len(v.Settled) != 1 {
			t.Fatalf("open entry: %s", v)
		}
		plain := session.UserMessage{Message: session.Message{ID: "m", Source: session.Source{Kind: "user"}, Text: `{"kind":"answer_to_pending_question","callId":"c1","answers":[]}`}}
		if v := Fold(logOf(append(base, plain)...), 0); len(v.Settled) != 0 {
			t.Fatal("an ordinary message settled")
		}
		if v := Fold(logOf(append(base, reply("m", "c9", batchAB))...), 0); len(v.Settled) != 0 || len(v.Active) != 1 {
			t.Fatal("a reply for an inactive call changed the view")
		}
	})
	t.Run("PROJ-9 queuing or cancelling a reply in the inbox never settles", func(t *testing.T) {
		m := session.Message{ID: "m1", Source: session.Source{Kind: session.SourceUserQuestionReply, CallID: "c1", Outcome: "answered"}, Text: batchAB}
		log := logOf(hdr(timedTools), call("c1", argsAB), res("c1", pendingFor("c1")),
			session.InboxSpliced{Target: session.NextStep, Inserted: []session.Message{m}},
			session.InboxSpliced{Target: session.NextStep, Removed: 1, Outcome: session.OutcomeCanceled})
		p := NewProjection(0)
		for _, e := range log[3:] {
			p.Apply(e)
		}
		if v := Fold(log, 0); viewString(v) != "active=[c1:continued] settled=[]" {
			t.Fatalf("view %s", v)
		}
		if p.Apply(log[3]) || p.Apply(log[4]) {
			t.Fatal("a splice changed the view")
		}
	})
	t.Run("PROJ-10 settled batches stay in the view while the tool row's result stays pending", func(t *testing.T) {
		log := logOf(hdr(timedTools), call("c1", argsAB), res("c1", pendingFor("c1")), reply("m", "c1", batchAB),
			call("c2", argsAB), res("c2", batchAB), session.TurnEnd{Turn: 1}, hdr(legacyTools))
		v := Fold(log, 0)
		if viewString(v) != `active=[] settled=[c1{a=[x] b=[]+"c"} c2{a=[x] b=[]+"c"}]` {
			t.Fatalf("view %s", v)
		}
	})
	t.Run("PROJ-11 a forked session ignores the events it inherited", func(t *testing.T) {
		parent := session.New("p")
		for _, d := range []session.Data{hdr(timedTools), call("c1", argsAB), res("c1", pendingFor("c1"))} {
			parent.Append(0, d)
		}
		child, err := session.Fork("k", parent, 2)
		if err != nil {
			t.Fatal(err)
		}
		child.Append(1, reply("m", "c1", batchAB))
		child.Append(1, call("c2", argsAB)) // the inherited timed header is ignored too
		if v := Fold(child.Events(), child.Inherited()); len(v.Active) != 0 || len(v.Settled) != 0 {
			t.Fatalf("fork view %s", v)
		}
		child.Append(2, hdr(timedTools))
		child.Append(2, call("c3", argsAB))
		if v := Fold(child.Events(), child.Inherited()); viewString(v) != "active=[c3:open] settled=[]" {
			t.Fatalf("fork view %s", v)
		}
	})
	t.Run("PROJ-12 the fold is pure: incremental folding equals a fresh fold, and published views never change", func(t *testing.T) {
		rapid.Check(t, func(t *rapid.T) {
			inherited := rapid.IntRange(0, 3).Draw(t, "inherited")
			n := rapid.IntRange(0, 40).Draw(t, "events")
			var log []session.Event
			p := NewProjection(inherited)
			var published []wire.QuestionsView
			var texts []string
			for i := 0; i < n; i++ {
				e := session.Event{Seq: i, Time: int64(i), Data: drawEvent(t, i)}
				log = append(log, e)
				// a view is handed out only after some events (as the host publishes once a
				// command, after all its appends): between two, the projection changes its
				// own copy in place
				before := p.view.String()
				changed := p.Apply(e)
				if !changed && before != p.view.String() {
					t.Fatalf("view changed without reporting it at %v", e)
				}
				if got, want := p.view, Fold(log, inherited); !reflect.DeepEqual(got, want) {
					t.Fatalf("after %d events: incremental %s, fresh fold %s", i+1, got, want)
				}
				if rapid.Bool().Draw(t, "publish") {
					published = append(published, p.View())
					texts = append(texts, p.View().String())
				}
			}
			// a holder appending to its view (as a client might) writes into no storage
			// another view or the projection shares
			for _, v := range published {
				_ = append(v.Active, wire.PendingRow{CallID: "holder", State: wire.StateOpen})
				_ = append(v.Settled, wire.SettledRow{CallID: "holder"})
			}
			if got, want := p.View(), Fold(log, inherited); !reflect.DeepEqual(got, want) {
				t.Fatalf("after holders appended: incremental %s, fresh fold %s", got, want)
			}
			for i, v := range published {
				if v.String() != texts[i] {
					t.Fatalf("published view %d changed: %s, was %s", i, v, texts[i])
				}
			}
			if again := Fold(log, inherited); !reflect.DeepEqual(again, Fold(log, inherited)) {
				t.Fatal("two fresh folds differ")
			}
		})
	})
}

var callIDs = []string{"c1", "c2", "c3", "r:ptc:1"}

func drawEvent(t *rapid.T, i int) session.Data {
	id := rapid.SampledFrom(callIDs).Draw(t, "call")
	switch rapid.IntRange(0, 9).Draw(t, "kind") {
	case 0:
		return hdr(rapid.SampledFrom([]string{timedTools, legacyTools, `"x"`, ``}).Draw(t, "tools"))
	case 1, 2:
		name := rapid.SampledFrom([]string{ToolName, ToolName, "sleep"}).Draw(t, "name")
		args := rapid.SampledFrom([]string{argsAB, argsA, `{"questions":[]}`, `bad`}).Draw(t, "args")
		return session.ToolCall{CallID: id, Name: name, Arguments: args}
	case 3, 4:
		switch rapid.IntRange(0, 5).Draw(t, "result") {
		case 0:
			return res(id, pendingFor(id))
		case 1:
			return resErr(id, session.ToolOutcomeUnknown, session.ToolOutcomeUnknownText)
		case 2:
			return res(id, batchAB)
		case 3:
			return resErr(id, wire.AskAborted, "Error: x")
		case 4:
			return session.ToolResult{CallID: id, NoText: true}
		default:
			return res(id, "junk "+strconv.Itoa(i))
		}
	case 5:
		return session.PTCDispatch{SubCallID: id, Name: ToolName, Arguments: argsAB, Text: rapid.SampledFrom([]string{pendingFor(id), batchAB}).Draw(t, "content")}
	case 6:
		return reply("m"+strconv.Itoa(i), id, rapid.SampledFrom([]string{batchAB, "junk", ""}).Draw(t, "text"))
	case 7:
		return session.InboxSpliced{Target: session.NextStep, Inserted: []session.Message{{ID: "m", Source: session.Source{Kind: session.SourceUserQuestionReply, CallID: id, Outcome: "answered"}, Text: batchAB}}}
	case 8:
		return session.UserMessage{Message: session.Message{ID: "u", Source: session.Source{Kind: "user"}, Text: batchAB}}
	default:
		return session.TurnEnd{Turn: 1, Reason: session.TurnEndReason{Kind: unknownRs}}
	}
}
