package wire

import (
	"encoding/json"
	"strconv"
)

// ClientInput is what a client (one answer UI and its user) receives (ClientPort.Apply).
type ClientInput interface {
	clientInput()
	String() string
}

// FromHost delivers a frame from the client's mux link.
type FromHost struct{ Frame Frame }

// FromHTTP delivers the reply to one of the client's HTTP requests.
type FromHTTP struct {
	RPCID    string
	Envelope Envelope
}

// LinkDown reports that the client's mux link is gone: its event generation ends and every
// stream it had open fails (GW-7). The client asks for a new link with Dial.
type LinkDown struct{}

// User is an action of the client's user.
type User struct{ Action UserAction }

// Reload reloads the client (a browser reload): the draft store survives, everything
// else is lost, and the client dials again (DRAFT-1).
type Reload struct{}

// ClientTick only advances the client's clock.
type ClientTick struct{}

func (FromHost) clientInput()   {}
func (FromHTTP) clientInput()   {}
func (LinkDown) clientInput()   {}
func (User) clientInput()       {}
func (Reload) clientInput()     {}
func (ClientTick) clientInput() {}

func (i FromHost) String() string { return "frame " + i.Frame.String() }
func (i FromHTTP) String() string { return "http rpc=" + i.RPCID + " " + i.Envelope.String() }
func (LinkDown) String() string   { return "link-down" }
func (i User) String() string     { return "user " + i.Action.String() }
func (Reload) String() string     { return "reload" }
func (ClientTick) String() string { return "tick" }

// User action kinds.
const (
	ActFocus       = "focus"        // focus moves into the card's answer surface
	ActBlur        = "blur"         // focus leaves it
	ActType        = "type"         // type Text as the custom answer of Question
	ActChoose      = "choose"       // click option Label of Question
	ActSkip        = "skip"         // skip the current question
	ActNext        = "next"         // pager: next question (navigation, not an edit)
	ActPrev        = "prev"         // pager: previous question
	ActTakeTime    = "take-time"    // Take time
	ActSubmit      = "submit"       // submit the batch
	ActHide        = "hide"         // close the panel of a keyed card (hide only)
	ActClose       = "close"        // the close/cancel button: hide (keyed) or ASK_CANCELLED (unkeyed)
	ActReopen      = "reopen"       // the tool row's action (Answer / View answers)
	ActDiscard     = "discard"      // discard the queued reply for Card from the inbox
	ActWindowBlur  = "window-blur"  // the window loses focus (releases a focus pause)
	ActWindowFocus = "window-focus" // the window regains focus
	ActDelegate    = "delegate"     // the UI hands Card's forwarded request on: claim released, then next (CLAIM-4)
	ActTeardown    = "teardown"     // the questions UI plugin is torn down: every waterfall delegated, every card removed (CARD-12)
	// ActContinue is the guarded Continue: the primary button, or Enter in the text field.
	// It refuses while the current question is unanswered (the UI's message, docs/PEER.md §6.6),
	// advances when it is not the last question, and submits on the last.
	ActContinue = "continue"
	// ActToggleRow is the tool row's own expand/collapse toggle for Card's call (the row
	// disclosure, not its Answer / View answers pill).
	ActToggleRow = "toggle-row"
	// ActUnbind and ActBind take Session out of the client's view and back (docs/PEER.md §6.5:
	// Sessions that lose their binding stop being followed). An unbound Session's
	// projection no longer creates or sweeps cards; binding it reconciles it at once.
	ActUnbind = "unbind"
	ActBind   = "bind"
)

// UserAction is one action of a client's user. Session may be left empty when the client
// sees one Session. Card names a card by its call id ("" is the card in the composer seat;
// "#N" is the N-th unkeyed card in creation order, from 1). Question is a question id ("" is
// the card's current question).
type UserAction struct {
	Kind     string
	Session  string
	Card     string
	Question string
	Label    string
	Text     string
}

// String is the canonical text: "kind card=… q=… label=… text=…" (empty fields left out).
func (a UserAction) String() string {
	s := a.Kind
	if a.Session != "" {
		s += " session=" + a.Session
	}
	if a.Card != "" {
		s += " card=" + a.Card
	}
	if a.Question != "" {
		s += " q=" + a.Question
	}
	if a.Label != "" {
		s += " label=" + JSONString(a.Label)
	}
	if a.Text != "" {
		s += " text=" + JSONString(a.Text)
	}
	return s
}

// ClientEffect is what a client emits.
type ClientEffect interface {
	clientEffect()
	String() string
}

// Dial asks the network for a new mux connection (the host will answer with Ready).
type Dial struct{}

// SendResult posts $events/result for a delivery of generation Gen (HTTP).
type SendResult struct {
	Gen     int
	RPCID   string
	EventID string
	Outcome Outcome
}

// OpenStream opens a logical stream on the mux link of generation Gen.
type OpenStream struct {
	Gen      int
	StreamID string
	Endpoint string
	Args     json.RawMessage
}

// CancelStream cancels a logical stream (a claim release).
type CancelStream struct {
	Gen      int
	StreamID string
}

// SendCall is a unary RPC over HTTP.
type SendCall struct {
	Gen      int
	RPCID    string
	Endpoint string
	Args     json.RawMessage
}

func (Dial) clientEffect()         {}
func (SendResult) clientEffect()   {}
func (OpenStream) clientEffect()   {}
func (CancelStream) clientEffect() {}
func (SendCall) clientEffect()     {}

func (Dial) String() string { return "dial" }
func (e SendResult) String() string {
	return "result gen=" + strconv.Itoa(e.Gen) + " rpc=" + e.RPCID + " ev=" + e.EventID + " " + e.Outcome.String()
}
func (e OpenStream) String() string {
	return "open gen=" + strconv.Itoa(e.Gen) + " stream=" + e.StreamID + " " + e.Endpoint + " " + string(e.Args)
}
func (e CancelStream) String() string {
	return "cancel gen=" + strconv.Itoa(e.Gen) + " stream=" + e.StreamID
}
func (e SendCall) String() string {
	return "call gen=" + strconv.Itoa(e.Gen) + " rpc=" + e.RPCID + " " + e.Endpoint + " " + string(e.Args)
}
