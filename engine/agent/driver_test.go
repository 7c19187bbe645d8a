package agent

import (
	"errors"
	"testing"

	"github.com/twosettle/twosettle/engine/session"
)

func TestSteerAndAdmission(t *testing.T) {
	t.Run("AGENT-1 an idle root wakes into a new turn whose first step admits the message", func(t *testing.T) {
		h := newHarness(t, 0)
		h.open("s1")
		h.send("s1", "m1", session.NextStep)
		expectLines(t, "log", h.log("s1"),
			`agent/inbox/spliced queued next-step start=0 +[m1 user "m1"]`,
			"turn/start turn=1",
			"agent/inbox/spliced claimed next-step start=0 removed=1",
			"step/start turn=1 step=1",
			`user/message m1 user "m1"`)
		expectLines(t, "notes", h.notes, "loaded s1", "inserted s1 next-step m1", "claimed s1 m1 turn=1")
		if v, _ := h.rt.Inbox("s1"); len(v.NextStep)+len(v.NextTurn) != 0 {
			t.Fatalf("inbox after claim: %v", v)
		}
	})
	t.Run("AGENT-1 a steer queued during a tool call is admitted at the next step boundary, after every result of the step", func(t *testing.T) {
		h := newHarness(t, 0)
		h.open("s1")
		h.send("s1", "m1", session.NextTurn)
		h.call("s1", "c1", "hold", `{}`)
		h.send("s1", "m2", session.NextStep)
		h.must(h.rt.EndStep("s1", true)) // the model ended the turn, but the steer extends it
		if _, step, _ := h.rt.Position("s1"); step != 1 {
			t.Fatalf("the step ended while its tool call was running (step %d)", step)
		}
		h.complete("c1", "done")
		got := h.log("s1")[7:]
		expectLines(t, "log after the result", got,
			"tool/result turn=1 step=1 call=c1 ok done",
			"step/end turn=1 step=1",
			"agent/inbox/spliced claimed next-step start=0 removed=1",
			"step/start turn=1 step=2",
			`user/message m2 user "m2"`)
		if v, _ := h.rt.Inbox("s1"); len(v.NextStep) != 0 {
			t.Fatalf("steer still queued: %v", v)
		}
		h.must(h.rt.EndStep("s1", true))
		if h.rt.Phase("s1") != PhaseIdle {
			t.Fatal("turn did not end")
		}
	})
	t.Run("AGENT-1 the steer is durable: its splice is persisted by the pre-step flush at the latest", func(t *testing.T) {
		h := newHarness(t, 1000)
		h.open("s1")
		h.send("s1", "m1", session.NextTurn)
		h.call("s1", "c1", "hold", `{}`)
		h.send("s1", "m2", session.NextStep) // inside the write window
		if l := h.rt.Log("s1"); l.Persisted() == l.Len() {
			t.Fatal("write-behind persisted the steer at once")
		}
		h.complete("c1", "done")
		h.must(h.rt.EndStep("s1", false))
		l := h.rt.Log("s1")
		for i, e := range l.Events() {
			if d, ok := e.Data.(session.InboxSpliced); ok && d.Kind() == "queued" && d.Target == session.NextStep && i >= l.Persisted() {
				t.Fatalf("the steer's splice #%d is not durable after the pre-step (persisted %d)", i, l.Persisted())
			}
		}
	})
	t.Run("AGENT-1 follow-ups wait for the running turn; each later turn claims one", func(t *testing.T) {
		h := newHarness(t, 0)
		h.open("s1")
		h.send("s1", "m1", session.NextTurn)
		h.send("s1", "m2", session.NextTurn)
		h.send("s1", "m3", session.NextTurn)
		h.must(h.rt.EndStep("s1", true))
		if turn, _, _ := h.rt.Position("s1"); turn != 2 {
			t.Fatalf("turn %d after the first ended", turn)
		}
		v, _ := h.rt.Inbox("s1")
		if len(v.NextTurn) != 1 || v.NextTurn[0].ID != "m3" {
			t.Fatalf("inbox %v", v)
		}
		h.must(h.rt.EndStep("s1", true))
		h.must(h.rt.EndStep("s1", true))
		if h.rt.Phase("s1") != PhaseIdle || h.rt.LastTurn("s1") != 3 {
			t.Fatalf("phase %s last turn %d", h.rt.Phase("s1"), h.rt.LastTurn("s1"))
		}
		if err := checkNesting(h.rt.Log("s1").Events(), 0); err != nil {
			t.Fatal(err)
		}
	})
	t.Run("a step the model did not end as final is followed by another step", func(t *testing.T) {
		h := newHarness(t, 0)
		h.open("s1")
		h.send("s1", "m1", session.NextTurn)
		h.must(h.rt.EndStep("s1", false))
		if turn, step, open := h.rt.Position("s1"); turn != 1 || step != 2 || !open {
			t.Fatalf("position %d %d %v", turn, step, open)
		}
	})
}

