package questions

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/twosettle/twosettle/engine/jsonx"
	"github.com/twosettle/twosettle/engine/session"
	"github.com/twosettle/twosettle/engine/signal"
)

// nested is a JSON array nested n deep around 1.
func nested(n int) string { return strings.Repeat("[", n) + "1" + strings.Repeat("]", n) }

// TestJSONAgainstJSONParse pins, in this package's readers, the three places where the
// engine's JSON reader (engine/jsonx) is not JSON.parse, each a documented decision
// (docs/PEER.md §11): a text nested deeper than jsonx.MaxDepth is unreadable, an unpaired surrogate escape reads as U+FFFD, and (no
// longer a difference) an empty options list stays present and empty.
func TestJSONAgainstJSONParse(t *testing.T) {
	t.Run("PROJ-3 arguments nested to the project's depth limit are read, one level deeper they are unreadable (docs/PEER.md §11.1)", func(t *testing.T) {
		// the arguments object is one level, its extra key's value the rest
		at := `{"questions":[{"id":"a","question":"A?"}],"extra":` + nested(jsonx.MaxDepth-1) + `}`
		over := `{"questions":[{"id":"a","question":"A?"}],"extra":` + nested(jsonx.MaxDepth) + `}`
		if !json.Valid([]byte(at)) || json.Valid([]byte(over)) {
			t.Fatal("the limit is not encoding/json's")
		}
		if got := viewString(Fold(logOf(hdr(timedTools), call("c1", at)), 0)); got != `active=[c1:open] settled=[]` {
			t.Fatalf("at the limit: %s", got)
		}
		if got := viewString(Fold(logOf(hdr(timedTools), call("c1", over)), 0)); got != `active=[] settled=[]` {
			t.Fatalf("over the limit: %s", got)
		}
	})
	t.Run("PROJ-4 a pending result nested to the limit is pending, one level deeper it is unreadable and removes its question (docs/PEER.md §11.1)", func(t *testing.T) {
		at := `{"pending":true,"callId":"c1","x":` + nested(jsonx.MaxDepth-1) + `}`
		over := `{"pending":true,"callId":"c1","x":` + nested(jsonx.MaxDepth) + `}`
		if got := viewString(Fold(logOf(hdr(timedTools), call("c1", argsAB), res("c1", at)), 0)); got != `active=[c1:continued] settled=[]` {
			t.Fatalf("at the limit: %s", got)
		}
		if got := viewString(Fold(logOf(hdr(timedTools), call("c1", argsAB), res("c1", over)), 0)); got != `active=[] settled=[]` {
			t.Fatalf("over the limit: %s", got)
		}
		// the scanner (the projection's pending probe) and the parser draw the same line
		for _, text := range []string{at, over, nested(jsonx.MaxDepth), nested(jsonx.MaxDepth + 1)} {
			_, parsed := jsonx.Parse(text)
			sc := jsonx.Scan(text, nil)
			if skipped := sc.Skip() && sc.Done(); skipped != parsed || parsed != json.Valid([]byte(text)) {
				t.Fatalf("depth %d: parser %v, scanner %v, encoding/json %v", strings.Count(text, "["), parsed, skipped, json.Valid([]byte(text)))
			}
		}
	})
	t.Run("TOOL-5 question ids that differ only in unpaired surrogate escapes are one id: both read as U+FFFD (docs/PEER.md §11.2)", func(t *testing.T) {
		v, ok := jsonx.Parse(`"\ud800x\udc00"`)
		if !ok || v.Text() != "\ufffdx\ufffd" {
			t.Fatalf("%q %v", v.Text(), ok)
		}
		f := newFixture()
		tool := newTool(t, f, ToolConfig{Mode: ModeTimed})
		var r toolRun
		// JSON.parse would keep "\ud800" and "\udbff" apart; every reader of the project
		// (this one, encoding/json in the oracle, the protocol codec) reads both as U+FFFD
		tool.Execute(0, Call{CallID: "c1", Args: `{"questions":[{"id":"\ud800","question":"1"},{"id":"\udbff","question":"2"}]}`, Agent: f.agent, Signal: signal.New()}, r.done)
		if !r.r.IsError || r.r.Text != "Error: question id \"\ufffd\" must be unique within this call" {
			t.Fatalf("result %+v", r.r)
		}
		if len(f.l.held) != 0 {
			t.Fatal("answerer reached")
		}
	})
	t.Run("LATE-4 an empty options list stays present and empty, in the view and in the reply's questions, as JSON.parse and the peer keep it (docs/PEER.md §11.3)", func(t *testing.T) {
		args := `{"questions":[{"id":"a","question":"A?","options":[]},{"id":"b","question":"B?"}]}`
		view := Fold(logOf(hdr(timedTools), call("c1", args), res("c1", pendingFor("c1"))), 0)
		if len(view.Active) != 1 || len(view.Active[0].Questions) != 2 {
			t.Fatalf("view %s", viewString(view))
		}
		qs := view.Active[0].Questions
		if qs[0].Options == nil || len(qs[0].Options) != 0 || qs[1].Options != nil {
			t.Fatalf("options %#v and %#v: want present and empty, then absent", qs[0].Options, qs[1].Options)
		}
		answers, _ := jsonx.Parse(`[{"id":"a","selected":[],"custom":"x"},{"id":"b","selected":[]}]`)
		want := `{"kind":"answer_to_pending_question","tool":"ask_user_question","callId":"c1",` +
			`"questions":[{"id":"a","question":"A?","options":[]},{"id":"b","question":"B?"}],` +
			`"answers":[{"id":"a","selected":[],"custom":"x"},{"id":"b","selected":[]}]}`
		if got := string(replyText("c1", qs, answers)); got != want {
			t.Fatalf("reply text\n got %s\nwant %s", got, want)
		}
		// the reply, admitted, settles with its batch (the text reads back)
		got := viewString(Fold(logOf(hdr(timedTools), call("c1", args), res("c1", pendingFor("c1")),
			session.TurnStart{Turn: 2}, reply("m1", "c1", want)), 0))
		if got != `active=[] settled=[c1{a=[]+"x" b=skipped}]` {
			t.Fatalf("settled view %s", got)
		}
	})
}
