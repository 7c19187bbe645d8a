package questions

import (
	"regexp"
	"strings"
	"testing"

	"github.com/twosettle/twosettle/engine/jsonx"
	"github.com/twosettle/twosettle/engine/session"
	"github.com/twosettle/twosettle/engine/signal"
	"github.com/twosettle/twosettle/engine/wire"
)

type toolRun struct {
	got   bool
	count int
	r     ToolResult
}

func (c *toolRun) done(r ToolResult) { c.got, c.r = true, r; c.count++ }

func newTool(t *testing.T, f *fixture, c ToolConfig) *Tool {
	t.Helper()
	tool, err := NewTool(c, f.svc)
	if err != nil {
		t.Fatal(err)
	}
	return tool
}

const argsA = `{"questions":[{"id":"a","question":"Which?","options":[{"label":"x"},{"label":"y","description":"why"}]}]}`

func TestTool(t *testing.T) {
	timeoutErr := regexp.MustCompile(`(?i)timeout.*integer`)

	t.Run("TOOL-1 legacy is the default: no timeout in the schema, ask() with no wait, never tracked", func(t *testing.T) {
		f := newFixture()
		tool := newTool(t, f, ToolConfig{})
		if tool.Timed() || strings.Contains(string(tool.Schema()), "timeout") || headerTimed("["+string(tool.Schema())+"]") {
			t.Fatalf("legacy schema %s", tool.Schema())
		}
		if !strings.Contains(string(tool.Schema()), `"description":"`+LegacyDescription+`"`) {
			t.Fatalf("schema %s", tool.Schema())
		}
		var r toolRun
		tool.Execute(0, Call{CallID: "c1", Args: `{"questions":[{"id":"a","question":"?"}],"timeout":30}`, Agent: f.agent, Signal: signal.New()}, r.done)
		h := f.l.last(t)
		if h.r.Wait != nil || len(f.svc.Waits()) != 0 {
			t.Fatalf("legacy call took a wait: %+v", h.r.Wait)
		}
		h.settle(Outcome{Value: raw(answerA)})
		if r.r.IsError || r.r.Text != answerA {
			t.Fatalf("result %+v", r.r)
		}
		log := []session.Event{
			{Seq: 0, Data: session.RequestHeader{Reason: "initial", Tools: "[" + string(tool.Schema()) + "]"}},
			{Seq: 1, Data: session.ToolCall{CallID: "c1", Name: ToolName, Arguments: argsA}},
		}
		if v := Fold(log, 0); len(v.Active) != 0 {
			t.Fatalf("legacy call tracked: %v", v)
		}
		// Unknown modes are refused.
		if _, err := NewTool(ToolConfig{Mode: "fast"}, f.svc); err == nil {
			t.Fatal("mode fast accepted")
		}
	})
	t.Run("TOOL-2 timed adds an integer timeout; omitted, the configured default applies", func(t *testing.T) {
		for _, c := range []struct {
			cfg  int
			want int64
		}{{0, 120000}, {45, 45000}} {
			f := newFixture()
			tool := newTool(t, f, ToolConfig{Mode: ModeTimed, Timeout: c.cfg})
			v, _ := jsonx.Parse(string(tool.Schema()))
			params, _ := get(v, "parameters")
			props, _ := get(params, "properties")
			to, ok := get(props, "timeout")
			typ, _ := get(to, "type")
			desc, _ := get(to, "description")
			if !ok || typ.Text() != "integer" || !strings.HasPrefix(desc.Text(), "Wait seconds for the entire batch (default ") {
				t.Fatalf("timeout property %s", tool.Schema())
			}
			if !headerTimed("[" + string(tool.Schema()) + "]") {
				t.Fatal("the projection does not recognise the timed schema")
			}
			var r toolRun
			tool.Execute(1000, Call{CallID: "c1", Args: argsA, Agent: f.agent, Signal: signal.New()}, r.done)
			w, ok := f.svc.Wait(f.agent, "c1")
			if !ok || w.Deadline() != 1000+c.want {
				t.Fatalf("configured %d: wait %v", c.cfg, w)
			}
		}
	})
	t.Run("TOOL-3 per-call timeouts other than -1 or 1..2147483 fail before any user sees a question", func(t *testing.T) {
		for _, bad := range []string{`0`, `-2`, `1.5`, `"30"`, `2147484`, `true`, `[]`, `{}`, `1e300`} {
			f := newFixture()
			tool := newTool(t, f, ToolConfig{Mode: ModeTimed})
			var r toolRun
			tool.Execute(0, Call{CallID: "c1", Args: `{"questions":[{"id":"a","question":"?"}],"timeout":` + bad + `}`, Agent: f.agent, Signal: signal.New()}, r.done)
			if !r.got || !r.r.IsError || r.r.Err.Set() || !timeoutErr.MatchString(r.r.Text) || !strings.HasPrefix(r.r.Text, "Error: ") {
				t.Errorf("timeout %s: %+v", bad, r.r)
			}
			if len(f.l.held) != 0 || len(f.svc.Waits()) != 0 {
				t.Errorf("timeout %s reached the answerer", bad)
			}
		}
		for _, good := range []string{`1`, `2147483`, `-1`, `null`, `30.0`} {
			f := newFixture()
			tool := newTool(t, f, ToolConfig{Mode: ModeTimed})
			var r toolRun
			tool.Execute(0, Call{CallID: "c1", Args: `{"questions":[{"id":"a","question":"?"}],"timeout":` + good + `}`, Agent: f.agent, Signal: signal.New()}, r.done)
			if r.got || len(f.l.held) != 1 {
				t.Errorf("timeout %s refused: %+v", good, r.r)
			}
		}
		for _, cfg := range []int{-2, 2147484, -120} {
			if _, err := NewTool(ToolConfig{Mode: ModeTimed, Timeout: cfg}, newFixture().svc); err == nil || !timeoutErr.MatchString(err.Error()) {
				t.Errorf("configured default %d: %v", cfg, err)
			}
		}
		for _, cfg := range []int{-1, 1, 2147483} {
			if _, err := NewTool(ToolConfig{Mode: ModeTimed, Timeout: cfg}, newFixture().svc); err != nil {
				t.Errorf("configured default %d refused: %v", cfg, err)
			}
		}
	})
	t.Run("TOOL-4 a positive timeout takes askTimed; -1 takes ask with wait {callId} and is still tracked", func(t *testing.T) {
		f := newFixture()
		tool := newTool(t, f, ToolConfig{Mode: ModeTimed})
		var r1 toolRun
		tool.Execute(0, Call{CallID: "c1", Args: `{"questions":[{"id":"a","question":"?"}],"timeout":5}`, Agent: f.agent, Signal: signal.New()}, r1.done)
		if h := f.l.last(t); h.r.Wait == nil || !h.r.Wait.Timed || h.r.Wait.CallID != "c1" {
			t.Fatalf("positive timeout: %+v", h.r.Wait)
		}
		if w, ok := f.svc.Wait(f.agent, "c1"); !ok || w.Deadline() != 5000 {
			t.Fatal("no 5000 ms wait")
		}
		var r2 toolRun
		tool.Execute(0, Call{CallID: "c2", Args: `{"questions":[{"id":"a","question":"?"}],"timeout":-1}`, Agent: f.agent, Signal: signal.New()}, r2.done)
		h := f.l.last(t)
		if h.r.Wait == nil || h.r.Wait.Timed || h.r.Wait.CallID != "c2" || string(h.r.Payload()) != `{"questions":[{"id":"a","question":"?"}],"wait":{"callId":"c2"}}` {
			t.Fatalf("-1: %s", h.r.Payload())
		}
		if _, ok := f.svc.Wait(f.agent, "c2"); ok {
			t.Fatal("-1 made a timed wait")
		}
		// A -1 default in the configuration behaves the same; a positive per-call value beats it.
		f2 := newFixture()
		tool2 := newTool(t, f2, ToolConfig{Mode: ModeTimed, Timeout: -1})
		var r3 toolRun
		tool2.Execute(0, Call{CallID: "c3", Args: argsA, Agent: f2.agent, Signal: signal.New()}, r3.done)
		if h := f2.l.last(t); h.r.Wait == nil || h.r.Wait.Timed {
			t.Fatalf("configured -1: %+v", h.r.Wait)
		}
		tool2.Execute(0, Call{CallID: "c4", Args: `{"questions":[{"id":"a","question":"?"}],"timeout":7}`, Agent: f2.agent, Signal: signal.New()}, r3.done)
		if w, ok := f2.svc.Wait(f2.agent, "c4"); !ok || w.Deadline() != 7000 {
			t.Fatal("per-call 7 did not beat the -1 default")
		}
		// The timed schema tracks the -1 call.
		log := []session.Event{
			{Seq: 0, Data: session.RequestHeader{Tools: "[" + string(tool.Schema()) + "]"}},
			{Seq: 1, Data: session.ToolCall{CallID: "c2", Name: ToolName, Arguments: `{"questions":[{"id":"a","question":"?"}],"timeout":-1}`}},
		}
		if v := Fold(log, 0); len(v.Active) != 1 || v.Active[0].State != wire.StateOpen {
			t.Fatalf("-1 call not tracked: %v", v)
		}
	})
	t.Run("TOOL-5 question ids are unique within one call", func(t *testing.T) {
		f := newFixture()
		tool := newTool(t, f, ToolConfig{Mode: ModeTimed})
		var r toolRun
		tool.Execute(0, Call{CallID: "c1", Args: `{"questions":[{"id":"a","question":"1"},{"id":"b","question":"2"},{"id":"a","question":"3"}]}`, Agent: f.agent, Signal: signal.New()}, r.done)
		if !r.r.IsError || r.r.Text != `Error: question id "a" must be unique within this call` || r.r.Err.Set() {
			t.Fatalf("result %+v", r.r)
		}
		if len(f.l.held) != 0 || len(f.svc.Waits()) != 0 {
			t.Fatal("answerer reached")
		}
		var r2 toolRun
		tool.Execute(0, Call{CallID: "c2", Args: `{"questions":[{"id":"a","question":"1"}]}`, Agent: f.agent, Signal: signal.New()}, r2.done)
		if r2.got || len(f.l.held) != 1 {
			t.Fatalf("the same id in another call: %+v", r2.r)
		}
	})
	t.Run("TOOL-6 the timed path needs a live agent", func(t *testing.T) {
		f := newFixture()
		tool := newTool(t, f, ToolConfig{Mode: ModeTimed})
		var r toolRun
		tool.Execute(0, Call{CallID: "c1", Args: argsA, Signal: signal.New()}, r.done)
		if !r.r.IsError || r.r.Text != "Error: "+MsgTimedNeedsAgent || len(f.l.held) != 0 {
			t.Fatalf("result %+v", r.r)
		}
		// A stale agent fails in the service: CALLER_NOT_LIVE, as a tool error with its code.
		stale := f.agent
		f.rt.enter("s1", "")
		var r2 toolRun
		tool.Execute(0, Call{CallID: "c1", Args: argsA, Agent: stale, Signal: signal.New()}, r2.done)
		if r2.r.Err.Code != wire.CallerNotLive {
			t.Fatalf("stale agent: %+v", r2.r)
		}
		// -1 needs no agent.
		var r3 toolRun
		tool.Execute(0, Call{CallID: "c2", Args: `{"questions":[{"id":"a","question":"?"}],"timeout":-1}`, Signal: signal.New()}, r3.done)
		if r3.got || len(f.l.held) != 1 {
			t.Fatalf("-1 without agent: %+v", r3.r)
		}
	})
	t.Run("TOOL-7 the pending result is one compact JSON object with the instruction", func(t *testing.T) {
		f := newFixture()
		tool := newTool(t, f, ToolConfig{Mode: ModeTimed})
		var r toolRun
		tool.Execute(0, Call{CallID: `c"1`, Args: `{"questions":[{"id":"a","question":"?"}],"timeout":5}`, Agent: f.agent, Signal: signal.New()}, r.done)
		f.svc.Fire(5000)
		want := `{"pending":true,"callId":"c\"1","message":"` + PendingMessage + `"}`
		if r.r.IsError || r.r.Text != want {
			t.Fatalf("pending text\n got %s\nwant %s", r.r.Text, want)
		}
		for _, frag := range []string{
			"No answer batch arrived before the timeout.", "This is pending, not a skipped answer.",
			"Do not treat this as permission.", "answer_to_pending_question", "callId", "original questions", "can still answer",
		} {
			if !strings.Contains(PendingMessage, frag) {
				t.Errorf("message lacks %q", frag)
			}
		}
		if !isPendingText(r.r.Text) {
			t.Fatal("the projection does not read the pending text as pending")
		}
	})
	t.Run("TOOL-8 an answer result is compact JSON with id, selected, custom", func(t *testing.T) {
		cases := []struct{ in, want string }{
			{`{"answers":[{"id":"pkg","selected":[],"custom":"bun"}]}`, `{"answers":[{"id":"pkg","selected":[],"custom":"bun"}]}`},
			{` { "answers" : [ { "custom":"c", "extra":1, "selected":["a","b"], "id":"q" } ], "more":true } `, `{"answers":[{"id":"q","selected":["a","b"],"custom":"c"}]}`},
			{`{"answers":[{"id":"a","selected":["<&>"]}]}`, `{"answers":[{"id":"a","selected":["<&>"]}]}`},
		}
		for _, mode := range []string{ModeLegacy, ModeTimed} {
			for _, c := range cases {
				f := newFixture()
				tool := newTool(t, f, ToolConfig{Mode: mode})
				var r toolRun
				tool.Execute(0, Call{CallID: "c1", Args: argsA, Agent: f.agent, Signal: signal.New()}, r.done)
				f.l.last(t).settle(Outcome{Value: raw(c.in)})
				if r.r.IsError || r.r.Text != c.want {
					t.Errorf("%s %s: got %+v", mode, c.in, r.r)
				}
			}
		}
		f := newFixture()
		tool := newTool(t, f, ToolConfig{})
		var r toolRun
		tool.Execute(0, Call{CallID: "c1", Args: argsA, Agent: f.agent, Signal: signal.New()}, r.done)
		f.l.last(t).settle(Outcome{}) // a result with no value
		if !r.r.IsError || r.r.Err.Set() {
			t.Fatalf("no value: %+v", r.r)
		}
	})
	t.Run("TOOL-9 service failures reach the model as tool errors keeping name and code", func(t *testing.T) {
		f := newFixture()
		f.l.delegate = true
		tool := newTool(t, f, ToolConfig{})
		var r toolRun
		tool.Execute(0, Call{CallID: "c1", Args: argsA, Agent: f.agent, Signal: signal.New()}, r.done)
		if !r.r.IsError || r.r.Err != (session.ErrorInfo{Name: wire.UserQuestionErrorName, Code: wire.NoProvider}) || r.r.Text != "Error: "+errNoProvider().Message {
			t.Fatalf("NO_PROVIDER: %+v", r.r)
		}
		var r2 toolRun
		tool.Execute(0, Call{CallID: "c2", Args: `{"questions":[]}`, Agent: f.agent, Signal: signal.New()}, r2.done)
		if r2.r.Err.Code != wire.EmptyQuestions {
			t.Fatalf("empty: %+v", r2.r)
		}
		child := f.rt.enter("child", "s1")
		var r3 toolRun
		tool.Execute(0, Call{CallID: "c3", Args: argsA, Agent: child, Signal: signal.New()}, r3.done)
		if r3.r.Err.Code != wire.DelegatedCaller || r3.r.Text != "Error: "+MsgDelegatedCaller {
			t.Fatalf("delegated: %+v", r3.r)
		}
		// A non-domain rejection keeps no info.
		f2 := newFixture()
		tool2 := newTool(t, f2, ToolConfig{})
		var r4 toolRun
		tool2.Execute(0, Call{CallID: "c1", Args: argsA, Agent: f2.agent, Signal: signal.New()}, r4.done)
		f2.l.last(t).settle(Outcome{Err: &wire.Error{Name: wire.TypeErrorName, Message: "boom"}})
		if !r4.r.IsError || r4.r.Err.Set() || r4.r.Text != "Error: boom" {
			t.Fatalf("non-domain: %+v", r4.r)
		}
	})
	t.Run("TOOL-3 malformed arguments fail with a clear plain error", func(t *testing.T) {
		for _, args := range []string{``, `[]`, `{"questions":"x"}`, `{"questions":[{"id":1,"question":"?"}]}`, `{"questions":[{"id":"a","question":"?","options":[{"label":2}]}]}`, `{"questions":[{"id":"a","question":"?","multi_select":"yes"}]}`, `{`} {
			for _, mode := range []string{ModeLegacy, ModeTimed} {
				f := newFixture()
				tool := newTool(t, f, ToolConfig{Mode: mode})
				var r toolRun
				tool.Execute(0, Call{CallID: "c1", Args: args, Agent: f.agent, Signal: signal.New()}, r.done)
				if !r.r.IsError || !strings.HasPrefix(r.r.Text, "Error: invalid arguments") || len(f.l.held) != 0 {
					t.Errorf("%s %q: %+v", mode, args, r.r)
				}
			}
		}
	})
}
