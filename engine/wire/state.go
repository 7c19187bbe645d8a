package wire

import (
	"strconv"
	"strings"

	"github.com/twosettle/twosettle/engine/session"
)

// HostState is what a host shows of itself: the durable part (logs, views, inbox) and,
// as a protocol feature, its volatile question machinery (waits, reservations, gateway),
// so the oracle can check for leaks. Slices are sorted as documented on each field.
type HostState struct {
	Sessions     []SessionState     // by Session id
	Waits        []WaitState        // by Session, then call id
	Reservations []ReservationState // by Session, then call id
	Clients      []ConnState        // by client name
	Pending      []PendingEvent     // by event id creation order
}

// SessionState is one Session as the host holds it.
type SessionState struct {
	ID        string
	Parent    string
	Inherited int
	Persisted int
	Log       []session.Event
	Questions QuestionsView
	Inbox     InboxView
	Live      bool   // a live agent instance exists
	Root      bool   // the live agent is a runtime root
	Phase     string // PhaseIdle | PhaseRunning
}

// A Session's phase: its agent is idle (no turn is being driven) or running a turn.
const (
	PhaseIdle    = "idle"
	PhaseRunning = "running"
)

// SessionPhases lists the phases a host state may report.
func SessionPhases() []string { return []string{PhaseIdle, PhaseRunning} }

// WaitState is one live TimedQuestionWait.
type WaitState struct {
	Session  string
	CallID   string
	Deadline int64
	Claims   int
	TimerAt  int64 // -1: no timer armed
}

// ReservationState is one per-Session reply reservation (LATE-6).
type ReservationState struct {
	Session     string
	CallID      string
	MessageID   string
	ClaimedTurn int // -1: not claimed
}

// ConnState is one connected client generation.
type ConnState struct {
	Client  string
	Gen     int
	Streams int
}

// PendingEvent is a waterfall request still pending in the gateway.
type PendingEvent struct {
	EventID    string
	AgentID    string
	Deliveries []string // client names, sorted
}

// Session returns the state of Session id.
func (s HostState) Session(id string) (SessionState, bool) {
	for _, ss := range s.Sessions {
		if ss.ID == id {
			return ss, true
		}
	}
	return SessionState{}, false
}

// ClientState is what a client shows of itself: what its user would see (cards, rows,
// reply nodes) and its local durable store (drafts). It is a plain value.
type ClientState struct {
	Client    string
	Gen       int // 0: never connected
	Connected bool
	Cards     []CardState  // by card key
	Drafts    []DraftState // by card key
	Rows      []RowState   // by Session, then log order
	Nodes     []NodeState  // by Session, then seq
	// Conversation is each Session's conversation as the chat lays it out (turn folding,
	// process groups, reply nodes), by Session, then display order.
	Conversation []ConvEntry
}

// Card wait states (docs/PEER.md §6.2 waitState).
const (
	WaitStateCounting  = "counting"
	WaitStateFocused   = "focused"
	WaitStateEditing   = "editing"
	WaitStateWaiting   = "waiting"
	WaitStateContinued = "continued"
)

// Card channels.
const (
	ChannelWaterfall = "waterfall"
	ChannelRPC       = "rpc"
	ChannelNone      = "none"
)

// CardState is one question card (a PendingQuestion with its panel).
type CardState struct {
	Key       string
	Session   string
	CallID    string // "" for an unkeyed blocking card
	Kind      string // question | plan-review | review
	State     string // open | continued
	WaitState string
	Countdown *Countdown // nil: no timed wait attached
	Channel   string
	Shown     bool // published (not hidden): it can hold the composer seat
	Seat      bool // the card the composer of its Session renders (highest precedence, latest published)
	Focus     bool // the page's focus is inside this card's answer surface
	Closed    bool // always false for a listed card: a removed card leaves the list
	Busy      bool
	Hint      string // the resubmit hint or the last error shown, "" for none
	Index     int    // the current question
	Draft     string // the composer's draft, "{q1=[A] q2=skipped q3=-}" ("-": not answered yet)
	// Questions are the card's questions as the card holds them (header, detail, options,
	// multi-select). They are not in the card's canonical text (the log and the view carry
	// them); expectations and the protocol's state read them.
	Questions []Question
}

// Countdown is a card's local countdown as its header shows it.
type Countdown struct {
	RemainingMs int64
	Running     bool
}

// DraftState is one stored draft: its Session store, its key and its stored JSON.
type DraftState struct {
	Session string
	Key     string
	JSON    string
}

