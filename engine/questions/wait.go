package questions

import (
	"github.com/twosettle/twosettle/engine/mutant"
	"github.com/twosettle/twosettle/engine/signal"
	"github.com/twosettle/twosettle/engine/wire"
)

// Wait is the host's foreground wait of one timed question (TimedQuestionWait, docs/PEER.md §3):
// a private abort signal, a deadline fixed at creation, the client claims, and at most one
// timer, which is armed only while no claim is held.
//
// It has no clock. Time comes in through the methods that take now; releases that a signal
// triggers (a client disconnect) read the Clock of its config. The timer is a value: Timer
// says when it is due and Fire expires the wait once that time has come. A timer armed for a
// deadline that has already passed is due at the time it was armed (the peer's 0 ms timer),
// so the host, which fires every due timer before it returns, expires such a wait in the
// same step (WAIT-5).
type Wait struct {
	session, callID string
	deadline        int64
	timeout         error // the expiry reason (nil: ASK_TIMED_OUT, made when it expires)
	parent          *signal.Signal
	onParent        int // the listener id on parent (0 none)
	sig             *signal.Signal
	claims          []*Claim
	timerAt         int64
	armed           bool
	closed          bool
	done            []func()
	note            func(wire.WaitNote)
	clock           func() int64
	last            int64
	timeoutMs       int64
	mutants         mutant.Set
	// entry is the service's record of this wait (nil for a wait on its own): each time
	// the timer is armed, the service's timer heap learns it (waitEntry.armed).
	entry *waitEntry

	sigv      signal.Signal // sig's storage
	claimsBuf [2]*Claim     // claims' first storage
}

// WaitConfig configures a Wait.
type WaitConfig struct {
	Session, CallID string // for notes only
	// Timeout is the reason an unattended expiry aborts the private signal with
	// (ASK_TIMED_OUT when nil).
	Timeout error
	// Parent is the calling turn's signal: its abort closes the wait with its reason
	// (WAIT-9). nil: no parent.
	Parent *signal.Signal
	// Note receives the wait's notes (nil: none).
	Note func(wire.WaitNote)
	// Clock is the current time for releases triggered by a signal; nil uses the latest
	// time passed to a method.
	Clock func() int64
	// Mutants switches on deliberate bugs (engine/mutant); the zero set is the correct wait.
	Mutants mutant.Set
}

// NewWait creates a wait at now with deadline now+timeoutMs (WAIT-1). A parent that has
// already aborted closes it at once with the parent's reason, and no timer is armed.
func NewWait(now, timeoutMs int64, c WaitConfig) *Wait {
	w := &Wait{
		session: c.Session, callID: c.CallID, deadline: now + timeoutMs, timeout: c.Timeout,
		parent: c.Parent, note: c.Note, clock: c.Clock, last: now,
		timeoutMs: timeoutMs, mutants: c.Mutants,
	}
	w.sig = &w.sigv
	w.claims = w.claimsBuf[:0]
	w.emit(wire.WaitNote{Kind: wire.WaitCreated, Deadline: w.deadline})
	if c.Parent.IsAborted() {
		w.Close(c.Parent.Reason())
		return w
	}
	w.onParent = c.Parent.Listen((*waitParent)(w))
	w.schedule(now)
	return w
}

// Signal is the wait's private signal: the one a timed request is forwarded with (ASK-8).
func (w *Wait) Signal() *signal.Signal { return w.sig }

// Deadline is the fixed deadline.
func (w *Wait) Deadline() int64 { return w.deadline }

// Claims is the number of claims held.
func (w *Wait) Claims() int { return len(w.claims) }

// Closed reports whether the wait has closed.
func (w *Wait) Closed() bool { return w.closed }

// Timer is when the armed timer is due; ok is false while no timer is armed (a claim is
// held, or the wait is closed).
func (w *Wait) Timer() (at int64, ok bool) { return w.timerAt, w.armed }

// Fire expires the wait if its timer is due at now, and reports whether it did. Expiry
// aborts only the private signal, with the timeout reason (WAIT-8).
func (w *Wait) Fire(now int64) bool {
	w.tick(now)
	if !w.armed || now < w.timerAt {
		return false
	}
	w.expire()
	return true
}

// OnDone registers fn to run once, when the wait closes (WAIT-10); on a closed wait it runs
// at once.
func (w *Wait) OnDone(fn func()) {
	if w.closed {
		fn()
		return
	}
	w.done = append(w.done, fn)
}

// Close closes the wait with reason: it disarms the timer, ends every claim, aborts the
// private signal with reason and runs the done callbacks. It never aborts the parent. A
// second Close does nothing (WAIT-10).
func (w *Wait) Close(reason error) { w.close(reason, reasonText(reason)) }

// close closes with reason and names the closing in its note as label.
func (w *Wait) close(reason error, label string) {
	if w.closed {
		return
	}
	w.closed = true
	w.armed = false
	w.parent.Unlisten(w.onParent)
	w.onParent = 0
	for len(w.claims) > 0 {
		w.claims[0].release()
	}
	w.emit(wire.WaitNote{Kind: wire.WaitClosed, Reason: label})
	w.sig.Abort(reason)
	done := w.done
	w.done = nil
	for _, fn := range done {
		fn()
	}
}

