package conform

import (
	"errors"
	"fmt"

	"github.com/twosettle/twosettle/engine/host"
	"github.com/twosettle/twosettle/engine/wire"
)

// Real-time mode of the host profile (docs/PROTOCOL.md, "Real-time mode"): the host runs
// on its own timers and ignores "now". realtimeHost is the wire.HostPort the simulator
// drives in that mode. It keeps a shadow, the reference host (engine/host) fed the same
// commands at their virtual times, and it:
//
//   - paces: the step at virtual time T is sent at T on the runner's clock, and a step at
//     which the shadow's timers are due (the simulator's tick at a deadline) is sent at
//     T + late, so that a host whose timers keep the tolerance has fired them;
//   - schedules: NextDeadline is the shadow's (a host's "deadline" is on its own clock
//     and is ignored), so the simulator ticks when the reference's timers are due, and
//     the host reports at that tick what its timers did since its previous reply;
//   - snaps the times in the host's effects and states to the shadow's (realtime_snap.go);
//   - gives no verdict when the order of a step against a host timer would depend on
//     the machine: a step within early + late before a timer's due time, two timers that
//     close together (the step sent late for the first would find the second fired), or a
//     step the runner itself sent more than late after its time.
//
// The shadow only says when and what time: the host's effects are what the simulator
// sees, and the run is judged as on virtual time (the comparison with the reference
// engine's own run, the oracle, the expectations).
type realtimeHost struct {
	inner  wire.HostPort // the host under test: a ProcessHost, or a test's host
	shadow *host.Host
	pace   *pacer
	tol    Tolerance

	steps     int
	last      wire.Time         // the virtual time of the last step
	maxSlack  int64             // ms
	timing    string            // the first timing difference the runner saw ("" none)
	noVerdict string            // why the run gives no verdict ("" it does)
	target    int64             // when the last step was to be sent, ms on the runner's clock
	seen      map[[2]int64]bool // instants snapped so far (snapper.seen)
}

// errNoVerdict ends a run the runner cannot judge in real time; the run reports the
// realtimeHost's noVerdict.
var errNoVerdict = errors.New("no verdict")

func newRealtimeHost(inner wire.HostPort, cfg wire.HostConfig, pace *pacer, tol Tolerance) (*realtimeHost, error) {
	shadow, err := host.New(host.Config{ToolMode: cfg.ToolMode, DefaultTimeoutSec: cfg.DefaultTimeoutSec, DefaultTimeoutSet: cfg.DefaultTimeoutSet, WriteWindowMs: cfg.WriteWindowMs.Ms()})
	if err != nil {
		return nil, err
	}
	return &realtimeHost{inner: inner, shadow: shadow, pace: pace, tol: tol, seen: map[[2]int64]bool{}}, nil
}

// tooClose is the screen every real-time step passes (and RealtimeScreen, before a
// generated scenario is run): the step at virtual time at comes within early + late
// before a timer due at d, so whether the host applies it before or after its timer
// fires depends on the machine.
func tooClose(at, d wire.Time, ok bool, tol Tolerance) bool {
	return ok && d > at && int64(d-at) <= tol.Early.Milliseconds()+tol.Late.Milliseconds()
}

