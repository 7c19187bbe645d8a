package client

import (
	"encoding/json"

	"github.com/twosettle/twosettle/engine/wire"
)

// The tool row's and reply node's readers of recorded JSON (spec §6.9, §7.2). They never
// fail loudly: what does not parse is reported as absent and shown raw.

func object(text string) (map[string]json.RawMessage, bool) {
	var m map[string]json.RawMessage
	if json.Unmarshal([]byte(text), &m) != nil || m == nil {
		return nil, false
	}
	return m, true
}

func array(raw json.RawMessage) ([]json.RawMessage, bool) {
	if len(raw) == 0 || raw[0] != '[' {
		return nil, false
	}
	var a []json.RawMessage
	if json.Unmarshal(raw, &a) != nil {
		return nil, false
	}
	return a, true
}

func rawObject(raw json.RawMessage) (map[string]json.RawMessage, bool) {
	if len(raw) == 0 || raw[0] != '{' {
		return nil, false
	}
	return object(string(raw))
}

// questionEntries reads ask_user_question's model arguments (snake_case): a non-empty
// questions array of objects with string id and question and unique ids; header and
// detail kept when strings, options only when every entry is valid, multi_select when
// boolean. Anything else: not readable.
func questionEntries(args string) ([]wire.Question, bool) {
	top, ok := object(args)
	if !ok {
		return nil, false
	}
	items, ok := array(top["questions"])
	if !ok || len(items) == 0 {
		return nil, false
	}
	out := make([]wire.Question, 0, len(items))
	seen := map[string]bool{}
	for _, it := range items {
		f, ok := rawObject(it)
		if !ok {
			return nil, false
		}
		id, ok1 := strictString(f["id"])
		text, ok2 := strictString(f["question"])
		if !ok1 || !ok2 || seen[id] {
			return nil, false
		}
		seen[id] = true
		q := wire.Question{ID: id, Question: text}
		if h, ok := strictString(f["header"]); ok {
			q.Header = &h
		}
		if d, ok := strictString(f["detail"]); ok {
			q.Detail = &d
		}
		if opts, ok := options(f["options"], true); ok {
			q.Options = opts
		}
		if m, ok := strictBool(f["multi_select"]); ok {
			q.MultiSelect = &m
		}
		out = append(out, q)
	}
	return out, true
}

// options reads an options array. strict: every entry must be valid or there are none;
// otherwise invalid entries are skipped (the reply node's reader).
func options(raw json.RawMessage, strict bool) ([]wire.Option, bool) {
	items, ok := array(raw)
	if !ok {
		return nil, false
	}
	var out []wire.Option
	for _, it := range items {
		f, ok := rawObject(it)
		label, ok2 := strictString(f["label"])
		if !ok || !ok2 {
			if strict {
				return nil, false
			}
			continue
		}
		o := wire.Option{Label: label}
		if d, ok := strictString(f["description"]); ok {
			o.Description = &d
		} else if _, present := f["description"]; present && strict {
			return nil, false
		}
		out = append(out, o)
	}
	return out, true
}

// answerEntries reads a result text {"answers":[{id, selected, custom?}]}.
func answerEntries(text string) ([]wire.AnswerItem, bool) {
	top, ok := object(text)
	if !ok {
		return nil, false
	}
	return answerList(top["answers"])
}

// answerList reads an answers array: objects with a string id, a string array selected
// and a custom that is absent or a string.
func answerList(raw json.RawMessage) ([]wire.AnswerItem, bool) {
	items, ok := array(raw)
	if !ok {
		return nil, false
	}
	out := make([]wire.AnswerItem, 0, len(items))
	for _, it := range items {
		f, ok := rawObject(it)
		if !ok {
			return nil, false
		}
		id, ok1 := strictString(f["id"])
		sel, ok2 := strictStrings(f["selected"])
		if !ok1 || !ok2 {
			return nil, false
		}
		a := wire.AnswerItem{ID: id, Selected: sel}
		if raw, present := f["custom"]; present {
			s, ok := strictString(raw)
			if !ok {
				return nil, false
			}
			a.Custom = &s
		}
		out = append(out, a)
	}
	return out, true
}

// isPendingResult is the row's pending test: pending === true and a string callId.
func isPendingResult(text string) bool {
	top, ok := object(text)
	if !ok {
		return false
	}
	p, ok := strictBool(top["pending"])
	if !ok || !p {
		return false
	}
	_, ok = strictString(top["callId"])
	return ok
}

// pairAnswers pairs a batch with its questions: equal counts, unique answer ids, an
// answer for every question. Each question's lines are its selected labels plus the
// custom text when non-empty.
func pairAnswers(qs []wire.Question, as []wire.AnswerItem) ([][]string, bool) {
	if len(qs) != len(as) {
		return nil, false
	}
	byID := make(map[string]wire.AnswerItem, len(as))
	for _, a := range as {
		if _, dup := byID[a.ID]; dup {
			return nil, false
		}
		byID[a.ID] = a
	}
	out := make([][]string, len(qs))
	for i, q := range qs {
		a, ok := byID[q.ID]
		if !ok {
			return nil, false
		}
		lines := append([]string(nil), a.Selected...)
		if a.Custom != nil && *a.Custom != "" {
			lines = append(lines, *a.Custom)
		}
		out[i] = lines
	}
	return out, true
}

// answeredCount: items with a selection or a non-empty custom text.
func answeredCount(as []wire.AnswerItem) int {
	n := 0
	for _, a := range as {
		if len(a.Selected) > 0 || (a.Custom != nil && *a.Custom != "") {
			n++
		}
	}
	return n
}
