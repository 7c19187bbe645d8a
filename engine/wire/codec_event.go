package wire

import (
	"fmt"
	"strconv"

	"github.com/twosettle/twosettle/engine/session"
)

// The neutral JSON form of one Session log event (docs/protocol/event.schema.json):
//
//	{"seq":3,"time":100,"type":"tool/call","turn":1,"step":1,"callId":"c1","name":"sleep","arguments":"{\"ms\":5}"}
//
// seq, time and type come first, then the fields of the event's data type in their
// declaration order, named as the peer names them (callId, rootCallId, parentCallId,
// subCallId, arguments, isError, error).

// eventTypes are the event types the codec knows, in session's order.
var eventTypes = []string{
	session.TypeRequestHeader, session.TypeTurnStart, session.TypeTurnEnd, session.TypeStepStart,
	session.TypeStepEnd, session.TypeUserMessage, session.TypeInboxSpliced, session.TypeToolCall,
	session.TypeToolResult, session.TypePTCDispatchStart, session.TypePTCDispatch,
}

// AppendEventJSON appends the neutral JSON form of one Session log event.
func AppendEventJSON(b []byte, e session.Event) ([]byte, error) {
	out, err := appendEvent(b, e)
	if err != nil {
		return b, within("event", err)
	}
	return out, nil
}

// DecodeEvent decodes the neutral JSON form of one Session log event.
func DecodeEvent(data []byte) (session.Event, error) {
	o, err := parseTop(data, "event")
	if err != nil {
		return session.Event{}, err
	}
	e := decodeEvent(o)
	if err := o.done(); err != nil {
		return session.Event{}, err
	}
	return e, nil
}

func appendEvent(b []byte, e session.Event) ([]byte, error) {
	b = append(b, `{"seq":`...)
	b = strconv.AppendInt(b, int64(e.Seq), 10)
	b = append(b, `,"time":`...)
	b = strconv.AppendInt(b, e.Time, 10)
	b = append(b, `,"type":`...)
	switch d := e.Data.(type) {
	case session.RequestHeader:
		b = append(b, `"request/header","reason":`...)
		b = AppendJSONString(b, d.Reason)
		b = append(b, `,"tools":`...)
		b = AppendJSONString(b, d.Tools)
	case session.TurnStart:
		b = append(b, `"turn/start","turn":`...)
		b = strconv.AppendInt(b, int64(d.Turn), 10)
	case session.TurnEnd:
		b = append(b, `"turn/end","turn":`...)
		b = strconv.AppendInt(b, int64(d.Turn), 10)
		b = append(b, `,"reason":{"kind":`...)
		b = AppendJSONString(b, d.Reason.Kind)
		if d.Reason.Detail != "" {
			b = append(b, `,"detail":`...)
			b = AppendJSONString(b, d.Reason.Detail)
		}
		b = append(b, '}')
	case session.StepStart:
		b = append(b, `"step/start"`...)
		b = appendTurnStep(b, d.Turn, d.Step)
	case session.StepEnd:
		b = append(b, `"step/end"`...)
		b = appendTurnStep(b, d.Turn, d.Step)
	case session.UserMessage:
		b = append(b, `"user/message","message":`...)
		b = appendMessage(b, d.Message)
	case session.InboxSpliced:
		b = append(b, `"agent/inbox/spliced","target":`...)
		b = AppendJSONString(b, d.Target)
		b = append(b, `,"start":`...)
		b = strconv.AppendInt(b, int64(d.Start), 10)
		b = append(b, `,"removed":`...)
		b = strconv.AppendInt(b, int64(d.Removed), 10)
		b = append(b, `,"inserted":`...)
		b = appendMessages(b, d.Inserted)
		if d.Outcome != "" {
			b = append(b, `,"outcome":`...)
			b = AppendJSONString(b, d.Outcome)
		}
	case session.ToolCall:
		b = append(b, `"tool/call"`...)
		b = appendTurnStep(b, d.Turn, d.Step)
		b = append(b, `,"callId":`...)
		b = AppendJSONString(b, d.CallID)
		b = append(b, `,"name":`...)
		b = AppendJSONString(b, d.Name)
		b = append(b, `,"arguments":`...)
		b = AppendJSONString(b, d.Arguments)
	case session.ToolResult:
		b = append(b, `"tool/result"`...)
		b = appendTurnStep(b, d.Turn, d.Step)
		b = append(b, `,"callId":`...)
		b = AppendJSONString(b, d.CallID)
		b = appendOutcomeInfo(b, d.IsError, d.Err)
		b = append(b, `,"text":`...)
		b = AppendJSONString(b, d.Text)
		if d.NoText {
			b = append(b, `,"noText":true`...)
		}
		if d.Reasoning != "" {
			b = append(b, `,"reasoning":`...)
			b = AppendJSONString(b, d.Reasoning)
		}
	case session.PTCDispatchStart:
		b = append(b, `"tool/ptc-dispatch-start"`...)
		b = appendPTCCall(b, d.Root, d.Parent, d.SubCallID, d.Name, d.Arguments)
	case session.PTCDispatch:
		b = append(b, `"tool/ptc-dispatch"`...)
		b = appendPTCCall(b, d.Root, d.Parent, d.SubCallID, d.Name, d.Arguments)
		b = appendOutcomeInfo(b, d.IsError, d.Err)
		b = append(b, `,"text":`...)
		b = AppendJSONString(b, d.Text)
	case nil:
		return b, &encodeError{"data", "no event data"}
	default:
		return b, &encodeError{"data", fmt.Sprintf("unsupported event data type %T", e.Data)}
	}
	return append(b, '}'), nil
}