// Apply implements wire.HostPort: pace, apply to the shadow and the host, snap.
func (h *realtimeHost) Apply(at wire.Time, cmd wire.Command) ([]wire.Effect, error) {
	if h.noVerdict != "" {
		return nil, &wire.PortLost{Err: errNoVerdict}
	}
	h.steps++
	late := h.tol.Late.Milliseconds()
	d, ok := h.shadow.NextDeadline()
	if tooClose(at, d, ok, h.tol) {
		h.noVerdict = fmt.Sprintf("no verdict: step %d (%s) at virtual %d comes %dms before a host timer due at %d, within the tolerance (%s): whether it is applied before the timer fires depends on the machine", h.steps, cmd, at, d-at, d, h.tol)
		return nil, &wire.PortLost{Err: errNoVerdict}
	}
	target := at.Ms()
	if ok && d <= at {
		target += late // the host's timers due now have fired by then
	}
	// Steps go in order: one at the instant of a tick sent late goes after it.
	target = max(target, h.target)
	h.target = target
	sent := h.pace.until(target)
	if over := sent - target; over > late {
		h.noVerdict = fmt.Sprintf("no verdict: the runner sent step %d (%s) %dms after its time %d, more than the tolerance (%s); the machine is too busy for it", h.steps, cmd, over, target, h.tol)
		return nil, &wire.PortLost{Err: errNoVerdict}
	}
	h.last = at
	refEffs, refErr := h.shadow.Apply(at, cmd) // valid until the shadow's next call
	if next, nok := h.shadow.NextDeadline(); ok && d <= at && tooClose(at, next, nok, h.tol) {
		// Sent late by the tolerance, the step would also find the next timer fired.
		h.noVerdict = fmt.Sprintf("no verdict: a host timer due at %d comes %dms after the timers due at %d, within the tolerance (%s): whether the host reports it at step %d (%s) depends on the machine", next, next-at, at, h.tol, h.steps, cmd)
		return nil, &wire.PortLost{Err: errNoVerdict}
	}
	effs, err := h.inner.Apply(at, cmd)
	if wire.LostOf(h.inner) != nil {
		return effs, err
	}
	sn := snapper{early: h.tol.Early.Milliseconds(), late: late, lateness: sent - at.Ms(), seen: h.seen}
	sn.effects(effs, refEffs)
	h.maxSlack = max(h.maxSlack, sn.maxSlack)
	if h.timing == "" {
		switch {
		case sn.miss != "":
			h.timing = fmt.Sprintf("step %d (%s) at virtual %d, sent at %d: %s", h.steps, cmd, at, sent, sn.miss)
		case len(effs) < len(refEffs) && ok && d <= at:
			h.timing = fmt.Sprintf("step %d (%s) at virtual %d, sent at %d: the host reported %d effects, the reference %d; the host's timers due at %d had not all fired %dms after it (tolerance: %s)", h.steps, cmd, at, sent, len(effs), len(refEffs), d, sent-d.Ms(), h.tol)
		case len(effs) != len(refEffs):
			h.timing = fmt.Sprintf("step %d (%s) at virtual %d, sent at %d: the host reported %d effects, the reference %d", h.steps, cmd, at, sent, len(effs), len(refEffs))
		}
	}
	if (err == nil) != (refErr == nil) && h.timing == "" {
		h.timing = fmt.Sprintf("step %d (%s) at virtual %d, sent at %d: the host %s, the reference %s", h.steps, cmd, at, sent, errText(err), errText(refErr))
	}
	return effs, err
}

// NextDeadline implements wire.HostPort: the shadow's, the reference's timers on virtual
// time.
func (h *realtimeHost) NextDeadline() (wire.Time, bool) { return h.shadow.NextDeadline() }

// State implements wire.HostPort: the host's state, its times snapped to the shadow's.
// A state asked for within the tolerance before a timer is due would depend on the
// machine as a step would: the run then gives no verdict.
func (h *realtimeHost) State() wire.HostState {
	st := h.inner.State()
	if h.noVerdict != "" || wire.LostOf(h.inner) != nil {
		return st
	}
	d, ok := h.shadow.NextDeadline()
	if tooClose(h.last, d, ok, h.tol) {
		h.noVerdict = fmt.Sprintf("no verdict: the host's state is read at virtual %d, %dms before a host timer due at %d, within the tolerance (%s)", h.last, d-h.last, d, h.tol)
		return st
	}
	sn := snapper{early: h.tol.Early.Milliseconds(), late: h.tol.Late.Milliseconds(), seen: h.seen}
	sn.state(&st, h.shadow.State())
	h.maxSlack = max(h.maxSlack, sn.maxSlack)
	if h.timing == "" && sn.miss != "" {
		h.timing = fmt.Sprintf("the state at virtual %d: %s", h.last, sn.miss)
	}
	return st
}

// Lost implements wire.Losable: the host's loss, or the run's end without a verdict.
func (h *realtimeHost) Lost() *wire.PortLost {
	if l := wire.LostOf(h.inner); l != nil {
		return l
	}
	if h.noVerdict != "" {
		return &wire.PortLost{Err: errNoVerdict}
	}
	return nil
}

// Close implements io.Closer: the host's.
func (h *realtimeHost) Close() error {
	if c, ok := h.inner.(interface{ Close() error }); ok {
		return c.Close()
	}
	return nil
}
