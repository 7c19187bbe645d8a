package client

import "container/heap"

// deadlines are a page's running countdown deadlines as a min-heap by fire tick, ties by
// card creation order: the next tick that expires a card is found without scanning every
// card that ever had a deadline (thousands of open questions count down at once on a
// client). An entry is a card's deadline as setDeadline set it (ver); it goes stale when
// the card's deadline stops or is set again, or the card leaves the page, and a stale
// entry is dropped when it reaches the top.
type deadlines struct {
	tick int64 // the countdown interval (ms)
	h    deadlineHeap
}

type deadlineEntry struct {
	at   int64 // the card's fire tick (card.fireTick)
	seq  int   // the card's creation order
	ver  uint64
	card *card
}

// push records k's deadline as it is now.
func (d *deadlines) push(k *card) {
	heap.Push(&d.h, deadlineEntry{at: k.fireTick(d.tick), seq: k.seq, ver: k.dlVer, card: k})
}

// next is the entry of the earliest live deadline (ticking reports whether a card's
// deadline still runs), dropping the stale entries above it; ok is false when none runs.
func (d *deadlines) next(ticking func(*card) bool) (deadlineEntry, bool) {
	for len(d.h) > 0 {
		e := d.h[0]
		if e.ver == e.card.dlVer && ticking(e.card) {
			return e, true
		}
		heap.Pop(&d.h)
	}
	return deadlineEntry{}, false
}

// pop removes the top entry.
func (d *deadlines) pop() { heap.Pop(&d.h) }

// deadlineHeap implements heap.Interface.
type deadlineHeap []deadlineEntry

func (h deadlineHeap) Len() int { return len(h) }
func (h deadlineHeap) Less(i, j int) bool {
	return h[i].at < h[j].at || h[i].at == h[j].at && h[i].seq < h[j].seq
}
func (h deadlineHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *deadlineHeap) Push(x any)   { *h = append(*h, x.(deadlineEntry)) }
func (h *deadlineHeap) Pop() any {
	old := *h
	e := old[len(old)-1]
	old[len(old)-1] = deadlineEntry{}
	*h = old[:len(old)-1]
	return e
}
