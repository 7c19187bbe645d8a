package conform

import (
	"fmt"
	"slices"
	"strings"
)

// How the wait profile compares a reply with the reference's, and which requirement ids
// each difference judges (docs/PROTOCOL.md, "Profiles", "wait").
//
// The decision orders what happens to one entity (a claim stream's frame before its end;
// a wait's one completion), and times are exact; it does not order what happens to
// different entities at the same instant. A wait that closes ends its claims and
// completes (CLAIM-3, WAIT-10), and neither requirement says which is first: a host whose
// claim streams are async generators reports a claim's end after its wait's closed, or
// before it, by microtask order. So within one reply the events of one instant (a run of
// events with the same at) are compared entity by entity: each claim's and each wait's
// subsequence exactly, the instant's events as a set across entities. The instants
// themselves, their times, remainingMs, reasons and the timers count are exact.
//
// A difference names the ids its comparison judges, as the projection profile's do
// (waitJudge): a frame judges WAIT-4, an end the rule that ended (or should not have
// ended) the stream, a closed the rule that closed (or should not have closed) the wait,
// the timers count the rule of the step that changed it (WAIT-5, WAIT-9, WAIT-10) and
// WAIT-2 for a timer with a claim held or when no other rule applies. A failing script's
// row marks only those ids failed.

// waitEntity is the entity an event is of: its claim stream, or its wait.
func waitEntity(e WaitEvent) string {
	if e.Event == WaitEventClosed {
		return "wait " + e.Wait
	}
	return "claim " + e.Claim
}

// waitInstants splits events into instants: maximal runs of events with the same at.
func waitInstants(evs []WaitEvent) [][]WaitEvent {
	var out [][]WaitEvent
	for i := 0; i < len(evs); {
		j := i + 1
		for j < len(evs) && evs[j].At == evs[i].At {
			j++
		}
		out = append(out, evs[i:j])
		i = j
	}
	return out
}

// ofEntity is the subsequence of evs of entity ent.
func ofEntity(evs []WaitEvent, ent string) []WaitEvent {
	var out []WaitEvent
	for _, e := range evs {
		if waitEntity(e) == ent {
			out = append(out, e)
		}
	}
	return out
}

// entities are the entities of evs, in order of first appearance.
func entities(evs ...[]WaitEvent) []string {
	var out []string
	for _, l := range evs {
		for _, e := range l {
			if ent := waitEntity(e); !slices.Contains(out, ent) {
				out = append(out, ent)
			}
		}
	}
	return out
}

func eventList(evs []WaitEvent) string {
	if len(evs) == 0 {
		return "nothing"
	}
	s := make([]string, len(evs))
	for i, e := range evs {
		s[i] = e.String()
	}
	return strings.Join(s, ", ")
}

// diffWaitReply is the difference of a virtual-time reply from the reference's ("" when
// none) and the ids that comparison judges: per instant, each entity's events exactly
// and in order, the instant's events as a set across entities; then the timers armed.
func diffWaitReply(j waitJudge, got WaitReply) (string, []string) {
	ri, gi := waitInstants(j.ref.Events), waitInstants(got.Events)
	for k := 0; k < max(len(ri), len(gi)); k++ {
		var r, g []WaitEvent
		switch {
		case k >= len(gi):
			r = ri[k]
		case k >= len(ri):
			g = gi[k]
		case ri[k][0].At == gi[k][0].At:
			r, g = ri[k], gi[k]
		case ri[k][0].At < gi[k][0].At:
			r = ri[k]
		default:
			g = gi[k]
		}
		var at int64
		if len(r) > 0 {
			at = r[0].At
		} else {
			at = g[0].At
		}
		var parts []string
		var ids []string
		for _, ent := range entities(r, g) {
			re, ge := ofEntity(r, ent), ofEntity(g, ent)
			if slices.Equal(re, ge) {
				continue
			}
			part := fmt.Sprintf("%s: host %s", ent, eventList(ge))
			if len(ge) == 0 {
				if elsewhere := ofEntity(got.Events, ent); len(elsewhere) > 0 {
					part += " (it reported " + eventList(elsewhere) + " elsewhere in its reply)"
				}
			}
			part += ", reference " + eventList(re)
			if len(re) == 0 {
				if elsewhere := ofEntity(j.ref.Events, ent); len(elsewhere) > 0 {
					part += " (it has " + eventList(elsewhere) + " elsewhere in its reply)"
				}
			}
			parts = append(parts, part)
			ids = append(ids, j.entityIDs(re, ge, got.Events)...)
		}
		if len(parts) > 0 {
			return fmt.Sprintf("at %d, %s", at, strings.Join(parts, "; ")), waitIDs(ids)
		}
	}
	if got.Timers != j.ref.Timers {
		return fmt.Sprintf("timers armed: host %d, reference %d", got.Timers, j.ref.Timers), j.timersIDs(got)
	}
	return "", nil
}

