package agent

import (
	"errors"
	"strconv"
	"strings"
	"testing"

	"github.com/twosettle/twosettle/engine/session"
	"github.com/twosettle/twosettle/engine/wire"
)

// persistedAfter returns, for each Persisted effect, the seq of the Appended effect just
// before it ("through" positions), to locate flush points.
func persistedMarks(effects []wire.Effect) []string {
	var out []string
	last := ""
	for _, e := range effects {
		switch e := e.(type) {
		case wire.Appended:
			last = e.Event.Data.Type()
		case wire.Persisted:
			out = append(out, "after "+last)
		}
	}
	return out
}

func TestPersistence(t *testing.T) {
	t.Run("AGENT-6 a crash keeps the persisted prefix and loses the unpersisted suffix", func(t *testing.T) {
		h := newHarness(t, 200)
		h.open("s1")
		h.send("s1", "m1", session.NextTurn)
		h.call("s1", "c1", "hold", `{}`)
		h.rt.Fire(10)
		h.complete("c1", "done")
		h.must(h.rt.EndStep("s1", true))
		l := h.rt.Log("s1")
		durable := append([]session.Event(nil), l.Durable()...)
		if len(durable) == 0 || l.Persisted() == l.Len() {
			t.Fatalf("expected a persisted prefix and a suffix: persisted %d of %d", l.Persisted(), l.Len())
		}
		lost := l.Events()[l.Persisted():]
		if lost[0].Data.String() != "tool/result turn=1 step=1 call=c1 ok done" {
			t.Fatalf("suffix starts with %v", lost[0])
		}
		h.rt.Fire(100) // still inside the window (opened at 10, closes at 210)
		h.must(h.rt.Restart(nil))
		got := l.Events()
		for i, e := range durable {
			if got[i].String() != e.String() {
				t.Fatalf("durable event %d changed: %v -> %v", i, e, got[i])
			}
		}
		for _, e := range got[len(durable):] {
			if strings.Contains(e.String(), "ok done") {
				t.Fatalf("a lost event survived: %v", e)
			}
		}
		expectLines(t, "repaired tail", h.log("s1")[len(durable):],
			"tool/result turn=1 step=1 call=c1 error err=ToolOutcomeUnknownError/TOOL_OUTCOME_UNKNOWN "+session.ToolOutcomeUnknownText,
			"step/end turn=1 step=1",
			"turn/end turn=1 reason=interrupted")
	})
	t.Run("AGENT-6 the write window opens when the log turns dirty and persists everything appended by its close", func(t *testing.T) {
		h := newHarness(t, 200)
		h.open("s1")
		h.send("s1", "m1", session.NextTurn)
		h.call("s1", "c1", "hold", `{}`)
		h.take()
		h.rt.Fire(30)
		h.send("s1", "m2", session.NextStep) // clean -> dirty at 30: window until 230
		if at, ok := h.rt.NextDeadline(); !ok || at != 230 {
			t.Fatalf("deadline %d %v", at, ok)
		}
		h.rt.Fire(100)
		h.send("s1", "m3", session.NextStep) // already dirty: the window does not move
		if at, _ := h.rt.NextDeadline(); at != 230 {
			t.Fatalf("the window moved to %d", at)
		}
		h.rt.Fire(229)
		if h.rt.Log("s1").Persisted() == h.rt.Log("s1").Len() {
			t.Fatal("persisted before the window closed")
		}
		h.take()
		h.rt.Fire(230)
		expectLines(t, "window close", h.take(), "persisted s1 through="+strconv.Itoa(h.rt.Log("s1").Len()))
		if _, ok := h.rt.NextDeadline(); ok {
			t.Fatal("a window is still armed on a clean log")
		}
	})
	t.Run("AGENT-6 write-through persists every event as it is appended", func(t *testing.T) {
		h := newHarness(t, 0)
		h.open("s1")
		h.send("s1", "m1", session.NextTurn)
		h.call("s1", "c1", "run_code", `{"calls":[{"name":"x"}]}`)
		var pending int
		for _, e := range h.effects {
			switch e := e.(type) {
			case wire.Appended:
				pending++
				if pending > 1 {
					t.Fatalf("two appends without a persist before %v", e)
				}
			case wire.Persisted:
				pending = 0
			}
		}
		if _, ok := h.rt.NextDeadline(); ok || h.rt.Log("s1").Dirty() {
			t.Fatal("write-through left something unpersisted")
		}
	})
	t.Run("AGENT-6 flush points: pre-step, before the model request, before a top-level tool body; never for sub-call records", func(t *testing.T) {
		h := newHarness(t, 200)
		h.open("s1")
		h.send("s1", "m1", session.NextTurn)
		h.call("s1", "c1", "run_code", `{"calls":[{"name":"hold"}]}`)
		h.complete("c1:ptc:1", "sub")
		expectLines(t, "flushes", persistedMarks(h.effects),
			"after "+session.TypeInboxSpliced, // pre-step: after the claim
			"after "+session.TypeUserMessage,  // before the model request: after admission
			"after "+session.TypeToolCall)     // before run_code's body
		l := h.rt.Log("s1")
		for _, e := range l.Events()[l.Persisted():] {
			switch e.Data.(type) {
			case session.PTCDispatchStart, session.PTCDispatch, session.ToolResult:
			default:
				t.Fatalf("unexpected unpersisted event %v", e)
			}
		}
		if l.Persisted() == l.Len() {
			t.Fatal("the sub-call records were flushed")
		}
	})
	t.Run("AGENT-6 Flush makes an accepted steer durable before it is acknowledged; without it a crash loses the steer", func(t *testing.T) {
		for _, flush := range []bool{true, false} {
			h := newHarness(t, 200)
			h.open("s1")
			h.send("s1", "m1", session.NextTurn)
			h.call("s1", "c1", "hold", `{}`)
			h.send("s1", "reply", session.NextStep)
			h.take()
			if flush {
				h.must(h.rt.Flush("s1"))
				expectLines(t, "flush", h.take(), "persisted s1 through="+strconv.Itoa(h.rt.Log("s1").Len()))
			}
			h.must(h.rt.Restart(nil))
			admitted := false
			for _, e := range h.rt.Log("s1").Events() {
				if d, ok := e.Data.(session.UserMessage); ok && d.Message.ID == "reply" {
					admitted = true
				}
			}
			if admitted != flush {
				t.Fatalf("flush=%v: reply admitted after restart = %v", flush, admitted)
			}
		}
	})
	t.Run("AGENT-6 a cut inside the persisted prefix keeps only the events before it", func(t *testing.T) {
		h := newHarness(t, 0)
		h.open("s1")
		h.send("s1", "m1", session.NextTurn)
		h.call("s1", "c1", "hold", `{}`)
		n := h.rt.Log("s1").Len() - 1 // the tool/call's persist is cut
		h.must(h.rt.Restart(map[string]int{"s1": n}))
		expectLines(t, "after cut", h.log("s1")[n:], "step/end turn=1 step=1", "turn/end turn=1 reason=interrupted")
	})
}

