package wire

import (
	"fmt"
	"strconv"

	"github.com/twosettle/twosettle/engine/session"
)

// The JSON form of a Command (docs/protocol/command.schema.json), one object with "kind"
// first; "?" marks a key that is left out at its zero value, P a raw payload (its key or
// its keyRaw string):
//
//	{"kind":"open-session","session":S,"owner"?:S,"forkOf"?:S,"forkThrough"?:N}   forkThrough is written with forkOf (and when not 0)
//	{"kind":"close-session","session":S}
//	{"kind":"send","session":S,"target":S,"text":S,"source"?:{"kind":S,"callId"?:S,"outcome"?:S}}
//	{"kind":"header","session":S,"tools"?:S}
//	{"kind":"tool-call","session":S,"callId":S,"name":S,"args":S}
//	{"kind":"end-step","session":S,"final"?:true}
//	{"kind":"cancel-turn","session":S,"keepInbox"?:true}
//	{"kind":"direct","id":S,"op":S,"session":S,"agent":S,"body"?:P}
//	{"kind":"connect","client":S}
//	{"kind":"disconnect","client":S}
//	{"kind":"event-result","client":S,"gen":N,"rpcId":S,"eventId":S,"outcome":O}
//	{"kind":"stream-open","client":S,"gen":N,"streamId":S,"endpoint":S,"args"?:P}
//	{"kind":"stream-cancel","client":S,"gen":N,"streamId":S}
//	{"kind":"call","client":S,"gen":N,"rpcId":S,"endpoint":S,"args"?:P}
//	{"kind":"tick"}
//	{"kind":"restart","cutAfter":N}
//	{"kind":"fail-inbox-write","session":S}
//	{"kind":"append-event","session":S,"event":<event>}   the event's neutral form (event.schema.json), seq and time 0
//	{"kind":"claim-reply","session":S,"callId":S,"turn":N}
//
// An outcome O is {"kind":"next"}, {"kind":"result","value"?:P} or
// {"kind":"rejected","error":E}; an error E is {"name":S,"code"?:S,"message":S}.

// commandKinds are the command kinds the codec knows.
var commandKinds = []string{
	"open-session", "close-session", "send", "header", "tool-call", "end-step", "cancel-turn",
	"direct", "connect", "disconnect", "event-result", "stream-open", "stream-cancel", "call",
	"tick", "restart", "fail-inbox-write", "append-event", "claim-reply",
}

// AppendCommandJSON appends the JSON form of c.
func AppendCommandJSON(b []byte, c Command) ([]byte, error) {
	out, err := appendCommand(b, c)
	if err != nil {
		return b, within("command", err)
	}
	return out, nil
}

// DecodeCommand decodes the JSON form of a command.
func DecodeCommand(data []byte) (Command, error) {
	o, err := parseTop(data, "command")
	if err != nil {
		return nil, err
	}
	c := decodeCommand(o)
	if err := o.done(); err != nil {
		return nil, err
	}
	return c, nil
}