// waitState is what the reference did so far in a script, as far as judging a
// difference needs it.
type waitState struct {
	streamWait map[string]string // claim stream → the wait it was attached to
	parent     map[string]string // wait → its parent ("" for none)
	created    map[string]bool
	closed     map[string]bool // waits closed
	pulled     map[string]bool // streams pulled (or returned unread: dropped)
	held       map[string]bool // claims held: frame out, no end yet
	ended      map[string]bool // streams ended
	released   map[string]bool // waits that lost a claim: their timer was re-armed (WAIT-5)
}

func newWaitState() *waitState {
	st := &waitState{}
	st.reset()
	return st
}

func (st *waitState) reset() {
	*st = waitState{
		streamWait: map[string]string{}, parent: map[string]string{}, created: map[string]bool{},
		closed: map[string]bool{}, pulled: map[string]bool{}, held: map[string]bool{},
		ended: map[string]bool{}, released: map[string]bool{},
	}
}

// observe folds in step s and the reference's reply to it.
func (st *waitState) observe(s WaitStep, ref WaitReply) {
	switch s.Op {
	case WaitOpReset:
		st.reset()
		return
	case WaitOpCreate:
		if !st.created[s.Wait] {
			st.created[s.Wait] = true
			st.parent[s.Wait] = s.Parent
		}
	case WaitOpAttach:
		if _, ok := st.streamWait[s.Claim]; !ok {
			st.streamWait[s.Claim] = s.Wait
		}
	case WaitOpPull:
		if _, ok := st.streamWait[s.Claim]; ok {
			st.pulled[s.Claim] = true
		}
	case WaitOpReturn:
		if _, ok := st.streamWait[s.Claim]; ok && !st.pulled[s.Claim] {
			st.pulled[s.Claim], st.ended[s.Claim] = true, true
		}
	}
	for _, e := range ref.Events {
		switch e.Event {
		case WaitEventFrame:
			st.held[e.Claim] = true
		case WaitEventEnd:
			if st.held[e.Claim] {
				st.released[st.streamWait[e.Claim]] = true
			}
			st.held[e.Claim], st.ended[e.Claim] = false, true
		case WaitEventClosed:
			st.closed[e.Wait] = true
		}
	}
}

// waitJudge judges the differences of one step's reply: the state before the step, the
// step and the reference's reply to it.
type waitJudge struct {
	st  *waitState
	s   WaitStep
	ref WaitReply
}

// onClaim reports whether the step is op on a stream attached to wait w.
func (j waitJudge) onClaim(w string, ops ...string) bool {
	if !slices.Contains(ops, j.s.Op) {
		return false
	}
	sw, ok := j.st.streamWait[j.s.Claim]
	return ok && sw == w
}

// refEvent is the reference's first event of kind on entity ent in this reply.
func (j waitJudge) refEvent(kind, ent string) (WaitEvent, bool) {
	for _, e := range j.ref.Events {
		if e.Event == kind && waitEntity(e) == ent {
			return e, true
		}
	}
	return WaitEvent{}, false
}

// refClosed is the reference's closing of wait w in this reply.
func (j waitJudge) refClosed(w string) (WaitEvent, bool) {
	return j.refEvent(WaitEventClosed, "wait "+w)
}

