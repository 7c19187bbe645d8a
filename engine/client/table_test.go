package client

import (
	"slices"
	"strconv"
	"testing"

	"pgregory.net/rapid"
)

// TestTable checks the client's keyed table against a plain reference (a list of keys in
// insertion order and a map), across the switch to an index and back and the holes a
// removal leaves while indexed.
func TestTable(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		var tb table[int]
		var order []string
		ref := map[string]int{}
		keys := rapid.IntRange(1, 3*indexAbove).Draw(t, "keys")
		for step := range rapid.IntRange(0, 300).Draw(t, "steps") {
			key := "k" + strconv.Itoa(rapid.IntRange(0, keys-1).Draw(t, "key"))
			if rapid.IntRange(0, 2).Draw(t, "op") == 0 {
				tb.del(key)
				if _, ok := ref[key]; ok {
					delete(ref, key)
					order = slices.DeleteFunc(order, func(k string) bool { return k == key })
				}
			} else {
				tb.set(key, step)
				if _, ok := ref[key]; !ok {
					order = append(order, key)
				}
				ref[key] = step
			}
			if tb.len() != len(order) {
				t.Fatalf("len %d, want %d", tb.len(), len(order))
			}
			var got []string
			tb.each(func(k string, v int) bool {
				if v != ref[k] {
					t.Fatalf("%s = %d, want %d", k, v, ref[k])
				}
				got = append(got, k)
				return true
			})
			if !slices.Equal(got, order) {
				t.Fatalf("order %v, want %v", got, order)
			}
			if vals := tb.values(); len(vals) != len(order) {
				t.Fatalf("values %v for keys %v", vals, order)
			}
			for k := range keys {
				key := "k" + strconv.Itoa(k)
				if v, ok := ref[key]; tb.index(key) >= 0 != ok || tb.at(key) != v {
					t.Fatalf("at(%s) = %d (index %d), want %d, %v", key, tb.at(key), tb.index(key), v, ok)
				}
			}
		}
	})
}
