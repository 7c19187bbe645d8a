package agent

import "errors"

// ErrWriteFailed is a storage write error of the persistence model: the log could not
// append an inbox write (an injected fault, FailNextInboxWrite).
var ErrWriteFailed = errors.New("the inbox write failed: storage write error (injected fault)")

// FailNextInboxWrite arms a one-shot storage fault on Session id (wire.FailInboxWrite, a
// harness fault like Restart): the next message queued into its inbox by Send (a prompt, a
// steer, a late reply) is not written. Nothing is queued or appended, no hook runs, and
// that Send returns ErrWriteFailed, as the peer's append would throw on a failed write.
// Claims, discards, clears and repairs are not affected. The fault is volatile: Restart
// disarms it. The Session need not be live.
func (rt *Runtime) FailNextInboxWrite(id string) error {
	s, err := rt.session(id)
	if err != nil {
		return err
	}
	s.writeFault = true
	return nil
}

// TakeInboxWriteFault consumes an armed inbox write fault of Session id and returns the
// write error it stands for (nil when none is armed), for a caller that checks the write
// before work of its own: the host fails a prompt to a cold Session before resuming it.
func (rt *Runtime) TakeInboxWriteFault(id string) error {
	s, err := rt.session(id)
	if err != nil {
		return err
	}
	if s.takeWriteFault() {
		return wrap(ErrWriteFailed, "send to "+id)
	}
	return nil
}

// takeWriteFault consumes an armed inbox write fault.
func (s *sess) takeWriteFault() bool {
	f := s.writeFault
	s.writeFault = false
	return f
}
