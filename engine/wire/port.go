package wire

// HostPort is everything the harness can do to a host and everything a host emits. The
// reference host (engine/host) implements it in-process; a conformance adapter implements
// it by speaking the protocol to another process. The simulator drives hosts only through
// this interface.
//
// Time is virtual milliseconds, passed in; a host never reads a clock. now never goes
// backwards between calls.
type HostPort interface {
	// Apply processes one command at time now and returns the effects it produced, in
	// order. Timers due at or before now fire first (as if Tick(now) came before cmd).
	// An error means the command itself was malformed or impossible in the host's state
	// (unknown session, a tool call with no open step, ...): the host's state is unchanged
	// and no effects are returned. Domain failures (an RPC error, a tool error) are effects,
	// not errors. The returned slice is valid until the next call.
	Apply(now Time, cmd Command) ([]Effect, error)
	// NextDeadline is the earliest time a host timer is armed for, if any.
	NextDeadline() (at Time, ok bool)
	// State snapshots the host.
	State() HostState
}

// ClientPort is one answer UI (a browser tab) and its user: driven by frames and replies
// from the host and by user actions, with its own clock. now is the client's clock, which
// the simulator may offset, drift or jump (CD-1, CD-10).
type ClientPort interface {
	// Apply processes one input at client time now and returns the effects it produced.
	// An error means the input is impossible (a user action on a card that does not exist,
	// a submit with no question shown): the client's state is unchanged. Malformed frames
	// are not errors: the client ignores them as the spec says. The returned slice is valid
	// until the next call.
	Apply(now Time, in ClientInput) ([]ClientEffect, error)
	// NextDeadline is the earliest client time a client timer (the countdown tick) is
	// armed for, if any.
	NextDeadline() (at Time, ok bool)
	// State snapshots the client as of the client time of its last input.
	State() ClientState
	// StateAt snapshots the client as it shows at client time now (a probe or the end of a
	// run between two inputs): what depends on the clock, a running countdown, is read at
	// now (deadline − now, CD-1). It is an observation: nothing in the client changes, no
	// timer runs and nothing is emitted (a countdown past its deadline whose expiring tick
	// has not been delivered reads 0 and still runs). State() is StateAt at the time of the
	// last input.
	StateAt(now Time) ClientState
}
