package session

import (
	"strconv"
	"strings"
)

// Event type names, as the peer runtime writes them (docs/PEER-RUNTIME.md §5.2).
const (
	TypeRequestHeader    = "request/header"
	TypeTurnStart        = "turn/start"
	TypeTurnEnd          = "turn/end"
	TypeStepStart        = "step/start"
	TypeStepEnd          = "step/end"
	TypeUserMessage      = "user/message"
	TypeInboxSpliced     = "agent/inbox/spliced"
	TypeToolCall         = "tool/call"
	TypeToolResult       = "tool/result"
	TypePTCDispatchStart = "tool/ptc-dispatch-start"
	TypePTCDispatch      = "tool/ptc-dispatch"
)

// Event is one appended Session event. Data is one of the *Data types of this file.
type Event struct {
	Seq  int
	Time int64
	Data Data
}

// Type is the event's type name.
func (e Event) Type() string { return e.Data.Type() }

// String is the canonical text of the event: "#seq t=time <data>".
func (e Event) String() string {
	var b strings.Builder
	b.WriteByte('#')
	b.WriteString(strconv.Itoa(e.Seq))
	b.WriteString(" t=")
	b.WriteString(strconv.FormatInt(e.Time, 10))
	b.WriteByte(' ')
	b.WriteString(e.Data.String())
	return b.String()
}

// Data is the payload of an event. String is its canonical text and starts with Type().
type Data interface {
	Type() string
	String() string
}

// RequestHeader snapshots the model request envelope. Tools is the raw JSON value of the
// header's tools (normally an array of {name, description, parameters}); it is kept raw so
// that a malformed header (a placeholder string, a missing array) can be recorded and
// folded exactly as the peer folds it (PROJ-2).
type RequestHeader struct {
	Reason string // initial | resume | change
	Tools  string
}

func (RequestHeader) Type() string { return TypeRequestHeader }
func (d RequestHeader) String() string {
	return TypeRequestHeader + " reason=" + d.Reason + " tools=" + d.Tools
}

// TurnStart opens a turn.
type TurnStart struct{ Turn int }

func (TurnStart) Type() string     { return TypeTurnStart }
func (d TurnStart) String() string { return TypeTurnStart + " turn=" + strconv.Itoa(d.Turn) }

// TurnEndReason is why a turn ended: completed, blocked, max-tokens, aborted (Detail is the
// abort kind: user, parent, disposed, hook), error (Detail is the message) or interrupted
// (crash repair only).
type TurnEndReason struct {
	Kind   string
	Detail string
}

func (r TurnEndReason) String() string {
	if r.Detail == "" {
		return r.Kind
	}
	return r.Kind + ":" + r.Detail
}

// Turn end reason kinds.
const (
	EndCompleted   = "completed"
	EndBlocked     = "blocked"
	EndAborted     = "aborted"
	EndError       = "error"
	EndInterrupted = "interrupted"
)

// TurnEnd closes a turn.
type TurnEnd struct {
	Turn   int
	Reason TurnEndReason
}

func (TurnEnd) Type() string { return TypeTurnEnd }
func (d TurnEnd) String() string {
	return TypeTurnEnd + " turn=" + strconv.Itoa(d.Turn) + " reason=" + d.Reason.String()
}

// StepStart opens a step.
type StepStart struct{ Turn, Step int }

func (StepStart) Type() string { return TypeStepStart }
func (d StepStart) String() string {
	return TypeStepStart + " turn=" + strconv.Itoa(d.Turn) + " step=" + strconv.Itoa(d.Step)
}

// StepEnd closes a step.
type StepEnd struct{ Turn, Step int }

func (StepEnd) Type() string { return TypeStepEnd }
func (d StepEnd) String() string {
	return TypeStepEnd + " turn=" + strconv.Itoa(d.Turn) + " step=" + strconv.Itoa(d.Step)
}

// Source kinds of a user message.
const (
	SourceUser              = "user"
	SourceUserQuestionReply = "user-question-reply"
	SourceAgentMessage      = "agent-message"
)

// Source is the provenance of a user message (the only provenance channel, docs/PEER-RUNTIME.md §5.2).
// For a late reply: Kind user-question-reply, CallID, Outcome "answered".
type Source struct {
	Kind    string
	CallID  string
	Outcome string
}

// String is the canonical text of a source: "kind" or "kind(call=…,outcome=…)".
func (s Source) String() string {
	if s.CallID == "" && s.Outcome == "" {
		return s.Kind
	}
	return s.Kind + "(call=" + s.CallID + ",outcome=" + s.Outcome + ")"
}

// IsQuestionReply reports whether the source identifies a late reply to a pending question
// (NODE-1: kind user-question-reply, a call id, outcome answered).
func (s Source) IsQuestionReply() bool {
	return s.Kind == SourceUserQuestionReply && s.CallID != "" && s.Outcome == "answered"
}

// Message is a user message: role user, one text block (NoText models no block at all).
type Message struct {
	ID     string
	Source Source
	Text   string
	NoText bool
}

// String is the canonical text of a message: "id source text".
func (m Message) String() string {
	t := strconv.Quote(m.Text)
	if m.NoText {
		t = "(no text)"
	}
	return m.ID + " " + m.Source.String() + " " + t
}

// UserMessage records the admission of a message into a step (AGENT-1).
type UserMessage struct{ Message Message }

func (UserMessage) Type() string     { return TypeUserMessage }
func (d UserMessage) String() string { return TypeUserMessage + " " + d.Message.String() }

// Inbox targets.
const (
	NextTurn = "next-turn"
	NextStep = "next-step"
)

