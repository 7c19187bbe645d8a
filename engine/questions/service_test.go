package questions

import (
	"math"
	"strings"
	"testing"

	"github.com/twosettle/twosettle/engine/signal"
	"github.com/twosettle/twosettle/engine/wire"
)

// continuedView is a view with one continued row c1 asking a and b.
func continuedView() wire.QuestionsView {
	return wire.QuestionsView{Active: []wire.PendingRow{{CallID: "c1", Questions: qs("a", "b"), State: wire.StateContinued}}, Settled: []wire.SettledRow{}}
}

const answerAB = `{"answers":[{"id":"a","selected":["x"]},{"id":"b","selected":[]}]}`

// callerOps runs each guarded operation for agent a and returns its error code.
func callerOps(f *fixture, a Agent) map[string]string {
	f.rt.views[a.ID()] = continuedView()
	out := map[string]string{}
	var r result
	f.svc.Ask(0, Request{Questions: qs("a"), Agent: a, Signal: signal.New()}, r.done)
	out["ask"] = r.r.Err.Code
	var rt result
	f.svc.AskTimed(0, Request{Questions: qs("a"), Agent: a, Signal: signal.New()}, "c9", 5000, rt.done)
	out["askTimed"] = rt.r.Err.Code
	_, err := f.svc.AttachWait(0, a, "c9", signal.New(), &testSink{})
	if err != nil {
		out["attachWait"] = err.Code
	}
	_, err = f.svc.Answer(0, a, "c1", raw(answerAB))
	if err != nil {
		out["answer"] = err.Code
	}
	return out
}

func TestCaller(t *testing.T) {
	t.Run("CALLER-1 a stale instance with the live id fails with CALLER_NOT_LIVE", func(t *testing.T) {
		f := newFixture()
		stale := f.agent
		f.rt.enter("s1", "") // a new live instance for s1
		got := callerOps(f, stale)
		for _, op := range []string{"ask", "askTimed", "attachWait", "answer"} {
			if got[op] != wire.CallerNotLive {
				t.Errorf("%s with a stale agent: %q, want CALLER_NOT_LIVE", op, got[op])
			}
		}
		if len(f.l.held) != 0 {
			t.Fatal("a stale caller reached the answerer")
		}
	})
	t.Run("CALLER-1 the exact live instance passes", func(t *testing.T) {
		f := newFixture()
		var r result
		f.svc.Ask(0, Request{Questions: qs("a"), Agent: f.agent, Signal: signal.New()}, r.done)
		if r.got || len(f.l.held) != 1 {
			t.Fatalf("live caller: result %v held %d", r.r.Err, len(f.l.held))
		}
	})
	t.Run("CALLER-2 an owned child fails with DELEGATED_CALLER telling it to use its final result", func(t *testing.T) {
		f := newFixture()
		child := f.rt.enter("child", "s1")
		var r result
		f.svc.Ask(0, Request{Questions: qs("a"), Agent: child, Signal: signal.New()}, r.done)
		r.wantCode(t, wire.DelegatedCaller)
		if !strings.Contains(r.r.Err.Message, "owned by another live agent") || !strings.Contains(r.r.Err.Message, "final result") {
			t.Fatalf("message %q", r.r.Err.Message)
		}
		if len(f.l.held) != 0 {
			t.Fatal("a delegated caller reached the answerer")
		}
	})
	t.Run("CALLER-3 runtime ownership decides: a child re-entered as a root may ask", func(t *testing.T) {
		f := newFixture()
		f.rt.enter("child", "s1")
		resumed := f.rt.enter("child", "") // resumed as a runtime root, whatever its lineage
		var r result
		f.svc.AskTimed(0, Request{Questions: qs("a"), Agent: resumed, Signal: signal.New()}, "c1", 5000, r.done)
		if r.got || len(f.l.held) != 1 {
			t.Fatalf("resumed root could not ask: %v", r.r.Err)
		}
		// And a child whose owner is gone is a root too.
		f2 := newFixture()
		orphan := f2.rt.enter("child", "s1")
		delete(f2.rt.live, "s1")
		var r2 result
		f2.svc.Ask(0, Request{Questions: qs("a"), Agent: orphan, Signal: signal.New()}, r2.done)
		if r2.got {
			t.Fatalf("child with no live owner could not ask: %v", r2.r.Err)
		}
	})
	t.Run("CALLER-4 the check guards ask with an agent, askTimed, attachWait and answer", func(t *testing.T) {
		f := newFixture()
		child := f.rt.enter("child", "s1")
		got := callerOps(f, child)
		for _, op := range []string{"ask", "askTimed", "attachWait", "answer"} {
			if got[op] != wire.DelegatedCaller {
				t.Errorf("%s with an owned child: %q, want DELEGATED_CALLER", op, got[op])
			}
		}
		// ask without an agent is not checked: it is dispatched unscoped.
		var r result
		f.svc.Ask(0, Request{Questions: qs("a"), Signal: signal.New()}, r.done)
		if r.got || len(f.l.held) != 1 || f.l.held[0].r.Agent != nil {
			t.Fatalf("unscoped ask: result %v", r.r.Err)
		}
		// askTimed without an agent fails the check.
		var rt result
		f.svc.AskTimed(0, Request{Questions: qs("a"), Signal: signal.New()}, "c1", 5000, rt.done)
		rt.wantCode(t, wire.CallerNotLive)
	})
}

