package agent

import (
	"errors"
	"testing"

	"github.com/twosettle/twosettle/engine/session"
)

func TestRegistry(t *testing.T) {
	t.Run("instances are identities: a closed session's instance is stale and Resolve resumes a new root", func(t *testing.T) {
		h := newHarness(t, 0)
		a1 := h.open("s1")
		if !h.rt.Live(a1) || !a1.Root() || a1.Instance() != 1 {
			t.Fatalf("opened agent %v live=%v", a1, h.rt.Live(a1))
		}
		h.must(h.rt.Close("s1"))
		if h.rt.Live(a1) || h.rt.Agent("s1") != nil {
			t.Fatal("a closed session's instance is still live")
		}
		a2, err := h.rt.Resolve("s1")
		h.must(err)
		if a2 == a1 || a2.ID() != a1.ID() || a2.Instance() <= a1.Instance() || !h.rt.Live(a2) || h.rt.Live(a1) {
			t.Fatalf("resume: %v (was %v)", a2, a1)
		}
		if again, _ := h.rt.Resolve("s1"); again != a2 {
			t.Fatal("resolving a live session did not return its live instance")
		}
		if got := h.rt.Instances("s1"); len(got) != 2 || got[0] != a1 || got[1] != a2 {
			t.Fatalf("instances %v", got)
		}
		if st, _ := h.rt.StaleInstance("s1"); st != a1 {
			t.Fatalf("stale instance %v", st)
		}
	})
	t.Run("a session that never had another instance gets a minted stale instance, the same every time", func(t *testing.T) {
		h := newHarness(t, 0)
		a := h.open("s1")
		st, err := h.rt.StaleInstance("s1")
		h.must(err)
		if st == a || st.ID() != "s1" || h.rt.Live(st) {
			t.Fatalf("stale %v", st)
		}
		if st2, _ := h.rt.StaleInstance("s1"); st2 != st {
			t.Fatal("a second stale instance was minted")
		}
	})
	t.Run("an owned child is owned by the owner's live agent; closing the owner closes it; a resumed child is a root", func(t *testing.T) {
		h := newHarness(t, 0)
		p := h.open("p")
		c, err := h.rt.Open("c", "p")
		h.must(err)
		if c.Owner() != p || !h.rt.OwnedByLive(c) || c.Root() {
			t.Fatalf("child %v owner %v", c, c.Owner())
		}
		h.must(h.rt.Close("p"))
		if h.rt.Live(c) {
			t.Fatal("closing the owner left its child live")
		}
		c2, err := h.rt.Resolve("c")
		h.must(err)
		if !c2.Root() || h.rt.OwnedByLive(c2) {
			t.Fatalf("resumed child %v is not a root", c2)
		}
	})
	t.Run("GW-8 resolving a closed session resumes its root first, with its inbox, and wakes it when the inbox holds messages", func(t *testing.T) {
		h := newHarness(t, 0)
		h.open("s1")
		h.send("s1", "m1", session.NextTurn)
		h.send("s1", "m2", session.NextTurn)
		h.must(h.rt.Close("s1")) // turn 1 aborted:disposed, m2 stays queued
		if h.rt.Phase("s1") != PhaseIdle {
			t.Fatal("closed session still running")
		}
		if v, _ := h.rt.Inbox("s1"); len(v.NextTurn) != 1 {
			t.Fatalf("inbox after close %v", v)
		}
		a, err := h.rt.Resolve("s1")
		h.must(err)
		if !h.rt.Live(a) || !a.Root() {
			t.Fatal("resolve did not resume a live root")
		}
		l := h.log("s1")
		expectLines(t, "resumed turn", l[len(l)-4:],
			"turn/start turn=2",
			"agent/inbox/spliced claimed next-turn start=0 removed=1",
			"step/start turn=2 step=1",
			`user/message m2 user "m2"`)
		if _, err := h.rt.Resolve("nope"); !errors.Is(err, ErrUnknownSession) {
			t.Fatalf("unknown session: %v", err)
		}
	})
	t.Run("close settles a call that ignores the abort with TOOL_ABORTED and refuses its later completion", func(t *testing.T) {
		h := newHarness(t, 1000)
		h.open("s1")
		h.send("s1", "m1", session.NextTurn)
		h.call("s1", "c1", "run_code", `{"calls":[{"name":"hold"},{"name":"x"}]}`)
		h.must(h.rt.Close("s1"))
		l := h.log("s1")
		expectLines(t, "tail", l[len(l)-4:],
			"tool/ptc-dispatch parent=c1 sub=c1:ptc:1 name=hold error err=ToolAbortedError/TOOL_ABORTED the tool call was stopped because its agent was disposed",
			`tool/result turn=1 step=1 call=c1 error err=AbortError/ {"results":[{"subCallId":"c1:ptc:1","name":"hold","isError":true,"error":{"name":"ToolAbortedError","code":"TOOL_ABORTED"},"text":"the tool call was stopped because its agent was disposed"}],"abandoned":1}`,
			"step/end turn=1 step=1",
			"turn/end turn=1 reason=aborted:disposed")
		if err := h.held["c1:ptc:1"].Complete(OK("late")); !errors.Is(err, ErrCallSettled) {
			t.Fatalf("late completion: %v", err)
		}
		if lg := h.rt.Log("s1"); lg.Dirty() {
			t.Fatal("close did not flush")
		}
	})
	t.Run("fork inherits the prefix, not the inbox, and continues turn numbers", func(t *testing.T) {
		h := newHarness(t, 0)
		h.open("p")
		h.send("p", "m1", session.NextTurn)
		h.must(h.rt.EndStep("p", true))
		h.must(h.rt.CancelTurn("p", true))
		h.send("p", "m2", session.NextTurn) // turn 2 open
		h.send("p", "m3", session.NextTurn) // queued
		through := h.rt.Log("p").Len() - 1
		f, err := h.rt.Fork("f", "", "p", through)
		h.must(err)
		fl := h.rt.Log("f")
		if fl.Inherited() != through+1 || !f.Root() {
			t.Fatalf("inherited %d", fl.Inherited())
		}
		if v, _ := h.rt.Inbox("f"); len(v.NextTurn)+len(v.NextStep) != 0 {
			t.Fatalf("fork inherited the inbox %v", v)
		}
		// the cut was inside turn 2: the fork closes it after the seed, durably
		l := h.log("f")
		expectLines(t, "fork tail", l[through+1:], "step/end turn=2 step=1", "turn/end turn=2 reason=interrupted")
		if fl.Dirty() {
			t.Fatal("fork closers not persisted")
		}
		h.send("f", "x", session.NextTurn)
		if turn, _, _ := h.rt.Position("f"); turn != 3 {
			t.Fatalf("fork turn %d", turn)
		}
		if err := checkNesting(fl.Events(), 0); err != nil {
			t.Fatal(err)
		}
	})
}