// InboxSpliced is one durable inbox mutation (docs/PEER-RUNTIME.md §4.3). Start is normalised (never
// negative), Removed is the number of messages removed at Start, Inserted is inserted at
// Start after the removal. Outcome is "canceled" for a discard and "" otherwise; a pure
// deletion with no outcome is a claim.
type InboxSpliced struct {
	Target   string
	Start    int
	Removed  int
	Inserted []Message
	Outcome  string
}

// Splice outcomes.
const OutcomeCanceled = "canceled"

// Kind names the splice for people: queued, claimed, discarded or replaced.
func (d InboxSpliced) Kind() string {
	switch {
	case d.Removed == 0:
		return "queued"
	case d.Outcome == OutcomeCanceled && len(d.Inserted) > 0:
		return "replaced"
	case d.Outcome == OutcomeCanceled:
		return "discarded"
	default:
		return "claimed"
	}
}

func (InboxSpliced) Type() string { return TypeInboxSpliced }
func (d InboxSpliced) String() string {
	var b strings.Builder
	b.WriteString(TypeInboxSpliced)
	b.WriteByte(' ')
	b.WriteString(d.Kind())
	b.WriteByte(' ')
	b.WriteString(d.Target)
	b.WriteString(" start=")
	b.WriteString(strconv.Itoa(d.Start))
	if d.Removed > 0 {
		b.WriteString(" removed=")
		b.WriteString(strconv.Itoa(d.Removed))
	}
	for _, m := range d.Inserted {
		b.WriteString(" +[")
		b.WriteString(m.String())
		b.WriteByte(']')
	}
	return b.String()
}

// ToolCall records that a top-level tool call started, before its body runs. Arguments is
// the raw model string.
type ToolCall struct {
	Turn, Step int
	CallID     string
	Name       string
	Arguments  string
}

func (ToolCall) Type() string { return TypeToolCall }
func (d ToolCall) String() string {
	return TypeToolCall + " turn=" + strconv.Itoa(d.Turn) + " step=" + strconv.Itoa(d.Step) +
		" call=" + d.CallID + " name=" + d.Name + " args=" + d.Arguments
}

// ErrorInfo is the {name, code} a failed tool result keeps (TOOL-9).
type ErrorInfo struct {
	Name string
	Code string
}

// Set reports whether the error info is present.
func (e ErrorInfo) Set() bool { return e.Name != "" || e.Code != "" }

// String is "name/code".
func (e ErrorInfo) String() string { return e.Name + "/" + e.Code }

// Error names and codes the runtime itself produces.
const (
	ToolOutcomeUnknownName = "ToolOutcomeUnknownError"
	ToolOutcomeUnknown     = "TOOL_OUTCOME_UNKNOWN"
	UserQuestionErrorName  = "UserQuestionError"
)

// ToolResult records the result of a top-level tool call. Text is its text block (NoText:
// no block). Reasoning, when set, is a reasoning block beside it: the result then has several
// content blocks, and the question projection and the tool row read its text block (as the
// peer's projection reads the first text block; its row would take the generic row, which the
// engine does not: docs/PEER.md §8.21). IsError and Err mirror the peer's isError flag and
// error {name, code}.
type ToolResult struct {
	Turn, Step int
	CallID     string
	IsError    bool
	Err        ErrorInfo
	Text       string
	NoText     bool
	Reasoning  string
}

func (ToolResult) Type() string { return TypeToolResult }
func (d ToolResult) String() string {
	var b strings.Builder
	b.WriteString(TypeToolResult)
	b.WriteString(" turn=")
	b.WriteString(strconv.Itoa(d.Turn))
	b.WriteString(" step=")
	b.WriteString(strconv.Itoa(d.Step))
	b.WriteString(" call=")
	b.WriteString(d.CallID)
	if d.IsError {
		b.WriteString(" error")
	} else {
		b.WriteString(" ok")
	}
	if d.Err.Set() {
		b.WriteString(" err=")
		b.WriteString(d.Err.String())
	}
	if d.NoText {
		b.WriteString(" (no text)")
	} else {
		b.WriteByte(' ')
		b.WriteString(d.Text)
	}
	if d.Reasoning != "" {
		b.WriteString(" +reasoning=")
		b.WriteString(strconv.Quote(d.Reasoning))
	}
	return b.String()
}

// PTCDispatchStart records that a run_code sub-call started (log only).
type PTCDispatchStart struct {
	Root, Parent, SubCallID string
	Name                    string
	Arguments               string // JSON object
}

func (PTCDispatchStart) Type() string { return TypePTCDispatchStart }
func (d PTCDispatchStart) String() string {
	return TypePTCDispatchStart + " parent=" + d.Parent + " sub=" + d.SubCallID + " name=" + d.Name +
		" args=" + d.Arguments
}

// PTCDispatch records the settled result of a run_code sub-call (log only). It is appended
// after the program already received the value, inside the write window (AGENT-4).
type PTCDispatch struct {
	Root, Parent, SubCallID string
	Name                    string
	Arguments               string // JSON object
	IsError                 bool
	Err                     ErrorInfo
	Text                    string
}

func (PTCDispatch) Type() string { return TypePTCDispatch }
func (d PTCDispatch) String() string {
	s := TypePTCDispatch + " parent=" + d.Parent + " sub=" + d.SubCallID + " name=" + d.Name
	if d.IsError {
		s += " error"
	} else {
		s += " ok"
	}
	if d.Err.Set() {
		s += " err=" + d.Err.String()
	}
	return s + " " + d.Text
}
