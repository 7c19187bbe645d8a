// Package trace is the record format shared by the simulator (which writes traces), the
// oracle (which checks them, from the simulator or from an external host) and the golden
// transcripts (which render them). It depends only on engine/wire (and engine/session
// through it), so that neither the oracle nor the transcript code needs the simulator.
//
// A trace is a plain slice of records: (seq, virtual time, actor, kind, payload), plus the
// final state of the host and every client. Each payload type has one canonical text form
// (its String method), and Record.String is the record's canonical line:
//
//	SEQ t=TIME ACTOR[@CLIENTTIME] KIND PAYLOAD
//
// SEQ is the record's index in Records, zero-padded to at least four digits. TIME is the
// simulator's (the host's) virtual time in ms. ACTOR is "host", a client name (followed by
// "@" and that client's own clock reading), "net", "model" or "sim". KIND and PAYLOAD:
//
//	in     host: a wire.Command delivered to the host; client: a wire.ClientInput
//	out    host: a wire.Effect the host emitted; client: a wire.ClientEffect
//	sched  sim: a Choice among the events due at the same instant ("pick=2 of=3"); the
//	       next record is the chosen event's
//	fault  sim: an Injected fault ("crash point=before-ptc-dispatch cut=2/5", "arm …",
//	       "partition c1 for=3000 random")
//	drop   net: a Dropped message the network lost or discarded, with why
//	reject host or client: a Rejected input (Apply returned an error; state unchanged)
//	probe  sim: a Snapshot of the host and every client under a label
//	note   model or sim: a Text diagnostic (the model's automatic actions)
//
// The payload of in/out records is the wire value itself (type-switch on it); the other
// kinds carry the payload types of this package. Rendering is lazy: a simulator stores
// values and formats nothing until String or AppendTo is called.
//
// Contract: String is canonical and stable (golden files are made of it); AppendTo writes
// the same bytes. Final.Lines is the canonical text of the final state. Divergence finds
// the first record (or final line) where two traces differ.
package trace
