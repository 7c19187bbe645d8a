package conform

import (
	"bytes"
	"fmt"
	"reflect"
	"strconv"

	"github.com/twosettle/twosettle/engine/session"
	"github.com/twosettle/twosettle/engine/wire"
)

// Snapping (docs/PROTOCOL.md, "Real-time mode"): a host on its own timers reports the
// times it read from its own clock (an event's time, a wait's deadline, a claim's
// remainingMs), a few milliseconds off the reference engine's virtual times for the same
// step. The runner replaces each such time with the reference's when it lies within the
// tolerance, and leaves it as the host wrote it otherwise, so the transcript comparison
// and the oracle judge the run as if it were on virtual time, and a time off by more than
// the tolerance is a difference they report. Only times are snapped, and only where the
// host's value and the reference's sit at the same place (the same effect kind at the
// same index, the same event, the same wait): every other difference stays.
//
// An instant (an event's time, a deadline, a timer's due time) may land early by up to
// Early and late by up to Late plus however late the runner sent the step (the same time
// reported again later snaps as it did then); a duration
// (remainingMs: a deadline minus a now, each read on the host's clock) may be off by
// Early + Late, plus that lateness, either way.

// snapper snaps one reply's times against the reference's.
type snapper struct {
	early, late int64  // ms
	lateness    int64  // how late the runner sent the step after its virtual time, ms
	maxSlack    int64  // the largest distance snapped or seen, ms
	miss        string // the first time off by more than the tolerance ("" none)
	// seen holds the instants snapped earlier in the run, host's to reference's: the same
	// time reported again (an event in a later reset frame or state, a fork's inherited
	// events, a wait's deadline in the state) snaps as it did when it was first reported,
	// with the lateness of the step that made it.
	seen map[[2]int64]bool
}

// instant snaps *got to ref when it is within [ref − early, ref + late + lateness], or
// when the run snapped that host time to ref before. Its slack is how far it lies outside
// [ref, ref + lateness]: a host may take its time anywhere from the step's virtual time to
// when the runner sent it.
func (s *snapper) instant(got *int64, ref int64, what string) {
	if s.seen[[2]int64{*got, ref}] {
		*got = ref
		return
	}
	raw, d := *got, *got-ref
	slack := -d
	if d >= 0 {
		slack = max(d-s.lateness, 0)
	}
	s.snap(got, ref, slack, -s.early, s.late+s.lateness, what)
	if *got == ref && raw != ref && s.seen != nil {
		s.seen[[2]int64{raw, ref}] = true
	}
}

// duration snaps *got to ref when it is within early + late + lateness either way. Its
// slack is how far it lies beyond the lateness.
func (s *snapper) duration(got *int64, ref int64, what string) {
	w := s.early + s.late + s.lateness
	s.snap(got, ref, max(abs(*got-ref)-s.lateness, 0), -w, w, what)
}

// snap sets *got to ref when it lies within [ref + lo, ref + hi], and keeps the largest
// slack; a time outside is left, and the first is reported.
func (s *snapper) snap(got *int64, ref, slack, lo, hi int64, what string) {
	d := *got - ref
	if d == 0 {
		return
	}
	s.maxSlack = max(s.maxSlack, slack)
	if d < lo || d > hi {
		if s.miss == "" {
			s.miss = fmt.Sprintf("%s is %d on the host's clock, %+dms from the reference's %d (allowed %+d..%+dms)", what, *got, d, ref, lo, hi)
		}
		return
	}
	*got = ref
}

// effects snaps got (the host's effects of one step) against ref, pairwise while the two
// have the same kind at the same index. got is changed in place.
func (s *snapper) effects(got, ref []wire.Effect) {
	for i := 0; i < len(got) && i < len(ref); i++ {
		if reflect.TypeOf(got[i]) != reflect.TypeOf(ref[i]) {
			return // the two replies part here
		}
		switch g := got[i].(type) {
		case wire.Appended:
			r, ok := ref[i].(wire.Appended)
			if !ok || g.Session != r.Session {
				return
			}
			s.event(&g.Event, r.Event, g.String())
			got[i] = g
		case wire.WaitNote:
			r, ok := ref[i].(wire.WaitNote)
			if !ok || g.Session != r.Session || g.CallID != r.CallID || g.Kind != r.Kind {
				return
			}
			s.instant(&g.Deadline, r.Deadline, "the deadline of "+g.String())
			s.instant(&g.At, r.At, "the timer of "+g.String())
			s.duration(&g.Remaining, r.Remaining, "the remaining time of "+g.String())
			got[i] = g
		case wire.SendFrame:
			r, ok := ref[i].(wire.SendFrame)
			if !ok || g.Client != r.Client || g.Gen != r.Gen {
				return
			}
			g.Frame = s.frame(g.Frame, r.Frame)
			got[i] = g
		default:
			// A reply, a persisted mark or a direct result carries no time.
		}
	}
}

