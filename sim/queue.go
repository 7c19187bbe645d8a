package sim

import "github.com/twosettle/twosettle/engine/wire"

// Event kinds.
const (
	evStep         uint8 = iota + 1 // scripted step idx
	evMuxToHost                     // cmd over client's mux link (FIFO)
	evHTTPToHost                    // cmd over client's HTTP channel
	evMuxToClient                   // in over client's mux link (FIFO)
	evHTTPToClient                  // in (a FromHTTP) over client's HTTP channel; epoch = incarnation
	evLinkDown                      // LinkDown over client's mux link (FIFO, sticky); epoch = attempt
	evDial                          // client's dial backoff ends; epoch = attempt
	evAutoEnd                       // the model's automatic step end; idx = model slot, epoch = version
	evRandomFault                   // idx into the drawn random faults
)

// event is one entry of the queue. Events are values; a dead event is skipped silently
// (its loss was recorded when it was killed).
type event struct {
	at     int64
	seq    uint32
	kind   uint8
	dead   bool
	sticky bool  // never killed by a link going down (Disconnect, LinkDown)
	client int16 // client index, -1 for none
	link   int16 // FIFO channel, -1 for none
	epoch  int32
	idx    int32
	cmd    wire.Command
	in     wire.ClientInput
}

func (a *event) before(b *event) bool {
	if a.at != b.at {
		return a.at < b.at
	}
	return a.seq < b.seq
}

// hkey is a queue entry: the ordering key of an event and its slot in the event slab
// (the heap moves 16-byte keys, never the events).
type hkey struct {
	at   int64
	seq  uint32
	slot int32
}

func (a hkey) before(b hkey) bool {
	if a.at != b.at {
		return a.at < b.at
	}
	return a.seq < b.seq
}

// queue is a binary min-heap of keys ordered by (at, seq).
type queue []hkey

func (q *queue) push(k hkey) {
	*q = append(*q, k)
	h := *q
	i := len(h) - 1
	for i > 0 {
		p := (i - 1) / 2
		if !k.before(h[p]) {
			break
		}
		h[i] = h[p]
		i = p
	}
	h[i] = k
}

func (q *queue) pop() hkey {
	h := *q
	top := h[0]
	n := len(h) - 1
	last := h[n]
	h = h[:n]
	i := 0
	for {
		l := 2*i + 1
		if l >= n {
			break
		}
		m := l
		if r := l + 1; r < n && h[r].before(h[l]) {
			m = r
		}
		if !h[m].before(last) {
			break
		}
		h[i] = h[m]
		i = m
	}
	if n > 0 {
		h[i] = last
	}
	*q = h
	return top
}

// linkQueue is one FIFO link's events due at the current instant, in order: s[h:] are
// still queued.
type linkQueue struct {
	s []int32
	h int
}

func (q *linkQueue) reset() { q.s, q.h = q.s[:0], 0 }

// cand is one candidate of the scheduler's pick at the current instant.
type cand struct {
	kind uint8 // candHost, candClient, candReady or candLink
	i    int32 // the client (candClient), the index into ready (candReady), the link (candLink)
}

// Candidate kinds.
const (
	candHost   uint8 = iota // the host's timer
	candClient              // client i's timer
	candReady               // ready[i], an event on no FIFO link
	candLink                // the head of link i's ready events
)
