package conform

import (
	"fmt"

	"github.com/twosettle/twosettle/engine/wire"
	"github.com/twosettle/twosettle/harness"
	"github.com/twosettle/twosettle/scenarios"
	"github.com/twosettle/twosettle/sim"
	"github.com/twosettle/twosettle/trace"
)

// LibraryWaitScripts are the wait scripts derived from the scenario library: each
// scenario is run against the reference host (at its own seed) and the wait operations
// the host performed are read back from its wait notes (wire.WaitNote):
//
//   - created (deadline) at t: create, timeout deadline − t, under a parent of its own;
//   - claimed at t: a claim stream attached and pulled at t;
//   - released at t, not as part of a close: the oldest claim held is returned;
//   - closed without an expiry: "completed" and "unload" are a close with ASK_ABORTED;
//     any other reason is the parent's abort with that reason; after an expiry, nothing
//     (the reference expires the wait itself).
//
// A host restart makes fresh waits (a wait's name counts its creations). A host stall (a
// harness fault that holds the host's timers back) is not carried over: in the script
// each wait expires at its own time, as the profile requires. Each script ends
// with time advanced to the end of the run. Scenarios whose host made no wait give none.
// What the notes cannot show (a claim attached with a cancelled signal, a pull that ended
// with no frame) the generator covers.
func LibraryWaitScripts() ([]WaitScript, error) {
	var out []WaitScript
	runner := sim.NewRunner()
	ports := map[string]wire.ClientPort{}
	var tr trace.Trace
	for _, e := range harness.Library("") {
		s, err := scenarios.Decode(e.Path, e.Data)
		if err != nil {
			return nil, err
		}
		x := harness.Execute(harness.Compile(s, 0), harness.ReferenceHost(""), "", runner, ports, &tr)
		if x.Lost != nil || x.ConfigErr != nil || x.Refused != nil {
			continue
		}
		if steps := waitStepsOf(tr.Records); len(steps) > 0 {
			out = append(out, WaitScript{Name: "wait library " + s.Name, Path: e.Path, Source: "library", Steps: steps})
		}
	}
	return out, nil
}

// waitStepsOf reads the wait operations back from a run's host wait notes.
func waitStepsOf(records []trace.Record) []WaitStep {
	type libWait struct {
		name   string
		held   []string // claim names held, oldest first
		closed bool
	}
	var notes []struct {
		at int64
		n  wire.WaitNote
	}
	for _, r := range records {
		if n, ok := r.Payload.(wire.WaitNote); ok && r.Actor == "host" {
			notes = append(notes, struct {
				at int64
				n  wire.WaitNote
			}{r.Time, n})
		}
	}
	var steps []WaitStep
	live := map[string]*libWait{}
	made := map[string]int{}
	claims := 0
	var end int64
	for i, x := range notes {
		key := x.n.Session + "/" + x.n.CallID
		w := live[key]
		end = max(end, x.at)
		switch x.n.Kind {
		case wire.WaitCreated:
			made[key]++
			w = &libWait{name: fmt.Sprintf("%s#%d", key, made[key])}
			live[key] = w
			timeout := x.n.Deadline - x.at
			if timeout < 1 || timeout > maxWaitTimeout {
				w.closed = true // not a wait this profile can make
				continue
			}
			steps = append(steps, WaitStep{Now: x.at, Op: WaitOpCreate, Wait: w.name, TimeoutMs: timeout, Parent: "turn:" + w.name})
		case wire.WaitClaimed:
			if w == nil || w.closed {
				continue
			}
			claims++
			k := fmt.Sprintf("k%d", claims)
			w.held = append(w.held, k)
			steps = append(steps,
				WaitStep{Now: x.at, Op: WaitOpAttach, Claim: k, Wait: w.name},
				WaitStep{Now: x.at, Op: WaitOpPull, Claim: k})
		case wire.WaitReleased:
			if w == nil || w.closed || len(w.held) == 0 || closingAt(notes[i+1:], key, x.at) {
				continue
			}
			steps = append(steps, WaitStep{Now: x.at, Op: WaitOpReturn, Claim: w.held[0]})
			w.held = w.held[1:]
		case wire.WaitExpired:
			if w != nil {
				w.closed = true
			}
		case wire.WaitClosed:
			if w == nil || w.closed {
				continue
			}
			w.closed = true
			switch x.n.Reason {
			case "completed", "unload":
				steps = append(steps, WaitStep{Now: x.at, Op: WaitOpClose, Wait: w.name, Reason: wire.AskAborted})
			default:
				reason := x.n.Reason
				if reason == "" {
					reason = wire.AskAborted
				}
				steps = append(steps, WaitStep{Now: x.at, Op: WaitOpAbort, Parent: "turn:" + w.name, Reason: reason})
			}
		}
	}
	if len(steps) == 0 {
		return nil
	}
	for _, r := range records {
		end = max(end, r.Time)
	}
	return append(steps, WaitStep{Now: end, Op: WaitOpAdvance})
}

// closingAt reports whether the notes after a release close the same wait at the same
// time with only releases of it in between (a close releases its claims first).
func closingAt(rest []struct {
	at int64
	n  wire.WaitNote
}, key string, at int64) bool {
	for _, x := range rest {
		if x.n.Session+"/"+x.n.CallID != key {
			continue
		}
		if x.at != at {
			return false
		}
		switch x.n.Kind {
		case wire.WaitReleased:
			continue
		case wire.WaitClosed:
			return true
		}
		return false
	}
	return false
}