// frame snaps the times a frame carries: the events of a Session update, and a claim's
// remainingMs in a stream item.
func (s *snapper) frame(got, ref wire.Frame) wire.Frame {
	switch g := got.(type) {
	case wire.SessionUpdate:
		r, ok := ref.(wire.SessionUpdate)
		if !ok || g.Session != r.Session {
			return got
		}
		g.Events = s.events(g.Events, r.Events, "session "+g.Session)
		return g
	case wire.StreamItem:
		r, ok := ref.(wire.StreamItem)
		if !ok || g.StreamID != r.StreamID {
			return got
		}
		g.Value = s.remainingValue(g.Value, r.Value, "stream "+g.StreamID)
		return g
	}
	return got
}

// events snaps a copy of got's event times against ref's, event by event while their
// sequence numbers and types agree.
func (s *snapper) events(got, ref []session.Event, where string) []session.Event {
	out := got
	copied := false
	for i := 0; i < len(got) && i < len(ref); i++ {
		e := got[i]
		s.event(&e, ref[i], where+" "+got[i].String())
		if e.Time != got[i].Time {
			if !copied {
				out, copied = append([]session.Event(nil), got...), true
			}
			out[i] = e
		}
	}
	return out
}

func (s *snapper) event(got *session.Event, ref session.Event, what string) {
	if got.Seq != ref.Seq || got.Type() != ref.Type() {
		return
	}
	s.instant(&got.Time, ref.Time, "the time of "+what)
}

// remainingValue snaps a stream item {"remainingMs":N}: got is replaced by ref's bytes
// when it is ref's text with only that number changed, and the number is within the
// tolerance.
func (s *snapper) remainingValue(got, ref []byte, what string) []byte {
	const key = `"remainingMs":`
	gi, ri := bytes.Index(got, []byte(key)), bytes.Index(ref, []byte(key))
	if gi < 0 || ri < 0 {
		return got
	}
	gn, gEnd := digits(got, gi+len(key))
	rn, rEnd := digits(ref, ri+len(key))
	if gEnd == gi+len(key) || rEnd == ri+len(key) || !bytes.Equal(got[:gi], ref[:ri]) || !bytes.Equal(got[gEnd:], ref[rEnd:]) {
		return got
	}
	g, err1 := strconv.ParseInt(string(gn), 10, 64)
	r, err2 := strconv.ParseInt(string(rn), 10, 64)
	if err1 != nil || err2 != nil {
		return got
	}
	s.duration(&g, r, "remainingMs of "+what)
	if g == r {
		return ref
	}
	return got
}

// digits returns the run of ASCII digits (with a leading minus) at b[i:] and where it ends.
func digits(b []byte, i int) ([]byte, int) {
	j := i
	if j < len(b) && b[j] == '-' {
		j++
	}
	for j < len(b) && b[j] >= '0' && b[j] <= '9' {
		j++
	}
	return b[i:j], j
}

// state snaps a host state's times against the reference's: each Session's log, and
// each wait's deadline and armed timer (the reference's state at the same step).
func (s *snapper) state(got *wire.HostState, ref wire.HostState) {
	for i := range got.Sessions {
		if i >= len(ref.Sessions) || got.Sessions[i].ID != ref.Sessions[i].ID {
			break
		}
		got.Sessions[i].Log = s.events(got.Sessions[i].Log, ref.Sessions[i].Log, "session "+got.Sessions[i].ID+" log")
	}
	for i := range got.Waits {
		if i >= len(ref.Waits) {
			break
		}
		g, r := &got.Waits[i], ref.Waits[i]
		if g.Session != r.Session || g.CallID != r.CallID {
			break
		}
		what := "wait " + g.Session + "/" + g.CallID
		s.instant(&g.Deadline, r.Deadline, "the deadline of "+what)
		if g.TimerAt >= 0 && r.TimerAt >= 0 {
			s.instant(&g.TimerAt, r.TimerAt, "the armed timer of "+what)
		}
	}
}
