// Package minheap is the engine's one priority queue: a binary min-heap of values that
// order themselves (Before), kept in a slice. The question service orders its waits'
// timer armings with it, the client its cards' countdown deadlines, so that the next
// deadline is found in logarithmic time however many questions are open
// (docs/ARCHITECTURE.md §9, scale).
//
// # Contract
//
//   - Values are stored as they are: no boxing into interfaces (container/heap's Push and
//     Pop box every value, one allocation each), so pushing and popping allocate only
//     when the slice grows.
//   - Deterministic: the order is Before's; equal values leave in an order fixed by the
//     sequence of pushes and pops, the same on every run. Callers that need a total order
//     break ties in Before (the engine's users order by time, then creation).
//   - No state outside the Heap value; the zero Heap is empty and ready.
//
// Imports: none.
package minheap

// Ordered is a value that knows whether it comes before another.
type Ordered[T any] interface {
	Before(T) bool
}

// Heap is a min-heap of T by Before.
type Heap[T Ordered[T]] struct {
	items []T
}

// Len is the number of values held.
func (h *Heap[T]) Len() int { return len(h.items) }

// Top is the least value; ok is false when the heap is empty.
func (h *Heap[T]) Top() (top T, ok bool) {
	if len(h.items) == 0 {
		return top, false
	}
	return h.items[0], true
}

// Push adds v.
func (h *Heap[T]) Push(v T) {
	h.items = append(h.items, v)
	a := h.items
	for i := len(a) - 1; i > 0; {
		p := (i - 1) / 2
		if !a[i].Before(a[p]) {
			break
		}
		a[i], a[p] = a[p], a[i]
		i = p
	}
}

// Pop removes the least value (nothing when the heap is empty).
func (h *Heap[T]) Pop() {
	a := h.items
	n := len(a) - 1
	if n < 0 {
		return
	}
	var zero T
	a[0] = a[n]
	a[n] = zero // the slot keeps no pointer alive
	a = a[:n]
	for i := 0; ; {
		l, m := 2*i+1, i
		if l < n && a[l].Before(a[m]) {
			m = l
		}
		if r := l + 1; r < n && a[r].Before(a[m]) {
			m = r
		}
		if m == i {
			break
		}
		a[i], a[m] = a[m], a[i]
		i = m
	}
	h.items = a
}
