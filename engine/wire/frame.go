package wire

import (
	"encoding/json"
	"strconv"
	"strings"

	"github.com/twosettle/twosettle/engine/session"
)

// Event names, endpoints and stream names of the protocol.
const (
	// EventQuestionsRequest is the waterfall event the question service forwards.
	EventQuestionsRequest = "user-questions/request"
	// EndpointAttachWait is the claim stream: args {agentId, callId}; at most one
	// {remainingMs} item, then open until the host closes it.
	EndpointAttachWait = "userQuestions/attachWait"
	// EndpointAnswer is the late-answer RPC: args {agentId, callId, answer:{answers}};
	// value true or false.
	EndpointAnswer = "userQuestions/answer"
	// EndpointDiscard removes a queued message from a Session's inbox (the peer's
	// session.updateQueue remove): args {agentId, messageId}; value true when removed.
	EndpointDiscard = "inbox/discard"
)

// Gateway error codes (docs/PEER-RUNTIME.md §3).
const (
	GatewayInternal         = "gateway/internal"
	GatewayArgumentsInvalid = "gateway/arguments-invalid"
	GatewayNotFound         = "gateway/lookup-not-found"
	GatewayUnknownEndpoint  = "gateway/unknown-endpoint"
)

// Frame is a message the host sends a client over its ordered mux link.
type Frame interface {
	frame()
	String() string
}

// Ready is the first frame of a connection generation.
type Ready struct{ Gen int }

// Waterfall delivers a pending waterfall request under its event id (GW-5).
type Waterfall struct {
	EventID string
	Event   string
	AgentID string
	Request json.RawMessage
}

// Cancel withdraws a delivery: another client won, or the host signal aborted (GW-1, GW-3).
type Cancel struct{ EventID string }

// StreamItem is one item of a logical stream the client opened.
type StreamItem struct {
	StreamID string
	Value    json.RawMessage
}

// StreamEnd completes a logical stream normally.
type StreamEnd struct{ StreamID string }

// StreamError ends a logical stream with an error.
type StreamError struct {
	StreamID string
	Code     string
	Message  string
}

// InboxView is the wire value of a Session's inbox: the two durable lists.
type InboxView struct {
	NextTurn []session.Message `json:"next-turn"`
	NextStep []session.Message `json:"next-step"`
}

// String is the canonical text: "next-step=[m1] next-turn=[]".
func (v InboxView) String() string {
	var b strings.Builder
	list := func(name string, ms []session.Message) {
		b.WriteString(name)
		b.WriteString("=[")
		for i, m := range ms {
			if i > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(m.ID)
			if m.Source.Kind == session.SourceUserQuestionReply {
				b.WriteString("(reply:" + m.Source.CallID + ")")
			}
		}
		b.WriteByte(']')
	}
	list("next-step", v.NextStep)
	b.WriteByte(' ')
	list("next-turn", v.NextTurn)
	return b.String()
}

// SessionUpdate tells a connected client what changed in a Session it can see: the
// appended events since From (Reset: the client must drop its copy and take Events as the
// whole log, as after a host restart or on connect), and the current projection and
// inbox views. A host sends one per Session per command that changed it.
type SessionUpdate struct {
	Session   string
	Reset     bool
	From      int
	Events    []session.Event
	Questions QuestionsView
	Inbox     InboxView
}

func (Ready) frame()         {}
func (Waterfall) frame()     {}
func (Cancel) frame()        {}
func (StreamItem) frame()    {}
func (StreamEnd) frame()     {}
func (StreamError) frame()   {}
func (SessionUpdate) frame() {}

func (f Ready) String() string { return "ready gen=" + strconv.Itoa(f.Gen) }
func (f Waterfall) String() string {
	return "waterfall ev=" + f.EventID + " " + f.Event + " agent=" + f.AgentID + " " + string(f.Request)
}
func (f Cancel) String() string     { return "cancel ev=" + f.EventID }
func (f StreamItem) String() string { return "item stream=" + f.StreamID + " " + string(f.Value) }
func (f StreamEnd) String() string  { return "end stream=" + f.StreamID }
func (f StreamError) String() string {
	return "error stream=" + f.StreamID + " " + f.Code + ": " + JSONString(f.Message)
}
func (f SessionUpdate) String() string {
	var b strings.Builder
	b.WriteString("session ")
	b.WriteString(f.Session)
	if f.Reset {
		b.WriteString(" reset")
	}
	b.WriteString(" events=")
	if len(f.Events) == 0 {
		b.WriteString("none")
	} else {
		b.WriteString(strconv.Itoa(f.Events[0].Seq))
		b.WriteString("..")
		b.WriteString(strconv.Itoa(f.Events[len(f.Events)-1].Seq))
	}
	b.WriteString(" questions{")
	b.WriteString(f.Questions.String())
	b.WriteString("} inbox{")
	b.WriteString(f.Inbox.String())
	b.WriteByte('}')
	return b.String()
}

// Outcome kinds of a waterfall result.
const (
	OutcomeNext     = "next"
	OutcomeResult   = "result"
	OutcomeRejected = "rejected"
)

// Outcome is what a client reports for one delivery over $events/result.
type Outcome struct {
	Kind  string
	Value json.RawMessage // result only; nil means no value
	Error *Error          // rejected only
}

// String is the canonical text: "next", "result {…}", "rejected Name/CODE: msg".
func (o Outcome) String() string {
	switch o.Kind {
	case OutcomeResult:
		if o.Value == nil {
			return "result"
		}
		return "result " + string(o.Value)
	case OutcomeRejected:
		return "rejected " + o.Error.String()
	}
	return o.Kind
}

// RemoteError is the error branch of an RPC envelope.
type RemoteError struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

// Envelope is an RPC reply: {ok:true, value?} or {ok:false, error:{code, message}} (GW-8).
type Envelope struct {
	OK    bool
	Value json.RawMessage
	Error *RemoteError
}

// MarshalJSON writes the peer's envelope shape; the value key is left out when empty.
func (e Envelope) MarshalJSON() ([]byte, error) {
	if e.OK {
		if e.Value == nil {
			return []byte(`{"ok":true}`), nil
		}
		b := append([]byte(`{"ok":true,"value":`), e.Value...)
		return append(b, '}'), nil
	}
	b := []byte(`{"ok":false,"error":{"code":`)
	code, msg := "", ""
	if e.Error != nil {
		code, msg = e.Error.Code, e.Error.Message
	}
	b = AppendJSONString(b, code)
	b = append(b, `,"message":`...)
	b = AppendJSONString(b, msg)
	return append(b, "}}"...), nil
}

// String is the canonical text of an envelope: its JSON.
func (e Envelope) String() string {
	b, _ := e.MarshalJSON()
	return string(b)
}

// OKValue returns a success envelope carrying raw JSON.
func OKValue(v json.RawMessage) Envelope { return Envelope{OK: true, Value: v} }

// Failure returns an error envelope.
func Failure(code, message string) Envelope {
	return Envelope{Error: &RemoteError{Code: code, Message: message}}
}
