// Package signal is the engine's deterministic abort signal: the sans-IO counterpart of
// an AbortController and its AbortSignal. Listeners run synchronously, in registration
// order, inside Abort; there is no scheduling, no goroutine and no clock.
//
// Contract:
//   - Abort is idempotent: only the first reason counts and listeners run once.
//   - A listener added to an already aborted signal is not called (check Aborted first,
//     as with AbortSignal).
//   - Follow makes a derived signal that aborts with its parent's reason (the run-scoped
//     and combined signals of the peer); removing the derived signal's listener on the
//     parent is the returned function's job.
package signal

// Signal is an abort controller and its signal in one value.
type Signal struct {
	aborted   bool
	reason    error
	listeners []listener
	nextID    int
	inline    [2]listener // the first listeners' storage (most signals have one or two)
}

type listener struct {
	id int
	fn func(reason error)
	l  Listener // when fn is nil
}

// Listener is an abort listener that is not a func value: a pointer type with this
// method registers with Listen without a closure to allocate.
type Listener interface{ SignalAborted(reason error) }

// New returns a signal that is not aborted.
func New() *Signal { return &Signal{} }

// Aborted returns a signal already aborted with reason.
func Aborted(reason error) *Signal { return &Signal{aborted: true, reason: reason} }

// IsAborted reports whether the signal has aborted. A nil signal never aborts.
func (s *Signal) IsAborted() bool { return s != nil && s.aborted }

// Reason is the abort reason, nil while not aborted.
func (s *Signal) Reason() error {
	if s == nil {
		return nil
	}
	return s.reason
}

// Abort aborts the signal with reason and runs its listeners in registration order. It
// reports whether this call aborted it (false when it had already aborted).
func (s *Signal) Abort(reason error) bool {
	if s.aborted {
		return false
	}
	s.aborted = true
	s.reason = reason
	ls := s.listeners
	s.listeners = nil
	for _, l := range ls {
		if l.fn != nil {
			l.fn(reason)
		} else {
			l.l.SignalAborted(reason)
		}
	}
	return true
}

// Listen registers l to run when the signal aborts, in registration order with the
// OnAbort listeners, and returns its id for Unlisten. On a nil or already aborted signal
// it registers nothing and returns 0.
func (s *Signal) Listen(l Listener) int {
	if s == nil || s.aborted {
		return 0
	}
	s.nextID++
	if s.listeners == nil {
		s.listeners = s.inline[:0]
	}
	s.listeners = append(s.listeners, listener{id: s.nextID, l: l})
	return s.nextID
}

// Unlisten removes the listener id returned by Listen (0, or one already removed or run,
// changes nothing). It is OnAbort's remove function without the closure.
func (s *Signal) Unlisten(id int) {
	if s == nil || id == 0 {
		return
	}
	for i, l := range s.listeners {
		if l.id == id {
			s.listeners = append(s.listeners[:i], s.listeners[i+1:]...)
			return
		}
	}
}

// OnAbort registers fn to run when the signal aborts and returns a function that removes
// it. On a nil or already aborted signal it registers nothing.
func (s *Signal) OnAbort(fn func(reason error)) (remove func()) {
	if s == nil || s.aborted {
		return func() {}
	}
	s.nextID++
	id := s.nextID
	if s.listeners == nil {
		s.listeners = s.inline[:0]
	}
	s.listeners = append(s.listeners, listener{id: id, fn: fn})
	return func() {
		for i, l := range s.listeners {
			if l.id == id {
				s.listeners = append(s.listeners[:i], s.listeners[i+1:]...)
				return
			}
		}
	}
}

// Listeners is the number of registered listeners (for leak checks in tests).
func (s *Signal) Listeners() int { return len(s.listeners) }

// Follow returns a new signal that aborts when any of parents aborts, with that parent's
// reason (an already aborted parent aborts it at once), and a function that detaches it
// from its parents.
func Follow(parents ...*Signal) (*Signal, func()) {
	s := New()
	var removes []func()
	for _, p := range parents {
		if p.IsAborted() {
			s.Abort(p.Reason())
			break
		}
		removes = append(removes, p.OnAbort(func(r error) { s.Abort(r) }))
	}
	return s, func() {
		for _, r := range removes {
			r()
		}
	}
}
