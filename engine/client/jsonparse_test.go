package client

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/twosettle/twosettle/engine/jsonx"
)

// nested is a JSON array nested n deep around 1.
func nested(n int) string { return strings.Repeat("[", n) + "1" + strings.Repeat("]", n) }

// TestJSONAgainstJSONParse pins, in the client's readers, the places where the engine's
// JSON reader (engine/jsonx) is not JSON.parse, each a documented decision (docs/PEER.md
// §11): a text nested deeper than jsonx.MaxDepth is unreadable, an unpaired surrogate escape reads as
// U+FFFD, and (no longer a difference) an empty options list stays present and empty.
func TestJSONAgainstJSONParse(t *testing.T) {
	var rd reader
	t.Run("ROW-1 arguments nested to the project's depth limit are read for the row, one level deeper they are unreadable (docs/PEER.md §11.1)", func(t *testing.T) {
		at := `{"questions":[{"id":"a","question":"A?"}],"extra":` + nested(jsonx.MaxDepth-1) + `}`
		over := `{"questions":[{"id":"a","question":"A?"}],"extra":` + nested(jsonx.MaxDepth) + `}`
		for _, text := range []string{at, over, nested(jsonx.MaxDepth), nested(jsonx.MaxDepth + 1)} {
			if _, ok := rd.Parse(text); ok != json.Valid([]byte(text)) {
				t.Fatalf("depth %d: reader %v, encoding/json %v", strings.Count(text, "["), ok, !ok)
			}
		}
		if qs, ok := rd.questionEntries(at, nil); !ok || len(qs) != 1 || qs[0].ID != "a" {
			t.Fatalf("at the limit: %v %v", qs, ok)
		}
		if qs, ok := rd.questionEntries(over, nil); ok {
			t.Fatalf("over the limit: %v", qs)
		}
	})
	t.Run("NODE-2 a reply text nested deeper than the limit is unreadable and keeps its raw text (docs/PEER.md §11.1)", func(t *testing.T) {
		text := `{"kind":"answer_to_pending_question","questions":[{"id":"a","question":"A?"}],"answers":[{"id":"a","selected":["x"]}],"x":`
		if qs, as := rd.replyPairsOf(text + nested(jsonx.MaxDepth-1) + `}`); len(qs) != 1 || len(as) != 1 {
			t.Fatalf("at the limit: %v %v", qs, as)
		}
		if qs, as := rd.replyPairsOf(text + nested(jsonx.MaxDepth) + `}`); len(qs) != 0 || len(as) != 0 {
			t.Fatalf("over the limit: %v %v", qs, as)
		}
	})
	t.Run("NODE-1 unpaired surrogate escapes in a reply read as U+FFFD, so ids that differ only there are one id (docs/PEER.md §11.2)", func(t *testing.T) {
		qs, as := rd.replyPairsOf(`{"questions":[{"id":"\ud800","question":"x\udc00"}],"answers":[{"id":"\udbff","selected":[]}]}`)
		if len(qs) != 1 || qs[0].ID != "\ufffd" || qs[0].Question != "x\ufffd" || len(as) != 1 || as[0].id != qs[0].ID {
			t.Fatalf("%+v %+v", qs, as)
		}
	})
	t.Run("CARD-1 an empty options list stays present and empty in a forwarded request, the row's arguments and a reply (docs/PEER.md §11.3)", func(t *testing.T) {
		req, ok := rd.parseRequest([]byte(`{"questions":[{"id":"a","question":"A?","options":[]},{"id":"b","question":"B?"}]}`))
		if !ok || len(req.Questions) != 2 || req.Questions[0].Options == nil || len(req.Questions[0].Options) != 0 || req.Questions[1].Options != nil {
			t.Fatalf("request %+v %v", req, ok)
		}
		qs, ok := rd.questionEntries(`{"questions":[{"id":"a","question":"A?","options":[]},{"id":"b","question":"B?"}]}`, nil)
		if !ok || qs[0].Options == nil || len(qs[0].Options) != 0 || qs[1].Options != nil {
			t.Fatalf("arguments %+v %v", qs, ok)
		}
		qs, _ = rd.replyPairsOf(`{"questions":[{"id":"a","question":"A?","options":[]},{"id":"b","question":"B?"}],"answers":[]}`)
		if len(qs) != 2 || qs[0].Options == nil || len(qs[0].Options) != 0 || qs[1].Options != nil {
			t.Fatalf("reply %+v", qs)
		}
		if got, _ := json.Marshal(qs); string(got) != `[{"id":"a","question":"A?","options":[]},{"id":"b","question":"B?"}]` {
			t.Fatalf("written back as %s", got)
		}
	})
}
