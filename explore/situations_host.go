package explore

import (
	"github.com/twosettle/twosettle/engine/session"
	"github.com/twosettle/twosettle/engine/wire"
	"github.com/twosettle/twosettle/trace"
)

// The situations of the host-side inputs issue 12 added to the generator
// (inputs_host_reject.go), kept apart from scan so that their detection is in one place.

// referenceRejection reports whether a reference client sends e (docs/PEER.md §4.7, §8.11).
func referenceRejection(e *wire.Error) bool {
	switch {
	case e == nil:
		return true
	case e.IsDomain():
		return e.Code == wire.AskCancelled && e.Message == wire.MsgAskCancelled || e.Code == wire.AskTimedOut || e.Code == wire.AskAborted
	default:
		return e.Message == "the foreground question wait ended"
	}
}

// scanHost marks the host-input situations tr reached: a foreign rejection that settled a
// call (its message became the call's tool error text, or a direct call's error).
func (x *situations) scanHost(tr *trace.Trace) {
	var foreign []string // "Error: "+message of each foreign rejection the host received
	for i := range tr.Records {
		r := &tr.Records[i]
		switch p := r.Payload.(type) {
		case wire.EventResult:
			if r.Kind == trace.In && p.Outcome.Kind == wire.OutcomeRejected && !referenceRejection(p.Outcome.Error) {
				foreign = append(foreign, "Error: "+p.Outcome.Error.Message)
			}
		case wire.Appended:
			if len(foreign) == 0 {
				continue
			}
			text := ""
			switch d := p.Event.Data.(type) {
			case session.ToolResult:
				text = d.Text
			case session.PTCDispatch:
				text = d.Text
			}
			for _, f := range foreign {
				if text == f {
					x.set(sitForeignRejection)
					return
				}
			}
		}
	}
}
