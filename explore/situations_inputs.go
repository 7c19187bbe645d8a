package explore

import (
	"bytes"
	"strings"

	"github.com/twosettle/twosettle/engine/session"
	"github.com/twosettle/twosettle/engine/wire"
	"github.com/twosettle/twosettle/trace"
)

// The situations of the input classes issue 12 added to the generator (inputs.go), and
// of the probes the snapshot invariants judge: one more pass over the trace, kept apart
// from scan so that each input class's detection is in one place.

// scanInputs marks the input-class and probe situations tr reached.
func (x *situations) scanInputs(tr *trace.Trace) {
	directs := map[string]wire.Direct{}
	accepted := map[string]int{} // session/call -> answers in the batch answer() accepted
	waiting := map[string]int{}  // client -> claim streams opened with no frame yet
	open := map[string]string{}  // stream id -> client
	pending := map[string]bool{} // session/call whose tool result was pending
	for i := range tr.Records {
		r := &tr.Records[i]
		switch p := r.Payload.(type) {
		case wire.Appended:
			switch d := p.Event.Data.(type) {
			case session.RequestHeader:
				t := strings.TrimSpace(d.Tools)
				if !strings.HasPrefix(t, "[") {
					x.set(sitHeaderToolsNotArray)
				} else if strings.HasPrefix(strings.TrimSpace(t[1:]), "null") || strings.HasPrefix(strings.TrimSpace(t[1:]), `"`) {
					x.set(sitHeaderToolsMixed)
				}
			case session.ToolResult:
				if wire.IsPendingResult(d.Text) {
					pending[p.Session+"/"+d.CallID] = true
				}
			case session.ToolCall:
				if pending[p.Session+"/"+d.CallID] {
					x.set(sitReaskContinued)
				}
			case session.UserMessage:
				if !d.Message.Source.IsQuestionReply() && strings.Contains(d.Message.Text, "answer_to_pending_question") {
					x.set(sitReplyLookalike)
				}
			}
		case wire.FromHost:
			switch f := p.Frame.(type) {
			case wire.Waterfall:
				if bytes.Contains(f.Request, []byte("ecommended)")) {
					x.set(sitRecommendedOption)
				}
			case wire.StreamItem:
				if c, ok := open[f.StreamID]; ok {
					waiting[c]--
					delete(open, f.StreamID)
				}
			case wire.StreamEnd:
				if c, ok := open[f.StreamID]; ok {
					waiting[c]--
					delete(open, f.StreamID)
				}
			}
		case wire.OpenStream:
			if p.Endpoint == wire.EndpointAttachWait {
				open[p.StreamID] = r.Actor
				waiting[r.Actor]++
			}
		case wire.LinkDown, wire.Reload:
			for id, c := range open {
				if c == r.Actor {
					delete(open, id)
				}
			}
			waiting[r.Actor] = 0
		case wire.Direct:
			if r.Kind == trace.In {
				directs[p.ID] = p
			}
		case wire.DirectResult:
			d, ok := directs[p.ID]
			if !ok {
				continue
			}
			code := ""
			if p.Err != nil {
				code = p.Err.Code
			}
			key := d.Session + "/" + jsonField(d.Body, "callId")
			switch {
			case code == wire.DuplicateWait:
				x.set(sitDuplicateAskTimed)
			case code == wire.BadTimeout && d.Agent != wire.AgentLive:
				x.set(sitBadTimeoutNotLive)
			case code == wire.BadIntent:
				x.set(sitBadIntent)
			case code == wire.AskAborted && d.Op == wire.OpAsk:
				x.set(sitAbortedAsk)
			case d.Op == wire.OpAnswer && code == "" && string(p.Value) == "true":
				accepted[key] = bytes.Count(d.Body, []byte(`"id"`))
			case d.Op == wire.OpAnswer && code == wire.ReplyQueued:
				if n, ok := accepted[key]; ok && n != bytes.Count(d.Body, []byte(`"id"`)) {
					x.set(sitBadBatchWhileQueued)
				}
			}
		case trace.Snapshot:
			for c, n := range waiting {
				if n > 0 && hasClient(p.Clients, c) {
					x.set(sitProbeBeforeFrame)
				}
			}
			for _, cs := range p.Clients {
				for _, k := range cs.Cards {
					if k.State == wire.StateContinued {
						x.set(sitProbeContinuedCard)
					}
				}
			}
			if len(p.Host.Reservations) > 0 {
				x.set(sitProbeQueuedReply)
			}
		}
	}
}

func hasClient(cs []wire.ClientState, name string) bool {
	for _, c := range cs {
		if c.Client == name {
			return true
		}
	}
	return false
}
