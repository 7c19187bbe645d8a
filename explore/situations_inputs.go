package explore

import (
	"bytes"
	"strings"

	"github.com/twosettle/twosettle/engine/session"
	"github.com/twosettle/twosettle/engine/wire"
	"github.com/twosettle/twosettle/trace"
	"github.com/twosettle/twosettle/tracemodel"
)

// The situations of the input classes issue 12 added to the generator (inputs.go), and
// of the probes the snapshot invariants judge: one more pass over the trace, kept apart
// from scan so that each input class's detection is in one place.

// scanInputs marks the input-class and probe situations run reached.
func (x *situations) scanInputs(run *tracemodel.Run) {
	accepted := map[string]int{} // session/call -> answers in the batch answer() accepted
	pending := map[string]bool{} // session/call whose tool result was pending
	for i := range run.Records {
		r, f := &run.Records[i], &run.Facts[i]
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
				if f.Result.Kind == tracemodel.Pending {
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
			}
		case wire.DirectResult:
			if f.Direct == nil {
				continue
			}
			d := f.Direct.Cmd
			code := ""
			if p.Err != nil {
				code = p.Err.Code
			}
			key := d.Session + "/" + f.Direct.CallID
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
			for _, cs := range run.Client {
				if cs.Waiting(i) && hasClient(p.Clients, cs.Client) {
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
