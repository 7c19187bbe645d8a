package agent

import (
	"strings"
	"testing"

	"github.com/twosettle/twosettle/engine/session"
)

func TestPTC(t *testing.T) {
	t.Run("sub-calls run in order through the runner with ids <parent>:ptc:<n> and their parent", func(t *testing.T) {
		h := newHarness(t, 0)
		h.open("s1")
		h.send("s1", "m1", session.NextTurn)
		h.call("s1", "c1", "run_code", `{"calls":[{"name":"hold","arguments":{ "a" : 1 }},{"name":"hold"},{"name":"other"}]}`)
		sub := h.held["c1:ptc:1"]
		if sub == nil || !sub.IsSubCall() || sub.Parent().ID() != "c1" || sub.Args() != `{"a":1}` || sub.Agent() != h.rt.Agent("s1") {
			t.Fatalf("first sub-call %v", sub)
		}
		if _, started := h.held["c1:ptc:2"]; started {
			t.Fatal("the second sub-call started before the first settled")
		}
		h.complete("c1:ptc:1", "one")
		h.complete("c1:ptc:2", "two")
		expectLines(t, "log", h.log("s1")[6:],
			`tool/ptc-dispatch-start parent=c1 sub=c1:ptc:1 name=hold args={"a":1}`,
			"tool/ptc-dispatch parent=c1 sub=c1:ptc:1 name=hold ok one",
			"tool/ptc-dispatch-start parent=c1 sub=c1:ptc:2 name=hold args={}",
			"tool/ptc-dispatch parent=c1 sub=c1:ptc:2 name=hold ok two",
			"tool/ptc-dispatch-start parent=c1 sub=c1:ptc:3 name=other args={}",
			"tool/ptc-dispatch parent=c1 sub=c1:ptc:3 name=other ok ok",
			`tool/result turn=1 step=1 call=c1 ok {"results":[{"subCallId":"c1:ptc:1","name":"hold","isError":false,"text":"one"},{"subCallId":"c1:ptc:2","name":"hold","isError":false,"text":"two"},{"subCallId":"c1:ptc:3","name":"other","isError":false,"text":"ok"}]}`)
		for _, e := range h.rt.Log("s1").Events() {
			if d, ok := e.Data.(session.PTCDispatch); ok && d.Root != "c1" {
				t.Fatalf("root %q", d.Root)
			}
		}
	})
	t.Run("an aborted run: the sub-call in flight still settles and logs, queued ones log nothing, run_code fails", func(t *testing.T) {
		h := newHarness(t, 0)
		h.open("s1")
		h.send("s1", "m1", session.NextTurn)
		h.call("s1", "c1", "run_code", `{"calls":[{"name":"sleep","arguments":{"ms":100}},{"name":"hold"}]}`)
		h.must(h.rt.CancelTurn("s1", true))
		expectLines(t, "log", h.log("s1")[6:],
			`tool/ptc-dispatch-start parent=c1 sub=c1:ptc:1 name=sleep args={"ms":100}`,
			"tool/ptc-dispatch parent=c1 sub=c1:ptc:1 name=sleep error err=AbortError/ sleep aborted: agent: turn aborted (user)",
			`tool/result turn=1 step=1 call=c1 error err=AbortError/ {"results":[{"subCallId":"c1:ptc:1","name":"sleep","isError":true,"error":{"name":"AbortError","code":""},"text":"sleep aborted: agent: turn aborted (user)"}],"abandoned":1}`,
			"step/end turn=1 step=1",
			"turn/end turn=1 reason=aborted:user")
		if len(h.held) != 0 {
			t.Fatal("an abandoned sub-call ran")
		}
	})
	t.Run("bad programs fail run_code at once; run_code inside run_code fails its sub-call", func(t *testing.T) {
		for _, args := range []string{`{}`, `nope`, `{"calls":[{"arguments":{}}]}`, `{"calls":[{"name":"x","arguments":[1]}]}`} {
			h := newHarness(t, 0)
			h.open("s1")
			h.send("s1", "m1", session.NextTurn)
			c := h.call("s1", "c1", "run_code", args)
			if !c.Done() || !c.Result().IsError || c.Result().Err.Name != TypeErrorName {
				t.Fatalf("%s: %v", args, c.Result())
			}
		}
		h := newHarness(t, 0)
		h.open("s1")
		h.send("s1", "m1", session.NextTurn)
		c := h.call("s1", "c1", "run_code", `{"calls":[{"name":"run_code","arguments":{"calls":[]}}]}`)
		if !strings.Contains(c.Result().Text, `"isError":true`) || c.Result().IsError {
			t.Fatalf("nested run_code: %v", c.Result())
		}
	})
	t.Run("AGENT-4 a sub-call whose tool/ptc-dispatch was not persisted leaves no record after a restart", func(t *testing.T) {
		h := newHarness(t, 200)
		h.open("s1")
		h.send("s1", "m1", session.NextTurn)
		h.call("s1", "c1", "run_code", `{"calls":[{"name":"hold"},{"name":"hold"}]}`)
		h.rt.Fire(10)
		h.complete("c1:ptc:1", `{"pending":true}`) // the program has its value; the record sits in the window
		if _, ok := h.held["c1:ptc:2"]; !ok {
			t.Fatal("the program did not move on")
		}
		h.rt.Fire(150) // the window opened at 0 with ptc-dispatch-start and closes at 200
		h.must(h.rt.Restart(nil))
		for _, e := range h.rt.Log("s1").Events() {
			if strings.Contains(e.Data.String(), "c1:ptc:") {
				t.Fatalf("a record of the interrupted sub-calls survived: %v", e)
			}
			if d, ok := e.Data.(session.ToolResult); ok && d.CallID != "c1" {
				t.Fatalf("a sub-call got a repaired result: %v", e)
			}
		}
		l := h.log("s1")
		expectLines(t, "repair", l[len(l)-3:],
			"tool/result turn=1 step=1 call=c1 error err=ToolOutcomeUnknownError/TOOL_OUTCOME_UNKNOWN "+session.ToolOutcomeUnknownText,
			"step/end turn=1 step=1",
			"turn/end turn=1 reason=interrupted")
	})
	t.Run("AGENT-4 once the window closed the settled sub-call's record survives; the one in flight leaves no dispatch", func(t *testing.T) {
		h := newHarness(t, 200)
		h.open("s1")
		h.send("s1", "m1", session.NextTurn)
		h.call("s1", "c1", "run_code", `{"calls":[{"name":"hold"},{"name":"hold"}]}`)
		h.rt.Fire(10)
		h.complete("c1:ptc:1", `{"pending":true}`)
		h.rt.Fire(200)
		h.must(h.rt.Restart(nil))
		var dispatched []string
		for _, e := range h.rt.Log("s1").Events() {
			if d, ok := e.Data.(session.PTCDispatch); ok {
				dispatched = append(dispatched, d.SubCallID+" "+d.Text)
			}
		}
		expectLines(t, "dispatch records", dispatched, `c1:ptc:1 {"pending":true}`)
		if err := checkNesting(h.rt.Log("s1").Events(), 0); err != nil {
			t.Fatal(err)
		}
	})
}

