package agent

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"testing"

	"github.com/twosettle/twosettle/engine/session"
	"github.com/twosettle/twosettle/engine/wire"
	"pgregory.net/rapid"
)

// TestPropertyRuntime drives random sends, tool calls, completions, end-steps, cancels,
// discards, flushes, time, closes, resolves and restarts, and checks after every action:
// turns and steps nest properly with results in call order; the inbox is the fold of its
// splices; pending message ids are unique; the driver phase matches the log; refused
// commands change nothing; appends are reported in seq order; a restart keeps exactly the
// durable prefix and repairs it.
func TestPropertyRuntime(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		window := rapid.SampledFrom([]int64{0, 50, 200}).Draw(rt, "window")
		var effects []wire.Effect
		held := map[string]*Call{}
		var heldOrder []*Call
		r := New(Config{WriteWindow: window, Emit: func(e wire.Effect) { effects = append(effects, e) },
			Runner: RunnerFunc(func(c *Call) bool {
				if c.Name() != "hold" {
					return false
				}
				held[c.Session()+"/"+c.ID()] = c
				heldOrder = append(heldOrder, c)
				return true
			})})
		ids := []string{"a", "b"}
		for _, id := range ids {
			if _, err := r.Open(id, ""); err != nil {
				rt.Fatal(err)
			}
		}
		now, calls, msgs := int64(0), 0, 0
		nextSeq := map[string]int{}
		for step := 0; step < 70; step++ {
			id := rapid.SampledFrom(ids).Draw(rt, "session")
			lenBefore := map[string]int{}
			for _, x := range ids {
				lenBefore[x] = r.Log(x).Len()
			}
			effects = effects[:0]
			var err error
			var durable map[string][]string
			action := rapid.IntRange(0, 11).Draw(rt, "action")
			switch action {
			case 0, 1: // send
				msgs++
				target := rapid.SampledFrom([]string{session.NextTurn, session.NextStep}).Draw(rt, "target")
				_, err = r.Send(id, session.Message{ID: "m" + strconv.Itoa(msgs), Source: session.Source{Kind: session.SourceUser}}, target)
			case 2, 3: // tool call
				calls++
				var name, args string
				switch rapid.IntRange(0, 3).Draw(rt, "tool") {
				case 0:
					name, args = "hold", "{}"
				case 1:
					name, args = "sleep", `{"ms":`+strconv.Itoa(rapid.IntRange(0, 300).Draw(rt, "ms"))+`}`
				case 2:
					name, args = "run_code", `{"calls":[{"name":"hold"},{"name":"sleep","arguments":{"ms":20}},{"name":"x"}]}`
				default:
					name, args = "x", "{}"
				}
				cid := "c" + strconv.Itoa(calls)
				if rapid.IntRange(0, 9).Draw(rt, "dupCall") == 0 && calls > 1 {
					cid = "c" + strconv.Itoa(calls-1)
				}
				_, err = r.ToolCall(id, cid, name, args)
			case 4, 5: // complete a held call
				var open []*Call
				for _, c := range heldOrder {
					if !c.Done() {
						open = append(open, c)
					}
				}
				if len(open) == 0 {
					continue
				}
				c := rapid.SampledFrom(open).Draw(rt, "held")
				res := OK("done")
				if rapid.Bool().Draw(rt, "fail") {
					res = Failed("X", "CODE", "failed")
				}
				if cerr := c.Complete(res); cerr != nil && !errors.Is(cerr, ErrStaleCall) {
					rt.Fatalf("complete %v: %v", c, cerr)
				}
			case 6: // end step
				err = r.EndStep(id, rapid.Bool().Draw(rt, "final"))
			case 7: // cancel
				err = r.CancelTurn(id, rapid.Bool().Draw(rt, "keep"))
			case 8: // discard a pending message, or flush
				if v, _ := r.Inbox(id); len(v.NextStep)+len(v.NextTurn) > 0 && rapid.Bool().Draw(rt, "discard") {
					all := append(slices.Clone(v.NextStep), v.NextTurn...)
					m := rapid.SampledFrom(all).Draw(rt, "msg")
					var ok bool
					ok, err = r.Discard(id, m.ID)
					if !ok {
						rt.Fatalf("pending message %s not discarded", m.ID)
					}
				} else {
					err = r.Flush(id)
				}
			case 9: // time passes
				now += int64(rapid.IntRange(0, 300).Draw(rt, "dt"))
				r.Fire(now)
			case 10: // close or resolve
				if r.Agent(id) != nil && rapid.Bool().Draw(rt, "close") {
					err = r.Close(id)
				} else {
					_, err = r.Resolve(id)
				}
			case 11: // restart, sometimes cut inside the persisted prefix
				durable = map[string][]string{}
				cut := map[string]int{}
				for _, x := range ids {
					l := r.Log(x)
					keep := l.Persisted()
					if rapid.IntRange(0, 3).Draw(rt, "cut") == 0 && keep > 0 {
						keep = rapid.IntRange(0, keep).Draw(rt, "keep")
						cut[x] = keep
					}
					for _, e := range l.Events()[:keep] {
						durable[x] = append(durable[x], e.String())
					}
				}
				if rerr := r.Restart(cut); rerr != nil {
					rt.Fatal(rerr)
				}
				for _, x := range ids {
					nextSeq[x] = len(durable[x])
				}
			}
			if err != nil {
				if len(effects) != 0 {
					rt.Fatalf("action %d refused (%v) but emitted %v", action, err, effects)
				}
				for _, x := range ids {
					if r.Log(x).Len() != lenBefore[x] {
						rt.Fatalf("action %d refused (%v) but changed the log of %s", action, err, x)
					}
				}
			}
			// Appends are reported in seq order; persists never pass the log.
			for _, e := range effects {
				switch e := e.(type) {
				case wire.Appended:
					if e.Event.Seq != nextSeq[e.Session] {
						rt.Fatalf("append of %s seq %d, want %d", e.Session, e.Event.Seq, nextSeq[e.Session])
					}
					nextSeq[e.Session]++
				case wire.Persisted:
					if e.Through > nextSeq[e.Session] {
						rt.Fatalf("persisted %s through %d past the log (%d)", e.Session, e.Through, nextSeq[e.Session])
					}
				}
			}
			for _, x := range ids {
				l := r.Log(x)
				events := l.Events()
				if durable != nil {
					for i, s := range durable[x] {
						if events[i].String() != s {
							rt.Fatalf("restart changed durable event %d of %s: %s -> %v", i, x, s, events[i])
						}
					}
					if l.Dirty() {
						rt.Fatalf("a cold-loaded log of %s is dirty before any new append", x)
					}
				}
				if err := checkNesting(events, 0); err != nil {
					rt.Fatalf("%s: %v", x, err)
				}
				v, _ := r.Inbox(x)
				fold, ferr := FoldInbox(events, l.Inherited())
				if ferr != nil || fold.String() != v.String() || fmt.Sprint(fold) != fmt.Sprint(v) {
					rt.Fatalf("%s: live inbox %v, fold %v (%v)", x, v, fold, ferr)
				}
				seen := map[string]bool{}
				for _, m := range append(slices.Clone(v.NextStep), v.NextTurn...) {
					if seen[m.ID] {
						rt.Fatalf("%s: message id %s pending twice", x, m.ID)
					}
					seen[m.ID] = true
				}
				open := session.InterruptedTurnClosers(events) != nil
				if running := r.Phase(x) == PhaseRunning; running != open {
					rt.Fatalf("%s: phase %s but the log has an open turn = %v", x, r.Phase(x), open)
				}
				if r.Phase(x) == PhaseIdle && r.Agent(x) != nil && len(v.NextStep)+len(v.NextTurn) > 0 && !abortedLast(events) {
					rt.Fatalf("%s: an idle live agent with queued messages %v after a completed turn", x, v)
				}
				if l.Persisted() > l.Len() {
					rt.Fatalf("%s: persisted %d > len %d", x, l.Persisted(), l.Len())
				}
			}
		}
	})
}

// abortedLast reports whether the last turn of a log ended aborted (an agent may then stay
// idle with queued messages until the next send).
func abortedLast(events []session.Event) bool {
	for i := len(events) - 1; i >= 0; i-- {
		if d, ok := events[i].Data.(session.TurnEnd); ok {
			return d.Reason.Kind == session.EndAborted
		}
	}
	return false
}
