package client

import (
	"strings"

	"github.com/twosettle/twosettle/engine/wire"
)

// The client's readers of received and recorded JSON (docs/PEER.md §6.4, §6.7, §6.9, §7.2). They
// never fail loudly: what does not parse is reported as absent and handled as the spec says.

// object parses text as a JSON object (valid until r's next parse).
func (r *reader) object(text string) (jv, bool) {
	v, ok := r.parse(text)
	return v, ok && v.isObject()
}

// optString reads an optional string field: absent or null is nil; another type fails.
func optString(v jv) (*string, bool) {
	switch v.kind {
	case 0, 'z':
		return nil, true
	case 's':
		s := v.str
		return &s, true
	}
	return nil, false
}

// parseRequest reads a forwarded user-questions/request payload (service vocabulary,
// wire.QuestionRequest): a questions array of objects with non-empty string id and
// question; optional detail, header, options [{label, description?}], multiSelect, intent;
// an optional wait {callId, timed?}. A wrong type anywhere makes it unreadable.
func (rd *reader) parseRequest(raw []byte) (wire.QuestionRequest, bool) {
	top, ok := rd.object(string(raw))
	if !ok {
		return wire.QuestionRequest{}, false
	}
	items := top.get("questions")
	if !items.isArray() {
		return wire.QuestionRequest{}, false
	}
	var r wire.QuestionRequest
	// The usual request, one question with at most two options and a wait, is built in one
	// allocation; its slices are cut to their length, so nothing appends into the block.
	var blk *requestBlock
	if len(items.vals) == 1 {
		blk = new(requestBlock)
		r.Questions = blk.q[:0:1]
	} else {
		r.Questions = make([]wire.Question, 0, len(items.vals))
	}
	for _, it := range items.vals {
		if !it.isObject() {
			return wire.QuestionRequest{}, false
		}
		id, ok1 := it.get("id").asString()
		text, ok2 := it.get("question").asString()
		if !ok1 || !ok2 || id == "" || text == "" {
			return wire.QuestionRequest{}, false
		}
		q := wire.Question{ID: id, Question: text}
		var ok3, ok4 bool
		q.Detail, ok3 = optString(it.get("detail"))
		q.Header, ok4 = optString(it.get("header"))
		if !ok3 || !ok4 {
			return wire.QuestionRequest{}, false
		}
		if o := it.get("options"); o.kind != 0 && o.kind != 'z' {
			var into []wire.Option
			if blk != nil {
				into = blk.opts[:0:len(blk.opts)]
			}
			opts, ok := optionsInto(into, o, true)
			if !ok {
				return wire.QuestionRequest{}, false
			}
			q.Options = opts
		}
		switch m := it.get("multiSelect"); m.kind {
		case 0, 'z':
		case 't', 'f':
			b := m.kind == 't'
			q.MultiSelect = &b
		default:
			return wire.QuestionRequest{}, false
		}
		switch in := it.get("intent"); in.kind {
		case 0, 'z':
		case 'o':
			kind, ok1 := in.get("kind").asString()
			approve, ok2 := in.get("approve").asString()
			call, ok3 := optString(in.get("callId"))
			if !ok1 || !ok2 || !ok3 {
				return wire.QuestionRequest{}, false
			}
			q.Intent = &wire.Intent{Kind: kind, Approve: approve}
			if call != nil {
				q.Intent.CallID = *call
			}
		default:
			return wire.QuestionRequest{}, false
		}
		r.Questions = append(r.Questions, q)
	}
	switch w := top.get("wait"); w.kind {
	case 0, 'z':
	case 'o':
		call, ok := w.get("callId").asString()
		if !ok {
			return wire.QuestionRequest{}, false
		}
		if blk != nil {
			blk.wait = wire.Wait{CallID: call}
			r.Wait = &blk.wait
		} else {
			r.Wait = &wire.Wait{CallID: call}
		}
		switch t := w.get("timed"); t.kind {
		case 0, 'z':
		case 't', 'f':
			r.Wait.Timed = t.kind == 't'
		default:
			return wire.QuestionRequest{}, false
		}
	default:
		return wire.QuestionRequest{}, false
	}
	return r, true
}

// questionEntries reads ask_user_question's model arguments (snake_case): a non-empty
// questions array of objects with string id and question and unique ids; header and
// detail kept when strings, options only when every entry is valid, multi_select when
// boolean. Anything else: not readable. A one-question call is read into blk (cleared
// first), or into a new block when blk is nil: a caller that keeps nothing of the
// questions (the row of a snapshot) passes its own.
func (rd *reader) questionEntries(args string, blk *entryBlock) ([]wire.Question, bool) {
	top, ok := rd.object(args)
	if !ok {
		return nil, false
	}
	items := top.get("questions")
	if !items.isArray() || len(items.vals) == 0 {
		return nil, false
	}
	// One question (the usual call) is read into one allocation with its options, header
	// and detail; the slices are cut to their length.
	var out []wire.Question
	if len(items.vals) == 1 {
		if blk == nil {
			blk = new(entryBlock)
		} else {
			*blk = entryBlock{}
		}
		out = blk.q[:0:1]
	} else {
		blk = nil
		out = make([]wire.Question, 0, len(items.vals))
	}
	for i, it := range items.vals {
		if !it.isObject() {
			return nil, false
		}
		id, ok1 := it.get("id").asString()
		text, ok2 := it.get("question").asString()
		if !ok1 || !ok2 {
			return nil, false
		}
		for _, prev := range out[:i] {
			if prev.ID == id {
				return nil, false
			}
		}
		q := wire.Question{ID: id, Question: text}
		// The optional fields are taken by address only when present (a variable whose
		// address is taken would be allocated for every question).
		if h, ok := it.get("header").asString(); ok {
			if blk != nil {
				blk.header = h
				q.Header = &blk.header
			} else {
				q.Header = new(string)
				*q.Header = h
			}
		}
		if d, ok := it.get("detail").asString(); ok {
			if blk != nil {
				blk.detail = d
				q.Detail = &blk.detail
			} else {
				q.Detail = new(string)
				*q.Detail = d
			}
		}
		var into []wire.Option
		if blk != nil {
			into = blk.opts[:0:len(blk.opts)]
		}
		if opts, ok := optionsInto(into, it.get("options"), true); ok {
			q.Options = opts
		}
		if m, ok := it.get("multi_select").asBool(); ok {
			q.MultiSelect = new(bool)
			*q.MultiSelect = m
		}
		out = append(out, q)
	}
	return out, true
}

