package wire

import (
	"encoding/json"
	"strconv"

	"github.com/twosettle/twosettle/engine/session"
)

// Command is what the harness can do to a host (HostPort.Apply). Commands from the model
// actor drive a Session's agent; commands from clients are what a client's network link
// delivers; the rest are the harness's own (time, restart, direct service calls).
type Command interface {
	command()
	String() string
}

// OpenSession creates Session and enters a live agent for it: a runtime root, or a child
// owned by the live agent of Owner (DELEGATED_CALLER, CALLER-2). With ForkOf set, the new
// Session's log starts with ForkOf's events through seq ForkThrough (PROJ-11).
type OpenSession struct {
	Session     string
	Owner       string
	ForkOf      string
	ForkThrough int
}

// CloseSession disposes the Session's live agent (its instance becomes stale) while the
// durable log stays; a later remote call resumes a new root instance (GW-8, LATE-8).
type CloseSession struct{ Session string }

// Send queues a user message in the Session's inbox (Target next-turn: a prompt; next-step:
// a steer, AGENT-1) and wakes the agent. The source kind is "user" unless Source is set.
type Send struct {
	Session string
	Target  string
	Text    string
	// Source, when its Kind is set, is recorded on the message as it is: input from
	// another producer or from history (a user-question-reply written by an older host or
	// another tool, whose text need not be what answer() writes: NODE-2, PROJ-8). The zero
	// value is the user's own message (kind user).
	Source session.Source
}

// Header has the model request a header: the host appends request/header with its
// registered tool schemas, or with Tools (raw JSON) when set.
type Header struct {
	Session string
	Tools   string
}

// ToolCall has the model call a tool in the Session's open step. Args is the raw model
// argument string. The reference host knows ask_user_question, run_code (args
// {"calls":[{"name":…,"arguments":{…}}]}, sub-calls run in order), sleep ({"ms":N}, a
// tool that takes virtual time) and treats any other name as an instant tool.
type ToolCall struct {
	Session string
	CallID  string
	Name    string
	Args    string
}

// EndStep says the model finished its output for the open step. Final: the model ended
// the turn (the turn closes after this step unless a steer waits in next-step).
type EndStep struct {
	Session string
	Final   bool
}

// CancelTurn aborts the Session's running turn (reason user). Unless KeepInbox, the inbox
// is cleared first, each removal a discard.
type CancelTurn struct {
	Session   string
	KeepInbox bool
}

// Direct calls the question service itself, not through the model tool: the conformance
// surface for the service contract (ASK, CALLER, LATE). Op is ask, askTimed or answer;
// Agent selects the caller: live (the Session's live instance), stale (an instance with
// the same id that is not the live one), none (no agent). Body is the op's JSON:
//   - ask:      {"questions":[…], "wait"?:{…}, "aborted"?:bool}
//   - askTimed: {"questions":[…], "callId":…, "timeoutMs":N, "aborted"?:bool}
//   - answer:   {"callId":…, "answer":{"answers":[…]}}
//
// The result comes back as a DirectResult effect with the same ID, now or later.
type Direct struct {
	ID      string
	Op      string
	Session string
	Agent   string
	Body    json.RawMessage
}

// Direct ops and agent selectors.
const (
	OpAsk      = "ask"
	OpAskTimed = "askTimed"
	OpAnswer   = "answer"

	AgentLive  = "live"
	AgentStale = "stale"
	AgentNone  = "none"
)

// Connect opens a new connection generation for Client; the host answers with Ready and
// replays every pending waterfall (GW-5).
type Connect struct{ Client string }

// Disconnect drops Client's connection: its deliveries and streams end (GW-6, GW-7).
type Disconnect struct{ Client string }

// EventResult is a client's $events/result for one delivery, made in generation Gen.
type EventResult struct {
	Client  string
	Gen     int
	RPCID   string
	EventID string
	Outcome Outcome
}

// StreamOpen opens a logical stream on Client's mux link (generation Gen).
type StreamOpen struct {
	Client   string
	Gen      int
	StreamID string
	Endpoint string
	Args     json.RawMessage
}

// StreamCancel cancels a logical stream the client opened.
type StreamCancel struct {
	Client   string
	Gen      int
	StreamID string
}

// Call is a unary RPC over Client's HTTP channel; the host replies with a Reply effect.
type Call struct {
	Client   string
	Gen      int
	RPCID    string
	Endpoint string
	Args     json.RawMessage
}

// Tick only advances time: timers due at or before now fire.
type Tick struct{}

// Restart crashes the host and loads it cold (AGENT-2, AGENT-6). Everything volatile is
// lost; each Session keeps its persisted prefix and repairs what was cut off. CutAfter < 0
// crashes between commands; CutAfter = k >= 0 crashes inside the previous Apply, after its
// first k effects: durability is then what the Persisted effects among those k reported.
type Restart struct{ CutAfter int }

