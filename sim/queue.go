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
	seq    uint64
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

// queue is a binary min-heap of events ordered by (at, seq).
type queue []event

func (q *queue) push(e event) {
	*q = append(*q, e)
	h := *q
	i := len(h) - 1
	for i > 0 {
		p := (i - 1) / 2
		if !h[i].before(&h[p]) {
			break
		}
		h[i], h[p] = h[p], h[i]
		i = p
	}
}

func (q *queue) pop() event {
	h := *q
	top := h[0]
	n := len(h) - 1
	h[0] = h[n]
	h[n] = event{}
	h = h[:n]
	i := 0
	for {
		l := 2*i + 1
		if l >= n {
			break
		}
		m := l
		if r := l + 1; r < n && h[r].before(&h[l]) {
			m = r
		}
		if !h[m].before(&h[i]) {
			break
		}
		h[i], h[m] = h[m], h[i]
		i = m
	}
	*q = h
	return top
}
