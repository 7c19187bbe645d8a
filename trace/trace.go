// Package trace is the record format shared by the simulator (which writes traces), the
// oracle (which checks them, from the simulator or from an external host) and the golden
// transcripts (which render them). It depends only on engine/wire, so that neither the
// oracle nor the transcript code needs the simulator.
//
// A trace is a plain slice of records: (seq, virtual time, actor, kind, payload), plus the
// final state of the host and every client. Each payload type has one canonical text form
// (its String method), and Record.String is the record's canonical line.
package trace

import (
	"strconv"
	"strings"

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
	// Sched: a scheduler choice among events due at the same instant.
	Sched
	// Fault: an injected fault.
	Fault
	// Note: a diagnostic the simulator adds (not part of behaviour).
	Note
)

func (k Kind) String() string {
	switch k {
	case In:
		return "in"
	case Out:
		return "out"
	case Sched:
		return "sched"
	case Fault:
		return "fault"
	case Note:
		return "note"
	}
	return "kind(" + strconv.Itoa(int(k)) + ")"
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
func (r Record) String() string {
	var b strings.Builder
	s := strconv.Itoa(r.Seq)
	for i := len(s); i < 4; i++ {
		b.WriteByte('0')
	}
	b.WriteString(s)
	b.WriteString(" t=")
	b.WriteString(strconv.FormatInt(r.Time, 10))
	b.WriteByte(' ')
	b.WriteString(r.Actor)
	if r.Actor != "host" && r.Actor != "net" && r.Actor != "model" && r.Actor != "sim" && r.Actor != "user" {
		b.WriteByte('@')
		b.WriteString(strconv.FormatInt(r.ClientTime, 10))
	}
	b.WriteByte(' ')
	b.WriteString(r.Kind.String())
	b.WriteByte(' ')
	if r.Payload != nil {
		b.WriteString(r.Payload.String())
	}
	return b.String()
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
