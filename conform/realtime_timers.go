package conform

import (
	"sync"
	"time"

	"github.com/benbjohnson/clock"
	"github.com/twosettle/twosettle/engine/host"
	"github.com/twosettle/twosettle/engine/wire"
)

// timersHost is the reference host on its own timers: what `conform refhost
// --real-timers` serves, an example of the adapter a server on real timers needs for
// real-time mode (docs/PROTOCOL.md, "Real-time mode"), and the host the runner's tests
// run real-time mode against on a mock clock.
//
// It ignores the runner's "now": its time is its clock's, in milliseconds since it
// started. Its timers are the clock's: when the engine's next deadline comes, a timer
// callback applies it and keeps the effects, which the next reply reports ahead of that
// command's own. Both the callback and a request hold the one lock, so the engine sees
// one call at a time and its time never goes backwards.
type timersHost struct {
	mu     sync.Mutex
	h      *host.Host
	clk    clock.Clock
	t0     time.Time
	fired  []wire.Effect // effects of timers that fired since the last reply
	timer  *clock.Timer
	lateMs int64 // tests: a host whose timers fire this much after their time
	closed bool  // a callback already under way when the host closed does nothing
}

func newTimersHost(h *host.Host, clk clock.Clock) *timersHost {
	return &timersHost{h: h, clk: clk, t0: clk.Now()}
}

// now is the host's time: milliseconds since it started.
func (t *timersHost) now() wire.Time { return wire.Time(t.clk.Since(t.t0).Milliseconds()) }

// Apply applies cmd at the host's own time: timers due by then fire first, each at its
// own due time (engine/host), then the command. The effects of timers that fired on
// their own since the last reply come first.
func (t *timersHost) Apply(_ wire.Time, cmd wire.Command) ([]wire.Effect, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	now := t.now()
	if d, ok := t.h.NextDeadline(); ok && t.lateMs > 0 && now >= d {
		now = d - 1 // a late host: its timers fire only in their (late) callback
	}
	effs, err := t.h.Apply(now, cmd)
	out := append(t.fired, effs...)
	t.fired = nil
	t.arm()
	return out, err
}

// arm sets the clock's timer for the engine's next deadline (after stopping the last).
// Callers hold mu.
func (t *timersHost) arm() {
	if t.closed {
		return
	}
	if t.timer != nil {
		t.timer.Stop()
		t.timer = nil
	}
	d, ok := t.h.NextDeadline()
	if !ok {
		return
	}
	wait := t.t0.Add(time.Duration(d.Ms()+t.lateMs) * time.Millisecond).Sub(t.clk.Now())
	t.timer = t.clk.AfterFunc(max(wait, 0), t.fire)
}

// fire is the timer callback: the engine's due timers fire now; their effects wait for
// the next reply.
func (t *timersHost) fire() {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.closed {
		return
	}
	now := t.now()
	if d, ok := t.h.NextDeadline(); !ok || d > now {
		t.arm() // a timer stopped as it fired: nothing is due yet
		return
	}
	effs, _ := t.h.Apply(now, wire.Tick{})
	t.fired = append(t.fired, effs...)
	t.arm()
}

// NextDeadline implements wire.HostPort: the engine's next deadline on the host's clock
// (a real-time runner ignores it).
func (t *timersHost) NextDeadline() (wire.Time, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.h.NextDeadline()
}

// State implements wire.HostPort.
func (t *timersHost) State() wire.HostState {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.h.State()
}

// Close stops the host's timer.
func (t *timersHost) Close() error {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.closed = true
	if t.timer != nil {
		t.timer.Stop()
		t.timer = nil
	}
	return nil
}
