package wire

import (
	"fmt"
	"strconv"
)

// The JSON form of an Effect (docs/protocol/effect.schema.json); "?" and P as for
// commands:
//
//	{"kind":"send-frame","client":S,"gen":N,"frame":<frame>}
//	{"kind":"reply","client":S,"gen":N,"rpcId":S,"envelope":<envelope>}
//	{"kind":"appended","session":S,"event":<event>}
//	{"kind":"persisted","session":S,"through":N}
//	{"kind":"wait-note","session":S,"callId":S,"wait":W,"deadline"?:N,"at"?:N,"remaining"?:N,"claims"?:N,"reason"?:S}
//	{"kind":"direct-result","id":S,"value"?:P,"error"?:E}
//
// An envelope is Envelope.MarshalJSON's shape, {"ok":true,"value"?:P} or
// {"ok":false,"error":{"code":S,"message":S}} (a failure with a nil Error is written with
// an empty code and message, as MarshalJSON writes it, and decodes to an empty one). W is
// the wait-note kind (WaitCreated, ...); the fields its String reports are always written
// (created: deadline; armed: at; claimed: remaining and claims; released: claims; closed:
// reason) and the others only when they are not zero.

// effectKinds are the effect kinds the codec knows.
var effectKinds = []string{"send-frame", "reply", "appended", "persisted", "wait-note", "direct-result"}

// waitKinds are the wait-note kinds, with the keys each always carries.
var waitKinds = map[string][]string{
	WaitCreated:  {"deadline"},
	WaitArmed:    {"at"},
	WaitClaimed:  {"remaining", "claims"},
	WaitReleased: {"claims"},
	WaitExpired:  nil,
	WaitClosed:   {"reason"},
}

// AppendEffectJSON appends the JSON form of e.
func AppendEffectJSON(b []byte, e Effect) ([]byte, error) {
	out, err := appendEffect(b, e)
	if err != nil {
		return b, within("effect", err)
	}
	return out, nil
}

// DecodeEffect decodes the JSON form of an effect.
func DecodeEffect(data []byte) (Effect, error) {
	o, err := parseTop(data, "effect")
	if err != nil {
		return nil, err
	}
	e := decodeEffect(o)
	if err := o.done(); err != nil {
		return nil, err
	}
	return e, nil
}

func appendEffect(b []byte, e Effect) ([]byte, error) {
	var err error
	switch e := e.(type) {
	case SendFrame:
		b = appendClientGen(b, "send-frame", e.Client, e.Gen)
		b = append(b, `,"frame":`...)
		if b, err = appendFrame(b, e.Frame); err != nil {
			return b, within("frame", err)
		}
	case Reply:
		b = appendClientGen(b, "reply", e.Client, e.Gen)
		b = append(b, `,"rpcId":`...)
		b = AppendJSONString(b, e.RPCID)
		b = append(b, `,"envelope":`...)
		if b, err = appendEnvelope(b, e.Envelope); err != nil {
			return b, within("envelope", err)
		}
	case Appended:
		b = appendSessionOnly(b, "appended", e.Session)
		b = append(b, `,"event":`...)
		if b, err = appendEvent(b, e.Event); err != nil {
			return b, within("event", err)
		}
	case Persisted:
		b = appendSessionOnly(b, "persisted", e.Session)
		b = append(b, `,"through":`...)
		b = strconv.AppendInt(b, int64(e.Through), 10)
	case WaitNote:
		always, ok := waitKinds[e.Kind]
		if !ok {
			return b, &encodeError{"wait", "unknown wait-note kind " + strconv.Quote(e.Kind)}
		}
		b = appendSessionOnly(b, "wait-note", e.Session)
		b = append(b, `,"callId":`...)
		b = AppendJSONString(b, e.CallID)
		b = append(b, `,"wait":`...)
		b = AppendJSONString(b, e.Kind)
		has := func(key string) bool {
			for _, k := range always {
				if k == key {
					return true
				}
			}
			return false
		}
		if e.Deadline != 0 || has("deadline") {
			b = append(b, `,"deadline":`...)
			b = strconv.AppendInt(b, e.Deadline, 10)
		}
		if e.At != 0 || has("at") {
			b = append(b, `,"at":`...)
			b = strconv.AppendInt(b, e.At, 10)
		}
		if e.Remaining != 0 || has("remaining") {
			b = append(b, `,"remaining":`...)
			b = strconv.AppendInt(b, e.Remaining, 10)
		}
		if e.Claims != 0 || has("claims") {
			b = append(b, `,"claims":`...)
			b = strconv.AppendInt(b, int64(e.Claims), 10)
		}
		if e.Reason != "" || has("reason") {
			b = append(b, `,"reason":`...)
			b = AppendJSONString(b, e.Reason)
		}
	case DirectResult:
		b = append(b, `{"kind":"direct-result","id":`...)
		b = AppendJSONString(b, e.ID)
		b = appendPayload(b, "value", e.Value)
		if e.Err != nil {
			b = append(b, `,"error":`...)
			b = appendError(b, e.Err)
		}
	case nil:
		return b, &encodeError{"", "no effect"}
	default:
		return b, &encodeError{"", fmt.Sprintf("unsupported effect type %T", e)}
	}
	return append(b, '}'), nil
}

