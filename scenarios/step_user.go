package scenarios

import (
	"encoding/json"

	"go.yaml.in/yaml/v3"

	"github.com/twosettle/twosettle/engine/session"
	"github.com/twosettle/twosettle/engine/wire"
)

// ActorUser names the user step kind; the step's key is the client's name.
const ActorUser = "user"

// userStep is what a client's user (or its browser) does; the step's key is the
// client's name (harness/step_user.go compiles it).
var userStep = &stepKind{
	name:     ActorUser,
	byClient: true,
	defs:     userObjects,
	words:    append(append([]string(nil), userCardVerbs...), userWords...),
	verbs:    userObjects,
	choice:   "What a client's user (or browser) does.",
	is:       func(st *Step) bool { return st.User != nil },
	decode: func(d *dec, st *Step, client string, n *yaml.Node) bool {
		u, ok := d.user(n)
		st.Client, st.User = client, u
		return ok
	},
	validate: func(v *validator, st *Step) {
		v.client(st.Pos, st.Client)
		v.user(st.Pos, st.User)
		if st.User.Kind == UserInput {
			if u, ok := inputUpdate(st.User.Input); ok && u.Session != "" {
				v.sessions[u.Session] = true
			}
		}
	},
	encode: func(st *Step) *yaml.Node { return userNode(st.User) },
	refusable: func(st *Step) bool {
		switch st.User.Kind {
		case UserReload, UserCrash, UserClock, UserDrift:
			return false
		}
		return true
	},
	calls: func(st *Step, _ string, add func(string)) {
		if st.User.Kind != UserInput {
			return
		}
		if u, ok := inputUpdate(st.User.Input); ok {
			for _, e := range u.Events {
				if c, ok := e.Data.(session.ToolCall); ok && c.CallID != "" {
					add(c.CallID)
				}
			}
		}
		if id := inputWaitCall(st.User.Input); id != "" {
			add(id)
		}
	},
}

// User action kinds: the wire.Act* kinds, plus what happens to the client as a whole.
const (
	UserFocus       = "focus"
	UserBlur        = "blur"
	UserType        = "type"
	UserChoose      = "choose"
	UserSkip        = "skip"
	UserNext        = "next"
	UserPrev        = "prev"
	UserTakeTime    = "take-time"
	UserSubmit      = "submit"
	UserHide        = "hide"
	UserClose       = "close"
	UserReopen      = "reopen"
	UserDiscard     = "discard"
	UserWindowBlur  = "window-blur"
	UserWindowFocus = "window-focus"
	UserDelegate    = "delegate"   // the UI hands the card's request on (CLAIM-4)
	UserTeardown    = "teardown"   // the questions UI plugin is torn down (CARD-12)
	UserContinue    = "continue"   // the guarded Continue: the primary button or Enter
	UserToggleRow   = "toggle-row" // the tool row's own expand/collapse toggle
	UserUnbind      = "unbind"     // the step's Session leaves the client's view (not followed)
	UserBind        = "bind"       // the step's Session is bound again (reconciled at once)
	UserReload      = "reload"     // the page reloads: drafts survive, the rest is lost
	UserCrash       = "crash"      // the client is gone for good
	UserClock       = "clock"      // the client's clock jumps by By
	UserDrift       = "drift"      // the client's clock drift becomes PPM
	// UserInput delivers Input, the JSON of a client input (docs/PROTOCOL.md "Clients"),
	// to the client as it is: a frame or a reply as a real host may send it.
	UserInput = "input"
)

// UserAction is one action of a client's user (or of its browser).
type UserAction struct {
	Kind string
	// Card names the card by call id ("" the card in the composer seat; "#N" the N-th
	// unkeyed card); Question a question id ("" the current one).
	Card     string
	Question string
	// Label is what choose clicks; Text what type types.
	Label string
	Text  string
	// By is a clock jump; PPM a new drift.
	By  Duration
	PPM int64
	// Input is the raw client input of an input step.
	Input string
}

