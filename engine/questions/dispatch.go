package questions

import (
	"encoding/json"

	"github.com/twosettle/twosettle/engine/signal"
	"github.com/twosettle/twosettle/engine/wire"
)

// Request is one ask: the user-questions/request waterfall payload together with the
// caller (nil: an unscoped ask) and the signal the request is forwarded with.
type Request struct {
	Questions []wire.Question
	Agent     Agent
	Signal    *signal.Signal
	Wait      *wire.Wait
}

// Payload is the request's JSON projection as it is forwarded to clients: the request
// without its agent and signal (docs/PEER-RUNTIME.md §1.1).
func (r *Request) Payload() json.RawMessage {
	return wire.QuestionRequest{Questions: r.Questions, Wait: r.Wait}.AppendJSON(nil)
}

// Outcome is how a listener settles a dispatch: with a value (nil Value: a result with no
// value) or, when Err is set, a rejection as it arrived (a client's wire rejection keeps its
// name, code and message).
type Outcome struct {
	Value json.RawMessage
	Err   *wire.Error
}

// Listener is one host-side listener of the user-questions/request waterfall. It either
// settles the dispatch or passes it on with next, exactly once, at once or later (when a
// later command settles it). Calls after the first are ignored. The host's forwarding
// listener is the gateway; a host may put others before it (a bridge that answers in
// process).
type Listener interface {
	Handle(r *Request, next func(), settle func(Outcome))
}

// ListenerFunc adapts a function to a Listener.
type ListenerFunc func(r *Request, next func(), settle func(Outcome))

// Handle calls f.
func (f ListenerFunc) Handle(r *Request, next func(), settle func(Outcome)) { f(r, next, settle) }

// waterfall is one dispatch in flight (started with step(0)): the listeners in order,
// then the terminal fallback that rejects with NO_PROVIDER (ASK-4); settle runs exactly
// once. Listener i's next and settle act once, and not after the waterfall is done: that
// listener is "used" once step has moved past it (at > i) or it settled the waterfall
// (done).
type waterfall struct {
	s      *Service
	r      *Request
	settle func(Outcome)
	at     int // the listener whose turn it is
	done   bool
}

func (w *waterfall) step(i int) {
	w.at = i
	if i == len(w.s.listeners) {
		w.done = true
		w.settle(Outcome{Err: errNoProvider()})
		return
	}
	w.s.listeners[i].Handle(w.r, func() {
		if w.at != i || w.done {
			return
		}
		w.step(i + 1)
	}, func(o Outcome) {
		if w.at != i || w.done {
			return
		}
		w.done = true
		w.settle(o)
	})
}
