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

// until sleeps until virtual time v.
func (p *pacer) until(v int64) {
	if d := p.t0.Add(time.Duration(v) * time.Millisecond).Sub(p.clk.Now()); d > 0 {
		p.clk.Sleep(d)
	}
}

// realtimeCheck compares a real-time host's replies with the reference's, step by step.
type realtimeCheck struct {
	tol      Tolerance
	ref      []stepEvent // every reference event so far, with its step
	got      []WaitEvent // every host event so far
	maxSlack int64       // ms
}

type stepEvent struct {
	WaitEvent
	step int
}

func abs(x int64) int64 {
	if x < 0 {
		return -x
	}
	return x
}

// add folds in step i's replies and returns the first failure ("" when none).
func (c *realtimeCheck) add(i int, ref, got WaitReply) string {
	early, late := c.tol.Early.Milliseconds(), c.tol.Late.Milliseconds()
	for _, e := range ref.Events {
		c.ref = append(c.ref, stepEvent{e, i})
	}
	for _, e := range got.Events {
		k := len(c.got)
		if k >= len(c.ref) {
			return fmt.Sprintf("the host reported %s, which the reference does not have", e)
		}
		r := c.ref[k]
		if !e.same(r.WaitEvent, early+late) {
			return fmt.Sprintf("event %d differs: host %s, reference %s", k+1, e, r.WaitEvent)
		}
		slack := e.At - r.At
		c.maxSlack = max(c.maxSlack, abs(slack), abs(e.RemainingMs-r.RemainingMs))
		if slack > late || -slack > early {
			return fmt.Sprintf("%s landed %+dms from its virtual time %d (tolerance: %s)", e, slack, r.At, c.tol)
		}
		c.got = append(c.got, e)
	}
	due := 0
	for _, r := range c.ref {
		if r.step < i {
			due++
		}
	}
	if len(c.got) < due {
		r := c.ref[len(c.got)]
		return fmt.Sprintf("the reference's %s (virtual time %d) was not reported by the reply to the next step", r.WaitEvent, r.At)
	}
	if len(c.got) == len(c.ref) && got.Timers != ref.Timers {
		return fmt.Sprintf("timers armed once every event is in: host %d, reference %d", got.Timers, ref.Timers)
	}
	return ""
}

// outstanding reports whether reference events have not been reported yet.
func (c *realtimeCheck) outstanding() bool { return len(c.got) < len(c.ref) }
