package harness

import "github.com/twosettle/twosettle/trace"

// Refusal is one Reject record of a run traced back to the sim step that delivered
// the refused input.
type Refusal struct {
	Step int    // index into Sim.Steps (Origin[Step] is its scenario step, or -1)
	Err  string // the refusal's error text
}

// Refusals traces every Reject record of tr back to its step: the first step not yet
// matched with the record's time, the same canonical input (Inputs) and the same actor
// (the host, or the client a user step addresses). Records it cannot trace are left out.
func (p *Plan) Refusals(tr *trace.Trace) []Refusal {
	var out []Refusal
	used := make([]bool, len(p.Sim.Steps))
	for _, rec := range tr.Records {
		if rec.Kind != trace.Reject {
			continue
		}
		rj, ok := rec.Payload.(trace.Rejected)
		if !ok || rj.Input == nil {
			continue
		}
		in := rj.Input.String()
		for i, st := range p.Sim.Steps {
			if used[i] || st.At.Ms() != rec.Time || p.Inputs[i] != in {
				continue
			}
			actor := trace.ActorHost
			if st.User != nil {
				actor = st.Client
			}
			if actor != rec.Actor {
				continue
			}
			used[i] = true
			out = append(out, Refusal{Step: i, Err: rj.Err})
			break
		}
	}
	return out
}