// User actions: a plain word, or one verb key with its modifiers.
var (
	// userCardVerbs take the card (a call id, "#N", or nothing for the card in the composer seat).
	userCardVerbs = []string{UserFocus, UserBlur, UserSkip, UserNext, UserPrev, UserTakeTime, UserSubmit, UserHide, UserClose, UserReopen, UserDiscard, UserDelegate, UserContinue, UserToggleRow}
	// userWords are written as a plain word only.
	userWords       = []string{UserWindowBlur, UserWindowFocus, UserTeardown, UserReload, UserCrash, UserUnbind, UserBind}
	userCardObjects = func() []*object {
		var out []*object
		for _, v := range userCardVerbs {
			keys := []key{{v, "card", true, "The card: a call id, #N for the N-th card with no call id, or ~ for the card in the composer seat."}}
			if v == UserSkip {
				keys = append(keys, key{"q", "text", false, "The question (default: the current one)."})
			}
			out = append(out, &object{Name: "user-" + v, Doc: userDocs[v], Keys: keys})
		}
		return out
	}()
	userChooseObject = &object{Name: "user-choose", Doc: "Click an option.", Keys: []key{
		{"choose", "text", true, "The option's label."},
		{"q", "text", false, "The question (default: the current one)."},
		{"card", "ident", false, "The card (default: the one in the composer seat)."},
	}}
	userTypeObject = &object{Name: "user-type", Doc: "Type a custom answer.", Keys: []key{
		{"type", "text", true, "The text."},
		{"q", "text", false, "The question (default: the current one)."},
		{"card", "ident", false, "The card (default: the one in the composer seat)."},
	}}
	userClockObject = &object{Name: "user-clock", Doc: "The client's clock jumps.", Keys: []key{
		{"clock", "signed-duration", true, "By how much, e.g. +30s or -5s."},
	}}
	userDriftObject = &object{Name: "user-drift", Doc: "The client's clock drift changes from now on.", Keys: []key{
		{"drift", "ppm", true, "The new drift, e.g. 20000ppm."},
	}}
	userInputObject = &object{Name: "user-input", Doc: "A client input delivered as it is (a frame or a reply as a real host may send it).", Keys: []key{
		{"input", "raw", true, "The client input's JSON (docs/PROTOCOL.md, Clients), e.g. '{\"kind\":\"from-host\",\"frame\":{…}}'."},
	}}
	userObjects = append(append([]*object(nil), userCardObjects...), userChooseObject, userTypeObject, userClockObject, userDriftObject, userInputObject)
)

var userDocs = map[string]string{
	UserFocus:     "Focus moves into the card's answer surface.",
	UserBlur:      "Focus leaves it.",
	UserSkip:      "Skip the current question.",
	UserNext:      "Pager: the next question (navigation, not an edit).",
	UserPrev:      "Pager: the previous question.",
	UserTakeTime:  "Take time: freeze this client's countdown for good.",
	UserSubmit:    "Submit the batch.",
	UserHide:      "Hide the panel of a keyed card.",
	UserClose:     "The close button: hide (keyed card) or cancel with ASK_CANCELLED (unkeyed card).",
	UserReopen:    "The tool row's action (Answer / View answers).",
	UserDiscard:   "Discard the queued reply of the card from the inbox.",
	UserDelegate:  "The UI hands the card's forwarded request on: its claim is released, then next().",
	UserContinue:  "The guarded Continue (the primary button, or Enter in the text field): refused while the current question is unanswered, next question otherwise, submit on the last.",
	UserToggleRow: "The tool row's own expand/collapse toggle (its disclosure, not the Answer / View answers pill); name the call.",
}

func (d *dec) user(n *yaml.Node) (*UserAction, bool) {
	if n.Kind == yaml.ScalarNode {
		w, ok := d.word(n, "user action", append(append([]string(nil), userCardVerbs...), userWords...))
		if !ok {
			return nil, false
		}
		return &UserAction{Kind: w}, true
	}
	o, ok := d.verb(n, userObjects, "the user action")
	if !ok {
		return nil, false
	}
	f, ok := d.fields(n, o, "the user's "+verbOf(o))
	if f == nil {
		return nil, false
	}
	u := &UserAction{Kind: verbOf(o)}
	var k bool
	switch o {
	case userChooseObject:
		u.Label, k = d.text(f["choose"], "choose")
		ok = ok && k
	case userTypeObject:
		u.Text, k = d.text(f["type"], "type")
		ok = ok && k
	case userClockObject:
		u.By, k = d.duration(f["clock"], "clock", true)
		ok = ok && k
	case userDriftObject:
		u.PPM, k = d.ppm(f["drift"], "drift")
		ok = ok && k
	case userInputObject:
		u.Input, k = d.clientInput(f["input"])
		ok = ok && k
	default:
		if v := f[u.Kind]; !isNull(v) {
			u.Card, k = d.ident(v, "the card")
			ok = ok && k
		}
	}
	if v := f["card"]; v != nil {
		u.Card, k = d.ident(v, "card")
		ok = ok && k
	}
	if v := f["q"]; v != nil {
		u.Question, k = d.text(v, "q")
		ok = ok && k
	}
	return u, ok
}

