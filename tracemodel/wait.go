package tracemodel

import "github.com/twosettle/twosettle/engine/wire"

// Wait is one host wait on a question call, from the WaitNote effects the host reports
// (a host without them has none): created with its deadline, armed, claimed and released
// by clients' claim streams, expired unattended or closed. A new WaitCreated for the same
// call, or any note after a restart, starts a new Wait.
type Wait struct {
	Session, CallID string
	Call            *Call
	Deadline        int64 // from its WaitCreated (0 when the trace shows none)
	Rec             int   // its first note
	Notes           []int // the records of its notes, in order
}

// Note is the WaitNote of record i (zero when record i is none).
func (r *Run) Note(i int) wire.WaitNote {
	n, _ := r.Records[i].Payload.(wire.WaitNote)
	return n
}
