package wire

import "strconv"

// Time is an instant of virtual time, in milliseconds from the start of a run: the
// simulator's clock, which is the host's, or a client's own clock reading (CD-1: the two
// need not agree). Nothing in the engine or the simulator reads a real clock; a port is
// told the time with every input. It is a type of its own so that an instant is not
// confused with a span (Duration) or with another unit (the tool's timeout is in seconds).
type Time int64

// Duration is a span of virtual time in milliseconds: a latency, a backoff, a timeout, a
// clock offset or jump.
type Duration int64

// Add is the instant d after t.
func (t Time) Add(d Duration) Time { return t + Time(d) }

// Sub is the span from u to t (negative when t is earlier).
func (t Time) Sub(u Time) Duration { return Duration(t - u) }

// Ms is t in milliseconds, for code that counts in plain integers (the engine's
// internals, the trace's record times).
func (t Time) Ms() int64 { return int64(t) }

// Ms is d in milliseconds.
func (d Duration) Ms() int64 { return int64(d) }

// String is the canonical text of an instant: its milliseconds in decimal, as a trace
// record shows it ("t=5010").
func (t Time) String() string { return strconv.FormatInt(int64(t), 10) }

// String is the canonical text of a span: its milliseconds in decimal, as a fault record
// shows it ("partition c1 for=3000").
func (d Duration) String() string { return strconv.FormatInt(int64(d), 10) }
