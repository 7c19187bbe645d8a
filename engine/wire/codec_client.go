package wire

import (
	"fmt"
	"strconv"
)

// The JSON form of the client vocabulary (docs/PROTOCOL.md "Clients",
// docs/protocol/client-input.schema.json and client-effect.schema.json): what a client
// receives (ClientPort.Apply's input) and what it emits. "?" and P as for commands:
//
//	{"kind":"from-host","frame":<frame>}
//	{"kind":"from-http","rpcId":S,"envelope":<envelope>}
//	{"kind":"link-down"}
//	{"kind":"user","action":{"kind":S,"session"?:S,"card"?:S,"question"?:S,"label"?:S,"text"?:S}}
//	{"kind":"reload"}
//	{"kind":"tick"}
//
//	{"kind":"dial"}
//	{"kind":"send-result","gen":N,"rpcId":S,"eventId":S,"outcome":<outcome>}
//	{"kind":"open-stream","gen":N,"streamId":S,"endpoint":S,"args"?:P}
//	{"kind":"cancel-stream","gen":N,"streamId":S}
//	{"kind":"send-call","gen":N,"rpcId":S,"endpoint":S,"args"?:P}
//
// A frame, an envelope and an outcome have the forms of the host vocabulary (send-frame,
// reply and event-result). A user action's kind is one of UserActionKinds; its empty
// fields are left out.

// clientInputKinds and clientEffectKinds are the kinds the codec knows.
var (
	clientInputKinds  = []string{"from-host", "from-http", "link-down", "user", "reload", "tick"}
	clientEffectKinds = []string{"dial", "send-result", "open-stream", "cancel-stream", "send-call"}
)

// UserActionKinds lists every user action kind (wire.Act…), in the order of their
// declaration.
func UserActionKinds() []string {
	return []string{ActFocus, ActBlur, ActType, ActChoose, ActSkip, ActNext, ActPrev, ActTakeTime, ActSubmit,
		ActHide, ActClose, ActReopen, ActDiscard, ActWindowBlur, ActWindowFocus, ActDelegate, ActTeardown, ActContinue, ActToggleRow, ActUnbind, ActBind}
}

func knownUserAction(k string) bool {
	for _, a := range UserActionKinds() {
		if a == k {
			return true
		}
	}
	return false
}

// AppendClientInputJSON appends the JSON form of in.
func AppendClientInputJSON(b []byte, in ClientInput) ([]byte, error) {
	out, err := appendClientInput(b, in)
	if err != nil {
		return b, within("input", err)
	}
	return out, nil
}

// DecodeClientInput decodes the JSON form of a client input.
func DecodeClientInput(data []byte) (ClientInput, error) {
	o, err := parseTop(data, "input")
	if err != nil {
		return nil, err
	}
	in := decodeClientInput(o)
	if err := o.done(); err != nil {
		return nil, err
	}
	return in, nil
}

// AppendClientEffectJSON appends the JSON form of e.
func AppendClientEffectJSON(b []byte, e ClientEffect) ([]byte, error) {
	out, err := appendClientEffect(b, e)
	if err != nil {
		return b, within("effect", err)
	}
	return out, nil
}

// DecodeClientEffect decodes the JSON form of a client effect.
func DecodeClientEffect(data []byte) (ClientEffect, error) {
	o, err := parseTop(data, "effect")
	if err != nil {
		return nil, err
	}
	e := decodeClientEffect(o)
	if err := o.done(); err != nil {
		return nil, err
	}
	return e, nil
}

func appendClientInput(b []byte, in ClientInput) ([]byte, error) {
	var err error
	switch in := in.(type) {
	case FromHost:
		b = append(b, `{"kind":"from-host","frame":`...)
		if b, err = appendFrame(b, in.Frame); err != nil {
			return b, within("frame", err)
		}
	case FromHTTP:
		b = append(b, `{"kind":"from-http","rpcId":`...)
		b = AppendJSONString(b, in.RPCID)
		b = append(b, `,"envelope":`...)
		if b, err = appendEnvelope(b, in.Envelope); err != nil {
			return b, within("envelope", err)
		}
	case LinkDown:
		b = append(b, `{"kind":"link-down"`...)
	case User:
		if !knownUserAction(in.Action.Kind) {
			return b, &encodeError{"action.kind", "unknown user action kind " + strconv.Quote(in.Action.Kind)}
		}
		b = append(b, `{"kind":"user","action":{"kind":`...)
		b = AppendJSONString(b, in.Action.Kind)
		b = appendOptStr(b, "session", in.Action.Session)
		b = appendOptStr(b, "card", in.Action.Card)
		b = appendOptStr(b, "question", in.Action.Question)
		b = appendOptStr(b, "label", in.Action.Label)
		b = appendOptStr(b, "text", in.Action.Text)
		b = append(b, '}')
	case Reload:
		b = append(b, `{"kind":"reload"`...)
	case ClientTick:
		b = append(b, `{"kind":"tick"`...)
	case nil:
		return b, &encodeError{"", "no input"}
	default:
		return b, &encodeError{"", fmt.Sprintf("unsupported client input type %T", in)}
	}
	return append(b, '}'), nil
}