func TestRestart(t *testing.T) {
	t.Run("AGENT-2 a restart keeps the log and the inbox and loses every volatile thing", func(t *testing.T) {
		h := newHarness(t, 0)
		a := h.open("s1")
		h.open("s2")
		h.send("s1", "m1", session.NextTurn)
		held := h.call("s1", "c1", "hold", `{}`)
		h.call("s1", "c2", "sleep", `{"ms":500}`)
		h.send("s1", "m2", session.NextTurn)
		h.send("s2", "x", session.NextTurn)
		h.must(h.rt.CancelTurn("s2", true)) // s2: idle with nothing queued after its turn
		logBefore := h.log("s2")
		inbox1, _ := h.rt.Inbox("s1")
		h.notes = nil
		h.must(h.rt.Restart(nil))
		if h.rt.Live(a) {
			t.Fatal("an instance survived the restart")
		}
		if err := held.Complete(OK("late")); !errors.Is(err, ErrStaleCall) {
			t.Fatalf("a call from before the restart completed: %v", err)
		}
		if at, ok := h.rt.NextDeadline(); ok {
			t.Fatalf("the sleep's timer survived the restart (at %d)", at)
		}
		expectLines(t, "s2 log kept", h.log("s2"), logBefore...)
		if h.rt.Agent("s2") != nil || h.rt.Phase("s2") != PhaseIdle {
			t.Fatal("a cold session with an empty inbox got a live agent before it was resolved")
		}
		if inbox1.String() != "next-step=[] next-turn=[m2]" {
			t.Fatalf("inbox before %v", inbox1)
		}
		// s1's restored inbox held m2: it was resumed and woke into a new turn that admitted it.
		b := h.rt.Agent("s1")
		if b == nil || b == a || !b.Root() {
			t.Fatalf("s1 after restart: %v", b)
		}
		l := h.log("s1")
		expectLines(t, "s1 tail", l[len(l)-4:],
			"turn/start turn=2",
			"agent/inbox/spliced claimed next-turn start=0 removed=1",
			"step/start turn=2 step=1",
			`user/message m2 user "m2"`)
		expectLines(t, "notes", h.notes, "loaded s1", "loaded s2", "claimed s1 m2 turn=2")
		if err := checkNesting(h.rt.Log("s1").Events(), 0); err != nil {
			t.Fatal(err)
		}
	})
	t.Run("AGENT-3 a tool call cut off by a restart gets TOOL_OUTCOME_UNKNOWN, the closers are durable at once and carry the last real time", func(t *testing.T) {
		h := newHarness(t, 200)
		h.open("s1")
		h.rt.Fire(5)
		h.send("s1", "m1", session.NextTurn)
		h.rt.Fire(7)
		h.call("s1", "c1", "hold", `{"q":1}`)
		h.rt.Fire(9)
		h.call("s1", "c2", "sleep", `{"ms":100}`)
		h.rt.Fire(50)
		h.take()
		h.must(h.rt.Restart(nil))
		l := h.rt.Log("s1")
		n := l.Len()
		tail := l.Events()[n-4:]
		for _, e := range tail {
			if e.Time != 9 {
				t.Fatalf("closer %v does not carry the last real time 9", e)
			}
		}
		expectLines(t, "closers", h.log("s1")[n-4:],
			"tool/result turn=1 step=1 call=c1 error err=ToolOutcomeUnknownError/TOOL_OUTCOME_UNKNOWN "+session.ToolOutcomeUnknownText,
			"tool/result turn=1 step=1 call=c2 error err=ToolOutcomeUnknownError/TOOL_OUTCOME_UNKNOWN "+session.ToolOutcomeUnknownText,
			"step/end turn=1 step=1",
			"turn/end turn=1 reason=interrupted")
		if l.Dirty() {
			t.Fatal("repair is not durable")
		}
		effects := h.take()
		if effects[len(effects)-1] != "persisted s1 through="+strconv.Itoa(n) {
			t.Fatalf("repair effects %q", effects)
		}
		if h.rt.Agent("s1") != nil {
			t.Fatal("live before resolved")
		}
		h.must(h.rt.Restart(nil)) // a second cold load repairs nothing more
		if l.Len() != n {
			t.Fatal("repair appended twice")
		}
		if _, err := h.rt.Resolve("s1"); err != nil {
			t.Fatal(err)
		}
		h.send("s1", "m2", session.NextTurn)
		if turn, _, _ := h.rt.Position("s1"); turn != 2 {
			t.Fatalf("turn numbering did not continue: %d", turn)
		}
	})
}
