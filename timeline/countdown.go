package timeline

import (
	"encoding/json"
	"strings"

	"github.com/twosettle/twosettle/engine/wire"
	"github.com/twosettle/twosettle/trace"
	"github.com/twosettle/twosettle/tracemodel"
)

// Countdown states, as the countdown rows show them (docs/REQUIREMENTS.md CD-1..CD-6).
const (
	cdRunning = "running" // counting down on the client's own clock (CD-1)
	cdPaused  = "paused"  // a focus pause on a pristine surface (CD-2)
	cdFrozen  = "frozen"  // frozen for good by the first edit (CD-4)
	cdHeld    = "held"    // held by Take time (CD-4, CD-9)
)

// cdSeg is one stretch of a client's countdown in one state, in host (trace) time.
type cdSeg struct {
	state    string
	from, to int64
	fromRec  int
	toRec    int   // -1: still in this state at the end of the run
	left     int64 // ms left on the client's clock at from
	due      int64 // running: the host time at which the local deadline falls
}

// countdown is one client's local countdown on one call's timed wait, drawn from the
// client's own records: the claim stream's item frame ({"remainingMs":N}) starts it at
// the client's clock reading plus N (CD-1); a focus pauses it (one before the claim
// handshake once it starts, CD-3), an edit (choose, type,
// skip) freezes it and Take time holds it for good (CD-2, CD-4, a disposition a reload
// keeps); a local expiry is the client's own ASK_TIMED_OUT result (CD-6); the stream's
// end, a cancel, a lost link or a reload stop it until the next item frame. A probe
// (a snapshot in the trace) shows each card's countdown as the client itself reports it
// (remaining ms, running or paused, its wait state): where one is recorded, it wins over
// the inference, so a client that does not do what its inputs say (a mutant that ignores
// Take time) is drawn as it is.
type countdown struct {
	client     string
	call       *call
	segs       []cdSeg
	deadline   int64  // on the client's clock; valid while a segment is open
	disp       string // "", cdFrozen or cdHeld: survives a reload
	focus      bool
	open       bool
	expired    []point
	lastRecIdx int
}

func (cd *countdown) cur() *cdSeg {
	if !cd.open || len(cd.segs) == 0 {
		return nil
	}
	return &cd.segs[len(cd.segs)-1]
}

func (cd *countdown) left(r trace.Record) int64 { return max(0, cd.deadline-r.ClientTime) }

// enter closes the open segment (if any) at record i and opens one in state.
func (cd *countdown) enter(state string, i int, r trace.Record) {
	if s := cd.cur(); s != nil {
		if s.state == state {
			return
		}
		s.to, s.toRec = r.Time, i
	}
	left := cd.left(r)
	seg := cdSeg{state: state, from: r.Time, fromRec: i, toRec: -1, left: left}
	if state == cdRunning {
		seg.due = r.Time + left
	}
	cd.segs = append(cd.segs, seg)
	cd.open = true
}

func (cd *countdown) stop(i int, r trace.Record) {
	if s := cd.cur(); s != nil {
		s.to, s.toRec = r.Time, i
	}
	cd.open = false
}

func (cd *countdown) state() string {
	switch {
	case cd.disp != "":
		return cd.disp
	case cd.focus:
		return cdPaused
	}
	return cdRunning
}

// countdownFor is client's countdown on call c, made on first use.
func (b *builder) countdownFor(client string, c *call) *countdown {
	for _, cd := range b.m.countdowns {
		if cd.client == client && cd.call == c {
			return cd
		}
	}
	cd := &countdown{client: client, call: c}
	b.m.countdowns = append(b.m.countdowns, cd)
	return cd
}

// targetCountdown is the countdown a user action names: its card's call id, or the
// client's most recently started countdown for the card in the composer seat ("").
func (b *builder) targetCountdown(client string, a wire.UserAction) *countdown {
	var best *countdown
	for _, cd := range b.m.countdowns {
		if cd.client != client {
			continue
		}
		switch {
		case a.Card != "" && !strings.HasPrefix(a.Card, "#"):
			if cd.call.id == a.Card && (a.Session == "" || cd.call.session == a.Session) {
				return cd
			}
		case a.Card == "" && cd.open:
			if best == nil || cd.lastRecIdx > best.lastRecIdx {
				best = cd
			}
		}
	}
	return best
}

// probeCountdowns reconciles the countdowns with the clients' own cards in a snapshot
// taken at record i (a probe): an open countdown takes the card's state and remainder.
func (b *builder) probeCountdowns(i int, r trace.Record, clients []wire.ClientState) {
	for _, cs := range clients {
		for _, card := range cs.Cards {
			if card.Countdown == nil || card.CallID == "" {
				continue
			}
			c := b.knownAt(card.Session, card.CallID, i)
			if c == nil {
				continue
			}
			cd := b.countdownFor(cs.Client, c)
			if !cd.open {
				continue
			}
			state := cdRunning
			switch {
			case card.Countdown.Running:
				cd.disp, cd.focus = "", false
			case card.WaitState == wire.WaitStateWaiting:
				state, cd.disp = cdHeld, cdHeld
			case card.WaitState == wire.WaitStateEditing:
				state, cd.disp = cdFrozen, cdFrozen
			default:
				state, cd.focus = cdPaused, true
			}
			// the remainder on the client's clock: its reading now is the host's time
			// plus its last known skew
			cd.deadline = r.Time + b.skew[cs.Client] + card.Countdown.RemainingMs
			if s := cd.cur(); s != nil && s.state == state {
				if state == cdRunning {
					s.due = r.Time + card.Countdown.RemainingMs
				}
				continue
			}
			probe := r
			probe.ClientTime = r.Time + b.skew[cs.Client]
			if s := cd.cur(); s != nil {
				s.to, s.toRec = r.Time, i
			}
			cd.open = false
			cd.enter(state, i, probe)
		}
	}
}

