package scenarios

import (
	"encoding/json"

	"go.yaml.in/yaml/v3"

	"github.com/twosettle/twosettle/engine/session"
)

// ActorHost is the step key of the host actor.
const ActorHost = "host"

// hostStep is what happens to the host as a whole (harness/step_host.go compiles it).
var hostStep = &stepKind{
	name:        ActorHost,
	key:         key{ActorHost, "#host", false, "What happens to the host: restart, a crash, a Session opened or closed, a storage fault, a stall, an event or a claim written by hand."},
	hinted:      true,
	sessionless: true,
	defs:        hostObjects,
	words:       hostWords,
	verbs:       hostObjects,
	choice:      "What happens to the host.",
	is:          func(st *Step) bool { return st.Host != nil },
	decode: func(d *dec, st *Step, _ string, n *yaml.Node) bool {
		h, ok := d.host(n)
		st.Host = h
		return ok
	},
	validate: func(v *validator, st *Step) { v.host(st.Pos, st.Host) },
	encode:   func(st *Step) *yaml.Node { return hostNode(st.Host) },
	refusable: func(st *Step) bool {
		return st.Host.Kind != HostCrash && st.Host.Kind != HostFailInboxWrite && st.Host.Kind != HostStall
	},
	calls: func(st *Step, _ string, add func(string)) {
		if st.Host.Kind != HostAppend {
			return
		}
		// a call written by hand is a call of the scenario (its card, row, result)
		var c struct{ Type, CallID string }
		if json.Unmarshal([]byte(st.Host.Event), &c) == nil && c.Type == session.TypeToolCall && c.CallID != "" {
			add(c.CallID)
		}
	},
}

// Host action kinds.
const (
	HostRestart = "restart" // an orderly cold restart between commands (AGENT-2)
	HostCrash   = "crash"   // a crash at a named point, then a cold restart (AGENT-6)
	HostOpen    = "open"    // open a Session (a root, a child, or a fork)
	HostClose   = "close"   // dispose a Session's live agent; its log stays
	// HostFailInboxWrite: a storage fault, the Session's next inbox write fails (LATE-5).
	HostFailInboxWrite = "fail-inbox-write"
	// HostAppend: a Session event written by hand (wire.AppendEvent): the log, the
	// projection and the reservations see it; the agent's live state does not change.
	HostAppend = "append"
	// HostClaimReply: the service is told the reply queued for Call was claimed into
	// Turn (wire.ClaimReply), without the claim itself.
	HostClaimReply = "claim-reply"
	// HostStall: the host's timers do not fire for For (its clock jumped past them, or
	// its event loop was blocked): what comes due fires at its next command or when the
	// stall ends. A harness fault like crash.
	HostStall = "stall"
)

// Crash points (see sim.Point*). "now" crashes between commands at the step's time.
var CrashPoints = []string{
	"now", "before-ptc-dispatch", "after-ptc-dispatch", "before-answer-ack",
	"after-answer-ack", "between-claim-admit", "inside-write-window", "after-effect",
}

// HostAction acts on the host as a whole.
type HostAction struct {
	Kind string
	// Point is where a crash lands; Effects how many effects survive at after-effect.
	Point   string
	Effects int
	// Open, Close: the Session; Owner makes it a child; Fork/Through make it a fork.
	Session string
	Owner   string
	Fork    string
	Through int
	// Event is append's event: the JSON object of the protocol's event form
	// (docs/protocol/event.schema.json) without seq and time, which are the host's.
	Event string
	// ClaimReply: the call whose queued reply is claimed, and the turn.
	Call string
	Turn int
	// Stall: how long the host's timers do not fire.
	For Duration
}