func TestBuiltinTools(t *testing.T) {
	t.Run("sleep completes after its virtual time through NextDeadline and Fire", func(t *testing.T) {
		h := newHarness(t, 0)
		h.open("s1")
		h.rt.Fire(100)
		h.send("s1", "m1", session.NextTurn)
		c := h.call("s1", "c1", "sleep", `{"ms":50}`)
		if at, ok := h.rt.NextDeadline(); !ok || at != 150 {
			t.Fatalf("deadline %d %v", at, ok)
		}
		h.rt.Fire(149)
		if c.Done() {
			t.Fatal("woke early")
		}
		h.rt.Fire(400) // fires at its own due time
		l := h.rt.Log("s1").Events()
		if e := l[len(l)-1]; e.Data.String() != "tool/result turn=1 step=1 call=c1 ok slept 50 ms" || e.Time != 150 {
			t.Fatalf("result %v", e)
		}
		if h.rt.Now() != 400 {
			t.Fatalf("clock %d", h.rt.Now())
		}
	})
	t.Run("sleep validates its arguments; 0 and unknown tools complete at once", func(t *testing.T) {
		h := newHarness(t, 0)
		h.open("s1")
		h.send("s1", "m1", session.NextTurn)
		for i, args := range []string{`{"ms":-1}`, `{"ms":1.5}`, `{}`, `x`, `{"ms":2147483648}`} {
			c := h.call("s1", "b"+letter(i), "sleep", args)
			if !c.Done() || c.Result().Err.Name != TypeErrorName {
				t.Fatalf("%s: %v", args, c.Result())
			}
		}
		if c := h.call("s1", "z", "sleep", `{"ms":0}`); c.Result().String() != "ok slept 0 ms" {
			t.Fatalf("sleep 0: %v", c.Result())
		}
		if c := h.call("s1", "u", "whatever", `garbage`); c.Result().String() != "ok "+InstantText {
			t.Fatalf("unknown tool: %v", c.Result())
		}
	})
}

func letter(i int) string { return string(rune('a' + i)) }