// clientInput reads an input step's raw client input and checks it with the protocol's
// codec, so a bad one is reported at its file:line:col.
func (d *dec) clientInput(n *yaml.Node) (string, bool) {
	s, ok := d.raw(n, "input")
	if !ok {
		return "", false
	}
	if _, err := wire.DecodeClientInput([]byte(s)); err != nil {
		d.fail(n, "write a client input of docs/PROTOCOL.md (Clients), e.g. '{\"kind\":\"tick\"}'", "input is not a client input: %v", err)
		return "", false
	}
	return s, true
}

func (v *validator) user(p Pos, u *UserAction) {
	known := false
	for _, w := range append(append([]string{UserChoose, UserType, UserClock, UserDrift, UserInput}, userCardVerbs...), userWords...) {
		known = known || w == u.Kind
	}
	if !known {
		v.fail(p, "", "unknown user action %q", u.Kind)
		return
	}
	v.card(p, u.Card)
	switch u.Kind {
	case UserChoose:
		if u.Label == "" {
			v.fail(p, "write the option's label", "choose needs a label")
		}
	case UserClock:
		if u.By == 0 {
			v.fail(p, "write a jump like +30s", "a clock jump of 0 does nothing")
		}
	case UserInput:
		if _, err := wire.DecodeClientInput([]byte(u.Input)); err != nil {
			v.fail(p, "write a client input of docs/PROTOCOL.md (Clients)", "input is not a client input: %v", err)
		}
		if u.Card != "" {
			v.fail(p, "", "input is not about a card")
		}
	case UserWindowBlur, UserWindowFocus, UserTeardown, UserReload, UserCrash, UserUnbind, UserBind:
		if u.Card != "" || u.Question != "" {
			v.fail(p, "write it as a plain word", "%s is not about a card", u.Kind)
		}
	}
	if u.Question != "" && u.Kind != UserChoose && u.Kind != UserType && u.Kind != UserSkip {
		v.fail(p, "q: goes with choose, type and skip", "q: does not go with %s", u.Kind)
	}
	if u.By != 0 && u.Kind != UserClock || u.PPM != 0 && u.Kind != UserDrift || u.Label != "" && u.Kind != UserChoose || u.Text != "" && u.Kind != UserType || u.Input != "" && u.Kind != UserInput {
		v.fail(p, "", "a field that does not go with %s", u.Kind)
	}
}

// inputWaitCall is the call id of the wait a waterfall an input step delivers names, if
// any: its card is named by that call id.
func inputWaitCall(raw string) string {
	in, err := wire.DecodeClientInput([]byte(raw))
	if err != nil {
		return ""
	}
	fh, ok := in.(wire.FromHost)
	if !ok {
		return ""
	}
	w, ok := fh.Frame.(wire.Waterfall)
	if !ok {
		return ""
	}
	var req struct {
		Wait struct {
			CallID string `json:"callId"`
		} `json:"wait"`
	}
	if json.Unmarshal(w.Request, &req) != nil {
		return ""
	}
	return req.Wait.CallID
}

// inputUpdate is the Session update an input step delivers, if it delivers one: its
// Session and tool calls are known to the scenario from that step on (a client may be
// shown a Session the host never opened, as a real host may send it).
func inputUpdate(raw string) (wire.SessionUpdate, bool) {
	in, err := wire.DecodeClientInput([]byte(raw))
	if err != nil {
		return wire.SessionUpdate{}, false
	}
	fh, ok := in.(wire.FromHost)
	if !ok {
		return wire.SessionUpdate{}, false
	}
	u, ok := fh.Frame.(wire.SessionUpdate)
	return u, ok
}

func userNode(u *UserAction) *yaml.Node {
	switch u.Kind {
	case UserChoose, UserType:
		v := u.Label
		if u.Kind == UserType {
			v = u.Text
		}
		m := flow().add(u.Kind, str(v))
		if u.Question != "" {
			m.add("q", str(u.Question))
		}
		if u.Card != "" {
			m.add("card", str(u.Card))
		}
		return m.n
	case UserClock:
		return flow().add("clock", word(u.By.Signed())).n
	case UserDrift:
		return flow().add("drift", word(FormatPPM(u.PPM))).n
	case UserInput:
		return flow().add("input", str(u.Input)).n
	}
	if u.Card == "" && u.Question == "" {
		return word(u.Kind)
	}
	m := flow()
	if u.Card == "" {
		m.add(u.Kind, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!null", Value: "~"})
	} else {
		m.add(u.Kind, str(u.Card))
	}
	if u.Question != "" {
		m.add("q", str(u.Question))
	}
	return m.n
}