// FailInboxWrite is a storage fault of the harness, like Restart: the next write of a
// message into the Session's inbox (a prompt, a steer, a late reply being steered) fails
// as a persistence write error would surface from the log's append. The message is not
// queued, nothing is appended, and whoever queued it gets the error: answer() releases
// its reservation and fails (LATE-5), so the RPC replies with that error and a later
// answer for the call is accepted. The fault is one-shot and volatile (a restart disarms
// it); claims, discards and repairs are not inbox writes it affects. It is a protocol
// feature a host declares: one that cannot inject storage faults refuses the command.
type FailInboxWrite struct{ Session string }

// AppendEvent appends an event to the Session's log by hand, as if the Session's own
// runtime had recorded it: a recorded tool result or PTC dispatch text the tool never
// produced (a malformed one included), a turn end between a reply's claim and its
// admission, noise on another Session. The host appends Event's data at the end of the log
// at the command's time (the appended effect reports its seq and time; Event.Seq and
// Event.Time must be 0) and reports it to everything that observes the log (the questions
// projection, the reservations), but its live runtime state (turns, steps, inbox, running
// calls) does not change. It is a protocol feature a host declares (append-event).
type AppendEvent struct {
	Session string
	Event   session.Event
}

// ClaimReply tells the question service, by hand, that the late reply queued in the
// Session's inbox for CallID was claimed into Turn: the runtime's claimed notification
// (agent/inbox/claimed) without the claim itself, so a scenario can choose the turn and
// what happens between the claim and the admission (a turn end, another answer). The
// inbox keeps the message and the log is unchanged; the service marks the reply's
// reservation claimed in Turn (or makes one for a reply restored from the durable inbox,
// LATE-6). With no such reply queued the command is refused. It is the protocol feature
// append-event (the scripted history of a Session).
type ClaimReply struct {
	Session string
	CallID  string
	Turn    int
}

func (OpenSession) command()    {}
func (CloseSession) command()   {}
func (Send) command()           {}
func (Header) command()         {}
func (ToolCall) command()       {}
func (EndStep) command()        {}
func (CancelTurn) command()     {}
func (Direct) command()         {}
func (Connect) command()        {}
func (Disconnect) command()     {}
func (EventResult) command()    {}
func (StreamOpen) command()     {}
func (StreamCancel) command()   {}
func (Call) command()           {}
func (Tick) command()           {}
func (Restart) command()        {}
func (FailInboxWrite) command() {}
func (AppendEvent) command()    {}
func (ClaimReply) command()     {}

func (c OpenSession) String() string {
	s := "open-session " + c.Session
	if c.Owner != "" {
		s += " owner=" + c.Owner
	}
	if c.ForkOf != "" {
		s += " fork=" + c.ForkOf + "@" + strconv.Itoa(c.ForkThrough)
	}
	return s
}
func (c CloseSession) String() string { return "close-session " + c.Session }
func (c Send) String() string {
	s := "send " + c.Session + " " + c.Target + " " + JSONString(c.Text)
	if c.Source.Kind != "" {
		s += " source=" + c.Source.String()
	}
	return s
}
func (c Header) String() string {
	if c.Tools == "" {
		return "header " + c.Session
	}
	return "header " + c.Session + " tools=" + c.Tools
}
func (c ToolCall) String() string {
	return "tool-call " + c.Session + " call=" + c.CallID + " " + c.Name + " " + c.Args
}
func (c EndStep) String() string {
	if c.Final {
		return "end-step " + c.Session + " final"
	}
	return "end-step " + c.Session
}
func (c CancelTurn) String() string {
	if c.KeepInbox {
		return "cancel-turn " + c.Session + " keep-inbox"
	}
	return "cancel-turn " + c.Session
}
func (c Direct) String() string {
	return "direct " + c.ID + " " + c.Op + " " + c.Session + " agent=" + c.Agent + " " + string(c.Body)
}
func (c Connect) String() string    { return "connect " + c.Client }
func (c Disconnect) String() string { return "disconnect " + c.Client }
func (c EventResult) String() string {
	return "event-result " + c.Client + "." + strconv.Itoa(c.Gen) + " rpc=" + c.RPCID + " ev=" + c.EventID + " " + c.Outcome.String()
}
func (c StreamOpen) String() string {
	return "stream-open " + c.Client + "." + strconv.Itoa(c.Gen) + " stream=" + c.StreamID + " " + c.Endpoint + " " + string(c.Args)
}
func (c StreamCancel) String() string {
	return "stream-cancel " + c.Client + "." + strconv.Itoa(c.Gen) + " stream=" + c.StreamID
}
func (c Call) String() string {
	return "call " + c.Client + "." + strconv.Itoa(c.Gen) + " rpc=" + c.RPCID + " " + c.Endpoint + " " + string(c.Args)
}
func (Tick) String() string             { return "tick" }
func (c FailInboxWrite) String() string { return "fail-inbox-write " + c.Session }
func (c ClaimReply) String() string {
	return "claim-reply " + c.Session + " call=" + c.CallID + " turn=" + strconv.Itoa(c.Turn)
}
func (c AppendEvent) String() string {
	if c.Event.Data == nil {
		return "append-event " + c.Session
	}
	return "append-event " + c.Session + " " + c.Event.Data.String()
}
func (c Restart) String() string {
	if c.CutAfter < 0 {
		return "restart"
	}
	return "restart cut-after=" + strconv.Itoa(c.CutAfter)
}