func (w *Wait) expire() {
	w.emit(wire.WaitNote{Kind: wire.WaitExpired})
	reason := w.timeout
	if reason == nil {
		reason = errAskTimedOut() // most waits never expire: the error is made only here
	}
	w.Close(reason)
}

// ClaimSink is the claim stream as the wait sees it: at most one Frame, then End.
type ClaimSink interface {
	Frame(remainingMs int64)
	End()
}

// Claim is one client claim on a wait.
type Claim struct {
	w        *Wait
	sink     ClaimSink
	client   *signal.Signal // the client signal the claim listens to
	onClient int
	released bool
}

// Attach is the body of the claim stream, run when the client pulls its first frame
// (WAIT-3):
//   - with the client signal already aborted, or the wait closed, the stream ends with no
//     frame and the wait is left as it is (WAIT-7);
//   - with no claim held and now at or past the deadline, the wait expires and the stream
//     ends with no frame (WAIT-6);
//   - otherwise a claim is registered (the timer is disarmed, WAIT-2) and the stream yields
//     one frame, remainingMs = max(0, deadline-now) (WAIT-4), and stays open until the
//     claim is released: by the client signal, by the wait closing, or by Release.
//
// It returns the claim, or nil when the stream ended at once.
func (w *Wait) Attach(now int64, client *signal.Signal, sink ClaimSink) *Claim {
	w.tick(now)
	if client.IsAborted() || w.closed {
		sink.End()
		return nil
	}
	if len(w.claims) == 0 && now >= w.deadline {
		w.expire()
		sink.End()
		return nil
	}
	c := &Claim{w: w, sink: sink}
	w.claims = append(w.claims, c)
	if !w.mutants.Has(mutant.UnconditionalDeadline) { // MUTANT unconditional-deadline: a claim leaves the timer armed
		w.armed = false
	}
	remaining := w.deadline - now
	if remaining < 0 {
		remaining = 0
	}
	if w.mutants.Has(mutant.ClaimFrameFullTimeout) {
		remaining = w.timeoutMs // MUTANT claim-frame-full-timeout: the whole timeout, not deadline − now
	}
	w.emit(wire.WaitNote{Kind: wire.WaitClaimed, Remaining: remaining, Claims: len(w.claims)})
	c.client, c.onClient = client, client.Listen((*claimClient)(c))
	sink.Frame(remaining)
	return c
}

// Release ends the claim at now (the consumer returned). Losing the last claim re-arms the
// timer for the original deadline, due at once if it has passed (WAIT-5). Idempotent.
func (c *Claim) Release(now int64) {
	if c.released {
		return
	}
	c.w.tick(now)
	c.release()
	if c.w.mutants.Has(mutant.ReleaseEndsEveryClaim) {
		// MUTANT release-ends-every-claim: one release ends every claim of the open wait.
		for len(c.w.claims) > 0 {
			c.w.claims[0].release()
		}
	}
	if !c.w.closed && c.w.mutants.Has(mutant.ReleaseRestartsTimeout) && len(c.w.claims) == 0 {
		// MUTANT release-restarts-timeout: the last release re-arms the full timeout from now.
		c.w.armed, c.w.timerAt = true, now+c.w.timeoutMs
		c.w.emit(wire.WaitNote{Kind: wire.WaitArmed, At: c.w.timerAt})
		c.w.entry.armed()
		return
	}
	if !c.w.closed {
		c.w.schedule(now)
	}
}

// Released reports whether the claim has ended.
func (c *Claim) Released() bool { return c.released }

func (c *Claim) release() {
	if c.released {
		return
	}
	c.released = true
	c.client.Unlisten(c.onClient)
	c.onClient = 0
	w := c.w
	for i, x := range w.claims {
		if x == c {
			w.claims = append(w.claims[:i], w.claims[i+1:]...)
			break
		}
	}
	w.emit(wire.WaitNote{Kind: wire.WaitReleased, Claims: len(w.claims)})
	c.sink.End()
}

// schedule arms the timer when the wait is open and unclaimed: due at the deadline, or at
// now when the deadline has passed (the deadline itself never moves, WAIT-1).
func (w *Wait) schedule(now int64) {
	if w.closed || len(w.claims) > 0 && !w.mutants.Has(mutant.UnconditionalDeadline) { // MUTANT unconditional-deadline: armed whatever the claims
		w.armed = false
		return
	}
	at := w.deadline
	if at < now {
		at = now
	}
	if w.armed && w.timerAt == at {
		return
	}
	w.armed, w.timerAt = true, at
	w.emit(wire.WaitNote{Kind: wire.WaitArmed, At: at})
	w.entry.armed()
}

func (w *Wait) tick(now int64) {
	if now > w.last {
		w.last = now
	}
}

func (w *Wait) now() int64 {
	if w.clock != nil {
		return w.clock()
	}
	return w.last
}

func (w *Wait) emit(n wire.WaitNote) {
	if w.note == nil {
		return
	}
	n.Session, n.CallID = w.session, w.callID
	if n.Kind == wire.WaitCreated {
		n.Deadline = w.deadline
	}
	w.note(n)
}

// waitParent is w's listener on its parent signal: the parent's abort closes the wait.
type waitParent Wait

func (w *waitParent) SignalAborted(r error) { (*Wait)(w).Close(r) }

// claimClient is c's listener on its client signal: the client's abort releases the claim.
type claimClient Claim

func (c *claimClient) SignalAborted(error) { (*Claim)(c).Release(c.w.now()) }
