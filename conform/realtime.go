package conform

import (
	"fmt"
	"time"

	"github.com/benbjohnson/clock"
)

// Real-time mode (docs/PROTOCOL.md, "Real-time mode"): for a host on its own timers,
// which cannot take time from the runner. The runner paces virtual time on a real clock
// (github.com/benbjohnson/clock: the real one in conform, the library's mock in tests):
// the step at virtual time v is sent at the script's start plus v milliseconds. The host's
// events carry its own time ("at", milliseconds since the reset), and each must land within
// the tolerance of the reference's virtual time for it; an event may arrive with a later
// reply than the reference's (a timer that fires between two requests), never after the
// next one. Such a run depends on the machine's timing: it is not replayable, and every
// report says so.

// Default tolerances of real-time mode (conform --early, --late).
const (
	DefaultEarly = 5 * time.Millisecond  // Node's timers round to the millisecond; the host's clock starts a little after the runner's
	DefaultLate  = 50 * time.Millisecond // a shared CI machine: a timer callback, a pipe write and a read
)

// Tolerance is how far from its virtual time an event of a real-time host may land.
type Tolerance struct {
	Early time.Duration // before its virtual time
	Late  time.Duration // after it
}

func (t Tolerance) String() string {
	return fmt.Sprintf("early %dms, late %dms", t.Early.Milliseconds(), t.Late.Milliseconds())
}

// RealtimeInfo is what a report says of a real-time run (Report.Realtime): its tolerance
// and the largest timing slack it saw (the distance of an event from its virtual time, or
// of a frame's remainingMs from the reference's, in milliseconds).
type RealtimeInfo struct {
	Tolerance
	MaxSlackMs int64
}

// pacer paces virtual milliseconds on a clock.
type pacer struct {
	clk clock.Clock
	t0  time.Time
}

// start makes now virtual time 0.
func (p *pacer) start() { p.t0 = p.clk.Now() }

// until sleeps until virtual time v and returns the time it woke at, in ms since 0 (v,
// or later when the clock overslept).
func (p *pacer) until(v int64) int64 {
	if d := p.t0.Add(time.Duration(v) * time.Millisecond).Sub(p.clk.Now()); d > 0 {
		p.clk.Sleep(d)
	}
	return p.clk.Since(p.t0).Milliseconds()
}

// realtimeCheck compares a real-time host's replies with the reference's, step by step.
//
// Each reference event has an expected time on the runner's clock: a timer's expiry
// before the step's operation is due at its virtual time; what the operation itself does
// (a frame, an end, a close, and a timer it made due at once) is due when the runner sent
// the step, which is its virtual time plus however late the runner was. A host event
// must be the next reference event of its entity in the reference's next instant (the
// events of one step at one virtual time: as on virtual time, their order across
// entities is free, each entity's is not; frames within early+late of remainingMs) and
// land within [expected − early, expected + late]; by the reply to a step sent at S,
// every reference event expected by S − late must be in.
type realtimeCheck struct {
	tol      Tolerance
	ref      []expected // every reference event so far, with the time it is expected at
	next     int        // the first reference event the host has not reported
	reported int        // how many reference events the host has reported
	steps    int        // how many steps were added
	maxSlack int64      // ms
}

type expected struct {
	WaitEvent
	at   int64    // ms on the runner's clock since virtual time 0
	step int      // the step whose reply it is in
	ids  []string // the ids its comparison judges
	done bool     // reported by the host
}

func abs(x int64) int64 {
	if x < 0 {
		return -x
	}
	return x
}

// instant is the reference's next instant: the indices of its events not yet reported.
func (c *realtimeCheck) instant() []int {
	for c.next < len(c.ref) && c.ref[c.next].done {
		c.next++
	}
	var out []int
	for k := c.next; k < len(c.ref) && c.ref[k].step == c.ref[c.next].step && c.ref[k].At == c.ref[c.next].At; k++ {
		if !c.ref[k].done {
			out = append(out, k)
		}
	}
	return out
}

// add folds in the replies to step j.s, sent at sent ms, and returns the first failure
// ("" when none) and the ids it judges.
func (c *realtimeCheck) add(j waitJudge, sent int64, got WaitReply) (string, []string) {
	early, late := c.tol.Early.Milliseconds(), c.tol.Late.Milliseconds()
	s := j.s
	for _, e := range j.ref.Events {
		at := sent
		if e.At < s.Now {
			at = e.At
		}
		c.ref = append(c.ref, expected{WaitEvent: e, at: at, step: c.steps, ids: waitIDs(j.refIDs(e))})
	}
	c.steps++
	for _, e := range got.Events {
		inst := c.instant()
		if len(inst) == 0 {
			return fmt.Sprintf("the host reported %s, which the reference does not have", e), waitIDs(j.gotIDs(e, got.Events))
		}
		k := -1
		for _, i := range inst {
			if waitEntity(c.ref[i].WaitEvent) == waitEntity(e) {
				k = i
				break
			}
		}
		if k < 0 {
			// Not of an entity of the reference's next instant: the host reported an
			// event the reference does not have, or the next instant's events are missing.
			var ids []string
			for _, r := range c.ref[c.next:] {
				if !r.done && e.same(r.WaitEvent, early+late) {
					for _, m := range inst {
						ids = append(ids, c.ref[m].ids...)
					}
					break
				}
			}
			if ids == nil {
				ids = j.gotIDs(e, got.Events)
			}
			return fmt.Sprintf("event %d differs: host %s, reference %s", c.reported+1, e, eventList(instEvents(c.ref, inst))), waitIDs(ids)
		}
		r := c.ref[k]
		if !e.same(r.WaitEvent, early+late) {
			return fmt.Sprintf("event %d differs: host %s, reference %s", c.reported+1, e, r.WaitEvent), r.ids
		}
		slack := e.At - r.at
		c.maxSlack = max(c.maxSlack, abs(slack), abs(e.RemainingMs-r.RemainingMs))
		if slack > late || -slack > early {
			return fmt.Sprintf("%s landed %+dms from its time %d (virtual %d; tolerance: %s)", e, slack, r.at, r.At, c.tol), r.ids
		}
		c.ref[k].done = true
		c.reported++
	}
	for _, r := range c.ref[c.next:] {
		if !r.done && r.at+late < sent {
			c.maxSlack = max(c.maxSlack, sent-r.at) // it is at least that late
			return fmt.Sprintf("the reference's %s, due at %d (virtual %d), was not reported by %d, %dms after it was due (tolerance: %s)", r.WaitEvent, r.at, r.At, sent, sent-r.at, c.tol), r.ids
		}
	}
	if !c.outstanding() && got.Timers != j.ref.Timers {
		return fmt.Sprintf("timers armed once every event is in: host %d, reference %d", got.Timers, j.ref.Timers), j.timersIDs(got)
	}
	return "", nil
}

func instEvents(ref []expected, inst []int) []WaitEvent {
	out := make([]WaitEvent, len(inst))
	for i, k := range inst {
		out[i] = ref[k].WaitEvent
	}
	return out
}

// outstanding reports whether reference events have not been reported yet.
func (c *realtimeCheck) outstanding() bool { return c.reported < len(c.ref) }
