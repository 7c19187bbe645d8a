package questions

import (
	"testing"

	"github.com/twosettle/twosettle/engine/signal"
	"github.com/twosettle/twosettle/engine/wire"
)

type testSink struct {
	frames []int64
	ended  int
}

func (s *testSink) Frame(ms int64) { s.frames = append(s.frames, ms) }
func (s *testSink) End()           { s.ended++ }

func newTestWait(now, timeout int64, parent *signal.Signal) (*Wait, *[]wire.WaitNote) {
	var notes []wire.WaitNote
	w := NewWait(now, timeout, WaitConfig{Session: "s1", CallID: "c1", Parent: parent, Note: func(n wire.WaitNote) { notes = append(notes, n) }})
	return w, &notes
}

func wantOpen(t *testing.T, w *Wait, at int64) {
	t.Helper()
	if w.Fire(at) || w.Closed() {
		t.Fatalf("wait closed at %d", at)
	}
}

func wantExpired(t *testing.T, w *Wait, at int64) {
	t.Helper()
	if !w.Fire(at) || !w.Closed() {
		t.Fatalf("wait not expired at %d", at)
	}
	if !w.Signal().Reason().(*wire.Error).HasCode(wire.AskTimedOut) {
		t.Fatalf("expiry reason %v", w.Signal().Reason())
	}
}