func appendCommand(b []byte, c Command) ([]byte, error) {
	switch c := c.(type) {
	case OpenSession:
		b = append(b, `{"kind":"open-session","session":`...)
		b = AppendJSONString(b, c.Session)
		if c.Owner != "" {
			b = append(b, `,"owner":`...)
			b = AppendJSONString(b, c.Owner)
		}
		if c.ForkOf != "" {
			b = append(b, `,"forkOf":`...)
			b = AppendJSONString(b, c.ForkOf)
		}
		if c.ForkOf != "" || c.ForkThrough != 0 {
			b = append(b, `,"forkThrough":`...)
			b = strconv.AppendInt(b, int64(c.ForkThrough), 10)
		}
	case CloseSession:
		b = appendSessionOnly(b, "close-session", c.Session)
	case Send:
		b = append(b, `{"kind":"send","session":`...)
		b = AppendJSONString(b, c.Session)
		b = append(b, `,"target":`...)
		b = AppendJSONString(b, c.Target)
		b = append(b, `,"text":`...)
		b = AppendJSONString(b, c.Text)
		if c.Source != (session.Source{}) {
			b = append(b, `,"source":`...)
			b = appendSource(b, c.Source)
		}
	case Header:
		b = append(b, `{"kind":"header","session":`...)
		b = AppendJSONString(b, c.Session)
		if c.Tools != "" {
			b = append(b, `,"tools":`...)
			b = AppendJSONString(b, c.Tools)
		}
	case ToolCall:
		b = append(b, `{"kind":"tool-call","session":`...)
		b = AppendJSONString(b, c.Session)
		b = append(b, `,"callId":`...)
		b = AppendJSONString(b, c.CallID)
		b = append(b, `,"name":`...)
		b = AppendJSONString(b, c.Name)
		b = append(b, `,"args":`...)
		b = AppendJSONString(b, c.Args)
	case EndStep:
		b = append(b, `{"kind":"end-step","session":`...)
		b = AppendJSONString(b, c.Session)
		if c.Final {
			b = append(b, `,"final":true`...)
		}
	case CancelTurn:
		b = append(b, `{"kind":"cancel-turn","session":`...)
		b = AppendJSONString(b, c.Session)
		if c.KeepInbox {
			b = append(b, `,"keepInbox":true`...)
		}
	case Direct:
		b = append(b, `{"kind":"direct","id":`...)
		b = AppendJSONString(b, c.ID)
		b = append(b, `,"op":`...)
		b = AppendJSONString(b, c.Op)
		b = append(b, `,"session":`...)
		b = AppendJSONString(b, c.Session)
		b = append(b, `,"agent":`...)
		b = AppendJSONString(b, c.Agent)
		b = appendPayload(b, "body", c.Body)
	case Connect:
		b = append(b, `{"kind":"connect","client":`...)
		b = AppendJSONString(b, c.Client)
	case Disconnect:
		b = append(b, `{"kind":"disconnect","client":`...)
		b = AppendJSONString(b, c.Client)
	case EventResult:
		b = appendClientGen(b, "event-result", c.Client, c.Gen)
		b = append(b, `,"rpcId":`...)
		b = AppendJSONString(b, c.RPCID)
		b = append(b, `,"eventId":`...)
		b = AppendJSONString(b, c.EventID)
		b = append(b, `,"outcome":`...)
		var err error
		if b, err = appendOutcome(b, c.Outcome); err != nil {
			return b, within("outcome", err)
		}
	case StreamOpen:
		b = appendClientGen(b, "stream-open", c.Client, c.Gen)
		b = append(b, `,"streamId":`...)
		b = AppendJSONString(b, c.StreamID)
		b = append(b, `,"endpoint":`...)
		b = AppendJSONString(b, c.Endpoint)
		b = appendPayload(b, "args", c.Args)
	case StreamCancel:
		b = appendClientGen(b, "stream-cancel", c.Client, c.Gen)
		b = append(b, `,"streamId":`...)
		b = AppendJSONString(b, c.StreamID)
	case Call:
		b = appendClientGen(b, "call", c.Client, c.Gen)
		b = append(b, `,"rpcId":`...)
		b = AppendJSONString(b, c.RPCID)
		b = append(b, `,"endpoint":`...)
		b = AppendJSONString(b, c.Endpoint)
		b = appendPayload(b, "args", c.Args)
	case Tick:
		b = append(b, `{"kind":"tick"`...)
	case Restart:
		b = append(b, `{"kind":"restart","cutAfter":`...)
		b = strconv.AppendInt(b, int64(c.CutAfter), 10)
	case FailInboxWrite:
		b = appendSessionOnly(b, "fail-inbox-write", c.Session)
	case ClaimReply:
		b = appendSessionOnly(b, "claim-reply", c.Session)
		b = append(b, `,"callId":`...)
		b = AppendJSONString(b, c.CallID)
		b = append(b, `,"turn":`...)
		b = strconv.AppendInt(b, int64(c.Turn), 10)
	case AppendEvent:
		b = appendSessionOnly(b, "append-event", c.Session)
		b = append(b, `,"event":`...)
		var err error
		if b, err = appendEvent(b, c.Event); err != nil {
			return b, within("event", err)
		}
	case nil:
		return b, &encodeError{"", "no command"}
	default:
		return b, &encodeError{"", fmt.Sprintf("unsupported command type %T", c)}
	}
	return append(b, '}'), nil
}

// appendSessionOnly appends {"kind":kind,"session":session (without the closing brace).
func appendSessionOnly(b []byte, kind, session string) []byte {
	b = append(b, `{"kind":"`...)
	b = append(b, kind...)
	b = append(b, `","session":`...)
	return AppendJSONString(b, session)
}

// appendClientGen appends {"kind":kind,"client":client,"gen":gen (without the closing brace).
func appendClientGen(b []byte, kind, client string, gen int) []byte {
	b = append(b, `{"kind":"`...)
	b = append(b, kind...)
	b = append(b, `","client":`...)
	b = AppendJSONString(b, client)
	b = append(b, `,"gen":`...)
	return strconv.AppendInt(b, int64(gen), 10)
}

// appendOutcome appends {"kind":"next"}, {"kind":"result","value"?:…} or
// {"kind":"rejected","error":{…}}.
func appendOutcome(b []byte, o Outcome) ([]byte, error) {
	switch o.Kind {
	case OutcomeNext:
		if o.Value != nil || o.Error != nil {
			return b, &encodeError{"", "a next outcome carries no value or error"}
		}
		return append(b, `{"kind":"next"}`...), nil
	case OutcomeResult:
		if o.Error != nil {
			return b, &encodeError{"error", "a result outcome carries no error"}
		}
		b = append(b, `{"kind":"result"`...)
		b = appendPayload(b, "value", o.Value)
		return append(b, '}'), nil
	case OutcomeRejected:
		if o.Error == nil {
			return b, &encodeError{"error", "a rejected outcome needs its error"}
		}
		if o.Value != nil {
			return b, &encodeError{"value", "a rejected outcome carries no value"}
		}
		b = append(b, `{"kind":"rejected","error":`...)
		b = appendError(b, o.Error)
		return append(b, '}'), nil
	}
	return b, &encodeError{"kind", "unknown outcome kind " + strconv.Quote(o.Kind)}
}

