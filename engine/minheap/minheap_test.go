package minheap

import (
	"cmp"
	"slices"
	"testing"

	"pgregory.net/rapid"
)

// item orders by key, then by seq (a total order, as the engine's users break ties).
type item struct{ key, seq int }

func (a item) Before(b item) bool {
	return a.key < b.key || a.key == b.key && a.seq < b.seq
}

// Any sequence of pushes and pops gives the values back in Before's order, as a sorted
// model does.
func TestHeapAgainstASortedModel(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		var h Heap[item]
		var model []item
		ops := rapid.SliceOfN(rapid.IntRange(-1, 20), 0, 200).Draw(t, "ops") // -1 pops, else pushes that key
		for seq, op := range ops {
			if op < 0 {
				h.Pop()
				if len(model) > 0 {
					model = model[1:]
				}
			} else {
				h.Push(item{op, seq})
				model = append(model, item{op, seq})
				slices.SortFunc(model, func(a, b item) int {
					return cmp.Or(cmp.Compare(a.key, b.key), cmp.Compare(a.seq, b.seq))
				})
			}
			if h.Len() != len(model) {
				t.Fatalf("Len %d, want %d", h.Len(), len(model))
			}
			top, ok := h.Top()
			if ok != (len(model) > 0) || ok && top != model[0] {
				t.Fatalf("Top = %v %v, want %v", top, ok, model)
			}
		}
	})
}

func TestHeapEdges(t *testing.T) {
	var h Heap[item]
	if _, ok := h.Top(); ok {
		t.Fatal("the zero heap has a top")
	}
	h.Pop() // popping an empty heap does nothing
	if h.Len() != 0 {
		t.Fatal("Pop of an empty heap changed it")
	}
	t.Run("push and pop allocate only when the slice grows", func(t *testing.T) {
		h := Heap[item]{items: make([]item, 0, 8)}
		if n := testing.AllocsPerRun(100, func() { h.Push(item{1, 1}); h.Push(item{0, 2}); h.Pop(); h.Pop() }); n != 0 {
			t.Fatalf("%v allocations", n)
		}
	})
}
