package timeline

import (
	"github.com/twosettle/twosettle/engine/session"
	"github.com/twosettle/twosettle/engine/wire"
	"github.com/twosettle/twosettle/trace"
	"github.com/twosettle/twosettle/tracemodel"
)

// relations are the keys that tie records together for "what did this cause": the
// question call (call:SESSION/ID), the claim or other stream (stream:CLIENT/ID), the
// waterfall event (ev:ID) and the HTTP request (rpc:CLIENT/ID) a record is about. An
// event, and a claim stream, also carry their call's key, so a click on a delivery lists
// the call's later records too.
func relations(recs []trace.Record, b *builder) [][]string {
	out := make([][]string, len(recs))
	streamCall := map[string]string{} // stream:CLIENT/ID -> call key
	callByID := map[string]string{}   // call id -> call key (user actions name no Session)
	for _, c := range b.m.calls {
		if _, ok := callByID[c.id]; !ok {
			callByID[c.id] = "call:" + c.key()
		}
	}
	for i, r := range recs {
		var ks []string
		add := func(k string) {
			for _, x := range ks {
				if x == k {
					return
				}
			}
			ks = append(ks, k)
		}
		ev := func(id string) {
			add("ev:" + id)
			if q := b.run.Request(id); q != nil && q.Call != nil {
				add("call:" + q.Call.Key())
			}
		}
		stream := func(client, id string) {
			k := "stream:" + client + "/" + id
			add(k)
			if c, ok := streamCall[k]; ok {
				add(c)
			}
		}
		claim := func(client, id string, args []byte) {
			if agent, callID := tracemodel.AgentCall(args); callID != "" {
				streamCall["stream:"+client+"/"+id] = "call:" + agent + "/" + callID
			}
			stream(client, id)
		}
		frame := func(client string, f wire.Frame) {
			switch f := f.(type) {
			case wire.Waterfall:
				ev(f.EventID)
			case wire.Cancel:
				ev(f.EventID)
			case wire.StreamItem:
				stream(client, f.StreamID)
			case wire.StreamEnd:
				stream(client, f.StreamID)
			case wire.StreamError:
				stream(client, f.StreamID)
			}
		}
		p := r.Payload
		if rj, ok := p.(trace.Rejected); ok {
			p = rj.Input
		}
		if d, ok := p.(trace.Dropped); ok {
			p = d.What
			if f, ok := p.(wire.FromHost); ok {
				frame(d.To, f.Frame)
			}
			if h, ok := p.(wire.FromHTTP); ok {
				add("rpc:" + d.To + "/" + h.RPCID)
			}
		}
		switch e := p.(type) {
		case wire.WaitNote:
			add("call:" + e.Session + "/" + e.CallID)
		case wire.Appended:
			switch d := e.Event.Data.(type) {
			case session.ToolCall:
				add("call:" + e.Session + "/" + d.CallID)
			case session.PTCDispatchStart:
				add("call:" + e.Session + "/" + d.SubCallID)
			case session.ToolResult:
				add("call:" + e.Session + "/" + d.CallID)
			case session.UserMessage:
				if d.Message.Source.IsQuestionReply() {
					add("call:" + e.Session + "/" + d.Message.Source.CallID)
				}
			}
		case wire.StreamOpen:
			claim(e.Client, e.StreamID, e.Args)
		case wire.StreamCancel:
			stream(e.Client, e.StreamID)
		case wire.SendFrame:
			frame(e.Client, e.Frame)
		case wire.Reply:
			add("rpc:" + e.Client + "/" + e.RPCID)
		case wire.EventResult:
			ev(e.EventID)
			add("rpc:" + e.Client + "/" + e.RPCID)
		case wire.Call:
			add("rpc:" + e.Client + "/" + e.RPCID)
			if agent, callID := tracemodel.AgentCall(e.Args); callID != "" {
				add("call:" + agent + "/" + callID)
			}
		case wire.FromHost:
			frame(r.Actor, e.Frame)
		case wire.FromHTTP:
			add("rpc:" + r.Actor + "/" + e.RPCID)
		case wire.OpenStream:
			claim(r.Actor, e.StreamID, e.Args)
		case wire.CancelStream:
			stream(r.Actor, e.StreamID)
		case wire.SendResult:
			ev(e.EventID)
			add("rpc:" + r.Actor + "/" + e.RPCID)
		case wire.SendCall:
			add("rpc:" + r.Actor + "/" + e.RPCID)
			if agent, callID := tracemodel.AgentCall(e.Args); callID != "" {
				add("call:" + agent + "/" + callID)
			}
		case wire.User:
			if k, ok := callByID[e.Action.Card]; ok {
				add(k)
			}
		}
		out[i] = ks
	}
	return out
}
