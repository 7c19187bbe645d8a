package questions

import (
	"errors"
	"strconv"
	"strings"
	"testing"

	"github.com/twosettle/twosettle/engine/mutant"
	"github.com/twosettle/twosettle/engine/session"
	"github.com/twosettle/twosettle/engine/signal"
	"github.com/twosettle/twosettle/engine/wire"
)

// The mutants of this package (engine/mutant): each case observes one rule with the
// correct engine (the zero set) and with the mutant on, and each mutant flips what is
// observed. With no mutant the observation is the rule's.

func mutantFixture(s mutant.Set) *fixture {
	f := &fixture{rt: newRuntime(), l: &testListener{watch: true}}
	f.svc = New(Config{Runtime: f.rt, Listeners: []Listener{f.l}, Mutants: s, Note: func(n wire.WaitNote) { f.notes = append(f.notes, n) }})
	f.agent = f.rt.enter("s1", "")
	return f
}

func mutantWait(s mutant.Set) *Wait {
	return NewWait(0, 5000, WaitConfig{Session: "s1", CallID: "c1", Mutants: s})
}

func answerOutcome(ok bool, err *wire.Error) string {
	if err != nil {
		return err.Code
	}
	return strconv.FormatBool(ok)
}

func foldWith(s mutant.Set, ds ...session.Data) string {
	p := NewProjection(0)
	p.SetMutants(s)
	for _, e := range logOf(ds...) {
		p.Apply(e)
	}
	return p.View().String()
}