// clientRecord reads the records of a client's lane that move its countdowns.
func (b *builder) clientRecord(i int, r trace.Record) {
	b.skew[r.Actor] = r.ClientTime - r.Time
	fact := &b.run.Facts[i]
	switch r.Kind {
	case trace.Out:
		switch e := r.Payload.(type) {
		case wire.SendResult:
			if e.Outcome.Kind != wire.OutcomeRejected || e.Outcome.Error == nil || e.Outcome.Error.Code != wire.AskTimedOut {
				return
			}
			if c := b.requestCall(fact.Request); c != nil {
				cd := b.countdownFor(r.Actor, c)
				cd.expired = append(cd.expired, point{kind: "cdexpired", t: r.Time, rec: i, text: "local expiry on " + r.Actor + " (ASK_TIMED_OUT)"})
				cd.stop(i, r)
			}
		}
	case trace.In:
		switch e := r.Payload.(type) {
		case wire.FromHost:
			b.clientFrame(i, r, e.Frame, fact)
		case wire.LinkDown, wire.Reload:
			for _, cd := range b.m.countdowns {
				if cd.client == r.Actor {
					cd.stop(i, r)
					if _, ok := e.(wire.Reload); ok {
						cd.focus = false
					}
				}
			}
		case wire.User:
			cd := b.targetCountdown(r.Actor, e.Action)
			if cd == nil {
				// a focus before the claim handshake takes effect when the countdown
				// starts; a blur before it undoes that (CD-3)
				switch e.Action.Kind {
				case wire.ActFocus:
					b.focusFirst[r.Actor] = e.Action.Card
				case wire.ActBlur, wire.ActWindowBlur:
					delete(b.focusFirst, r.Actor)
				}
				return
			}
			switch e.Action.Kind {
			case wire.ActChoose, wire.ActType, wire.ActSkip:
				if cd.disp == "" {
					cd.disp = cdFrozen
				}
			case wire.ActTakeTime:
				if cd.disp == "" {
					cd.disp = cdHeld
				}
			case wire.ActFocus, wire.ActWindowFocus:
				cd.focus = true
			case wire.ActBlur, wire.ActWindowBlur:
				cd.focus = false
			default:
				return
			}
			if cd.open {
				cd.enter(cd.state(), i, r)
			}
		}
	}
}

// streamCall is the bar of the call a client's claim stream is on.
func (b *builder) streamCall(s *tracemodel.ClientStream) *call {
	if s == nil {
		return nil
	}
	return b.callOf(s.Call)
}

// requestCall is the bar of the call a waterfall request's wait names.
func (b *builder) requestCall(q *tracemodel.Request) *call {
	if q == nil {
		return nil
	}
	return b.callOf(q.Call)
}

func (b *builder) clientFrame(i int, r trace.Record, f wire.Frame, fact *tracemodel.Fact) {
	switch f := f.(type) {
	case wire.StreamItem:
		c := b.streamCall(fact.ClientStream)
		if c == nil {
			return
		}
		var v struct {
			RemainingMs *int64 `json:"remainingMs"`
		}
		if json.Unmarshal(f.Value, &v) != nil || v.RemainingMs == nil {
			return
		}
		cd := b.countdownFor(r.Actor, c)
		if cd.open && cd.disp != "" {
			return // frozen or held for good: a new claim does not restart it
		}
		cd.deadline = r.ClientTime + *v.RemainingMs
		cd.lastRecIdx = i
		if card, ok := b.focusFirst[r.Actor]; ok && (card == "" || card == c.id) {
			cd.focus = true
			delete(b.focusFirst, r.Actor)
		}
		if s := cd.cur(); s != nil {
			s.to, s.toRec = r.Time, i
		}
		cd.open = false
		cd.enter(cd.state(), i, r)
	case wire.StreamEnd, wire.StreamError:
		if c := b.streamCall(fact.ClientStream); c != nil {
			b.countdownFor(r.Actor, c).stop(i, r)
		}
	case wire.Cancel:
		if c := b.requestCall(fact.Request); c != nil {
			for _, cd := range b.m.countdowns {
				if cd.client == r.Actor && cd.call == c {
					cd.stop(i, r)
				}
			}
		}
	}
}

// skew is a client's clock reading minus the host's at each of its records, as a list
// of the distinct values in order (one value: a constant skew).
func clockSkews(recs []trace.Record, client string) []int64 {
	var out []int64
	for _, r := range recs {
		if r.Actor != client {
			continue
		}
		d := r.ClientTime - r.Time
		if len(out) == 0 || out[len(out)-1] != d {
			out = append(out, d)
		}
	}
	return out
}
