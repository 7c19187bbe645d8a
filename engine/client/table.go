package client

import "slices"

// table is a string-keyed map kept as a slice of entries: the client's tables
// (deliveries, streams, requests in flight, cards, Sessions) hold a few entries, which a
// scan finds faster than a hash does, and a zero table is ready to use. Iteration is in
// insertion order.
type table[V any] struct {
	entries []entry[V]
}

type entry[V any] struct {
	key string
	val V
}

func (t *table[V]) index(key string) int {
	for i := range t.entries {
		if t.entries[i].key == key {
			return i
		}
	}
	return -1
}

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
	t.entries = append(t.entries, entry[V]{key, v})
}

// del removes key (an absent key is ignored).
func (t *table[V]) del(key string) {
	if i := t.index(key); i >= 0 {
		t.entries = slices.Delete(t.entries, i, i+1)
	}
}

func (t *table[V]) len() int { return len(t.entries) }

// values lists the values in insertion order (a new slice).
func (t *table[V]) values() []V {
	out := make([]V, len(t.entries))
	for i := range t.entries {
		out[i] = t.entries[i].val
	}
	return out
}