func TestWait(t *testing.T) {
	t.Run("WAIT-1 deadline is fixed at creation and a claim never moves it", func(t *testing.T) {
		w, _ := newTestWait(1000, 5000, nil)
		if w.Deadline() != 6000 {
			t.Fatalf("deadline %d, want 6000", w.Deadline())
		}
		c := w.Attach(2000, signal.New(), &testSink{})
		c.Release(4000)
		if at, ok := w.Timer(); !ok || at != 6000 || w.Deadline() != 6000 {
			t.Fatalf("after a claim from 2000 to 4000: timer %d %v deadline %d, want 6000", at, ok, w.Deadline())
		}
		wantOpen(t, w, 5999)
		wantExpired(t, w, 6000)
	})
	t.Run("WAIT-2 the timer runs only while no claim is held", func(t *testing.T) {
		w, _ := newTestWait(0, 5000, nil)
		if _, ok := w.Timer(); !ok {
			t.Fatal("unclaimed wait has no timer")
		}
		s := &testSink{}
		c := w.Attach(100, signal.New(), s)
		if _, ok := w.Timer(); ok {
			t.Fatal("timer armed while a claim is held")
		}
		wantOpen(t, w, 50000)
		c.Release(60000)
		if _, ok := w.Timer(); !ok {
			t.Fatal("no timer after the last claim left")
		}
	})
	t.Run("WAIT-3 delivery is not a claim: an unattached wait expires at its deadline", func(t *testing.T) {
		f := newFixture()
		var r result
		f.svc.AskTimed(0, Request{Questions: qs("a"), Agent: f.agent, Signal: signal.New()}, "c1", 5000, r.done)
		if len(f.l.held) != 1 {
			t.Fatal("request not delivered to the listener")
		}
		w, _ := f.svc.Wait(f.agent, "c1")
		if w.Claims() != 0 {
			t.Fatalf("delivery made %d claims", w.Claims())
		}
		f.svc.Fire(4999)
		if r.got {
			t.Fatal("completed before the deadline")
		}
		f.svc.Fire(5000)
		r.wantPending(t, "c1")
	})
	t.Run("WAIT-4 a claim pulled at 1000 yields one frame of 4000 and stays open", func(t *testing.T) {
		w, notes := newTestWait(0, 5000, nil)
		s := &testSink{}
		c := w.Attach(1000, signal.New(), s)
		if len(s.frames) != 1 || s.frames[0] != 4000 || s.ended != 0 {
			t.Fatalf("frames %v ended %d, want [4000] and open", s.frames, s.ended)
		}
		if n := (*notes)[len(*notes)-1]; n.Kind != wire.WaitClaimed || n.Remaining != 4000 || n.Claims != 1 {
			t.Fatalf("claim note %v", n)
		}
		wantOpen(t, w, 20000)
		if len(s.frames) != 1 || s.ended != 0 {
			t.Fatalf("claim stream changed while held: frames %v ended %d", s.frames, s.ended)
		}
		c.Release(21000)
		if s.ended != 1 || len(s.frames) != 1 {
			t.Fatalf("release: frames %v ended %d", s.frames, s.ended)
		}
	})
	t.Run("WAIT-4 remainingMs is never negative", func(t *testing.T) {
		w, _ := newTestWait(0, 5000, nil)
		w.Attach(1000, signal.New(), &testSink{})
		s := &testSink{}
		w.Attach(9000, signal.New(), s)
		if len(s.frames) != 1 || s.frames[0] != 0 {
			t.Fatalf("frames %v, want [0]", s.frames)
		}
	})
	t.Run("WAIT-5 claim released at 3000 restores the deadline: open at 4999, expired at 5000", func(t *testing.T) {
		w, _ := newTestWait(0, 5000, nil)
		c := w.Attach(1000, signal.New(), &testSink{})
		c.Release(3000)
		if at, ok := w.Timer(); !ok || at != 5000 {
			t.Fatalf("timer %d %v, want 5000", at, ok)
		}
		wantOpen(t, w, 4999)
		wantExpired(t, w, 5000)
	})
	t.Run("WAIT-5 last claim lost after deadline expires at once", func(t *testing.T) {
		w, _ := newTestWait(0, 5000, nil)
		a := w.Attach(0, signal.New(), &testSink{})
		b := w.Attach(0, signal.New(), &testSink{})
		a.Release(10000)
		wantOpen(t, w, 10000)
		b.Release(10000)
		if at, ok := w.Timer(); !ok || at != 10000 {
			t.Fatalf("timer %d %v after the last claim left at 10000, want due at 10000", at, ok)
		}
		wantExpired(t, w, 10000)
	})
	t.Run("WAIT-5 a client signal abort is a release at the clock's time", func(t *testing.T) {
		now := int64(0)
		w := NewWait(0, 5000, WaitConfig{Clock: func() int64 { return now }})
		cs := signal.New()
		w.Attach(1000, cs, &testSink{})
		now = 7000
		cs.Abort(errTurn)
		if at, ok := w.Timer(); !ok || at != 7000 {
			t.Fatalf("timer %d %v, want due at 7000", at, ok)
		}
		wantExpired(t, w, 7000)
	})
	t.Run("WAIT-6 attaching with no claim at the deadline expires with no frame", func(t *testing.T) {
		w, _ := newTestWait(0, 5000, nil)
		s := &testSink{}
		if c := w.Attach(5000, signal.New(), s); c != nil {
			t.Fatal("a claim was made after the deadline")
		}
		if len(s.frames) != 0 || s.ended != 1 || !w.Closed() {
			t.Fatalf("frames %v ended %d closed %v", s.frames, s.ended, w.Closed())
		}
		if !w.Signal().Reason().(*wire.Error).HasCode(wire.AskTimedOut) {
			t.Fatalf("reason %v", w.Signal().Reason())
		}
	})
	t.Run("WAIT-6 attaching at 4999 with no claim still claims", func(t *testing.T) {
		w, _ := newTestWait(0, 5000, nil)
		s := &testSink{}
		w.Attach(4999, signal.New(), s)
		if len(s.frames) != 1 || s.frames[0] != 1 {
			t.Fatalf("frames %v, want [1]", s.frames)
		}
	})
	t.Run("WAIT-6 attaching after the deadline with another claim yields 0", func(t *testing.T) {
		w, _ := newTestWait(0, 5000, nil)
		w.Attach(1000, signal.New(), &testSink{})
		s := &testSink{}
		w.Attach(8000, signal.New(), s)
		if len(s.frames) != 1 || s.frames[0] != 0 || w.Closed() || w.Claims() != 2 {
			t.Fatalf("frames %v closed %v claims %d", s.frames, w.Closed(), w.Claims())
		}
	})
	t.Run("WAIT-7 a pre-cancelled claim signal ends with no frame and does not close", func(t *testing.T) {
		w, _ := newTestWait(0, 5000, nil)
		s := &testSink{}
		w.Attach(1000, signal.Aborted(errTurn), s)
		if len(s.frames) != 0 || s.ended != 1 || w.Closed() || w.Claims() != 0 {
			t.Fatalf("frames %v ended %d closed %v claims %d", s.frames, s.ended, w.Closed(), w.Claims())
		}
		if at, ok := w.Timer(); !ok || at != 5000 {
			t.Fatalf("timer %d %v", at, ok)
		}
		// Also past the deadline: a pre-cancelled claim does not expire the wait.
		s2 := &testSink{}
		w.Attach(6000, signal.Aborted(errTurn), s2)
		if w.Closed() || len(s2.frames) != 0 || s2.ended != 1 {
			t.Fatal("a pre-cancelled attach past the deadline closed the wait")
		}
	})
	t.Run("WAIT-7 attaching to a closed wait ends with no frame", func(t *testing.T) {
		w, _ := newTestWait(0, 5000, nil)
		w.Close(errTurn)
		s := &testSink{}
		w.Attach(1000, signal.New(), s)
		if len(s.frames) != 0 || s.ended != 1 {
			t.Fatalf("frames %v ended %d", s.frames, s.ended)
		}
	})
	t.Run("WAIT-7 attaching to an unknown wait ends with no frame", func(t *testing.T) {
		f := newFixture()
		s := &testSink{}
		c, err := f.svc.AttachWait(0, f.agent, "nope", signal.New(), s)
		if err != nil || c != nil || len(s.frames) != 0 || s.ended != 1 {
			t.Fatalf("claim %v err %v frames %v ended %d", c, err, s.frames, s.ended)
		}
	})
	t.Run("WAIT-8 unattended expiry aborts only the private signal with ASK_TIMED_OUT", func(t *testing.T) {
		parent := signal.New()
		w, _ := newTestWait(0, 5000, parent)
		wantExpired(t, w, 5000)
		if parent.IsAborted() {
			t.Fatal("expiry aborted the parent (turn) signal")
		}
		if parent.Listeners() != 0 {
			t.Fatalf("wait left %d listeners on the parent", parent.Listeners())
		}
	})
	t.Run("WAIT-9 parent abort closes with the parent's reason, ends claims, leaves no timer", func(t *testing.T) {
		parent := signal.New()
		w, notes := newTestWait(0, 5000, parent)
		s1, s2 := &testSink{}, &testSink{}
		w.Attach(100, signal.New(), s1)
		c2 := w.Attach(200, signal.New(), s2)
		c2.Release(300)
		parent.Abort(errTurn)
		if !w.Closed() || w.Signal().Reason() != errTurn {
			t.Fatalf("closed %v reason %v", w.Closed(), w.Signal().Reason())
		}
		if s1.ended != 1 || w.Claims() != 0 {
			t.Fatalf("claim stream ended %d, claims %d", s1.ended, w.Claims())
		}
		if _, ok := w.Timer(); ok {
			t.Fatal("timer left after parent abort")
		}
		last := (*notes)[len(*notes)-1]
		if last.Kind != wire.WaitClosed || last.Reason != errTurn.Error() {
			t.Fatalf("last note %v", last)
		}
	})
	t.Run("WAIT-9 an already aborted parent closes at once with no timer", func(t *testing.T) {
		w, notes := newTestWait(0, 5000, signal.Aborted(errTurn))
		if !w.Closed() || w.Signal().Reason() != errTurn {
			t.Fatal("not closed with the parent's reason")
		}
		if _, ok := w.Timer(); ok {
			t.Fatal("timer armed")
		}
		for _, n := range *notes {
			if n.Kind == wire.WaitArmed {
				t.Fatalf("notes %v", noteKinds(*notes))
			}
		}
	})
	t.Run("WAIT-10 close is idempotent and done runs once", func(t *testing.T) {
		w, notes := newTestWait(0, 5000, nil)
		done := 0
		w.OnDone(func() { done++ })
		w.Close(errTurn)
		w.Close(errAskAborted())
		if w.Fire(9999) {
			t.Fatal("a closed wait fired")
		}
		if done != 1 || w.Signal().Reason() != errTurn {
			t.Fatalf("done %d reason %v", done, w.Signal().Reason())
		}
		closed := 0
		for _, n := range *notes {
			if n.Kind == wire.WaitClosed {
				closed++
			}
		}
		if closed != 1 {
			t.Fatalf("%d closed notes: %v", closed, noteKinds(*notes))
		}
		late := 0
		w.OnDone(func() { late++ })
		if late != 1 {
			t.Fatal("OnDone on a closed wait did not run at once")
		}
	})
	t.Run("WAIT-10 releasing a claim twice counts once", func(t *testing.T) {
		w, _ := newTestWait(0, 5000, nil)
		s := &testSink{}
		c := w.Attach(0, signal.New(), s)
		w.Attach(0, signal.New(), &testSink{})
		c.Release(10)
		c.Release(20)
		if w.Claims() != 1 || s.ended != 1 {
			t.Fatalf("claims %d ended %d", w.Claims(), s.ended)
		}
	})
}
