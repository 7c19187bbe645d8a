package wire

import (
	"strings"

	"github.com/twosettle/twosettle/engine/jsonx"
)

// What a tool result's text carries: the one answer, for the engine and the harness, to
// "is this result pending?" and "what answers does this text carry?" (docs/PEER.md §1.3,
// §5.2, §7.2). The projection, the tool row, answer(), the harness's expectations, the
// timeline and situation coverage all ask here; the oracle keeps its own readers on
// purpose (it must not share the code it judges).

// PendingResult is what a pending result text names: its callId, when the text has one
// that is a string (the pending text of docs/PEER.md §1.3 always does).
type PendingResult struct {
	CallID    string
	HasCallID bool
}

// ReadPendingResult reports whether text is a pending result: a JSON object whose pending
// member (its last one, as JSON.parse keeps) is true. That is the projection's test
// (docs/PEER.md §5.2: the call id is not required); the answer UI's row also requires a
// string callId (§7.2, §8.6): HasCallID. A text JSON.parse rejects, or nested deeper than
// jsonx.MaxDepth (docs/PEER.md §11.1), is not pending. It allocates nothing.
func ReadPendingResult(text string) (PendingResult, bool) {
	if !strings.Contains(text, "pending") && strings.IndexByte(text, '\\') < 0 {
		return PendingResult{}, false // no pending key, even escaped
	}
	var res PendingResult
	pending := false
	s := jsonx.Scan(text, nil)
	ok := s.Members(func(key string) bool {
		switch key {
		case "pending":
			// a literal that starts with 't' and is valid is true
			pending = s.Peek() == 't'
			return s.Skip()
		case "callId":
			if s.Peek() == '"' {
				res.CallID, res.HasCallID = s.Str()
				return res.HasCallID
			}
			res = PendingResult{}
		}
		return s.Skip()
	})
	if !ok || !s.Done() || !pending {
		return PendingResult{}, false
	}
	return res, true
}

// IsPendingResult is ReadPendingResult's verdict alone: is this tool result (or PTC
// dispatch result, or a direct ask's value) pending?
func IsPendingResult(text string) bool {
	_, ok := ReadPendingResult(text)
	return ok
}

// AnswerKeys says which keys an answer item may have.
type AnswerKeys uint8

const (
	// AnswerKeysOnly: an item with a key other than id, selected and custom is not
	// readable (the projection's and answer()'s batch, docs/PEER.md §5.2).
	AnswerKeysOnly AnswerKeys = iota
	// OtherKeysDropped: other keys of an item are read and dropped (the answer UI's
	// row, docs/PEER.md §7.2).
	OtherKeysDropped
)

// ReadAnswers reads the answer batch text carries: a JSON object whose answers member is
// an array of items {id: string, selected: string[], custom?: string} (other top-level
// keys allowed: a late reply's text carries its questions too); keys says whether an item
// may have others. Only the answers member is built, in r's buffer (nil: a buffer of its
// own); the rest of the text is validated and skipped. ok is false for a text JSON.parse
// rejects, nesting deeper than jsonx.MaxDepth, no answers array, or any item that is not
// exactly that shape.
func ReadAnswers(text string, keys AnswerKeys, r *jsonx.Reader) ([]AnswerItem, bool) {
	s := jsonx.Scan(text, r)
	var answers jsonx.Value
	ok := s.Members(func(key string) bool {
		if key != "answers" {
			return s.Skip()
		}
		var ok bool
		answers, ok = s.Value() // JSON.parse: the last answers member counts
		return ok
	})
	if !ok || !s.Done() {
		return nil, false
	}
	return AnswersOf(answers, keys)
}

// AnswersOf reads an answers array already parsed (see ReadAnswers).
func AnswersOf(v jsonx.Value, keys AnswerKeys) ([]AnswerItem, bool) {
	if !v.IsArray() {
		return nil, false
	}
	out := make([]AnswerItem, 0, v.Len())
	for _, item := range v.Items() {
		if !item.IsObject() {
			return nil, false
		}
		var a AnswerItem
		seenID, seenSel := false, false
		for _, m := range item.Items() {
			switch m.Key() {
			case "id":
				if a.ID, seenID = m.Str(); !seenID {
					return nil, false
				}
			case "selected":
				if a.Selected, seenSel = m.Strings(); !seenSel {
					return nil, false
				}
			case "custom":
				c, ok := m.Str()
				if !ok {
					return nil, false
				}
				a.Custom = &c
			default:
				if keys == AnswerKeysOnly {
					return nil, false
				}
			}
		}
		if !seenID || !seenSel {
			return nil, false
		}
		out = append(out, a)
	}
	return out, true
}