// appendEnvelope appends Envelope.MarshalJSON's shape, with the codec's payload rule.
func appendEnvelope(b []byte, e Envelope) ([]byte, error) {
	if e.OK {
		if e.Error != nil {
			return b, &encodeError{"error", "a success envelope carries no error"}
		}
		b = append(b, `{"ok":true`...)
		b = appendPayload(b, "value", e.Value)
		return append(b, '}'), nil
	}
	if e.Value != nil {
		return b, &encodeError{"value", "a failure envelope carries no value"}
	}
	code, msg := "", ""
	if e.Error != nil {
		code, msg = e.Error.Code, e.Error.Message
	}
	b = append(b, `{"ok":false,"error":{"code":`...)
	b = AppendJSONString(b, code)
	b = append(b, `,"message":`...)
	b = AppendJSONString(b, msg)
	return append(b, "}}"...), nil
}

func decodeEffect(o *object) Effect {
	kind := o.str("kind")
	o.what = kind
	switch kind {
	case "send-frame":
		e := SendFrame{Client: o.str("client"), Gen: o.int("gen")}
		if fo := o.obj("frame"); fo != nil {
			e.Frame = decodeFrame(fo)
			o.close(fo)
		}
		return e
	case "reply":
		e := Reply{Client: o.str("client"), Gen: o.int("gen"), RPCID: o.str("rpcId")}
		if eo := o.obj("envelope"); eo != nil {
			e.Envelope = decodeEnvelope(eo)
			o.close(eo)
		}
		return e
	case "appended":
		e := Appended{Session: o.str("session")}
		if eo := o.obj("event"); eo != nil {
			e.Event = decodeEvent(eo)
			o.close(eo)
		}
		return e
	case "persisted":
		return Persisted{Session: o.str("session"), Through: o.int("through")}
	case "wait-note":
		e := WaitNote{Session: o.str("session"), CallID: o.str("callId"), Kind: o.str("wait")}
		always, ok := waitKinds[e.Kind]
		if !ok && o.err == nil {
			o.unknown("wait", "unknown wait-note kind "+strconv.Quote(e.Kind))
			return e
		}
		o.what = "wait-note " + e.Kind
		for _, k := range always {
			if !o.has(k) {
				o.missing(k)
			}
		}
		e.Deadline, _ = o.optInt64("deadline")
		e.At, _ = o.optInt64("at")
		e.Remaining, _ = o.optInt64("remaining")
		e.Claims, _ = o.optInt("claims")
		e.Reason, _ = o.optStr("reason")
		return e
	case "direct-result":
		e := DirectResult{ID: o.str("id"), Value: o.payload("value")}
		if eo, _ := o.optObj("error"); eo != nil {
			e.Err = decodeWireError(eo)
			o.close(eo)
		}
		return e
	}
	o.unknown("kind", "unknown effect kind "+strconv.Quote(kind))
	return nil
}

func decodeEnvelope(o *object) Envelope {
	o.what = "envelope"
	v, ok := o.get("ok")
	if !ok {
		o.missing("ok")
		o.skipRest()
		return Envelope{}
	}
	switch v {
	case "true":
		return Envelope{OK: true, Value: o.payload("value")}
	case "false":
		e := Envelope{}
		if eo := o.obj("error"); eo != nil {
			eo.what = "envelope error"
			e.Error = &RemoteError{Code: eo.str("code"), Message: eo.str("message")}
			o.close(eo)
		}
		return e
	}
	o.wantType("ok", v, "a boolean")
	o.skipRest()
	return Envelope{}
}