func TestCommandErrorsChangeNothing(t *testing.T) {
	h := newHarness(t, 0)
	h.open("s1")
	h.open("idle")
	h.send("s1", "m1", session.NextTurn)
	h.call("s1", "c1", "hold", `{}`)
	h.must(h.rt.EndStep("s1", false)) // step 1 ended by the model, c1 still running
	cases := []struct {
		name string
		do   func() error
		want error
	}{
		{"tool call with no running turn", func() error { _, err := h.rt.ToolCall("idle", "c9", "x", "{}"); return err }, ErrNotRunning},
		{"tool call after the model ended the step", func() error { _, err := h.rt.ToolCall("s1", "c9", "x", "{}"); return err }, ErrStepEnded},
		{"end step twice", func() error { return h.rt.EndStep("s1", true) }, ErrStepEnded},
		{"end step with no running turn", func() error { return h.rt.EndStep("idle", true) }, ErrNotRunning},
		{"unknown session", func() error { return h.rt.EndStep("nope", true) }, ErrUnknownSession},
		{"send to an unknown target", func() error { _, err := h.rt.Send("s1", session.Message{}, "later"); return err }, ErrBadTarget},
		{"open an existing session", func() error { _, err := h.rt.Open("s1", ""); return err }, ErrSessionExists},
		{"open with an owner that has no live agent", func() error { _, err := h.rt.Open("k", "nope"); return err }, ErrUnknownSession},
		{"flush an unknown session", func() error { return h.rt.Flush("nope") }, ErrUnknownSession},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			before := h.rt.Log("s1").Len()
			h.effects = h.effects[:0]
			if err := c.do(); !errors.Is(err, c.want) {
				t.Fatalf("err %v, want %v", err, c.want)
			}
			if h.rt.Log("s1").Len() != before || len(h.effects) != 0 {
				t.Fatalf("a refused command changed the log or emitted %v", h.take())
			}
		})
	}
	t.Run("duplicate call id in the open step", func(t *testing.T) {
		h.complete("c1", "done")
		h.call("s1", "c2", "hold", "{}")
		before := h.rt.Log("s1").Len()
		if _, err := h.rt.ToolCall("s1", "c2", "x", "{}"); !errors.Is(err, ErrDuplicateCall) || h.rt.Log("s1").Len() != before {
			t.Fatalf("err %v", err)
		}
	})
	t.Run("duplicate pending message id", func(t *testing.T) {
		h.send("s1", "dup", session.NextTurn)
		before := h.rt.Log("s1").Len()
		if _, err := h.rt.Send("s1", session.Message{ID: "dup"}, session.NextStep); !errors.Is(err, ErrDuplicateMessage) || h.rt.Log("s1").Len() != before {
			t.Fatalf("err %v", err)
		}
	})
	t.Run("a completed call refuses a second result", func(t *testing.T) {
		if err := h.held["c1"].Complete(OK("again")); !errors.Is(err, ErrCallSettled) {
			t.Fatalf("err %v", err)
		}
	})
}