// options reads an options array. strict: every entry must be valid or there are none;
// otherwise invalid entries are skipped (the reply node's reader).
func options(v jv, strict bool) ([]wire.Option, bool) { return optionsInto(nil, v, strict) }

// entryBlock holds one model-argument question with its options, header and detail.
type entryBlock struct {
	q              [1]wire.Question
	opts           [2]wire.Option
	header, detail string
}

// requestBlock holds a one-question request's question, options and wait.
type requestBlock struct {
	q    [1]wire.Question
	opts [2]wire.Option
	wait wire.Wait
}

// optionsInto is options, building the list in into when it has room for every entry
// (the result is cut to its length).
func optionsInto(into []wire.Option, v jv, strict bool) ([]wire.Option, bool) {
	if !v.isArray() {
		return nil, false
	}
	// present, so never nil: an empty list stays one (docs/PEER.md §11.3)
	var out []wire.Option
	if len(v.vals) > 0 {
		if cap(into) >= len(v.vals) {
			out = into[:0]
		} else {
			out = make([]wire.Option, 0, len(v.vals))
		}
	}
	for _, it := range v.vals {
		label, ok := it.get("label").asString()
		if !it.isObject() || !ok {
			if strict {
				return nil, false
			}
			continue
		}
		o := wire.Option{Label: label}
		if d := it.get("description"); d.kind == 's' {
			s := d.str
			o.Description = &s
		} else if d.kind != 0 && strict {
			return nil, false
		}
		out = append(out, o)
	}
	if len(out) == 0 {
		return []wire.Option{}, true // empty, or every entry skipped: present and empty
	}
	return out[:len(out):len(out)], true
}

// answerEntries reads a result text {"answers":[{id, selected, custom?}]}.
func (rd *reader) answerEntries(text string) ([]wire.AnswerItem, bool) {
	top, ok := rd.object(text)
	if !ok {
		return nil, false
	}
	return answerList(top.get("answers"))
}

// answerList reads an answers array: objects with a string id, a string array selected
// and a custom that is absent or a string.
func answerList(v jv) ([]wire.AnswerItem, bool) {
	if !v.isArray() {
		return nil, false
	}
	out := make([]wire.AnswerItem, 0, len(v.vals))
	for _, it := range v.vals {
		if !it.isObject() {
			return nil, false
		}
		id, ok1 := it.get("id").asString()
		sel, ok2 := it.get("selected").asStrings()
		if !ok1 || !ok2 {
			return nil, false
		}
		a := wire.AnswerItem{ID: id, Selected: sel}
		if cu := it.get("custom"); cu.kind != 0 {
			s, ok := cu.asString()
			if !ok {
				return nil, false
			}
			a.Custom = &s
		}
		out = append(out, a)
	}
	return out, true
}

// rawAnsweredCount is the row's best-effort count when a result's answers are not all
// valid items (docs/PEER.md §7.3, between the exact count and the generic summary): the text is
// a JSON object whose "answers" is a non-empty array; of its M entries, N are objects
// with a non-empty "selected" array or a non-empty string "custom" (the answered count's
// rule, read leniently: a malformed entry is one more unanswered item).
func (rd *reader) rawAnsweredCount(text string) (n, m int, ok bool) {
	top, ok := rd.object(text)
	if !ok {
		return 0, 0, false
	}
	as := top.get("answers")
	if !as.isArray() || len(as.vals) == 0 {
		return 0, 0, false
	}
	for _, it := range as.vals {
		if !it.isObject() {
			continue
		}
		if sel := it.get("selected"); sel.isArray() && len(sel.vals) > 0 {
			n++
		} else if c, _ := it.get("custom").asString(); c != "" {
			n++
		}
	}
	return n, len(as.vals), true
}

// isPendingResult is the row's pending test: pending === true and a string callId.
func (rd *reader) isPendingResult(text string) bool {
	if !strings.Contains(text, `pending`) && strings.IndexByte(text, '\\') < 0 {
		return false // no "pending" key, even escaped: not worth a parse
	}
	top, ok := rd.object(text)
	if !ok || top.get("pending").kind != 't' {
		return false
	}
	_, ok = top.get("callId").asString()
	return ok
}

// pairAnswers pairs a batch with its questions: equal counts, unique answer ids, an
// answer for every question. Each question's lines are its selected labels plus the
// custom text when non-empty.
func pairAnswers(qs []wire.Question, as []wire.AnswerItem) ([][]string, bool) {
	if len(qs) != len(as) {
		return nil, false
	}
	for i := range as {
		for j := range i {
			if as[j].ID == as[i].ID {
				return nil, false
			}
		}
	}
	out := make([][]string, len(qs))
	for i, q := range qs {
		found := false
		for _, a := range as {
			if a.ID != q.ID {
				continue
			}
			lines := append([]string(nil), a.Selected...)
			if a.Custom != nil && *a.Custom != "" {
				lines = append(lines, *a.Custom)
			}
			out[i], found = lines, true
			break
		}
		if !found {
			return nil, false
		}
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
