package variant

import (
	"errors"
	"strings"

	"github.com/twosettle/twosettle/engine/wire"
)

// reshape is a wrapper that emits the effects of each Apply as a selection of the inner
// host's, in an order of its choosing (shape), and reshapes the state. Every shape keeps
// the persisted effects in their order, so a crash after the variant's first k effects is
// the inner host's crash after the prefix holding the same persisted effects (cutFor).
type reshape struct {
	base
	shape shape
	effs  []wire.Effect
	// src is the last Apply's selection: src[i] is the inner index of effect i;
	// persisted[j] says the inner effect j was a Persisted.
	src       []int
	persisted []bool
}

// shape is a reshaping: order picks and orders the inner effects of one Apply of cmd (a
// permutation or a subsequence of their indices that keeps persisted effects in order),
// state reshapes a snapshot (nil: unchanged).
type shape struct {
	order func(cmd wire.Command, effs []wire.Effect) []int
	state func(wire.HostState) wire.HostState
}

func newReshape(h wire.HostPort, s shape) wire.HostPort { return &reshape{base: base{h}, shape: s} }

func (p *reshape) Apply(now wire.Time, cmd wire.Command) ([]wire.Effect, error) {
	if r, ok := cmd.(wire.Restart); ok && r.CutAfter >= 0 {
		r.CutAfter = cutFor(r.CutAfter, p.src, p.persisted)
		cmd = r
	}
	effs, err := p.h.Apply(now, cmd)
	p.src = p.shape.order(cmd, effs)
	p.persisted = p.persisted[:0]
	for _, e := range effs {
		_, isP := e.(wire.Persisted)
		p.persisted = append(p.persisted, isP)
	}
	p.effs = p.effs[:0]
	for _, j := range p.src {
		p.effs = append(p.effs, effs[j])
	}
	return p.effs, err
}

func (p *reshape) State() wire.HostState {
	st := p.h.State()
	if p.shape.state != nil {
		st = p.shape.state(st)
	}
	return st
}

// cutFor is the inner host's cut for a crash after the first k of the effects selected
// as src: the shortest inner prefix that holds the same persisted effects (0 when there
// are none: durability is then what it was when the Apply began).
func cutFor(k int, src []int, persisted []bool) int {
	k = min(k, len(src))
	n := 0
	for _, j := range src[:k] {
		if persisted[j] {
			n++
		}
	}
	if n == 0 {
		return 0
	}
	seen := 0
	for j, isP := range persisted {
		if isP {
			seen++
			if seen == n {
				return j + 1
			}
		}
	}
	return len(persisted)
}

// identity is the inner order.
func identity(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i
	}
	return out
}

// ordered reports whether a must stay before b when a came first: effects to the same
// client (its connection, its streams, its replies: GW order per client), and a Session
// log effect (appended, persisted, wait note) and anything else. Log effects stay where
// they are: they are the causal spine of an instant (a tool call is recorded before the
// request its body forwards, an event is appended before the update that shows it, a
// reply is durable before it is acknowledged, AGENT-6, and the crash points count
// persisted effects). What moves is the frames, replies and direct results between two
// log effects: frames to different clients, a reply and frames to other clients, a
// direct result and frames.
func ordered(a, b wire.Effect) bool {
	if ca, ok := clientOf(a); ok {
		if cb, ok := clientOf(b); ok && ca == cb {
			return true
		}
	}
	return isLog(a) || isLog(b)
}

func clientOf(e wire.Effect) (string, bool) {
	switch e := e.(type) {
	case wire.SendFrame:
		return e.Client, true
	case wire.Reply:
		return e.Client, true
	}
	return "", false
}

func isLog(e wire.Effect) bool {
	switch e.(type) {
	case wire.Appended, wire.Persisted, wire.WaitNote:
		return true
	}
	return false
}

// reorder emits the effects in the order that puts the latest effect first wherever
// ordered allows: a topological order of the ordered pairs, choosing the highest inner
// index among the effects whose predecessors are out.
var reorder = shape{order: func(_ wire.Command, effs []wire.Effect) []int {
	n := len(effs)
	if n < 2 {
		return identity(n)
	}
	preds := make([]int, n)
	succ := make([][]int, n)
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			if ordered(effs[i], effs[j]) {
				preds[j]++
				succ[i] = append(succ[i], j)
			}
		}
	}
	out := make([]int, 0, n)
	done := make([]bool, n)
	for len(out) < n {
		pick := -1
		for i := n - 1; i >= 0; i-- {
			if !done[i] && preds[i] == 0 {
				pick = i
				break
			}
		}
		done[pick] = true
		out = append(out, pick)
		for _, j := range succ[pick] {
			preds[j]--
		}
	}
	return out
}}

// persistLate moves each persisted effect past the frames and replies that follow it,
// stopping before anything else (another persisted, an appended event, a wait note, a
// direct result) and before a reply that acknowledges a durable fact: a successful reply
// with the value true (an accepted late answer, AGENT-6; a discarded message, CARD-9).
var persistLate = shape{order: func(_ wire.Command, effs []wire.Effect) []int {
	out := make([]int, 0, len(effs))
	held := -1
	for i, e := range effs {
		if _, ok := e.(wire.Persisted); ok {
			if held >= 0 {
				out = append(out, held)
			}
			held = i
			continue
		}
		if held >= 0 && !passable(e) {
			out = append(out, held)
			held = -1
		}
		out = append(out, i)
	}
	if held >= 0 {
		out = append(out, held)
	}
	return out
}}

// passable reports whether a late persisted effect may be reported after e.
func passable(e wire.Effect) bool {
	switch e := e.(type) {
	case wire.SendFrame:
		return true
	case wire.Reply:
		return !(e.Envelope.OK && strings.TrimSpace(string(e.Envelope.Value)) == "true")
	}
	return false
}

// noIntrospection leaves out wait notes and the volatile state.
var noIntrospection = shape{
	order: func(_ wire.Command, effs []wire.Effect) []int {
		out := make([]int, 0, len(effs))
		for i, e := range effs {
			if _, ok := e.(wire.WaitNote); !ok {
				out = append(out, i)
			}
		}
		return out
	},
	state: func(st wire.HostState) wire.HostState {
		st.Waits, st.Reservations, st.Clients, st.Pending = nil, nil, nil, nil
		return st
	},
}

// refusals words every refusal of a command differently.
type refusals struct{ base }

func (p *refusals) Apply(now wire.Time, cmd wire.Command) ([]wire.Effect, error) {
	effs, err := p.h.Apply(now, cmd)
	if err != nil && !isLost(err) {
		verb, _, _ := strings.Cut(cmd.String(), " ")
		err = errors.New("declined: this host will not carry out that " + verb + " in its present state")
	}
	return effs, err
}