func TestAsk(t *testing.T) {
	t.Run("ASK-1 a pre-aborted signal fails with ASK_ABORTED and calls no answerer", func(t *testing.T) {
		f := newFixture()
		var r result
		f.svc.Ask(0, Request{Questions: qs("a"), Agent: f.agent, Signal: signal.Aborted(errTurn)}, r.done)
		r.wantCode(t, wire.AskAborted)
		if len(f.l.held) != 0 {
			t.Fatal("answerer called")
		}
		// Before the empty-batch and liveness checks.
		var r2 result
		f.svc.Ask(0, Request{Agent: &testAgent{id: "ghost"}, Signal: signal.Aborted(errTurn)}, r2.done)
		r2.wantCode(t, wire.AskAborted)
	})
	t.Run("ASK-2 an empty batch fails with EMPTY_QUESTIONS before liveness", func(t *testing.T) {
		f := newFixture()
		var r result
		f.svc.Ask(0, Request{Questions: nil, Agent: &testAgent{id: "ghost"}, Signal: signal.New()}, r.done)
		r.wantCode(t, wire.EmptyQuestions)
		var r2 result
		f.svc.AskTimed(0, Request{Questions: []wire.Question{}, Agent: f.agent, Signal: signal.New()}, "c1", 5000, r2.done)
		r2.wantCode(t, wire.EmptyQuestions)
		if len(f.l.held) != 0 {
			t.Fatal("answerer called")
		}
		if _, ok := f.svc.Wait(f.agent, "c1"); ok {
			t.Fatal("a wait was left behind")
		}
	})
	t.Run("ASK-3 plan review: approve must be an option label of that question and detail present", func(t *testing.T) {
		detail := "the plan"
		plan := func(approve string, withDetail bool, opts ...string) wire.Question {
			q := wire.Question{ID: "p", Question: "Approve?", Intent: &wire.Intent{Kind: wire.IntentPlanReview, Approve: approve}}
			for _, o := range opts {
				q.Options = append(q.Options, wire.Option{Label: o})
			}
			if withDetail {
				q.Detail = &detail
			}
			return q
		}
		cases := []struct {
			name string
			q    []wire.Question
			want string // "" = dispatched
		}{
			{"approve is an option, detail present", []wire.Question{plan("Yes", true, "Yes", "No")}, ""},
			{"approve not an option", []wire.Question{plan("Maybe", true, "Yes", "No")}, "approve"},
			{"no options at all", []wire.Question{plan("Yes", true)}, "approve"},
			{"approve only in another question", []wire.Question{{ID: "o", Question: "?", Options: []wire.Option{{Label: "Yes"}}}, plan("Yes", true, "No")}, "approve"},
			{"no detail", []wire.Question{plan("Yes", false, "Yes")}, "detail"},
			{"approve checked before detail", []wire.Question{plan("Maybe", false, "Yes")}, "approve"},
		}
		for _, c := range cases {
			f := newFixture()
			var r result
			f.svc.Ask(0, Request{Questions: c.q, Agent: f.agent, Signal: signal.New()}, r.done)
			if c.want == "" {
				if r.got || len(f.l.held) != 1 {
					t.Errorf("%s: not dispatched (%v)", c.name, r.r.Err)
				}
				continue
			}
			if !r.r.Err.HasCode(wire.BadIntent) || !strings.Contains(r.r.Err.Message, c.want) || len(f.l.held) != 0 {
				t.Errorf("%s: %v, want BAD_INTENT about %s", c.name, r.r.Err, c.want)
			}
		}
	})
	t.Run("ASK-4 a blocking ask no answerer takes fails with NO_PROVIDER", func(t *testing.T) {
		f := newFixture()
		f.l.delegate = true
		var r result
		f.svc.Ask(0, Request{Questions: qs("a"), Agent: f.agent, Signal: signal.New()}, r.done)
		r.wantCode(t, wire.NoProvider)
		bare := New(Config{Runtime: f.rt})
		var r2 result
		bare.Ask(0, Request{Questions: qs("a"), Signal: signal.New()}, r2.done)
		r2.wantCode(t, wire.NoProvider)
		// A listener that holds, then passes on: NO_PROVIDER only then.
		f2 := newFixture()
		var r3 result
		f2.svc.Ask(0, Request{Questions: qs("a"), Signal: signal.New()}, r3.done)
		if r3.got {
			t.Fatal("completed while the listener held it")
		}
		f2.l.last(t).next()
		r3.wantCode(t, wire.NoProvider)
	})
	t.Run("ASK-5 rejections are restored", func(t *testing.T) {
		plainErr := &wire.Error{Name: wire.TypeErrorName, Message: "bad projection"}
		cases := []struct {
			name    string
			rej     *wire.Error
			abort   bool
			want    string
			samePtr bool
		}{
			{"domain error from the wire", &wire.Error{Name: wire.UserQuestionErrorName, Code: wire.AskCancelled, Message: wire.MsgAskCancelled}, false, wire.AskCancelled, false},
			{"domain error wins over a simultaneous abort", &wire.Error{Name: wire.UserQuestionErrorName, Code: wire.AskCancelled, Message: "x"}, true, wire.AskCancelled, false},
			{"non-domain rejection with the signal aborted", plainErr, true, wire.AskAborted, false},
			{"a code without the domain name is not domain", &wire.Error{Name: "Error", Code: wire.AskCancelled, Message: "x"}, true, wire.AskAborted, false},
			{"anything else propagates unchanged", plainErr, false, "", true},
		}
		for _, c := range cases {
			f := newFixture()
			f.l.watch = false
			sig := signal.New()
			var r result
			f.svc.Ask(0, Request{Questions: qs("a"), Agent: f.agent, Signal: sig}, r.done)
			if c.abort {
				sig.Abort(errTurn)
			}
			f.l.last(t).settle(Outcome{Err: c.rej})
			if !r.got {
				t.Fatalf("%s: no result", c.name)
			}
			if c.samePtr {
				if r.r.Err != c.rej {
					t.Errorf("%s: got %v, want the same error", c.name, r.r.Err)
				}
				continue
			}
			if !r.r.Err.HasCode(c.want) {
				t.Errorf("%s: got %v, want %s", c.name, r.r.Err, c.want)
			}
		}
	})
	t.Run("ASK-6 askTimed validates timeoutMs before liveness and dispatch", func(t *testing.T) {
		for _, ms := range []float64{0, -1, -5000, 1.5, 2147483648, math.NaN(), math.Inf(1)} {
			f := newFixture()
			var r result
			f.svc.AskTimed(0, Request{Questions: qs("a"), Agent: &testAgent{id: "ghost"}, Signal: signal.New()}, "c1", ms, r.done)
			r.wantCode(t, wire.BadTimeout)
			if len(f.l.held) != 0 || len(f.svc.Waits()) != 0 {
				t.Fatalf("timeout %v reached dispatch", ms)
			}
		}
		for _, ms := range []float64{1, 2147483647} {
			f := newFixture()
			var r result
			f.svc.AskTimed(0, Request{Questions: qs("a"), Agent: f.agent, Signal: signal.New()}, "c1", ms, r.done)
			if r.got || len(f.l.held) != 1 {
				t.Fatalf("timeout %v rejected: %v", ms, r.r.Err)
			}
			if w, _ := f.svc.Wait(f.agent, "c1"); w.Deadline() != int64(ms) {
				t.Fatalf("deadline %d", w.Deadline())
			}
		}
	})
	t.Run("ASK-7 a second live wait for the same agent and call fails and leaves the first alone", func(t *testing.T) {
		f := newFixture()
		var r1, r2 result
		f.svc.AskTimed(0, Request{Questions: qs("a"), Agent: f.agent, Signal: signal.New()}, "c1", 5000, r1.done)
		w1, _ := f.svc.Wait(f.agent, "c1")
		f.svc.AttachWait(100, f.agent, "c1", signal.New(), &testSink{})
		f.svc.AskTimed(200, Request{Questions: qs("a"), Agent: f.agent, Signal: signal.New()}, "c1", 9000, r2.done)
		r2.wantCode(t, wire.DuplicateWait)
		w, _ := f.svc.Wait(f.agent, "c1")
		if w != w1 || w.Closed() || w.Deadline() != 5000 || w.Claims() != 1 || r1.got || len(f.l.held) != 1 {
			t.Fatal("the first wait was touched")
		}
		// Another call id, or the same call id once the first completed, is fine.
		var r3 result
		f.svc.AskTimed(300, Request{Questions: qs("a"), Agent: f.agent, Signal: signal.New()}, "c2", 5000, r3.done)
		if r3.got {
			t.Fatalf("other call: %v", r3.r.Err)
		}
		f.l.held[0].settle(Outcome{Value: raw(answerA)})
		var r4 result
		f.svc.AskTimed(400, Request{Questions: qs("a"), Agent: f.agent, Signal: signal.New()}, "c1", 5000, r4.done)
		if r4.got {
			t.Fatalf("after completion: %v", r4.r.Err)
		}
	})
	t.Run("ASK-8 askTimed forwards the wait's private signal and wait {callId, timed:true}", func(t *testing.T) {
		f := newFixture()
		turn := signal.New()
		var r result
		f.svc.AskTimed(0, Request{Questions: qs("a"), Agent: f.agent, Signal: turn}, "c1", 5000, r.done)
		h := f.l.last(t)
		w, _ := f.svc.Wait(f.agent, "c1")
		if h.r.Signal == turn || h.r.Signal != w.Signal() {
			t.Fatal("forwarded with the turn's signal, not the wait's")
		}
		if h.r.Wait == nil || h.r.Wait.CallID != "c1" || !h.r.Wait.Timed {
			t.Fatalf("wait %+v", h.r.Wait)
		}
		if got := string(h.r.Payload()); got != `{"questions":[{"id":"a","question":"Q a?"}],"wait":{"callId":"c1","timed":true}}` {
			t.Fatalf("payload %s", got)
		}
		if h.r.Agent != f.agent {
			t.Fatal("agent not forwarded")
		}
	})
	t.Run("ASK-9 only ASK_TIMED_OUT becomes pending", func(t *testing.T) {
		cases := []struct {
			name string
			act  func(f *fixture, turn *signal.Signal)
			want string // "pending" or a code
			same bool
		}{
			{"client ASK_TIMED_OUT rejection", func(f *fixture, _ *signal.Signal) {
				f.l.held[0].settle(Outcome{Err: &wire.Error{Name: wire.UserQuestionErrorName, Code: wire.AskTimedOut, Message: wire.MsgAskTimedOut}})
			}, "pending", false},
			{"host expiry", func(f *fixture, _ *signal.Signal) { f.svc.Fire(5000) }, "pending", false},
			{"parent cancellation", func(f *fixture, turn *signal.Signal) { turn.Abort(errTurn) }, wire.AskAborted, false},
			{"parent cancelled with an ASK_TIMED_OUT reason", func(f *fixture, turn *signal.Signal) { turn.Abort(errAskTimedOut()) }, "pending", false},
			{"client ASK_CANCELLED propagates", func(f *fixture, _ *signal.Signal) {
				f.l.held[0].settle(Outcome{Err: &wire.Error{Name: wire.UserQuestionErrorName, Code: wire.AskCancelled, Message: wire.MsgAskCancelled}})
			}, wire.AskCancelled, false},
			{"a TypeError propagates", func(f *fixture, _ *signal.Signal) {
				f.l.held[0].settle(Outcome{Err: &wire.Error{Name: wire.TypeErrorName, Message: "x"}})
			}, "TypeError", true},
		}
		for _, c := range cases {
			f := newFixture()
			turn := signal.New()
			var r result
			f.svc.AskTimed(0, Request{Questions: qs("a"), Agent: f.agent, Signal: turn}, "c1", 5000, r.done)
			c.act(f, turn)
			switch {
			case c.want == "pending":
				r.wantPending(t, "c1")
			case c.same:
				if !r.got || r.r.Err == nil || r.r.Err.Name != c.want {
					t.Errorf("%s: %+v", c.name, r.r)
				}
			default:
				r.wantCode(t, c.want)
			}
			if r.count != 1 {
				t.Errorf("%s: completed %d times", c.name, r.count)
			}
			if turn.IsAborted() && c.want == "pending" && c.name != "parent cancelled with an ASK_TIMED_OUT reason" {
				t.Errorf("%s: the turn was aborted", c.name)
			}
		}
	})
	t.Run("ASK-10 NO_PROVIDER under askTimed holds on the bounded wait", func(t *testing.T) {
		// pending at the deadline, not before
		f := newFixture()
		f.l.delegate = true
		var r result
		f.svc.AskTimed(0, Request{Questions: qs("a"), Agent: f.agent, Signal: signal.New()}, "c1", 5000, r.done)
		f.svc.Fire(4999)
		if r.got {
			t.Fatalf("NO_PROVIDER surfaced before the deadline: %+v", r.r)
		}
		if at, ok := f.svc.NextDeadline(); !ok || at != 5000 {
			t.Fatalf("next deadline %d %v", at, ok)
		}
		f.svc.Fire(5000)
		r.wantPending(t, "c1")
		// ASK_ABORTED on parent abort
		f2 := newFixture()
		f2.l.delegate = true
		turn := signal.New()
		var r2 result
		f2.svc.AskTimed(0, Request{Questions: qs("a"), Agent: f2.agent, Signal: turn}, "c1", 5000, r2.done)
		turn.Abort(errTurn)
		r2.wantCode(t, wire.AskAborted)
		// ASK_ABORTED on unload
		f3 := newFixture()
		f3.l.delegate = true
		var r3 result
		f3.svc.AskTimed(0, Request{Questions: qs("a"), Agent: f3.agent, Signal: signal.New()}, "c1", 5000, r3.done)
		f3.svc.Unload()
		r3.wantCode(t, wire.AskAborted)
		if len(f3.svc.Waits()) != 0 {
			t.Fatal("wait left after unload")
		}
		// a late claim holds a NO_PROVIDER wait (docs/PEER.md §8.12)
		f4 := newFixture()
		f4.l.delegate = true
		var r4 result
		f4.svc.AskTimed(0, Request{Questions: qs("a"), Agent: f4.agent, Signal: signal.New()}, "c1", 5000, r4.done)
		c, _ := f4.svc.AttachWait(1000, f4.agent, "c1", signal.New(), &testSink{})
		f4.svc.Fire(9000)
		if r4.got {
			t.Fatal("claimed NO_PROVIDER wait expired")
		}
		c.Release(9000)
		f4.svc.Fire(9000)
		r4.wantPending(t, "c1")
	})
	t.Run("ASK-11 foreground completion releases timer, claims and the registry entry", func(t *testing.T) {
		f := newFixture()
		var r result
		f.svc.AskTimed(0, Request{Questions: qs("a"), Agent: f.agent, Signal: signal.New()}, "c1", 5000, r.done)
		s := &testSink{}
		f.svc.AttachWait(100, f.agent, "c1", signal.New(), s)
		w, _ := f.svc.Wait(f.agent, "c1")
		f.l.last(t).settle(Outcome{Value: raw(answerA)})
		r.wantAnswer(t, answerA)
		if s.ended != 1 || w.Claims() != 0 || !w.Closed() {
			t.Fatalf("claim stream ended %d, claims %d, closed %v", s.ended, w.Claims(), w.Closed())
		}
		if _, ok := f.svc.Wait(f.agent, "c1"); ok || len(f.svc.Waits()) != 0 {
			t.Fatal("registry entry left")
		}
		if _, ok := f.svc.NextDeadline(); ok {
			t.Fatal("timer left")
		}
		if last := f.notes[len(f.notes)-1]; last.Kind != wire.WaitClosed || last.Reason != "completed" {
			t.Fatalf("last note %v", last)
		}
	})
	t.Run("ASK-11 unloading closes every wait with ASK_ABORTED", func(t *testing.T) {
		f := newFixture()
		var r1, r2 result
		f.svc.AskTimed(0, Request{Questions: qs("a"), Agent: f.agent, Signal: signal.New()}, "c1", 5000, r1.done)
		f.svc.AskTimed(0, Request{Questions: qs("a"), Agent: f.agent, Signal: signal.New()}, "c2", 5000, r2.done)
		f.svc.Unload()
		r1.wantCode(t, wire.AskAborted)
		r2.wantCode(t, wire.AskAborted)
		if len(f.svc.Waits()) != 0 {
			t.Fatal("waits left")
		}
	})
	t.Run("ASK-12 an answer that settles before expiry is the tool result", func(t *testing.T) {
		f := newFixture()
		var r result
		f.svc.AskTimed(0, Request{Questions: qs("a"), Agent: f.agent, Signal: signal.New()}, "c1", 5000, r.done)
		f.svc.Fire(4999)
		f.l.last(t).settle(Outcome{Value: raw(answerA)})
		r.wantAnswer(t, answerA)
		f.svc.Fire(5000)
		if r.count != 1 || f.l.cancelled != 0 {
			t.Fatalf("completed %d times, %d cancels", r.count, f.l.cancelled)
		}
		// and a rejection that arrives after expiry is ignored
		f.l.last(t).settle(Outcome{Err: errAskTimedOut()})
		if r.count != 1 {
			t.Fatal("second settlement counted")
		}
	})
}
