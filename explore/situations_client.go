package explore

import (
	"github.com/twosettle/twosettle/engine/wire"
	"github.com/twosettle/twosettle/trace"
	"github.com/twosettle/twosettle/tracemodel"
)

// The situations of the client input classes (inputs_client_*.go): one more pass over the
// trace, kept apart so that each class's detection is in one place.

// scanClient marks the client input situations the run reached.
func (x *situations) scanClient(run *tracemodel.Run) {
	type cc struct{ client, session, call string }
	nq := map[cc]int{}        // questions of the last request a client took for a call
	editedAt := map[cc]int{}  // question count when the client's user last edited the call's card
	reloaded := map[cc]bool{} // the client reloaded since that edit
	for i := range run.Records {
		r := &run.Records[i]
		if r.Kind != trace.In {
			continue
		}
		switch p := r.Payload.(type) {
		case wire.FromHost:
			f, ok := p.Frame.(wire.Waterfall)
			q := run.Facts[i].Request
			if !ok || q == nil {
				continue
			}
			call, questions := q.Asked()
			if call == "" {
				continue
			}
			k := cc{r.Actor, f.AgentID, call}
			nq[k] = len(questions)
			if n, ok := editedAt[k]; ok && reloaded[k] && n != len(questions) {
				x.set(sitDraftReshaped)
			}
		case wire.Reload:
			for k := range editedAt {
				if k.client == r.Actor {
					reloaded[k] = true
				}
			}
		case wire.User:
			switch p.Action.Kind {
			case wire.ActChoose, wire.ActType, wire.ActSkip:
				for k, n := range nq {
					if k.client == r.Actor && k.call == p.Action.Card && (p.Action.Session == "" || p.Action.Session == k.session) {
						editedAt[k], reloaded[k] = n, false
					}
				}
			}
		}
	}
}
