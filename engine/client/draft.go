package client

import (
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/twosettle/twosettle/engine/wire"
)

// Wait dispositions saved beside a draft (docs/PEER.md §6.6): "" none, editing (the first edit
// froze the countdown), waiting (Take time froze it).
const (
	dispNone    = ""
	dispEditing = "editing"
	dispWaiting = "waiting"
)

// qdraft is the composer's draft of one question.
type qdraft struct {
	selected []string
	custom   string
	skipped  bool
}

func (d qdraft) clone() qdraft {
	d.selected = slices.Clone(d.selected)
	return d
}

// answered: a selection or a non-blank custom text (docs/PEER.md §6.6).
func (d qdraft) answered() bool { return len(d.selected) > 0 || trimSpace(d.custom) != "" }

// completed: answered or skipped.
func (d qdraft) completed() bool { return d.answered() || d.skipped }

func (d qdraft) equal(o qdraft) bool {
	return d.custom == o.custom && d.skipped == o.skipped && slices.Equal(d.selected, o.selected)
}

// progress is what the draft store keeps per card key: the drafts, the current question
// and the wait disposition.
type progress struct {
	drafts []qdraft
	index  int
	wait   string
}

// encode writes the stored form: {"drafts":[{"selected":[…],"custom":…,"skipped":…}],"index":N,"wait":…}
// (wait left out when none).
func (p progress) encode() string {
	return string(p.appendTo(make([]byte, 0, 64+32*len(p.drafts))))
}

// appendTo appends the encoded progress to b.
func (p progress) appendTo(b []byte) []byte {
	b = append(b, `{"drafts":[`...)
	for i, d := range p.drafts {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"selected":[`...)
		for j, s := range d.selected {
			if j > 0 {
				b = append(b, ',')
			}
			b = wire.AppendJSONString(b, s)
		}
		b = append(b, `],"custom":`...)
		b = wire.AppendJSONString(b, d.custom)
		b = append(b, `,"skipped":`...)
		b = strconv.AppendBool(b, d.skipped)
		b = append(b, '}')
	}
	b = append(b, `],"index":`...)
	b = strconv.AppendInt(b, int64(p.index), 10)
	if p.wait != dispNone {
		b = append(b, `,"wait":`...)
		b = wire.AppendJSONString(b, p.wait)
	}
	return append(b, '}')
}

// decodeProgress reads a stored draft for a card of n questions. It accepts it only if it
// fits (docs/PEER.md §6.6, DRAFT-2): index an integer in range, exactly n drafts of the right
// types, wait absent, editing or waiting. Anything else reports false. anyCount is MUTANT
// draft-count-unchecked: a list of another length is cut or padded to n.
func (rd *reader) decodeProgress(stored string, n int, anyCount bool) (progress, bool) {
	top, ok := rd.object(stored)
	if !ok {
		return progress{}, false
	}
	var p progress
	idx, ok := top.Get("index").Num()
	if !ok || idx != math.Trunc(idx) || idx < 0 || idx >= float64(n) {
		return progress{}, false
	}
	p.index = int(idx)
	drafts := top.Get("drafts")
	if !drafts.IsArray() || drafts.Len() != n && !anyCount {
		return progress{}, false
	}
	for _, f := range drafts.Items() {
		if !f.IsObject() {
			return progress{}, false
		}
		sel, ok1 := f.Get("selected").Strings()
		custom, ok2 := f.Get("custom").Str()
		skipped, ok3 := f.Get("skipped").Bool()
		if !ok1 || !ok2 || !ok3 {
			return progress{}, false
		}
		p.drafts = append(p.drafts, qdraft{selected: sel, custom: custom, skipped: skipped})
	}
	if len(p.drafts) != n { // only with anyCount
		p.drafts = append(p.drafts, make([]qdraft, max(0, n-len(p.drafts)))...)[:n]
	}
	if w := top.Get("wait"); w.Exists() {
		ws, ok := w.Str()
		if !ok || (ws != dispEditing && ws != dispWaiting) {
			return progress{}, false
		}
		p.wait = ws
	}
	return p, true
}

// draftEntry is one stored draft.
type draftEntry struct {
	session string
	json    string
}

// draftStore is the client-local durable store of drafts (the browser's localStorage):
// one logical store per Session, keyed by card key (DRAFT-1). It is the only part of a
// client that survives a reload, and it belongs to one client only.
type draftStore struct {
	entries map[string]draftEntry
}

func newDraftStore(initial []wire.DraftState) draftStore {
	s := draftStore{entries: make(map[string]draftEntry, len(initial))}
	for _, d := range initial {
		if d.Key != "" {
			s.entries[d.Key] = draftEntry{session: d.Session, json: d.JSON}
		}
	}
	return s
}

func (s *draftStore) get(key string) (string, bool) {
	e, ok := s.entries[key]
	return e.json, ok
}

func (s *draftStore) replace(session, key, js string) {
	s.entries[key] = draftEntry{session: session, json: js}
}

// clear drops key; an unknown key is ignored.
func (s *draftStore) clear(key string) { delete(s.entries, key) }

// prune drops every draft of session whose key keep does not report.
func (s *draftStore) prune(session string, keep func(key string) bool) {
	for k, e := range s.entries {
		if e.session == session && !keep(k) {
			delete(s.entries, k)
		}
	}
}

// states lists the store by key.
func (s *draftStore) states() []wire.DraftState {
	if len(s.entries) == 0 {
		return nil
	}
	out := make([]wire.DraftState, 0, len(s.entries))
	for k, e := range s.entries {
		out = append(out, wire.DraftState{Session: e.session, Key: k, JSON: e.json})
	}
	slices.SortFunc(out, func(a, b wire.DraftState) int { return strings.Compare(a.Key, b.Key) }) // keys are unique
	return out
}

// trimSpace trims JavaScript whitespace, as String.prototype.trim does.
func trimSpace(s string) string { return strings.TrimFunc(s, isJSSpace) }

func isJSSpace(r rune) bool { return unicode.IsSpace(r) || r == '\uFEFF' }