func TestCancelTurn(t *testing.T) {
	t.Run("cancel clears the inbox first, aborts the turn's tools, and ends the turn aborted:user after their results", func(t *testing.T) {
		h := newHarness(t, 0)
		h.open("s1")
		h.send("s1", "m1", session.NextTurn)
		c := h.call("s1", "c1", "hold", `{}`)
		c.Signal().OnAbort(func(r error) { h.must(c.Complete(Failed("AbortError", "", r.Error()))) })
		h.call("s1", "c2", "sleep", `{"ms":100}`)
		h.send("s1", "m2", session.NextStep)
		h.send("s1", "m3", session.NextTurn)
		h.notes = nil
		h.must(h.rt.CancelTurn("s1", false))
		expectLines(t, "log", h.log("s1")[9:],
			"agent/inbox/spliced discarded next-step start=0 removed=1",
			"agent/inbox/spliced discarded next-turn start=0 removed=1",
			"tool/result turn=1 step=1 call=c1 error err=AbortError/ agent: turn aborted (user)",
			"tool/result turn=1 step=1 call=c2 error err=AbortError/ sleep aborted: agent: turn aborted (user)",
			"step/end turn=1 step=1",
			"turn/end turn=1 reason=aborted:user")
		expectLines(t, "notes", h.notes, "discarded s1 m2", "discarded s1 m3")
		if _, ok := h.rt.NextDeadline(); ok {
			t.Fatal("the aborted sleep left its timer")
		}
		if h.rt.Phase("s1") != PhaseIdle {
			t.Fatal("not idle")
		}
	})
	t.Run("keepInbox keeps the queue and the agent stays idle until the next send", func(t *testing.T) {
		h := newHarness(t, 0)
		h.open("s1")
		h.send("s1", "m1", session.NextTurn)
		h.send("s1", "m2", session.NextTurn)
		h.must(h.rt.CancelTurn("s1", true))
		if h.rt.Phase("s1") != PhaseIdle {
			t.Fatal("a new turn started after a cancel")
		}
		if v, _ := h.rt.Inbox("s1"); len(v.NextTurn) != 1 {
			t.Fatalf("inbox %v", v)
		}
		h.send("s1", "m3", session.NextStep)
		// the woken turn claims next-step and one next-turn message
		expectLines(t, "new turn", h.log("s1")[len(h.log("s1"))-6:],
			"turn/start turn=2",
			"agent/inbox/spliced claimed next-step start=0 removed=1",
			"agent/inbox/spliced claimed next-turn start=0 removed=1",
			"step/start turn=2 step=1",
			`user/message m3 user "m3"`,
			`user/message m2 user "m2"`)
	})
	t.Run("a send while the turn is aborting goes to next-turn and latches a wake", func(t *testing.T) {
		h := newHarness(t, 0)
		h.open("s1")
		h.send("s1", "m1", session.NextTurn)
		h.call("s1", "c1", "hold", `{}`) // ignores the abort for now
		h.must(h.rt.CancelTurn("s1", true))
		h.send("s1", "m2", session.NextStep)
		if v, _ := h.rt.Inbox("s1"); len(v.NextTurn) != 1 || len(v.NextStep) != 0 {
			t.Fatalf("inbox while aborting %v", v)
		}
		h.complete("c1", "late")
		if turn, step, _ := h.rt.Position("s1"); turn != 2 || step != 1 {
			t.Fatalf("the latched wake did not start turn 2: %d %d", turn, step)
		}
		// a tool call in a turn that is aborting never runs its body
		h.call("s1", "c2", "hold", `{}`)
		h.must(h.rt.CancelTurn("s1", true))
		h.call("s1", "c3", "hold", `{}`)
		h.complete("c2", "x")
		if _, held := h.held["c3"]; held {
			t.Fatal("the body of a call made while aborting ran")
		}
		if err := checkNesting(h.rt.Log("s1").Events(), 0); err != nil {
			t.Fatal(err)
		}
		l := h.log("s1")
		expectLines(t, "tail", l[len(l)-4:],
			"tool/result turn=2 step=1 call=c2 ok x",
			"tool/result turn=2 step=1 call=c3 error err=ToolAbortedError/TOOL_ABORTED_BEFORE_DISPATCH tool call aborted before dispatch",
			"step/end turn=2 step=1",
			"turn/end turn=2 reason=aborted:user")
	})
}

func TestHeader(t *testing.T) {
	h := newHarness(t, 0)
	h.open("s1")
	h.must(h.rt.Header("s1", `[{"name":"a"}]`))
	h.must(h.rt.Header("s1", `[]`))
	h.must(h.rt.Close("s1"))
	if _, err := h.rt.Resolve("s1"); err != nil {
		t.Fatal(err)
	}
	h.must(h.rt.Header("s1", `[]`))
	expectLines(t, "headers", h.log("s1"),
		`request/header reason=initial tools=[{"name":"a"}]`,
		"request/header reason=change tools=[]",
		"request/header reason=resume tools=[]")
}