// Host actions.
var (
	hostCrashObject = &object{Name: "host-crash", Doc: "Crash the host at a named point, then load it cold.", Keys: []key{
		{"crash", "#crash-point", true, "Where the crash lands."},
		{"effects", "uint", false, "after-effect: how many of the next command's effects survive (wait notes not counted)."},
	}}
	hostOpenObject = &object{Name: "host-open", Doc: "Open a Session: a root, a child (owner) or a fork (fork, through).", Keys: []key{
		{"open", "ident", true, "The new Session."},
		{"owner", "ident", false, "Its owner, making it a child."},
		{"fork", "ident", false, "The Session it forks."},
		{"through", "int", false, "The last inherited seq of the fork (-1: none)."},
	}}
	hostCloseObject = &object{Name: "host-close", Doc: "Dispose the Session's live agent; the log stays and a later call resumes it.", Keys: []key{
		{"close", "ident", true, "The Session."},
	}}
	hostFailInboxWriteObject = &object{Name: "host-fail-inbox-write", Doc: "A storage fault: the Session's next inbox write (a prompt, a steer, a late reply) fails as a persistence write error.", Keys: []key{
		{"fail-inbox-write", "ident", true, "The Session."},
	}}
	hostAppendObject = &object{Name: "host-append", Doc: "A Session event written by hand, as if the Session's runtime had recorded it: the log, the questions projection and the reservations see it; the agent's live state does not change.", Keys: []key{
		{"append", "ident", true, "The Session."},
		{"event", "raw", true, "The event as the protocol's JSON object (docs/protocol/event.schema.json) without seq and time, which are the host's: '{\"type\":\"tool/result\",\"turn\":1,\"step\":1,\"callId\":\"c1\",\"text\":\"{}\"}'."},
	}}
	hostClaimReplyObject = &object{Name: "host-claim-reply", Doc: "The question service is told that the reply queued for a call was claimed into a turn (the runtime's claimed notification, by hand): the inbox keeps the message and the log is unchanged.", Keys: []key{
		{"claim-reply", "ident", true, "The Session."},
		{"call", "ident", true, "The call whose queued late reply is claimed."},
		{"turn", "uint", true, "The turn it is claimed into."},
	}}
	hostStallObject = &object{Name: "host-stall", Doc: "The host's timers do not fire for this long (its clock jumped past them, or its event loop was blocked): what comes due fires at the next command it takes, or when the stall ends.", Keys: []key{
		{"stall", "duration", true, "How long."},
	}}
	hostObjects = []*object{hostCrashObject, hostOpenObject, hostCloseObject, hostFailInboxWriteObject, hostAppendObject, hostClaimReplyObject, hostStallObject}
	hostWords   = []string{HostRestart, HostCrash}
)

func (d *dec) host(n *yaml.Node) (*HostAction, bool) {
	if n.Kind == yaml.ScalarNode {
		w, ok := d.word(n, "host action", hostWords)
		if !ok {
			return nil, false
		}
		h := &HostAction{Kind: w}
		if w == HostCrash {
			h.Point = "now"
		}
		return h, true
	}
	o, ok := d.verb(n, hostObjects, "the host action")
	if !ok {
		return nil, false
	}
	f, ok := d.fields(n, o, "the host's "+verbOf(o))
	if f == nil {
		return nil, false
	}
	h := &HostAction{}
	var k bool
	switch o {
	case hostCrashObject:
		h.Kind = HostCrash
		h.Point, k = d.enum(f["crash"], "crash point", CrashPoints)
		ok = ok && k
		if v := f["effects"]; v != nil {
			var e int64
			e, k = d.uinteger(v, "effects")
			h.Effects = int(e)
			ok = ok && k
		}
	case hostOpenObject:
		h.Kind = HostOpen
		h.Session, k = d.ident(f["open"], "open")
		ok = ok && k
		if v := f["owner"]; v != nil {
			h.Owner, k = d.ident(v, "owner")
			ok = ok && k
		}
		if v := f["fork"]; v != nil {
			h.Fork, k = d.ident(v, "fork")
			ok = ok && k
		}
		h.Through = -1
		if v := f["through"]; v != nil {
			var t int64
			t, k = d.integer(v, "through")
			h.Through = int(t)
			ok = ok && k
		}
	case hostCloseObject:
		h.Kind = HostClose
		h.Session, k = d.ident(f["close"], "close")
		ok = ok && k
	case hostFailInboxWriteObject:
		h.Kind = HostFailInboxWrite
		h.Session, k = d.ident(f[HostFailInboxWrite], HostFailInboxWrite)
		ok = ok && k
	case hostStallObject:
		h.Kind = HostStall
		h.For, k = d.duration(f[HostStall], HostStall, false)
		ok = ok && k
	case hostClaimReplyObject:
		h.Kind = HostClaimReply
		h.Session, k = d.ident(f[HostClaimReply], HostClaimReply)
		ok = ok && k
		if v := f["call"]; v != nil {
			h.Call, k = d.ident(v, "call")
			ok = ok && k
		}
		if v := f["turn"]; v != nil {
			var t int64
			t, k = d.integer(v, "turn")
			h.Turn = int(t)
			ok = ok && k
		}
	case hostAppendObject:
		h.Kind = HostAppend
		h.Session, k = d.ident(f[HostAppend], HostAppend)
		ok = ok && k
		if v := f["event"]; v != nil {
			h.Event, k = d.eventJSON(v)
			ok = ok && k
		}
	}
	return h, ok
}

