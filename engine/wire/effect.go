package wire

import (
	"encoding/json"
	"strconv"

	"github.com/twosettle/twosettle/engine/session"
)

// Effect is what a host emits in answer to a command (HostPort.Apply).
type Effect interface {
	effect()
	String() string
}

// SendFrame puts Frame on the mux link of Client's generation Gen.
type SendFrame struct {
	Client string
	Gen    int
	Frame  Frame
}

// Reply answers Client's HTTP request RPCID (a Call, or an EventResult that failed).
type Reply struct {
	Client   string
	Gen      int
	RPCID    string
	Envelope Envelope
}

// Appended reports an event appended (in memory) to Session's log.
type Appended struct {
	Session string
	Event   session.Event
}

// Persisted reports that Session's first Through events are durable.
type Persisted struct {
	Session string
	Through int
}

// Wait kinds reported by WaitNote.
const (
	WaitCreated  = "created"  // Deadline set
	WaitArmed    = "armed"    // host timer armed to fire at At
	WaitClaimed  = "claimed"  // a claim registered; Remaining is the frame it yields
	WaitReleased = "released" // a claim left; Claims is what remains
	WaitExpired  = "expired"  // unattended expiry: ASK_TIMED_OUT on the private signal
	WaitClosed   = "closed"   // closed with Reason (completion, parent abort, unload)
)

// WaitNote is the host's report of its foreground wait machinery (TimedQuestionWait): the
// oracle uses it to check WAIT rules directly. It is a protocol feature: a host that does
// not report waits leaves those invariants to what frames and results show.
type WaitNote struct {
	Session   string
	CallID    string
	Kind      string
	Deadline  int64
	At        int64
	Remaining int64
	Claims    int
	Reason    string
}

// DirectResult answers a Direct command: Value (an answer batch, {pending,callId}, or a
// JSON boolean for answer) or Err.
type DirectResult struct {
	ID    string
	Value json.RawMessage
	Err   *Error
}

func (SendFrame) effect()    {}
func (Reply) effect()        {}
func (Appended) effect()     {}
func (Persisted) effect()    {}
func (WaitNote) effect()     {}
func (DirectResult) effect() {}

func (e SendFrame) String() string {
	return "send " + e.Client + "." + strconv.Itoa(e.Gen) + " " + e.Frame.String()
}
func (e Reply) String() string {
	return "reply " + e.Client + "." + strconv.Itoa(e.Gen) + " rpc=" + e.RPCID + " " + e.Envelope.String()
}
func (e Appended) String() string { return "append " + e.Session + " " + e.Event.String() }
func (e Persisted) String() string {
	return "persisted " + e.Session + " through=" + strconv.Itoa(e.Through)
}
func (e WaitNote) String() string {
	s := "wait " + e.Session + "/" + e.CallID + " " + e.Kind
	switch e.Kind {
	case WaitCreated:
		s += " deadline=" + strconv.FormatInt(e.Deadline, 10)
	case WaitArmed:
		s += " at=" + strconv.FormatInt(e.At, 10)
	case WaitClaimed:
		s += " remaining=" + strconv.FormatInt(e.Remaining, 10) + " claims=" + strconv.Itoa(e.Claims)
	case WaitReleased:
		s += " claims=" + strconv.Itoa(e.Claims)
	case WaitClosed:
		s += " reason=" + e.Reason
	}
	return s
}
func (e DirectResult) String() string {
	if e.Err != nil {
		return "direct-result " + e.ID + " " + e.Err.String()
	}
	return "direct-result " + e.ID + " " + string(e.Value)
}
