package client

import (
	"encoding/json"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode"

	"github.com/twosettle/twosettle/engine/wire"
)

// Wait dispositions saved beside a draft (spec §6.6): "" none, editing (the first edit
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

// answered: a selection or a non-blank custom text (spec §6.6).
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
	b := make([]byte, 0, 64+32*len(p.drafts))
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
	return string(append(b, '}'))
}

// decodeProgress reads a stored draft for a card of n questions. It accepts it only if it
// fits (spec §6.6, DRAFT-2): index an integer in range, exactly n drafts of the right
// types, wait absent, editing or waiting. Anything else reports false.
func decodeProgress(stored string, n int) (progress, bool) {
	var top map[string]json.RawMessage
	if json.Unmarshal([]byte(stored), &top) != nil || top == nil {
		return progress{}, false
	}
	var p progress
	var idx float64
	if json.Unmarshal(top["index"], &idx) != nil || idx != math.Trunc(idx) || idx < 0 || idx >= float64(n) {
		return progress{}, false
	}
	p.index = int(idx)
	var drafts []json.RawMessage
	if raw, ok := top["drafts"]; !ok || json.Unmarshal(raw, &drafts) != nil || drafts == nil || len(drafts) != n {
		return progress{}, false
	}
	for _, raw := range drafts {
		var f map[string]json.RawMessage
		if json.Unmarshal(raw, &f) != nil || f == nil {
			return progress{}, false
		}
		sel, ok := strictStrings(f["selected"])
		if !ok {
			return progress{}, false
		}
		custom, ok := strictString(f["custom"])
		if !ok {
			return progress{}, false
		}
		skipped, ok := strictBool(f["skipped"])
		if !ok {
			return progress{}, false
		}
		p.drafts = append(p.drafts, qdraft{selected: sel, custom: custom, skipped: skipped})
	}
	if raw, ok := top["wait"]; ok {
		w, ok := strictString(raw)
		if !ok || (w != dispEditing && w != dispWaiting) {
			return progress{}, false
		}
		p.wait = w
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
	sort.Slice(out, func(i, j int) bool { return out[i].Key < out[j].Key })
	return out
}

// strictString, strictBool, strictStrings decode a raw JSON value of exactly that type
// (null and a missing value are not strings).
func strictString(raw json.RawMessage) (string, bool) {
	if len(raw) == 0 || raw[0] != '"' {
		return "", false
	}
	var s string
	if json.Unmarshal(raw, &s) != nil {
		return "", false
	}
	return s, true
}

func strictBool(raw json.RawMessage) (bool, bool) {
	switch string(raw) {
	case "true":
		return true, true
	case "false":
		return false, true
	}
	return false, false
}

func strictStrings(raw json.RawMessage) ([]string, bool) {
	var items []json.RawMessage
	if len(raw) == 0 || raw[0] != '[' || json.Unmarshal(raw, &items) != nil {
		return nil, false
	}
	out := make([]string, 0, len(items))
	for _, it := range items {
		s, ok := strictString(it)
		if !ok {
			return nil, false
		}
		out = append(out, s)
	}
	return out, true
}

// trimSpace trims JavaScript whitespace, as String.prototype.trim does.
func trimSpace(s string) string { return strings.TrimFunc(s, isJSSpace) }

func isJSSpace(r rune) bool { return unicode.IsSpace(r) || r == '\uFEFF' }