// appendOptStr appends ,"key":"v" when v is not empty.
func appendOptStr(b []byte, key, v string) []byte {
	if v == "" {
		return b
	}
	b = append(b, `,"`...)
	b = append(b, key...)
	b = append(b, `":`...)
	return AppendJSONString(b, v)
}

func decodeClientInput(o *object) ClientInput {
	kind := o.str("kind")
	o.what = kind
	switch kind {
	case "from-host":
		in := FromHost{}
		if fo := o.obj("frame"); fo != nil {
			in.Frame = decodeFrame(fo)
			o.close(fo)
		}
		return in
	case "from-http":
		in := FromHTTP{RPCID: o.str("rpcId")}
		if eo := o.obj("envelope"); eo != nil {
			in.Envelope = decodeEnvelope(eo)
			o.close(eo)
		}
		return in
	case "link-down":
		return LinkDown{}
	case "user":
		in := User{}
		if ao := o.obj("action"); ao != nil {
			ao.what = "user action"
			a := UserAction{Kind: ao.str("kind")}
			if ao.err == nil && !knownUserAction(a.Kind) {
				ao.unknown("kind", "unknown user action kind "+strconv.Quote(a.Kind))
			}
			a.Session, _ = ao.optStr("session")
			a.Card, _ = ao.optStr("card")
			a.Question, _ = ao.optStr("question")
			a.Label, _ = ao.optStr("label")
			a.Text, _ = ao.optStr("text")
			in.Action = a
			o.close(ao)
		}
		return in
	case "reload":
		return Reload{}
	case "tick":
		return ClientTick{}
	}
	o.unknown("kind", "unknown client input kind "+strconv.Quote(kind))
	return nil
}

func appendClientEffect(b []byte, e ClientEffect) ([]byte, error) {
	var err error
	switch e := e.(type) {
	case Dial:
		b = append(b, `{"kind":"dial"`...)
	case SendResult:
		b = appendKindGen(b, "send-result", e.Gen)
		b = append(b, `,"rpcId":`...)
		b = AppendJSONString(b, e.RPCID)
		b = append(b, `,"eventId":`...)
		b = AppendJSONString(b, e.EventID)
		b = append(b, `,"outcome":`...)
		if b, err = appendOutcome(b, e.Outcome); err != nil {
			return b, within("outcome", err)
		}
	case OpenStream:
		b = appendKindGen(b, "open-stream", e.Gen)
		b = append(b, `,"streamId":`...)
		b = AppendJSONString(b, e.StreamID)
		b = append(b, `,"endpoint":`...)
		b = AppendJSONString(b, e.Endpoint)
		b = appendPayload(b, "args", e.Args)
	case CancelStream:
		b = appendKindGen(b, "cancel-stream", e.Gen)
		b = append(b, `,"streamId":`...)
		b = AppendJSONString(b, e.StreamID)
	case SendCall:
		b = appendKindGen(b, "send-call", e.Gen)
		b = append(b, `,"rpcId":`...)
		b = AppendJSONString(b, e.RPCID)
		b = append(b, `,"endpoint":`...)
		b = AppendJSONString(b, e.Endpoint)
		b = appendPayload(b, "args", e.Args)
	case nil:
		return b, &encodeError{"", "no effect"}
	default:
		return b, &encodeError{"", fmt.Sprintf("unsupported client effect type %T", e)}
	}
	return append(b, '}'), nil
}

// appendKindGen appends {"kind":kind,"gen":gen (without the closing brace).
func appendKindGen(b []byte, kind string, gen int) []byte {
	b = append(b, `{"kind":"`...)
	b = append(b, kind...)
	b = append(b, `","gen":`...)
	return strconv.AppendInt(b, int64(gen), 10)
}

func decodeClientEffect(o *object) ClientEffect {
	kind := o.str("kind")
	o.what = kind
	switch kind {
	case "dial":
		return Dial{}
	case "send-result":
		e := SendResult{Gen: o.int("gen"), RPCID: o.str("rpcId"), EventID: o.str("eventId")}
		if oo := o.obj("outcome"); oo != nil {
			e.Outcome = decodeOutcome(oo)
			o.close(oo)
		}
		return e
	case "open-stream":
		return OpenStream{Gen: o.int("gen"), StreamID: o.str("streamId"), Endpoint: o.str("endpoint"), Args: o.payload("args")}
	case "cancel-stream":
		return CancelStream{Gen: o.int("gen"), StreamID: o.str("streamId")}
	case "send-call":
		return SendCall{Gen: o.int("gen"), RPCID: o.str("rpcId"), Endpoint: o.str("endpoint"), Args: o.payload("args")}
	}
	o.unknown("kind", "unknown client effect kind "+strconv.Quote(kind))
	return nil
}
