package questions

import "github.com/twosettle/twosettle/engine/wire"

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
func readQuestions(args value, minOne bool) ([]wire.Question, bool) {
	qs, ok := args.get("questions")
	if !ok || qs.kind != kArr || (minOne && len(qs.arr) == 0) {
		return nil, false
	}
	out := make([]wire.Question, 0, len(qs.arr))
	for _, item := range qs.arr {
		q, ok := readQuestion(item)
		if !ok {
			return nil, false
		}
		out = append(out, q)
	}
	return out, true
}

func readQuestion(item value) (wire.Question, bool) {
	if item.kind != kObj {
		return wire.Question{}, false
	}
	id, ok1 := item.get("id")
	text, ok2 := item.get("question")
	if !ok1 || !ok2 || id.kind != kStr || text.kind != kStr {
		return wire.Question{}, false
	}
	q := wire.Question{ID: id.s, Question: text.s}
	if h, ok := item.get("header"); ok {
		if h.kind != kStr {
			return wire.Question{}, false
		}
		q.Header = ptr(h.s)
	}
	if os, ok := item.get("options"); ok {
		if os.kind != kArr {
			return wire.Question{}, false
		}
		// present, so never nil: an empty list stays one (docs/PEER.md §11.3); make with
		// capacity 0 does not allocate
		q.Options = make([]wire.Option, 0, len(os.arr))
		for _, o := range os.arr {
			if o.kind != kObj {
				return wire.Question{}, false
			}
			l, ok := o.get("label")
			if !ok || l.kind != kStr {
				return wire.Question{}, false
			}
			opt := wire.Option{Label: l.s}
			if d, ok := o.get("description"); ok {
				if d.kind != kStr {
					return wire.Question{}, false
				}
				opt.Description = ptr(d.s)
			}
			q.Options = append(q.Options, opt)
		}
	}
	if m, ok := item.get("multi_select"); ok {
		if m.kind != kBool {
			return wire.Question{}, false
		}
		q.MultiSelect = ptr(m.b)
	}
	return q, true
}

// readBatch reads an answer batch text: a JSON object whose answers is an array of strict
// items {id: string, selected: string[], custom?: string} with no other keys (docs/PEER.md §5.2).
// Extra top-level keys are allowed.
func readBatch(text string) ([]wire.AnswerItem, bool) {
	out, ok, _ := readBatchReusing(text, nil)
	return out, ok
}

// readBatchReusing is readBatch parsing into buf when it is large enough; it returns the
// buffer to keep.
func readBatchReusing(text string, buf []value) ([]wire.AnswerItem, bool, []value) {
	// Only the answers member is built; the rest of the text (a late reply's questions) is
	// validated and skipped.
	s := scanner{p: parser{s: text, reuse: buf}}
	var answers value
	found := false
	ok := s.members(0, func(key string) bool {
		if key != "answers" {
			return s.skip(1)
		}
		v, ok := s.p.value(1)
		answers, found = v, ok
		return ok
	})
	if s.p.buf != nil {
		buf = s.p.buf[:cap(s.p.buf)]
	}
	if !ok || !s.done() || !found {
		return nil, false, buf
	}
	out, ok := readBatchValue(value{kind: kObj, arr: []value{{kind: kStr, s: "answers"}, answers}})
	return out, ok, buf
}

func readBatchValue(v value) ([]wire.AnswerItem, bool) {
	as, ok := v.get("answers")
	if !ok || as.kind != kArr {
		return nil, false
	}
	out := make([]wire.AnswerItem, 0, len(as.arr))
	for _, item := range as.arr {
		a, ok := readAnswerItem(item)
		if !ok {
			return nil, false
		}
		out = append(out, a)
	}
	return out, true
}

func readAnswerItem(item value) (wire.AnswerItem, bool) {
	if item.kind != kObj {
		return wire.AnswerItem{}, false
	}
	var a wire.AnswerItem
	seenID, seenSel := false, false
	for i := 0; i < item.members(); i++ {
		k, v := item.key(i), item.val(i)
		switch k {
		case "id":
			if v.kind != kStr {
				return wire.AnswerItem{}, false
			}
			a.ID, seenID = v.s, true
		case "selected":
			if v.kind != kArr {
				return wire.AnswerItem{}, false
			}
			a.Selected = make([]string, 0, len(v.arr))
			for _, s := range v.arr {
				if s.kind != kStr {
					return wire.AnswerItem{}, false
				}
				a.Selected = append(a.Selected, s.s)
			}
			seenSel = true
		case "custom":
			if v.kind != kStr {
				return wire.AnswerItem{}, false
			}
			a.Custom = ptr(v.s)
		default:
			return wire.AnswerItem{}, false
		}
	}
	if !seenID || !seenSel {
		return wire.AnswerItem{}, false
	}
	return a, true
}

// isPendingText reports whether a result text is a pending result: a JSON object with
// pending === true (the projection's loose test, docs/PEER.md §5.2 and §8.6: callId not required).
func isPendingText(text string) bool { return scanPending(text) }

// headerTimed reports whether a request/header's tools (raw JSON) declare the timed
// schema: an array with an entry whose name is ask_user_question, whose parameters is an
// object and whose parameters.properties is an object with a timeout key (PROJ-2).
func headerTimed(tools string) bool { return scanHeaderTimed(tools) }

func ptr[T any](v T) *T { return &v }
