package client

import "slices"

// table is a string-keyed map kept as a slice of entries: the client's tables
// (deliveries, streams, requests in flight, cards, Sessions) usually hold a few entries,
// which a scan finds faster than a hash does, and a zero table is ready to use.
// Iteration is in insertion order. Past indexAbove entries (a generated or hostile run
// with thousands of open questions) a map from key to position is kept beside the
// slice, so a lookup stays O(1) and a run's cost near-linear in what it holds: a removal
// then leaves a hole (dead) instead of shifting and renumbering every later entry, and
// the holes are compacted away once they are half the slice (amortised O(1)).
type table[V any] struct {
	entries []entry[V]
	pos     map[string]int // nil while the table is small
	dead    int            // holes in entries (only while pos is kept)
}

type entry[V any] struct {
	key  string
	val  V
	dead bool // removed: a hole the next compaction drops
}

// indexAbove is the size past which a table keeps its map.
const indexAbove = 16

func (t *table[V]) index(key string) int {
	if t.pos != nil {
		if i, ok := t.pos[key]; ok {
			return i
		}
		return -1
	}
	for i := range t.entries {
		if t.entries[i].key == key {
			return i
		}
	}
	return -1
}

// indexed reports whether lookups go through the map (the table is large).
func (t *table[V]) indexed() bool { return t.pos != nil }

// at is the value of key, or the zero value.
func (t *table[V]) at(key string) V {
	if i := t.index(key); i >= 0 {
		return t.entries[i].val
	}
	var zero V
	return zero
}

// set puts key's value (replacing an existing one).
func (t *table[V]) set(key string, v V) {
	if i := t.index(key); i >= 0 {
		t.entries[i].val = v
		return
	}
	if t.entries == nil {
		t.entries = make([]entry[V], 0, 4)
	}
	t.entries = append(t.entries, entry[V]{key: key, val: v})
	switch {
	case t.pos != nil:
		t.pos[key] = len(t.entries) - 1
	case len(t.entries) > indexAbove:
		t.pos = make(map[string]int, 2*len(t.entries))
		for i, e := range t.entries {
			t.pos[e.key] = i
		}
	}
}

// del removes key (an absent key is ignored).
func (t *table[V]) del(key string) {
	i := t.index(key)
	if i < 0 {
		return
	}
	if t.pos == nil {
		t.entries = slices.Delete(t.entries, i, i+1)
		return
	}
	delete(t.pos, key)
	t.entries[i] = entry[V]{dead: true}
	t.dead++
	if t.len() <= indexAbove/2 {
		t.compact()
		t.pos = nil // small again: back to scanning
		return
	}
	if t.dead > len(t.entries)/2 {
		t.compact()
		for j, e := range t.entries {
			t.pos[e.key] = j
		}
	}
}

// compact drops the holes, keeping the order.
func (t *table[V]) compact() {
	t.entries = slices.DeleteFunc(t.entries, func(e entry[V]) bool { return e.dead })
	t.dead = 0
}

func (t *table[V]) len() int { return len(t.entries) - t.dead }

// each calls f with every entry's key and value in insertion order, until f returns false.
func (t *table[V]) each(f func(key string, v V) bool) {
	for i := range t.entries {
		if e := &t.entries[i]; !e.dead && !f(e.key, e.val) {
			return
		}
	}
}

// values lists the values in insertion order (a new slice).
func (t *table[V]) values() []V {
	out := make([]V, 0, t.len())
	for i := range t.entries {
		if !t.entries[i].dead {
			out = append(out, t.entries[i].val)
		}
	}
	return out
}
