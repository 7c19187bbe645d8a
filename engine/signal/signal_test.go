package signal

import (
	"errors"
	"testing"
)

func TestSignal(t *testing.T) {
	t.Run("abort runs listeners once in order with the first reason", func(t *testing.T) {
		s := New()
		var got []string
		s.OnAbort(func(r error) { got = append(got, "a:"+r.Error()) })
		s.OnAbort(func(r error) { got = append(got, "b:"+r.Error()) })
		if !s.Abort(errors.New("first")) {
			t.Fatal("first abort reported false")
		}
		if s.Abort(errors.New("second")) {
			t.Fatal("second abort reported true")
		}
		if len(got) != 2 || got[0] != "a:first" || got[1] != "b:first" || s.Reason().Error() != "first" {
			t.Fatalf("got %v reason %v", got, s.Reason())
		}
	})
	t.Run("removed listener does not run and leaves nothing behind", func(t *testing.T) {
		s := New()
		ran := false
		rm := s.OnAbort(func(error) { ran = true })
		rm()
		if s.Listeners() != 0 {
			t.Fatalf("listeners left: %d", s.Listeners())
		}
		s.Abort(errors.New("x"))
		if ran {
			t.Fatal("removed listener ran")
		}
	})
	t.Run("follow aborts with the parent's reason and an aborted parent aborts at once", func(t *testing.T) {
		p := New()
		c, detach := Follow(p, New())
		p.Abort(errors.New("parent"))
		if !c.IsAborted() || c.Reason().Error() != "parent" {
			t.Fatalf("child not aborted by parent: %v", c.Reason())
		}
		detach()
		c2, _ := Follow(Aborted(errors.New("already")))
		if !c2.IsAborted() || c2.Reason().Error() != "already" {
			t.Fatal("follow of an aborted parent is not aborted")
		}
	})
	t.Run("nil signal never aborts", func(t *testing.T) {
		var s *Signal
		if s.IsAborted() || s.Reason() != nil {
			t.Fatal("nil signal aborted")
		}
		s.OnAbort(func(error) {})()
	})
	t.Run("a Listener runs in registration order with func listeners and Unlisten removes it", func(t *testing.T) {
		s := New()
		var got []string
		s.OnAbort(func(r error) { got = append(got, "fn1") })
		id := s.Listen(&recorder{name: "l1", got: &got})
		s.Listen(&recorder{name: "l2", got: &got})
		s.OnAbort(func(r error) { got = append(got, "fn2") })
		gone := s.Listen(&recorder{name: "gone", got: &got})
		s.Unlisten(gone)
		s.Unlisten(gone) // again: nothing
		s.Unlisten(0)
		if s.Listeners() != 4 {
			t.Fatalf("listeners: %d", s.Listeners())
		}
		s.Abort(errors.New("x"))
		if want := "fn1 l1:x l2:x fn2"; joined(got) != want {
			t.Fatalf("ran %q, want %q", joined(got), want)
		}
		s.Unlisten(id) // after the abort: nothing
		if s.Listen(&recorder{}) != 0 {
			t.Fatal("an aborted signal registered a listener")
		}
		var nilSig *Signal
		if nilSig.Listen(&recorder{}) != 0 {
			t.Fatal("a nil signal registered a listener")
		}
		nilSig.Unlisten(1)
	})
}

type recorder struct {
	name string
	got  *[]string
}

func (r *recorder) SignalAborted(reason error) { *r.got = append(*r.got, r.name+":"+reason.Error()) }

func joined(ss []string) string {
	out := ""
	for i, s := range ss {
		if i > 0 {
			out += " "
		}
		out += s
	}
	return out
}
