package wire

import (
	"fmt"
	"strconv"
)

// The JSON form of a Frame (docs/protocol/frame.schema.json), the "frame" of a send-frame
// effect; "?" and P as for commands:
//
//	{"kind":"ready","gen":N}
//	{"kind":"waterfall","eventId":S,"event":S,"agentId":S,"request"?:P}
//	{"kind":"cancel","eventId":S}
//	{"kind":"stream-item","streamId":S,"value"?:P}
//	{"kind":"stream-end","streamId":S}
//	{"kind":"stream-error","streamId":S,"code":S,"message":S}
//	{"kind":"session-update","session":S,"reset"?:true,"from":N,"events":[<event>…],"questions":<questions view>,"inbox":<inbox view>}

// frameKinds are the frame kinds the codec knows.
var frameKinds = []string{"ready", "waterfall", "cancel", "stream-item", "stream-end", "stream-error", "session-update"}

func appendFrame(b []byte, f Frame) ([]byte, error) {
	switch f := f.(type) {
	case Ready:
		b = append(b, `{"kind":"ready","gen":`...)
		b = strconv.AppendInt(b, int64(f.Gen), 10)
	case Waterfall:
		b = append(b, `{"kind":"waterfall","eventId":`...)
		b = AppendJSONString(b, f.EventID)
		b = append(b, `,"event":`...)
		b = AppendJSONString(b, f.Event)
		b = append(b, `,"agentId":`...)
		b = AppendJSONString(b, f.AgentID)
		b = appendPayload(b, "request", f.Request)
	case Cancel:
		b = append(b, `{"kind":"cancel","eventId":`...)
		b = AppendJSONString(b, f.EventID)
	case StreamItem:
		b = append(b, `{"kind":"stream-item","streamId":`...)
		b = AppendJSONString(b, f.StreamID)
		b = appendPayload(b, "value", f.Value)
	case StreamEnd:
		b = append(b, `{"kind":"stream-end","streamId":`...)
		b = AppendJSONString(b, f.StreamID)
	case StreamError:
		b = append(b, `{"kind":"stream-error","streamId":`...)
		b = AppendJSONString(b, f.StreamID)
		b = append(b, `,"code":`...)
		b = AppendJSONString(b, f.Code)
		b = append(b, `,"message":`...)
		b = AppendJSONString(b, f.Message)
	case SessionUpdate:
		b = append(b, `{"kind":"session-update","session":`...)
		b = AppendJSONString(b, f.Session)
		if f.Reset {
			b = append(b, `,"reset":true`...)
		}
		b = append(b, `,"from":`...)
		b = strconv.AppendInt(b, int64(f.From), 10)
		b = append(b, `,"events":`...)
		var err error
		if b, err = appendEvents(b, f.Events); err != nil {
			return b, within("events", err)
		}
		b = append(b, `,"questions":`...)
		b = appendQuestionsView(b, f.Questions)
		b = append(b, `,"inbox":`...)
		b = appendInboxView(b, f.Inbox)
	case nil:
		return b, &encodeError{"", "no frame"}
	default:
		return b, &encodeError{"", fmt.Sprintf("unsupported frame type %T", f)}
	}
	return append(b, '}'), nil
}

func decodeFrame(o *object) Frame {
	kind := o.str("kind")
	o.what = kind
	switch kind {
	case "ready":
		return Ready{Gen: o.int("gen")}
	case "waterfall":
		return Waterfall{EventID: o.str("eventId"), Event: o.str("event"), AgentID: o.str("agentId"), Request: o.payload("request")}
	case "cancel":
		return Cancel{EventID: o.str("eventId")}
	case "stream-item":
		return StreamItem{StreamID: o.str("streamId"), Value: o.payload("value")}
	case "stream-end":
		return StreamEnd{StreamID: o.str("streamId")}
	case "stream-error":
		return StreamError{StreamID: o.str("streamId"), Code: o.str("code"), Message: o.str("message")}
	case "session-update":
		f := SessionUpdate{Session: o.str("session"), Reset: o.flag("reset"), From: o.int("from")}
		f.Events = decodeEvents(o, "events")
		if qo := o.obj("questions"); qo != nil {
			f.Questions = decodeQuestionsView(qo)
			o.close(qo)
		}
		if io := o.obj("inbox"); io != nil {
			f.Inbox = decodeInboxView(io)
			o.close(io)
		}
		return f
	}
	o.unknown("kind", "unknown frame kind "+strconv.Quote(kind))
	return nil
}