// closeIDs are the ids judging the reference's closing of a wait (e): what closed it.
func (j waitJudge) closeIDs(e WaitEvent) []string {
	w := e.Wait
	switch {
	case j.s.Op == WaitOpClose && j.s.Wait == w:
		return []string{"WAIT-10"} // the foreground request settled: it completes, once
	case j.s.Op == WaitOpAbort && j.s.Parent != "" && j.st.parent[w] == j.s.Parent,
		j.s.Op == WaitOpCreate && j.s.Wait == w:
		return []string{"WAIT-9"} // a parent's abort (or one before the wait was made)
	case e.Reason != ReasonTimedOut:
		return []string{"WAIT-9"}
	case e.At == j.s.Now && j.onClaim(w, WaitOpPull):
		return []string{"WAIT-6", "WAIT-8"} // attached after the deadline with no claim
	case e.At == j.s.Now && j.onClaim(w, WaitOpReturn, WaitOpCancel):
		return []string{"WAIT-5", "WAIT-8"} // the last claim lost after the deadline
	case j.st.released[w]:
		return []string{"WAIT-1", "WAIT-5", "WAIT-8"} // the original deadline, restored
	}
	return []string{"WAIT-1", "WAIT-8"} // an unattended wait at its fixed deadline
}

// refIDs are the ids judging a reference event the host did not report (or reported
// otherwise).
func (j waitJudge) refIDs(e WaitEvent) []string {
	switch e.Event {
	case WaitEventFrame:
		if e.RemainingMs == 0 {
			return []string{"WAIT-4", "WAIT-6"} // with another claim held after the deadline
		}
		return []string{"WAIT-4"}
	case WaitEventClosed:
		return j.closeIDs(e)
	}
	c := e.Claim
	w := j.st.streamWait[c]
	cl, closing := j.refClosed(w)
	switch {
	case j.s.Op == WaitOpPull && j.s.Claim == c:
		if closing && cl.Reason == ReasonTimedOut {
			return []string{"WAIT-6"} // the wait expired at the attach: no frame
		}
		return []string{"WAIT-7"} // a cancelled signal, a closed or unknown wait: no frame
	case (j.s.Op == WaitOpReturn || j.s.Op == WaitOpCancel) && j.s.Claim == c:
		return []string{"WAIT-5"} // a claim released
	case closing:
		switch ids := j.closeIDs(cl); ids[0] {
		case "WAIT-10":
			return []string{"CLAIM-3"} // the host closes the claim when the request settles
		case "WAIT-9":
			return ids // every claim stream ends
		}
		return []string{"WAIT-8"}
	}
	return []string{"WAIT-4"}
}

