package wire

// PortLost is the error a port returns when the implementation behind it is gone or no
// longer keeps the port's contract: an external host that exited, hung past its message
// timeout, wrote malformed output or answered the wrong command. It is not a refusal of
// the command (an ordinary Apply error, which leaves the host's state unchanged and lets
// the run go on): whoever drives the port stops the run and reports Err. A port that
// returned a PortLost returns one for every later call.
type PortLost struct {
	Err error
}

func (e *PortLost) Error() string { return "port lost: " + e.Err.Error() }

// Unwrap returns the cause.
func (e *PortLost) Unwrap() error { return e.Err }

// Losable is implemented by ports whose implementation can be lost (an external host
// behind a protocol). NextDeadline and State cannot return an error, so whoever drives
// such a port asks Lost after a run: a non-nil PortLost means the run is not a verdict on
// the implementation's behaviour but a broken run.
type Losable interface {
	Lost() *PortLost
}

// LostOf returns the PortLost of p, if p is Losable and lost.
func LostOf(p any) *PortLost {
	if l, ok := p.(Losable); ok {
		return l.Lost()
	}
	return nil
}
