package harness

import "github.com/twosettle/twosettle/trace"

// Refusal is one Reject record of a run traced back to the sim step that delivered
// the refused input.
type Refusal struct {
	Step int    // index into Sim.Steps (Origin[Step] is its scenario step, or -1)
	Err  string // the refusal's error text
}

// Refusals traces every Reject record of tr back to its step.
//
// The simulator feeds steps one at a time in order, and each delivered step leaves one
// record with its input: in (taken), reject (refused) or, for a user action on a crashed
// client, a drop. So every such record is matched, in trace order, with the first step not
// yet matched with the same time, the same canonical input (Inputs) and the same actor (the
// host, or the client a user step addresses): of two identical steps at one instant, a
// refusal of the second is the second's, not the first's. The command the model actor
// sends by itself (the automatic step end, right after its note) is no step and matches
// none. Reject records it cannot trace are left out.
func (p *Plan) Refusals(tr *trace.Trace) []Refusal {
	var out []Refusal
	// the steps that can match a record, by time, input, actor and whether a user acts:
	// each group in step order, a record taking the first it has not taken (used steps
	// are always a group's prefix, so next[k] is all the state a group needs)
	type stepKey struct {
		at    int64
		in    string
		actor string
		user  bool
	}
	groups := make(map[stepKey][]int)
	for i, st := range p.Sim.Steps {
		k := stepKey{at: st.At.Ms(), in: p.Inputs[i], actor: trace.ActorHost, user: st.User != nil}
		if k.user {
			k.actor = st.Client
		}
		groups[k] = append(groups[k], i)
	}
	next := make(map[stepKey]int)
	first := func(k stepKey) (int, bool) {
		g, n := groups[k], next[k]
		if n < len(g) {
			return g[n], true
		}
		return 0, false
	}
	auto := false // the previous record is the model actor's automatic step end
	for _, rec := range tr.Records {
		wasAuto := auto
		auto = rec.Actor == trace.ActorModel && rec.Kind == trace.Note
		var input trace.Payload
		actor, rejected, errText, userOnly := rec.Actor, false, "", false
		switch rec.Kind {
		case trace.In:
			input = rec.Payload
		case trace.Reject:
			rj, ok := rec.Payload.(trace.Rejected)
			if !ok || rj.Input == nil {
				continue
			}
			input, rejected, errText = rj.Input, true, rj.Err
		case trace.Drop:
			d, ok := rec.Payload.(trace.Dropped)
			if !ok || d.Why != trace.WhyCrashed {
				continue
			}
			input, actor, userOnly = d.What, d.To, true
		default:
			continue
		}
		if input == nil || (wasAuto && actor == trace.ActorHost) {
			continue
		}
		// the first unused step with this time, input and actor (a user step only, for a
		// user's input the crash dropped)
		k := stepKey{at: rec.Time, in: input.String(), actor: actor, user: true}
		i, ok := first(k)
		if !userOnly {
			h := k
			h.user = false
			if j, okh := first(h); okh && (!ok || j < i) {
				i, ok, k = j, true, h
			}
		}
		if !ok {
			continue
		}
		next[k]++
		if rejected {
			out = append(out, Refusal{Step: i, Err: errText})
		}
	}
	return out
}