// appendError appends {"name":…,"code"?:…,"message":…}.
func appendError(b []byte, e *Error) []byte {
	b = append(b, `{"name":`...)
	b = AppendJSONString(b, e.Name)
	if e.Code != "" {
		b = append(b, `,"code":`...)
		b = AppendJSONString(b, e.Code)
	}
	b = append(b, `,"message":`...)
	b = AppendJSONString(b, e.Message)
	return append(b, '}')
}

func decodeCommand(o *object) Command {
	kind := o.str("kind")
	o.what = kind
	switch kind {
	case "open-session":
		c := OpenSession{Session: o.str("session")}
		c.Owner, _ = o.optStr("owner")
		var hasFork bool
		c.ForkOf, hasFork = o.optStr("forkOf")
		if hasFork {
			c.ForkThrough = o.int("forkThrough")
		} else {
			c.ForkThrough, _ = o.optInt("forkThrough")
		}
		return c
	case "close-session":
		return CloseSession{Session: o.str("session")}
	case "send":
		c := Send{Session: o.str("session"), Target: o.str("target"), Text: o.str("text")}
		if so, _ := o.optObj("source"); so != nil {
			c.Source = decodeSource(so)
			o.close(so)
		}
		return c
	case "header":
		c := Header{Session: o.str("session")}
		c.Tools, _ = o.optStr("tools")
		return c
	case "tool-call":
		return ToolCall{Session: o.str("session"), CallID: o.str("callId"), Name: o.str("name"), Args: o.str("args")}
	case "end-step":
		return EndStep{Session: o.str("session"), Final: o.flag("final")}
	case "cancel-turn":
		return CancelTurn{Session: o.str("session"), KeepInbox: o.flag("keepInbox")}
	case "direct":
		return Direct{ID: o.str("id"), Op: o.str("op"), Session: o.str("session"), Agent: o.str("agent"), Body: o.payload("body")}
	case "connect":
		return Connect{Client: o.str("client")}
	case "disconnect":
		return Disconnect{Client: o.str("client")}
	case "event-result":
		c := EventResult{Client: o.str("client"), Gen: o.int("gen"), RPCID: o.str("rpcId"), EventID: o.str("eventId")}
		if oo := o.obj("outcome"); oo != nil {
			c.Outcome = decodeOutcome(oo)
			o.close(oo)
		}
		return c
	case "stream-open":
		return StreamOpen{Client: o.str("client"), Gen: o.int("gen"), StreamID: o.str("streamId"),
			Endpoint: o.str("endpoint"), Args: o.payload("args")}
	case "stream-cancel":
		return StreamCancel{Client: o.str("client"), Gen: o.int("gen"), StreamID: o.str("streamId")}
	case "call":
		return Call{Client: o.str("client"), Gen: o.int("gen"), RPCID: o.str("rpcId"),
			Endpoint: o.str("endpoint"), Args: o.payload("args")}
	case "tick":
		return Tick{}
	case "restart":
		return Restart{CutAfter: o.int("cutAfter")}
	case "fail-inbox-write":
		return FailInboxWrite{Session: o.str("session")}
	case "claim-reply":
		return ClaimReply{Session: o.str("session"), CallID: o.str("callId"), Turn: o.int("turn")}
	case "append-event":
		c := AppendEvent{Session: o.str("session")}
		if eo := o.obj("event"); eo != nil {
			c.Event = decodeEvent(eo)
			o.close(eo)
		}
		return c
	}
	o.unknown("kind", "unknown command kind "+strconv.Quote(kind))
	return nil
}

func decodeOutcome(o *object) Outcome {
	kind := o.str("kind")
	o.what = kind + " outcome"
	out := Outcome{Kind: kind}
	switch kind {
	case OutcomeNext:
	case OutcomeResult:
		out.Value = o.payload("value")
	case OutcomeRejected:
		if eo := o.obj("error"); eo != nil {
			out.Error = decodeWireError(eo)
			o.close(eo)
		}
	default:
		o.unknown("kind", "unknown outcome kind "+strconv.Quote(kind))
	}
	return out
}

func decodeWireError(o *object) *Error {
	o.what = "error"
	e := &Error{Name: o.str("name")}
	e.Code, _ = o.optStr("code")
	e.Message = o.str("message")
	return e
}
