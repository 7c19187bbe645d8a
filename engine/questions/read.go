package questions

import (
	"github.com/twosettle/twosettle/engine/jsonx"
	"github.com/twosettle/twosettle/engine/wire"
)

// The readers of this file turn recorded or received JSON into the question vocabulary.
// They are shared by the projection (docs/PEER.md §5.2), the tool (docs/PEER.md §2) and answer() (docs/PEER.md §4.5),
// so that a call the projection can read is exactly a call the tool could have asked.

// ToolName is the model-facing name of the question tool.
const ToolName = "ask_user_question"

// readQuestions reads model-facing arguments {questions:[{id, question, header?,
// options?:[{label, description?}], multi_select?}], …} (docs/PEER.md §5.2 questionsOf). Extra keys
// are allowed and dropped; a wrong type on any field, optional or not, makes the whole
// thing unreadable. minOne requires a non-empty batch (the projection's rule); the tool
// lets an empty batch through so the service can reject it with EMPTY_QUESTIONS.
func readQuestions(args jsonx.Value, minOne bool) ([]wire.Question, bool) {
	qs, ok := get(args, "questions")
	if !ok || qs.Kind() != jsonx.Array || (minOne && qs.Len() == 0) {
		return nil, false
	}
	out := make([]wire.Question, 0, qs.Len())
	for _, item := range qs.Items() {
		q, ok := readQuestion(item)
		if !ok {
			return nil, false
		}
		out = append(out, q)
	}
	return out, true
}

func readQuestion(item jsonx.Value) (wire.Question, bool) {
	if item.Kind() != jsonx.Object {
		return wire.Question{}, false
	}
	id, ok1 := get(item, "id")
	text, ok2 := get(item, "question")
	if !ok1 || !ok2 || id.Kind() != jsonx.String || text.Kind() != jsonx.String {
		return wire.Question{}, false
	}
	q := wire.Question{ID: id.Text(), Question: text.Text()}
	if h, ok := get(item, "header"); ok {
		if h.Kind() != jsonx.String {
			return wire.Question{}, false
		}
		q.Header = ptr(h.Text())
	}
	if os, ok := get(item, "options"); ok {
		if os.Kind() != jsonx.Array {
			return wire.Question{}, false
		}
		// present, so never nil: an empty list stays one (docs/PEER.md §11.3); make with
		// capacity 0 does not allocate
		q.Options = make([]wire.Option, 0, os.Len())
		for _, o := range os.Items() {
			if o.Kind() != jsonx.Object {
				return wire.Question{}, false
			}
			l, ok := get(o, "label")
			if !ok || l.Kind() != jsonx.String {
				return wire.Question{}, false
			}
			opt := wire.Option{Label: l.Text()}
			if d, ok := get(o, "description"); ok {
				if d.Kind() != jsonx.String {
					return wire.Question{}, false
				}
				opt.Description = ptr(d.Text())
			}
			q.Options = append(q.Options, opt)
		}
	}
	if m, ok := get(item, "multi_select"); ok {
		b, ok := m.Bool()
		if !ok {
			return wire.Question{}, false
		}
		q.MultiSelect = ptr(b)
	}
	return q, true
}

// readBatch reads an answer batch text: a JSON object whose answers is an array of strict
// items {id: string, selected: string[], custom?: string} with no other keys (docs/PEER.md
// §5.2), wire.ReadAnswers. Extra top-level keys are allowed.
func readBatch(text string) ([]wire.AnswerItem, bool) {
	return wire.ReadAnswers(text, wire.AnswerKeysOnly, nil)
}

// isPendingText reports whether a result text is a pending result: a JSON object with
// pending === true (the projection's loose test, docs/PEER.md §5.2 and §8.6: callId not
// required), wire.ReadPendingResult.
func isPendingText(text string) bool { return wire.IsPendingResult(text) }

// headerTimed reports whether a request/header's tools (raw JSON) declare the timed
// schema: an array with an entry whose name is ask_user_question, whose parameters is an
// object and whose parameters.properties is an object with a timeout key (PROJ-2).
func headerTimed(tools string) bool { return scanHeaderTimed(tools) }

func ptr[T any](v T) *T { return &v }
