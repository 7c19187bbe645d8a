package questions

import (
	"encoding/json"
	"testing"

	"github.com/twosettle/twosettle/engine/signal"
	"github.com/twosettle/twosettle/engine/wire"
)

// The model-facing texts are protocol literals: what the model reads, byte-identical with
// the implementation the decision was taken from (docs/PEER.md §10). Each is written out here in full, not through the engine's constant, so that a
// changed word fails.

// schemaTexts decodes a tool definition into the descriptions the model reads.
type schemaTexts struct {
	Description string `json:"description"`
	Parameters  struct {
		Properties struct {
			Questions struct {
				Description string `json:"description"`
				Items       struct {
					Properties struct {
						Options struct {
							Description string `json:"description"`
						} `json:"options"`
					} `json:"properties"`
				} `json:"items"`
			} `json:"questions"`
			Timeout *struct {
				Description string `json:"description"`
			} `json:"timeout"`
		} `json:"properties"`
	} `json:"parameters"`
}

func readSchemaTexts(t *testing.T, tool *Tool) schemaTexts {
	t.Helper()
	var s schemaTexts
	if err := json.Unmarshal(tool.Schema(), &s); err != nil {
		t.Fatalf("schema %s: %v", tool.Schema(), err)
	}
	return s
}

func TestExactModelFacingTexts(t *testing.T) {
	const options = `Optional choices to show the user. If you recommend one, put it first and append "(Recommended)" to that label.`

	t.Run("TOOL-1 the legacy description, with its closing words, and its questions and options descriptions", func(t *testing.T) {
		s := readSchemaTexts(t, newTool(t, newFixture(), ToolConfig{}))
		want := "Ask the user a concise question when you need confirmation, a choice, or missing information before proceeding."
		if s.Description != want {
			t.Errorf("legacy description\n got %q\nwant %q", s.Description, want)
		}
		if got := s.Parameters.Properties.Questions.Description; got != "Questions to ask the user before continuing." {
			t.Errorf("legacy questions description %q", got)
		}
		if got := s.Parameters.Properties.Questions.Items.Properties.Options.Description; got != options {
			t.Errorf("legacy options description\n got %q\nwant %q", got, options)
		}
		if s.Parameters.Properties.Timeout != nil {
			t.Error("legacy schema has a timeout")
		}
	})
	t.Run("TOOL-2 the timed description, with its skip sentence, and its questions and options descriptions", func(t *testing.T) {
		s := readSchemaTexts(t, newTool(t, newFixture(), ToolConfig{Mode: ModeTimed}))
		want := "Ask brief, direct, self-contained questions about missing information, preferences, or decisions. " +
			"Use user-facing terms; assume no knowledge of background work or internal names. Use distinct stable question IDs. " +
			"A submitted skipped question is an answer item with empty selected and no custom; pending instead means no answer " +
			"batch arrived before the timeout and the user can still answer."
		if s.Description != want {
			t.Errorf("timed description\n got %q\nwant %q", s.Description, want)
		}
		if got := s.Parameters.Properties.Questions.Description; got != "Questions to ask the user." {
			t.Errorf("timed questions description %q", got)
		}
		if got := s.Parameters.Properties.Questions.Items.Properties.Options.Description; got != options {
			t.Errorf("timed options description\n got %q\nwant %q", got, options)
		}
	})
	t.Run("TOOL-2 the timeout parameter's description names the configured default", func(t *testing.T) {
		for _, c := range []struct {
			cfg  int
			want string
		}{
			{0, "Wait seconds for the entire batch (default 120); omit unless the user specifies a duration. Use -1 only when an answer is required before proceeding."},
			{45, "Wait seconds for the entire batch (default 45); omit unless the user specifies a duration. Use -1 only when an answer is required before proceeding."},
			{-1, "Wait seconds for the entire batch (default -1); omit unless the user specifies a duration. Use -1 only when an answer is required before proceeding."},
		} {
			s := readSchemaTexts(t, newTool(t, newFixture(), ToolConfig{Mode: ModeTimed, Timeout: c.cfg}))
			if s.Parameters.Properties.Timeout == nil || s.Parameters.Properties.Timeout.Description != c.want {
				t.Errorf("timeout %d: description %+v\nwant %q", c.cfg, s.Parameters.Properties.Timeout, c.want)
			}
		}
	})
	t.Run("TOOL-7 the pending result's message", func(t *testing.T) {
		f := newFixture()
		tool := newTool(t, f, ToolConfig{Mode: ModeTimed})
		var r toolRun
		tool.Execute(0, Call{CallID: "c1", Args: `{"questions":[{"id":"a","question":"?"}],"timeout":5}`, Agent: f.agent, Signal: signal.New()}, r.done)
		f.svc.Fire(5000)
		want := `{"pending":true,"callId":"c1","message":"No answer batch arrived before the timeout. This is pending, not a skipped answer. ` +
			`Continue useful independent work. The user can still answer; their reply will be a user message identified as ` +
			`answer_to_pending_question with this callId and the original questions. Do not treat this as permission."}`
		if r.r.Text != want {
			t.Errorf("pending text\n got %s\nwant %s", r.r.Text, want)
		}
	})
	t.Run("CALLER-1 CALLER-2 the caller failures reach the model as Error: and the exact message", func(t *testing.T) {
		f := newFixture()
		tool := newTool(t, f, ToolConfig{Mode: ModeTimed})
		stale := f.agent
		f.rt.enter("s1", "")
		var r1 toolRun
		tool.Execute(0, Call{CallID: "c1", Args: argsA, Agent: stale, Signal: signal.New()}, r1.done)
		if want := "Error: human interaction requires the exact live calling agent when an agent is supplied"; r1.r.Err.Code != wire.CallerNotLive || r1.r.Text != want {
			t.Errorf("CALLER_NOT_LIVE %+v\nwant %q", r1.r, want)
		}
		child := f.rt.enter("child", "s1")
		var r2 toolRun
		tool.Execute(0, Call{CallID: "c2", Args: argsA, Agent: child, Signal: signal.New()}, r2.done)
		want := "Error: human interaction is unavailable while the calling agent is owned by another live agent; " +
			"include the unresolved question or decision in the child agent's final result"
		if r2.r.Err.Code != wire.DelegatedCaller || r2.r.Text != want {
			t.Errorf("DELEGATED_CALLER %+v\nwant %q", r2.r, want)
		}
	})
	t.Run("TOOL-3 TOOL-5 TOOL-6 the validation failures' exact texts", func(t *testing.T) {
		f := newFixture()
		tool := newTool(t, f, ToolConfig{Mode: ModeTimed})
		for _, c := range []struct {
			args  string
			agent bool
			want  string
		}{
			{`{"questions":[{"id":"a","question":"?"}],"timeout":0}`, true, "Error: timeout must be -1 or a positive integer up to 2147483 seconds"},
			{`{"questions":[{"id":"a\"b","question":"?"},{"id":"a\"b","question":"?"}]}`, true, `Error: question id "a\"b" must be unique within this call`},
			{argsA, false, "Error: timed questions require a live agent"},
		} {
			var r toolRun
			call := Call{CallID: "c", Args: c.args, Signal: signal.New()}
			if c.agent {
				call.Agent = f.agent
			}
			tool.Execute(0, call, r.done)
			if r.r.Text != c.want {
				t.Errorf("%s: got %q\nwant %q", c.args, r.r.Text, c.want)
			}
		}
	})
}