func appendTurnStep(b []byte, turn, step int) []byte {
	b = append(b, `,"turn":`...)
	b = strconv.AppendInt(b, int64(turn), 10)
	b = append(b, `,"step":`...)
	return strconv.AppendInt(b, int64(step), 10)
}

func appendPTCCall(b []byte, root, parent, sub, name, args string) []byte {
	b = append(b, `,"rootCallId":`...)
	b = AppendJSONString(b, root)
	b = append(b, `,"parentCallId":`...)
	b = AppendJSONString(b, parent)
	b = append(b, `,"subCallId":`...)
	b = AppendJSONString(b, sub)
	b = append(b, `,"name":`...)
	b = AppendJSONString(b, name)
	b = append(b, `,"arguments":`...)
	return AppendJSONString(b, args)
}

// appendOutcomeInfo appends ,"isError":true when set and ,"error":{name,code} when set.
func appendOutcomeInfo(b []byte, isError bool, e session.ErrorInfo) []byte {
	if isError {
		b = append(b, `,"isError":true`...)
	}
	if e.Set() {
		b = append(b, `,"error":{"name":`...)
		b = AppendJSONString(b, e.Name)
		b = append(b, `,"code":`...)
		b = AppendJSONString(b, e.Code)
		b = append(b, '}')
	}
	return b
}

// appendSource appends {"kind":…,"callId"?:…,"outcome"?:…}.
func appendSource(b []byte, s session.Source) []byte {
	b = append(b, `{"kind":`...)
	b = AppendJSONString(b, s.Kind)
	if s.CallID != "" {
		b = append(b, `,"callId":`...)
		b = AppendJSONString(b, s.CallID)
	}
	if s.Outcome != "" {
		b = append(b, `,"outcome":`...)
		b = AppendJSONString(b, s.Outcome)
	}
	return append(b, '}')
}

// appendMessage appends {"id":…,"source":{…},"text":…,"noText"?:true}.
func appendMessage(b []byte, m session.Message) []byte {
	b = append(b, `{"id":`...)
	b = AppendJSONString(b, m.ID)
	b = append(b, `,"source":`...)
	b = appendSource(b, m.Source)
	b = append(b, `,"text":`...)
	b = AppendJSONString(b, m.Text)
	if m.NoText {
		b = append(b, `,"noText":true`...)
	}
	return append(b, '}')
}

func appendMessages(b []byte, ms []session.Message) []byte {
	b = append(b, '[')
	for i, m := range ms {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendMessage(b, m)
	}
	return append(b, ']')
}

func appendEvents(b []byte, es []session.Event) ([]byte, error) {
	b = append(b, '[')
	for i, e := range es {
		if i > 0 {
			b = append(b, ',')
		}
		var err error
		if b, err = appendEvent(b, e); err != nil {
			return b, within("["+strconv.Itoa(i)+"]", err)
		}
	}
	return append(b, ']'), nil
}