var mutantCases = []struct {
	id      mutant.ID
	rule    string
	observe func(s mutant.Set) string
	correct string // what the correct engine shows; the mutant must show something else
}{
	{mutant.UnconditionalDeadline, "WAIT-2 a held claim keeps the timer disarmed", func(s mutant.Set) string {
		w := mutantWait(s)
		w.Attach(100, signal.New(), &testSink{})
		_, armed := w.Timer()
		return "armed=" + strconv.FormatBool(armed)
	}, "armed=false"},
	{mutant.ReleaseRestartsTimeout, "WAIT-5 losing the last claim re-arms the original deadline", func(s mutant.Set) string {
		w := mutantWait(s)
		c := w.Attach(1000, signal.New(), &testSink{})
		c.Release(3000)
		at, _ := w.Timer()
		return "timer=" + strconv.FormatInt(at, 10)
	}, "timer=5000"},
	{mutant.ClaimFrameFullTimeout, "WAIT-4 the claim frame is deadline - now", func(s mutant.Set) string {
		sink := &testSink{}
		mutantWait(s).Attach(1500, signal.New(), sink)
		return "frame=" + strconv.FormatInt(sink.frames[0], 10)
	}, "frame=3500"},
	{mutant.NoProviderHangs, "ASK-10 NO_PROVIDER under askTimed holds on the wait until the deadline", func(s mutant.Set) string {
		f := mutantFixture(s)
		f.l.delegate = true
		var r result
		f.svc.AskTimed(0, Request{Questions: qs("a"), Agent: f.agent, Signal: signal.New()}, "c1", 5000, r.done)
		f.svc.Fire(5000)
		return "completed=" + strconv.FormatBool(r.got) + " pending=" + strconv.FormatBool(r.r.Pending)
	}, "completed=true pending=true"},
	{mutant.WaterfallAfterPending, "ASK-8 the request is forwarded with the wait's signal, so expiry ends it", func(s mutant.Set) string {
		f := mutantFixture(s)
		var r result
		f.svc.AskTimed(0, Request{Questions: qs("a"), Agent: f.agent, Signal: signal.New()}, "c1", 5000, r.done)
		f.svc.Fire(5000)
		return "pending=" + strconv.FormatBool(r.r.Pending) + " request-cancelled=" + strconv.Itoa(f.l.cancelled)
	}, "pending=true request-cancelled=1"},
	{mutant.NoReservation, "LATE-2 a second reply while one awaits admission is REPLY_QUEUED", func(s mutant.Set) string {
		f := mutantFixture(s)
		f.rt.views["s1"] = continuedView()
		f.svc.Answer(0, f.agent, "c1", raw(answerAB))
		return answerOutcome(f.svc.Answer(0, f.agent, "c1", raw(answerAB)))
	}, wire.ReplyQueued},
	{mutant.LateAnswerOpenCall, "LATE-1 answer is false for an open call", func(s mutant.Set) string {
		f := mutantFixture(s)
		f.rt.views["s1"] = wire.QuestionsView{Active: []wire.PendingRow{{CallID: "c1", Questions: qs("a", "b"), State: wire.StateOpen}}}
		return answerOutcome(f.svc.Answer(0, f.agent, "c1", raw(answerAB)))
	}, "false"},
	{mutant.LaxAnswerValidation, "LATE-3 a batch missing a question is BAD_ANSWER", func(s mutant.Set) string {
		f := mutantFixture(s)
		f.rt.views["s1"] = continuedView()
		return answerOutcome(f.svc.Answer(0, f.agent, "c1", raw(`{"answers":[{"id":"a","selected":["x"]}]}`)))
	}, wire.BadAnswer},
	{mutant.DiscardKeepsReservation, "LATE-7 a discarded reply releases the reservation", func(s mutant.Set) string {
		f := mutantFixture(s)
		f.rt.views["s1"] = continuedView()
		f.svc.Answer(0, f.agent, "c1", raw(answerAB))
		m := f.rt.steered[0]
		f.rt.nextStep["s1"] = nil
		f.svc.OnDiscarded("s1", m)
		return answerOutcome(f.svc.Answer(0, f.agent, "c1", raw(answerAB)))
	}, "true"},
	{mutant.WriteFaultKeepsReservation, "LATE-5 a failed steer releases the reservation", func(s mutant.Set) string {
		f := mutantFixture(s)
		f.rt.views["s1"] = continuedView()
		f.rt.steerErr = errors.New("the inbox write failed")
		_, err := f.svc.Answer(0, f.agent, "c1", raw(answerAB))
		f.rt.steerErr = nil
		return "failed=" + strconv.FormatBool(err != nil) + " then " + answerOutcome(f.svc.Answer(0, f.agent, "c1", raw(answerAB)))
	}, "failed=true then true"},
	{mutant.SettleOnSplice, "PROJ-9 queuing a reply never settles", func(s mutant.Set) string {
		m := session.Message{ID: "m1", Source: session.Source{Kind: session.SourceUserQuestionReply, CallID: "c1", Outcome: "answered"}, Text: batchAB}
		return foldWith(s, hdr(timedTools), call("c1", argsAB), res("c1", pendingFor("c1")),
			session.InboxSpliced{Target: session.NextStep, Inserted: []session.Message{m}})
	}, "active=[c1:continued] settled=[]"},
	{mutant.UnknownOutcomeDropsQuestion, "PROJ-4 TOOL_OUTCOME_UNKNOWN makes the question continued", func(s mutant.Set) string {
		return foldWith(s, hdr(timedTools), call("c1", argsAB), resErr("c1", session.ToolOutcomeUnknown, "interrupted"))
	}, "active=[c1:continued] settled=[]"},
	{mutant.ForkInheritsQuestions, "PROJ-11 a fork ignores the events it inherited", func(s mutant.Set) string {
		p := NewProjection(3) // a fork whose first three events are its parent's
		p.SetMutants(s)
		for _, e := range logOf(hdr(timedTools), call("c1", argsAB), res("c1", pendingFor("c1"))) {
			p.Apply(e)
		}
		return p.View().String()
	}, "active=[] settled=[]"},
	{mutant.LegacyTracked, "PROJ-2 legacy calls are never tracked", func(s mutant.Set) string {
		return foldWith(s, hdr(legacyTools), call("c1", argsAB))
	}, "active=[] settled=[]"},
	{mutant.PendingEmptyBatch, "TOOL-7 the pending result carries no answers", func(s mutant.Set) string {
		f := mutantFixture(s)
		tool, err := NewTool(ToolConfig{Mode: ModeTimed, Timeout: 5, Mutants: s}, f.svc)
		if err != nil {
			return err.Error()
		}
		var got ToolResult
		tool.Execute(0, Call{CallID: "c1", Args: `{"questions":[{"id":"a","question":"A?"}]}`, Agent: f.agent, Signal: signal.New()}, func(r ToolResult) { got = r })
		f.svc.Fire(5000)
		return "answers=" + strconv.FormatBool(strings.Contains(got.Text, `"answers"`)) + " pending=" + strconv.FormatBool(got.Text == pendingFor("c1"))
	}, "answers=false pending=true"},
}

func TestMutantsFlipTheirRule(t *testing.T) {
	for _, c := range mutantCases {
		t.Run(c.rule+" ("+c.id.String()+")", func(t *testing.T) {
			if got := c.observe(0); got != c.correct {
				t.Fatalf("correct engine: %s, want %s", got, c.correct)
			}
			if got := c.observe(mutant.Of(c.id)); got == c.correct {
				t.Fatalf("mutant %s: %s, the same as the correct engine", c.id, got)
			}
			// Another mutant of the set changes nothing here.
			other := mutant.Of(mutant.CancelToWinner, mutant.TakeTimeIgnored)
			if got := c.observe(other); got != c.correct {
				t.Fatalf("with unrelated mutants %s: %s, want %s", other, got, c.correct)
			}
		})
	}
}
