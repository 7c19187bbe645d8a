package trace

import (
	"strconv"

	"github.com/twosettle/twosettle/engine/wire"
)

// Kind classifies a record.
type Kind uint8

// Record kinds.
const (
	// In: an input delivered to Actor (a wire.Command to the host, a wire.ClientInput to a
	// client).
	In Kind = iota + 1
	// Out: an effect Actor emitted (a wire.Effect from the host, a wire.ClientEffect from a
	// client).
	Out
	// Sched: a scheduler choice among events due at the same instant (payload Choice).
	Sched
	// Fault: an injected fault (payload Injected).
	Fault
	// Note: a diagnostic the simulator adds (payload Text), such as the model actor's
	// automatic step end.
	Note
	// Drop: a message the network lost or discarded (payload Dropped).
	Drop
	// Reject: an input the actor refused: its Apply returned an error (payload Rejected).
	Reject
	// Probe: a snapshot of every actor's state (payload Snapshot).
	Probe
)

var kindNames = [...]string{In: "in", Out: "out", Sched: "sched", Fault: "fault", Note: "note", Drop: "drop", Reject: "reject", Probe: "probe"}

func (k Kind) String() string {
	if int(k) < len(kindNames) && kindNames[k] != "" {
		return kindNames[k]
	}
	return "kind(" + strconv.Itoa(int(k)) + ")"
}

// Reserved actor names; every other actor is a client.
const (
	ActorHost  = "host"
	ActorNet   = "net"
	ActorModel = "model"
	ActorSim   = "sim"
	ActorUser  = "user" // reserved, unused: a user's actions are recorded on its client
)

// IsClient reports whether actor names a client (not a reserved actor).
func IsClient(actor string) bool {
	switch actor {
	case ActorHost, ActorNet, ActorModel, ActorSim, ActorUser:
		return false
	}
	return true
}

// Payload is anything with a canonical text form.
type Payload interface{ String() string }

// Record is one line of a trace. Time is the simulator's (host) virtual time; for client
// records ClientTime is the client's own clock reading at that moment.
type Record struct {
	Seq        int
	Time       int64
	Actor      string // "host", a client name, "net", "model", "sim"
	Kind       Kind
	ClientTime int64
	Payload    Payload
}

// String is the canonical line of a record:
//
//	"0042 t=5000 host in tool-call s1 call=c1 ask_user_question {…}"
//
// Client records add the client's clock: "0043 t=5000 c1@5120 out open …".
func (r Record) String() string { return string(r.AppendTo(make([]byte, 0, 96))) }

// AppendTo appends the canonical line of the record (no newline) to b.
func (r Record) AppendTo(b []byte) []byte {
	switch {
	case r.Seq >= 0 && r.Seq < 10:
		b = append(b, "000"...)
	case r.Seq >= 0 && r.Seq < 100:
		b = append(b, "00"...)
	case r.Seq >= 0 && r.Seq < 1000:
		b = append(b, '0')
	}
	b = strconv.AppendInt(b, int64(r.Seq), 10)
	b = append(b, " t="...)
	b = strconv.AppendInt(b, r.Time, 10)
	b = append(b, ' ')
	b = append(b, r.Actor...)
	if IsClient(r.Actor) {
		b = append(b, '@')
		b = strconv.AppendInt(b, r.ClientTime, 10)
	}
	b = append(b, ' ')
	b = append(b, r.Kind.String()...)
	b = append(b, ' ')
	if r.Payload != nil {
		b = append(b, r.Payload.String()...)
	}
	return b
}

// Final is the state at the end of a run.
type Final struct {
	Time    int64
	Host    wire.HostState
	Clients []wire.ClientState // by client name
}

// Trace is a whole run.
type Trace struct {
	Seed    uint64
	Records []Record
	Final   Final
}

// Text renders every record, one canonical line each, newline-terminated.
func (t *Trace) Text() string {
	var b []byte
	for _, r := range t.Records {
		b = r.AppendTo(b)
		b = append(b, '\n')
	}
	return string(b)
}