// eventJSON reads append's event: a raw JSON object with a type and without seq and
// time (the host's). Its fields are checked against the protocol's event form when the
// scenario runs (the codec's rules, at this step's line).
func (d *dec) eventJSON(n *yaml.Node) (string, bool) {
	s, ok := d.rawJSON(n, "event")
	if !ok {
		return "", false
	}
	var o map[string]json.RawMessage
	if json.Unmarshal([]byte(s), &o) != nil {
		d.fail(n, `write one JSON object: '{"type":"turn/end","turn":1,"reason":{"kind":"completed"}}'`, "event must be a JSON object")
		return "", false
	}
	if _, ok := o["type"]; !ok {
		d.fail(n, "name the event type: \"type\":\"tool/result\"", "event has no type")
		return "", false
	}
	for _, k := range []string{"seq", "time"} {
		if _, ok := o[k]; ok {
			d.fail(n, "leave "+k+" out: the host appends the event at the end of the log at the step's time", "event gives %s, which is the host's", k)
			return "", false
		}
	}
	return s, true
}

func (v *validator) host(p Pos, h *HostAction) {
	switch h.Kind {
	case HostRestart:
	case HostCrash:
		found := false
		for _, c := range CrashPoints {
			found = found || c == h.Point
		}
		if !found {
			v.fail(p, oneOf(h.Point, CrashPoints), "unknown crash point %q", h.Point)
		}
		if h.Effects != 0 && h.Point != "after-effect" {
			v.fail(p, "effects: goes with crash: after-effect", "effects: at a crash point that cuts no effects")
		}
	case HostOpen:
		if h.Session == "" || reserved(h.Session) || !identRe.MatchString(h.Session) {
			v.fail(p, "name the new Session", "open needs a Session name")
		} else if v.sessions[h.Session] {
			v.fail(p, "pick a new name", "Session %s is already open", h.Session)
		}
		if h.Owner != "" {
			v.session(p, h.Owner)
		}
		if h.Fork != "" {
			v.session(p, h.Fork)
			if h.Owner != "" {
				v.fail(p, "open either a child (owner) or a fork (fork)", "a Session cannot be both a child and a fork")
			}
		} else if h.Through != -1 {
			v.fail(p, "through: goes with fork:", "through: without fork:")
		}
		if h.Through < -1 {
			v.fail(p, "write the last inherited seq, or -1 for none", "through cannot be below -1")
		}
		v.sessions[h.Session] = true
	case HostClose, HostFailInboxWrite:
		v.session(p, h.Session)
	case HostStall:
		if h.For <= 0 {
			v.fail(p, "write a positive duration: stall: 3s", "a stall lasts a positive time")
		}
	case HostClaimReply:
		v.session(p, h.Session)
		if h.Call == "" {
			v.fail(p, "write call: c1", "claim-reply needs the call whose reply is claimed")
		}
		if h.Turn < 1 {
			v.fail(p, "write turn: 1 or later", "claim-reply needs a turn from 1")
		}
	case HostAppend:
		v.session(p, h.Session)
		if h.Event == "" {
			v.fail(p, `write the event: event: '{"type":"turn/end","turn":1,"reason":{"kind":"completed"}}'`, "append needs an event")
		}
	default:
		v.fail(p, "", "unknown host action %q", h.Kind)
	}
}

func hostNode(h *HostAction) *yaml.Node {
	switch h.Kind {
	case HostRestart:
		return word(HostRestart)
	case HostCrash:
		if h.Point == "now" && h.Effects == 0 {
			return word(HostCrash)
		}
		m := flow().add("crash", word(h.Point))
		if h.Effects != 0 {
			m.add("effects", intNode(int64(h.Effects)))
		}
		return m.n
	case HostOpen:
		m := flow().add("open", str(h.Session))
		if h.Owner != "" {
			m.add("owner", str(h.Owner))
		}
		if h.Fork != "" {
			m.add("fork", str(h.Fork))
		}
		if h.Through != -1 {
			m.add("through", intNode(int64(h.Through)))
		}
		return m.n
	case HostFailInboxWrite:
		return flow().add(HostFailInboxWrite, str(h.Session)).n
	case HostAppend:
		return flow().add(HostAppend, str(h.Session)).add("event", str(h.Event)).n
	case HostStall:
		return flow().add(HostStall, dur(h.For)).n
	case HostClaimReply:
		return flow().add(HostClaimReply, str(h.Session)).add("call", str(h.Call)).add("turn", intNode(int64(h.Turn))).n
	}
	return flow().add("close", str(h.Session)).n
}
