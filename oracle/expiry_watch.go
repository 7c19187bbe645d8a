package oracle

import (
	"container/heap"
	"slices"
)

// expiryWatch is a performance index for INV-WAIT-EXPIRES-ON-TIME (waitsAtCommand): the
// open waits whose expiry instant may have passed, found without scanning every open
// foreground at every host command (thousands of questions open at once made that the
// oracle's main cost). It changes no verdict: waitsAtCommand judges exactly the
// foregrounds the full scan of c.active would, in the same order.
//
// It is a min-heap of (instant, foreground) where, for every open foreground whose
// expiryAt is known, some entry's instant is at or before that expiry instant. The
// instant only moves later while a foreground is open, except where watch is called:
// the mode becomes timed or the deadline becomes known (setTimed, resolveMode, a direct
// askTimed, a wait note), or the last claim is released (endStream). An entry is checked
// against the foreground's current expiryAt when it comes due, and pushed again with the
// later instant.
type expiryWatch struct {
	h     expiryHeap
	round uint64 // waitsAtCommand calls so far: a foreground is judged once a call
	seq   int    // foregrounds created so far (their order in c.active)
}

type expiryEntry struct {
	at int64
	fg *foreground
}

// watch records fg's expiry instant, if it has one now.
func (c *Checker) watch(fg *foreground) {
	if e, ok := fg.expiryAt(); ok && fg.open() {
		heap.Push(&c.expiry.h, expiryEntry{e, fg})
	}
}

// dueExpiries are the open foregrounds whose expiry instant is before now, in creation
// order (the order of c.active); each stays watched.
func (c *Checker) dueExpiries(now int64) []*foreground {
	w := &c.expiry
	w.round++
	var due []*foreground
	for len(w.h) > 0 && w.h[0].at < now {
		fg := heap.Pop(&w.h).(expiryEntry).fg
		if fg.watched == w.round || !fg.open() {
			continue
		}
		fg.watched = w.round
		e, ok := fg.expiryAt()
		switch {
		case !ok:
		case now > e:
			due = append(due, fg)
		default:
			heap.Push(&w.h, expiryEntry{e, fg})
		}
	}
	for _, fg := range due {
		e, _ := fg.expiryAt()
		heap.Push(&w.h, expiryEntry{e, fg})
	}
	slices.SortFunc(due, func(a, b *foreground) int { return a.order - b.order })
	return due
}

// expiryHeap implements heap.Interface.
type expiryHeap []expiryEntry

func (h expiryHeap) Len() int           { return len(h) }
func (h expiryHeap) Less(i, j int) bool { return h[i].at < h[j].at }
func (h expiryHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *expiryHeap) Push(x any)        { *h = append(*h, x.(expiryEntry)) }
func (h *expiryHeap) Pop() any {
	old := *h
	e := old[len(old)-1]
	old[len(old)-1] = expiryEntry{}
	*h = old[:len(old)-1]
	return e
}
