package client

import "github.com/twosettle/twosettle/engine/minheap"

// deadlines are a page's running countdown deadlines as a min-heap by fire tick, ties by
// card creation order: the next tick that expires a card is found without scanning every
// card that ever had a deadline (thousands of open questions count down at once on a
// client). An entry is a card's deadline as setDeadline set it (ver); it goes stale when
// the card's deadline stops or is set again, or the card leaves the page, and a stale
// entry is dropped when it reaches the top.
type deadlines struct {
	tick int64 // the countdown interval (ms)
	h    minheap.Heap[deadlineEntry]
}

type deadlineEntry struct {
	at   int64 // the card's fire tick (card.fireTick)
	seq  int   // the card's creation order
	ver  uint64
	card *card
}

// Before orders entries by fire tick, then by card creation.
func (e deadlineEntry) Before(f deadlineEntry) bool {
	return e.at < f.at || e.at == f.at && e.seq < f.seq
}

// push records k's deadline as it is now.
func (d *deadlines) push(k *card) {
	d.h.Push(deadlineEntry{at: k.fireTick(d.tick), seq: k.seq, ver: k.dlVer, card: k})
}

// next is the entry of the earliest live deadline (ticking reports whether a card's
// deadline still runs), dropping the stale entries above it; ok is false when none runs.
func (d *deadlines) next(ticking func(*card) bool) (deadlineEntry, bool) {
	for {
		e, ok := d.h.Top()
		if !ok {
			return deadlineEntry{}, false
		}
		if e.ver == e.card.dlVer && ticking(e.card) {
			return e, true
		}
		d.h.Pop()
	}
}

// pop removes the top entry.
func (d *deadlines) pop() { d.h.Pop() }