func TestInboxDiscardAndFold(t *testing.T) {
	t.Run("discard by id is one canceled splice and a notification; the fold follows", func(t *testing.T) {
		h := newHarness(t, 0)
		h.open("s1")
		h.send("s1", "m1", session.NextTurn)
		h.call("s1", "c1", "hold", "{}")
		h.send("s1", "a", session.NextStep)
		h.send("s1", "b", session.NextStep)
		h.send("s1", "c", session.NextTurn)
		h.notes = nil
		ok, err := h.rt.Discard("s1", "b")
		h.must(err)
		if !ok {
			t.Fatal("not discarded")
		}
		if ok, _ := h.rt.Discard("s1", "b"); ok {
			t.Fatal("discarded twice")
		}
		l := h.log("s1")
		expectLines(t, "discard", l[len(l)-1:], "agent/inbox/spliced discarded next-step start=1 removed=1")
		expectLines(t, "notes", h.notes, "discarded s1 b")
		v, _ := h.rt.Inbox("s1")
		fold, err := FoldInbox(h.rt.Log("s1").Events(), 0)
		h.must(err)
		if v.String() != fold.String() || v.String() != "next-step=[a] next-turn=[c]" {
			t.Fatalf("live %v fold %v", v, fold)
		}
	})
	t.Run("a splice that does not fit fails the fold", func(t *testing.T) {
		l := session.New("s")
		l.Append(0, session.InboxSpliced{Target: session.NextTurn, Start: 0, Removed: 1})
		if _, err := FoldInbox(l.Events(), 0); err == nil {
			t.Fatal("an impossible splice folded")
		}
		l2 := session.New("s")
		l2.Append(0, session.InboxSpliced{Target: "elsewhere", Inserted: []session.Message{{ID: "m"}}})
		if _, err := FoldInbox(l2.Events(), 0); err == nil {
			t.Fatal("an unknown target folded")
		}
	})
}