// String is the canonical text: "draft <key> <json>".
func (d DraftState) String() string { return "draft " + d.Key + " " + d.JSON }

// RowState is one ask_user_question tool row.
type RowState struct {
	Session    string
	CallID     string
	Summary    string
	State      string   // ok | stopped | error | running
	Action     string   // "", Answer, View answers
	Transcript []string // the read-only transcript lines
	Expanded   bool     // the row's disclosure is open
}

// NodeState is one late-reply conversation node.
type NodeState struct {
	Session string
	Seq     int
	CallID  string
	Text    string   // the raw text when it could not be read as questions
	Lines   []string // "question: answer" lines
	// MessageID, Time and Outcome are the reply's message id, its event's time and its
	// source's outcome; Questions the questions its text records (with header, detail,
	// options and multi-select, as the bubble shows them when expanded). They are not in
	// the node's canonical text; expectations and the protocol's state read them.
	MessageID string
	Time      int64
	Outcome   string
	Questions []Question
}

func (c Countdown) String() string {
	s := strconv.FormatInt(c.RemainingMs, 10) + "ms"
	if c.Running {
		return s + " running"
	}
	return s + " paused"
}

// String is the canonical text of a card.
func (c CardState) String() string {
	var b strings.Builder
	b.WriteString("card ")
	b.WriteString(c.Key)
	b.WriteString(" kind=" + c.Kind + " state=" + c.State + " wait=" + c.WaitState + " channel=" + c.Channel)
	if c.Countdown != nil {
		b.WriteString(" countdown=" + c.Countdown.String())
	}
	if c.Shown {
		b.WriteString(" shown")
	}
	if c.Seat {
		b.WriteString(" seat")
	}
	if c.Focus {
		b.WriteString(" focus")
	}
	if c.Closed {
		b.WriteString(" closed")
	}
	if c.Busy {
		b.WriteString(" busy")
	}
	if c.Hint != "" {
		b.WriteString(" hint=" + JSONString(c.Hint))
	}
	b.WriteString(" q=" + strconv.Itoa(c.Index))
	if c.Draft != "" {
		b.WriteString(" draft=" + c.Draft)
	}
	return b.String()
}

// String is the canonical text of a row.
func (r RowState) String() string {
	s := "row " + r.Session + "/" + r.CallID + " " + r.State + " " + JSONString(r.Summary)
	if r.Action != "" {
		s += " action=" + JSONString(r.Action)
	}
	if r.Expanded {
		s += " expanded"
	}
	for _, l := range r.Transcript {
		s += " | " + TextPart(l)
	}
	return s
}

// String is the canonical text of a node.
func (n NodeState) String() string {
	s := "node " + n.Session + "#" + strconv.Itoa(n.Seq) + " call=" + n.CallID
	if len(n.Lines) == 0 {
		return s + " raw=" + JSONString(n.Text)
	}
	for _, l := range n.Lines {
		s += " | " + TextPart(l)
	}
	return s
}

// Conversation entry kinds.
const (
	ConvMessage = "message" // an ordinary user message (a turn trigger, a steer, or unscoped context)
	ConvTurn    = "turn"    // a turn's disclosure: it controls the turn's content below it
	ConvGroup   = "group"   // a process group's disclosure: it controls the items below it
	ConvTool    = "tool"    // a tool call (process content)
	ConvReply   = "reply"   // a late-reply node (process content, NODE-4)
)

// ConvEntry is one entry of a Session's conversation as the chat lays it out.
type ConvEntry struct {
	Session string
	Kind    string
	Seq     int    // the event the entry is anchored at (a turn: its turn/start)
	Turn    int    // the turn it belongs to, 0 outside any turn
	Depth   int    // nesting: 0 top level, +1 under a turn disclosure, +1 under a group disclosure
	Ref     string // tool: call id; reply: call id; message: message id; turn: turn number
	Folded  bool   // turn, group: the disclosure is collapsed
	Visible bool   // no folded disclosure above it
}

// String is the canonical text: "conv s1 #4 d2 tool c1 turn=1 [folded] [hidden]".
func (e ConvEntry) String() string {
	s := "conv " + e.Session + " #" + strconv.Itoa(e.Seq) + " d" + strconv.Itoa(e.Depth) + " " + e.Kind
	if e.Ref != "" {
		s += " " + e.Ref
	}
	s += " turn=" + strconv.Itoa(e.Turn)
	if e.Folded {
		s += " folded"
	}
	if !e.Visible {
		s += " hidden"
	}
	return s
}
