package conform

import (
	"github.com/twosettle/twosettle/engine/mutant"
	"github.com/twosettle/twosettle/engine/questions"
	"github.com/twosettle/twosettle/engine/signal"
	"github.com/twosettle/twosettle/engine/wire"
)

// waitModel is the reference of the wait profile: engine/questions.Wait driven by wait
// steps. The runner compares a host with it, and `conform refhost` serves it.
//
// A step at now first fires every timer due at or before now, earliest first (ties in the
// order they were armed), each at its own time; then applies the operation; then fires
// what is due at now (a timer re-armed after the deadline is due at once, WAIT-5).
// Operations on a wait or claim the model does not know change nothing, except a pull,
// which ends the stream with no frame (WAIT-7, an unknown wait).
type waitModel struct {
	now     int64
	mutants mutant.Set
	waits   map[string]*modelWait
	order   []*modelWait // creation order
	parents map[string]*signal.Signal
	streams map[string]*modelStream
	seq     int64 // arming sequence
	events  []WaitEvent
	// lateMs is how much later than it is due every timer fires: 0 in the reference;
	// tests set it to play a wrong wait (lateMs 1: a timer that fires at deadline+1).
	lateMs int64
}

type modelWait struct {
	name   string
	w      *questions.Wait
	armSeq int64
}

// modelStream is one claim stream: the sink questions.Wait writes to.
type modelStream struct {
	m       *waitModel
	name    string
	wait    string
	client  *signal.Signal
	pulled  bool
	ended   bool
	claimed *questions.Claim
}

func (s *modelStream) Frame(ms int64) {
	s.m.events = append(s.m.events, WaitEvent{Event: WaitEventFrame, Claim: s.name, RemainingMs: ms, At: s.m.now})
}

func (s *modelStream) End() {
	if s.ended {
		return
	}
	s.ended = true
	s.m.events = append(s.m.events, WaitEvent{Event: WaitEventEnd, Claim: s.name, At: s.m.now})
}

func newWaitModel(mutants mutant.Set) *waitModel {
	m := &waitModel{mutants: mutants}
	m.reset(0)
	return m
}

func (m *waitModel) reset(now int64) {
	m.now = now
	m.waits = map[string]*modelWait{}
	m.order = nil
	m.parents = map[string]*signal.Signal{}
	m.streams = map[string]*modelStream{}
	m.events = nil
}

// reason is the error a reason code stands for: a domain error with that code, so its
// text (the closed event's reason) is the code.
func reason(code string) error {
	return &wire.Error{Name: wire.UserQuestionErrorName, Code: code, Message: code}
}

// parent is the named parent signal, made on first use.
func (m *waitModel) parent(name string) *signal.Signal {
	p, ok := m.parents[name]
	if !ok {
		p = signal.New()
		m.parents[name] = p
	}
	return p
}

// Step applies s and returns what happened and the timers left armed.
func (m *waitModel) Step(s WaitStep) WaitReply {
	m.events = nil
	if s.Op == WaitOpReset {
		m.reset(s.Now)
		return WaitReply{Events: []WaitEvent{}}
	}
	m.fire(s.Now)
	if s.Now > m.now {
		m.now = s.Now
	}
	switch s.Op {
	case WaitOpCreate:
		if _, dup := m.waits[s.Wait]; dup {
			break
		}
		mw := &modelWait{name: s.Wait}
		cfg := questions.WaitConfig{
			Session: "conform", CallID: s.Wait, Mutants: m.mutants,
			Clock: func() int64 { return m.now },
			Note: func(n wire.WaitNote) {
				switch n.Kind {
				case wire.WaitArmed:
					m.seq++
					mw.armSeq = m.seq
				case wire.WaitClosed:
					m.events = append(m.events, WaitEvent{Event: WaitEventClosed, Wait: mw.name, Reason: n.Reason, At: m.now})
				}
			},
		}
		if s.Parent != "" {
			cfg.Parent = m.parent(s.Parent)
		}
		m.waits[s.Wait] = mw
		m.order = append(m.order, mw)
		mw.w = questions.NewWait(m.now, s.TimeoutMs, cfg)
	case WaitOpAttach:
		if _, dup := m.streams[s.Claim]; dup {
			break
		}
		cs := signal.New()
		if s.Cancelled {
			cs = signal.Aborted(reason(wire.AskCancelled))
		}
		m.streams[s.Claim] = &modelStream{m: m, name: s.Claim, wait: s.Wait, client: cs}
	case WaitOpPull:
		st, ok := m.streams[s.Claim]
		if !ok || st.pulled {
			break
		}
		st.pulled = true
		mw, ok := m.waits[st.wait]
		if !ok {
			st.End()
			break
		}
		st.claimed = mw.w.Attach(m.now, st.client, st)
	case WaitOpReturn:
		st, ok := m.streams[s.Claim]
		if !ok {
			break
		}
		if !st.pulled { // returned before it was read: never a claim, nothing to end
			st.pulled, st.ended = true, true
			break
		}
		if st.claimed != nil {
			st.claimed.Release(m.now)
		}
	case WaitOpCancel:
		if st, ok := m.streams[s.Claim]; ok {
			st.client.Abort(reason(wire.AskCancelled))
		}
	case WaitOpAbort:
		m.parent(s.Parent).Abort(reason(s.Reason))
	case WaitOpClose:
		if mw, ok := m.waits[s.Wait]; ok {
			mw.w.Close(reason(s.Reason))
		}
	}
	m.fire(m.now)
	return WaitReply{Events: append([]WaitEvent{}, m.events...), Timers: m.timers()}
}

// fire expires every wait whose timer is due at or before now, earliest first.
func (m *waitModel) fire(now int64) {
	for {
		var next *modelWait
		var nextAt int64
		for _, mw := range m.order {
			at, ok := mw.w.Timer()
			at += m.lateMs
			if !ok || at > now {
				continue
			}
			if next == nil || at < nextAt || at == nextAt && mw.armSeq < next.armSeq {
				next, nextAt = mw, at
			}
		}
		if next == nil {
			return
		}
		if nextAt > m.now {
			m.now = nextAt
		}
		next.w.Fire(m.now)
	}
}

// timers is how many waits have a timer armed.
func (m *waitModel) timers() int64 {
	n := int64(0)
	for _, mw := range m.order {
		if _, ok := mw.w.Timer(); ok {
			n++
		}
	}
	return n
}