// decodeEvent reads one event from o (o's own errors are left to its done).
func decodeEvent(o *object) session.Event {
	var e session.Event
	typ, _ := o.optStr("type") // first, so that messages name it
	o.what = typ
	e.Seq = o.int("seq")
	e.Time = o.int64("time")
	if _, ok := o.get("type"); !ok {
		o.missing("type")
	}
	switch typ {
	case session.TypeRequestHeader:
		e.Data = session.RequestHeader{Reason: o.str("reason"), Tools: o.str("tools")}
	case session.TypeTurnStart:
		e.Data = session.TurnStart{Turn: o.int("turn")}
	case session.TypeTurnEnd:
		d := session.TurnEnd{Turn: o.int("turn")}
		if r := o.obj("reason"); r != nil {
			r.what = "turn/end reason"
			d.Reason.Kind = r.str("kind")
			d.Reason.Detail, _ = r.optStr("detail")
			o.close(r)
		}
		e.Data = d
	case session.TypeStepStart:
		e.Data = session.StepStart{Turn: o.int("turn"), Step: o.int("step")}
	case session.TypeStepEnd:
		e.Data = session.StepEnd{Turn: o.int("turn"), Step: o.int("step")}
	case session.TypeUserMessage:
		var d session.UserMessage
		if m := o.obj("message"); m != nil {
			d.Message = decodeMessage(m)
			o.close(m)
		}
		e.Data = d
	case session.TypeInboxSpliced:
		d := session.InboxSpliced{Target: o.str("target"), Start: o.int("start"), Removed: o.int("removed")}
		d.Inserted = decodeMessages(o, "inserted")
		d.Outcome, _ = o.optStr("outcome")
		e.Data = d
	case session.TypeToolCall:
		e.Data = session.ToolCall{Turn: o.int("turn"), Step: o.int("step"), CallID: o.str("callId"),
			Name: o.str("name"), Arguments: o.str("arguments")}
	case session.TypeToolResult:
		d := session.ToolResult{Turn: o.int("turn"), Step: o.int("step"), CallID: o.str("callId")}
		d.IsError, d.Err = decodeOutcomeInfo(o)
		d.Text = o.str("text")
		d.NoText = o.flag("noText")
		d.Reasoning, _ = o.optStr("reasoning")
		e.Data = d
	case session.TypePTCDispatchStart:
		e.Data = session.PTCDispatchStart{Root: o.str("rootCallId"), Parent: o.str("parentCallId"),
			SubCallID: o.str("subCallId"), Name: o.str("name"), Arguments: o.str("arguments")}
	case session.TypePTCDispatch:
		d := session.PTCDispatch{Root: o.str("rootCallId"), Parent: o.str("parentCallId"),
			SubCallID: o.str("subCallId"), Name: o.str("name"), Arguments: o.str("arguments")}
		d.IsError, d.Err = decodeOutcomeInfo(o)
		d.Text = o.str("text")
		e.Data = d
	default:
		o.unknown("type", "unknown event type "+strconv.Quote(typ))
	}
	return e
}

func decodeOutcomeInfo(o *object) (bool, session.ErrorInfo) {
	isError := o.flag("isError")
	var info session.ErrorInfo
	if eo, _ := o.optObj("error"); eo != nil {
		eo.what = "error info"
		info.Name = eo.str("name")
		info.Code = eo.str("code")
		o.close(eo)
	}
	return isError, info
}

func decodeSource(o *object) session.Source {
	o.what = "source"
	s := session.Source{Kind: o.str("kind")}
	s.CallID, _ = o.optStr("callId")
	s.Outcome, _ = o.optStr("outcome")
	return s
}

func decodeMessage(o *object) session.Message {
	o.what = "message"
	m := session.Message{ID: o.str("id")}
	if so := o.obj("source"); so != nil {
		m.Source = decodeSource(so)
		o.close(so)
	}
	m.Text = o.str("text")
	m.NoText = o.flag("noText")
	return m
}

// decodeMessages reads the optional array of messages key of o.
func decodeMessages(o *object, key string) []session.Message {
	items := o.list(key)
	if len(items) == 0 {
		return nil
	}
	out := make([]session.Message, len(items))
	for i, v := range items {
		m := o.itemObj(key, i, v)
		if m == nil {
			return nil
		}
		out[i] = decodeMessage(m)
		if !o.close(m) {
			return nil
		}
	}
	return out
}

// decodeEvents reads the optional array of events key of o.
func decodeEvents(o *object, key string) []session.Event {
	items := o.list(key)
	if len(items) == 0 {
		return nil
	}
	out := make([]session.Event, len(items))
	for i, v := range items {
		eo := o.itemObj(key, i, v)
		if eo == nil {
			return nil
		}
		out[i] = decodeEvent(eo)
		if !o.close(eo) {
			return nil
		}
	}
	return out
}
