package agent

import (
	"errors"
	"testing"

	"github.com/twosettle/twosettle/engine/session"
)

func TestInboxWriteFault(t *testing.T) {
	t.Run("an armed fault fails the next queued message and nothing else", func(t *testing.T) {
		h := newHarness(t, 0)
		h.open("s1")
		h.must(h.rt.FailNextInboxWrite("s1"))
		before := h.rt.Log("s1").Len()
		h.effects, h.notes = h.effects[:0], h.notes[:0]
		if _, err := h.rt.Send("s1", session.Message{Text: "x"}, session.NextStep); !errors.Is(err, ErrWriteFailed) {
			t.Fatalf("err %v", err)
		}
		if h.rt.Log("s1").Len() != before || len(h.effects) != 0 || len(h.notes) != 0 || h.rt.Phase("s1") != "idle" {
			t.Fatalf("a failed write left a trace: effects %v notes %v phase %s", h.take(), h.notes, h.rt.Phase("s1"))
		}
		// One-shot: the next write goes through and wakes the agent.
		h.send("s1", "m1", session.NextStep)
		if h.rt.Phase("s1") != "running" {
			t.Fatal("the second write did not wake the agent")
		}
		if err := h.rt.TakeInboxWriteFault("s1"); err != nil {
			t.Fatalf("no fault armed, got %v", err)
		}
	})
	t.Run("a refused send keeps the fault; a restart disarms it; an unknown Session is an error", func(t *testing.T) {
		h := newHarness(t, 0)
		h.open("s1")
		h.must(h.rt.FailNextInboxWrite("s1"))
		if _, err := h.rt.Send("s1", session.Message{}, "later"); !errors.Is(err, ErrBadTarget) {
			t.Fatalf("err %v", err)
		}
		if err := h.rt.TakeInboxWriteFault("s1"); !errors.Is(err, ErrWriteFailed) {
			t.Fatalf("the fault went with a refused send: %v", err)
		}
		h.must(h.rt.FailNextInboxWrite("s1"))
		h.must(h.rt.Restart(nil))
		if _, err := h.rt.Resolve("s1"); err != nil {
			t.Fatal(err)
		}
		h.send("s1", "m1", session.NextTurn)
		if err := h.rt.FailNextInboxWrite("nope"); !errors.Is(err, ErrUnknownSession) {
			t.Fatalf("err %v", err)
		}
	})
}