// gotIDs are the ids judging a host event the reference does not have at that instant;
// host are all the host's events of the reply.
func (j waitJudge) gotIDs(e WaitEvent, host []WaitEvent) []string {
	ent := waitEntity(e)
	n := 0
	for _, h := range host {
		if h.Event == e.Event && waitEntity(h) == ent {
			n++
		}
	}
	if r, ok := j.refEvent(e.Event, ent); ok {
		if n > 1 && e.Event == WaitEventClosed {
			return []string{"WAIT-10"} // completion signalled more than once
		}
		return j.refIDs(r) // the reference's, otherwise or at another time
	}
	switch e.Event {
	case WaitEventFrame:
		c := e.Claim
		switch {
		case j.s.Op == WaitOpPull && j.s.Claim == c:
			if _, ok := j.refEvent(WaitEventEnd, ent); ok {
				return j.refIDs(WaitEvent{Event: WaitEventEnd, Claim: c}) // no frame: WAIT-6 or WAIT-7
			}
			return []string{"WAIT-4"} // one frame a claim, at its first pull
		case !j.st.pulled[c]:
			return []string{"WAIT-3"} // a stream not pulled is not a claim
		}
		return []string{"WAIT-4"}
	case WaitEventEnd:
		c := e.Claim
		w := j.st.streamWait[c]
		switch {
		case j.st.ended[c] || n > 1:
			if j.s.Op == WaitOpClose {
				return []string{"WAIT-10"} // closing again did something
			}
			return []string{"WAIT-4"} // a stream ends once
		case !j.st.pulled[c] && !(j.s.Op == WaitOpPull && j.s.Claim == c):
			return []string{"WAIT-3"} // a stream not pulled is not a claim: nothing to end
		case j.s.Op == WaitOpPull && j.s.Claim == c:
			return []string{"WAIT-4"} // the first pull yields a frame and the claim stays open
		}
		for _, h := range host {
			if h.Event == WaitEventClosed && h.Wait == w {
				if _, ok := j.refClosed(w); !ok {
					return j.gotIDs(h, host) // ended by a closing the reference does not do
				}
			}
		}
		if j.s.Claim == c && (j.s.Op == WaitOpReturn || j.s.Op == WaitOpCancel) {
			return []string{"WAIT-5"}
		}
		return []string{"WAIT-4"} // the claim stays open for its lifetime
	}
	w := e.Wait
	switch {
	case j.st.closed[w] || n > 1:
		return []string{"WAIT-10"} // completion signalled more than once
	case j.onClaim(w, WaitOpAttach):
		return []string{"WAIT-3"} // an attach is not a claim, nor anything else
	case j.onClaim(w, WaitOpPull):
		if f, ok := j.refEvent(WaitEventFrame, "claim "+j.s.Claim); ok {
			return j.refIDs(f) // a frame, not an expiry (WAIT-6 with another claim held)
		}
		if _, ok := j.refEvent(WaitEventEnd, "claim "+j.s.Claim); ok {
			return []string{"WAIT-7"} // ends with no frame and does not close the wait
		}
	case j.s.Op == WaitOpAbort:
		return []string{"WAIT-9"}
	}
	if p := j.st.parent[w]; p != "" {
		for _, r := range j.ref.Events {
			if r.Event == WaitEventClosed && r.Reason == ReasonTimedOut && r.Wait != w && j.st.parent[r.Wait] == p {
				return []string{"WAIT-8"} // a sibling's expiry never aborts the parent
			}
		}
	}
	for c, held := range j.st.held {
		if held && j.st.streamWait[c] == w {
			return []string{"WAIT-2"} // no timer while a claim is held
		}
	}
	if j.onClaim(w, WaitOpReturn, WaitOpCancel) {
		return []string{"WAIT-5"} // re-armed for the original deadline, not yet passed
	}
	return []string{"WAIT-1"} // closed before its deadline
}

// entityIDs are the ids judging one entity's differing events at an instant: re the
// reference's, ge the host's; host is every host event of the reply.
func (j waitJudge) entityIDs(re, ge, host []WaitEvent) []string {
	var ids []string
	left := slices.Clone(ge)
	for _, r := range re {
		if k := slices.Index(left, r); k >= 0 {
			left = slices.Delete(left, k, k+1)
			continue
		}
		ids = append(ids, j.refIDs(r)...)
	}
	for _, g := range left {
		ids = append(ids, j.gotIDs(g, host)...)
	}
	if len(ids) == 0 {
		// the same events in another order: a claim's frame comes before its end
		ids = []string{"WAIT-4"}
	}
	return ids
}

// timersIDs are the ids judging a wrong timers count: WAIT-2 (a timer only while no claim
// is held), and the rule of the step that changed the count.
func (j waitJudge) timersIDs(got WaitReply) []string {
	var ids []string
	held := false
	for _, e := range j.ref.Events {
		switch e.Event {
		case WaitEventFrame:
			held = true
		case WaitEventEnd:
			if e.Claim == j.s.Claim && (j.s.Op == WaitOpReturn || j.s.Op == WaitOpCancel) {
				ids = append(ids, "WAIT-5") // the last claim lost re-arms the timer
			}
		}
	}
	for c, h := range j.st.held {
		if h {
			if _, ended := j.refEvent(WaitEventEnd, "claim "+c); !ended {
				held = true
			}
		}
	}
	if held && got.Timers > j.ref.Timers {
		ids = append(ids, "WAIT-2")
	}
	switch j.s.Op {
	case WaitOpAbort:
		ids = append(ids, "WAIT-9") // no timer is left
	case WaitOpClose:
		ids = append(ids, "WAIT-10") // a timer left on a closed wait would complete it again
	}
	if len(ids) == 0 {
		ids = []string{"WAIT-2"}
	}
	return waitIDs(ids)
}

// waitIDs are ids without repeats, in WaitRequirementIDs' order.
func waitIDs(ids []string) []string {
	var out []string
	for _, id := range WaitRequirementIDs {
		if slices.Contains(ids, id) {
			out = append(out, id)
		}
	}
	return out
}
