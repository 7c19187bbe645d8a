package client

import (
	"github.com/twosettle/twosettle/engine/jsonx"
	"github.com/twosettle/twosettle/engine/wire"
)

// The client's readers of received and recorded JSON (docs/PEER.md §6.4, §6.7, §6.9, §7.2). They
// never fail loudly: what does not parse is reported as absent and handled as the spec says.

// reader is the client's one JSON reader (engine/jsonx, JSON.parse's semantics): every
// reader of the client reads a text, turns what it needs into wire values (strings point
// into the text, not the reader's buffer) and only then reads another, so a client keeps
// one reader and its parses allocate nothing once the buffer has grown to its largest
// text.
type reader struct{ jsonx.Reader }

// object parses text as a JSON object (valid until r's next parse).
func (r *reader) object(text string) (jsonx.Value, bool) {
	v, ok := r.Parse(text)
	return v, ok && v.IsObject()
}

// optString reads an optional string field: absent or null is nil; another type fails.
func optString(v jsonx.Value) (*string, bool) {
	switch v.Kind() {
	case jsonx.Absent, jsonx.Null:
		return nil, true
	case jsonx.String:
		s, _ := v.Str()
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
	items := top.Get("questions")
	if !items.IsArray() {
		return wire.QuestionRequest{}, false
	}
	var r wire.QuestionRequest
	// The usual request, one question with at most two options and a wait, is built in one
	// allocation; its slices are cut to their length, so nothing appends into the block.
	var blk *requestBlock
	if items.Len() == 1 {
		blk = new(requestBlock)
		r.Questions = blk.q[:0:1]
	} else {
		r.Questions = make([]wire.Question, 0, items.Len())
	}
	for _, it := range items.Items() {
		if !it.IsObject() {
			return wire.QuestionRequest{}, false
		}
		id, ok1 := it.Get("id").Str()
		text, ok2 := it.Get("question").Str()
		if !ok1 || !ok2 || id == "" || text == "" {
			return wire.QuestionRequest{}, false
		}
		q := wire.Question{ID: id, Question: text}
		var ok3, ok4 bool
		q.Detail, ok3 = optString(it.Get("detail"))
		q.Header, ok4 = optString(it.Get("header"))
		if !ok3 || !ok4 {
			return wire.QuestionRequest{}, false
		}
		if o := it.Get("options"); !o.IsNull() {
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
		switch m := it.Get("multiSelect"); m.Kind() {
		case jsonx.Absent, jsonx.Null:
		case jsonx.True, jsonx.False:
			b := m.Kind() == jsonx.True
			q.MultiSelect = &b
		default:
			return wire.QuestionRequest{}, false
		}
		switch in := it.Get("intent"); in.Kind() {
		case jsonx.Absent, jsonx.Null:
		case jsonx.Object:
			kind, ok1 := in.Get("kind").Str()
			approve, ok2 := in.Get("approve").Str()
			call, ok3 := optString(in.Get("callId"))
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
	switch w := top.Get("wait"); w.Kind() {
	case jsonx.Absent, jsonx.Null:
	case jsonx.Object:
		call, ok := w.Get("callId").Str()
		if !ok {
			return wire.QuestionRequest{}, false
		}
		if blk != nil {
			blk.wait = wire.Wait{CallID: call}
			r.Wait = &blk.wait
		} else {
			r.Wait = &wire.Wait{CallID: call}
		}
		switch t := w.Get("timed"); t.Kind() {
		case jsonx.Absent, jsonx.Null:
		case jsonx.True, jsonx.False:
			r.Wait.Timed = t.Kind() == jsonx.True
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
	items := top.Get("questions")
	if !items.IsArray() || items.Len() == 0 {
		return nil, false
	}
	// One question (the usual call) is read into one allocation with its options, header
	// and detail; the slices are cut to their length.
	var out []wire.Question
	if items.Len() == 1 {
		if blk == nil {
			blk = new(entryBlock)
		} else {
			*blk = entryBlock{}
		}
		out = blk.q[:0:1]
	} else {
		blk = nil
		out = make([]wire.Question, 0, items.Len())
	}
	for i, it := range items.Items() {
		if !it.IsObject() {
			return nil, false
		}
		id, ok1 := it.Get("id").Str()
		text, ok2 := it.Get("question").Str()
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
		if h, ok := it.Get("header").Str(); ok {
			if blk != nil {
				blk.header = h
				q.Header = &blk.header
			} else {
				q.Header = new(string)
				*q.Header = h
			}
		}
		if d, ok := it.Get("detail").Str(); ok {
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
		if opts, ok := optionsInto(into, it.Get("options"), true); ok {
			q.Options = opts
		}
		if m, ok := it.Get("multi_select").Bool(); ok {
			q.MultiSelect = new(bool)
			*q.MultiSelect = m
		}
		out = append(out, q)
	}
	return out, true
}

// options reads an options array. strict: every entry must be valid or there are none;
// otherwise invalid entries are skipped (the reply node's reader).
func options(v jsonx.Value, strict bool) ([]wire.Option, bool) { return optionsInto(nil, v, strict) }

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
func optionsInto(into []wire.Option, v jsonx.Value, strict bool) ([]wire.Option, bool) {
	if !v.IsArray() {
		return nil, false
	}
	// present, so never nil: an empty list stays one (docs/PEER.md §11.3)
	var out []wire.Option
	if v.Len() > 0 {
		if cap(into) >= v.Len() {
			out = into[:0]
		} else {
			out = make([]wire.Option, 0, v.Len())
		}
	}
	for _, it := range v.Items() {
		label, ok := it.Get("label").Str()
		if !it.IsObject() || !ok {
			if strict {
				return nil, false
			}
			continue
		}
		o := wire.Option{Label: label}
		if d := it.Get("description"); d.Kind() == jsonx.String {
			s, _ := d.Str()
			o.Description = &s
		} else if d.Exists() && strict {
			return nil, false
		}
		out = append(out, o)
	}
	if len(out) == 0 {
		return []wire.Option{}, true // empty, or every entry skipped: present and empty
	}
	return out[:len(out):len(out)], true
}

// answerEntries reads a result text {"answers":[{id, selected, custom?}]}: the row's
// reader, where an item's other keys are dropped (docs/PEER.md §7.2).
func (rd *reader) answerEntries(text string) ([]wire.AnswerItem, bool) {
	return wire.ReadAnswers(text, wire.OtherKeysDropped, &rd.Reader)
}

// rawAnsweredCount is the row's best-effort count when a result's answers are not all
// valid items (docs/PEER.md §7.3, between the exact count and the generic summary): the text is
// a JSON object whose "answers" is a non-empty array; of its M entries, N are objects
// with a non-empty "selected" array or a non-empty string "custom" (the answered count's
// rule, read leniently: a malformed entry is one more unanswered item, but a null entry
// makes the peer's count throw, so there is no count: not ok).
func (rd *reader) rawAnsweredCount(text string) (n, m int, ok bool) {
	top, ok := rd.object(text)
	if !ok {
		return 0, 0, false
	}
	as := top.Get("answers")
	if !as.IsArray() || as.Len() == 0 {
		return 0, 0, false
	}
	for _, it := range as.Items() {
		if it.IsNull() {
			// the peer reads each entry's selected: on null that throws, and the row falls
			// back to the raw arguments (the generic summary); a number or a string reads
			// as an entry without answers
			return 0, 0, false
		}
		if !it.IsObject() {
			continue
		}
		if sel := it.Get("selected"); sel.IsArray() && sel.Len() > 0 {
			n++
		} else if c, _ := it.Get("custom").Str(); c != "" {
			n++
		}
	}
	return n, as.Len(), true
}

// isPendingResult is the row's pending test: pending === true and a string callId
// (docs/PEER.md §7.2, §8.6).
func isPendingResult(text string) bool {
	p, ok := wire.ReadPendingResult(text)
	return ok && p.HasCallID
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
