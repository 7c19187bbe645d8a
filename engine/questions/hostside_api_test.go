package questions_test

import (
	"errors"
	"testing"

	"github.com/twosettle/twosettle/engine/questions"
	"github.com/twosettle/twosettle/engine/session"
	"github.com/twosettle/twosettle/engine/signal"
	"github.com/twosettle/twosettle/engine/wire"
)

// Host-side situations a scenario trace cannot show, stated on the service's public API
// (scenarios/FORMAT.md, "Beyond the trace"): an answerer that aborts the turn from inside
// its delivery, and a service with no agent registry or no projection.

type agent struct{ id string }

func (a *agent) ID() string { return a.id }

// registry is a one-agent runtime; view is what its projection shows.
type registry struct {
	live    *agent
	view    wire.QuestionsView
	steered []session.Message
}

func (r *registry) Live(a questions.Agent) bool { return a == questions.Agent(r.live) }
func (r *registry) Root(questions.Agent) bool   { return true }
func (r *registry) Inbox(questions.Agent) ([]session.Message, []session.Message) {
	return nil, r.steered
}
func (r *registry) Steer(_ questions.Agent, m session.Message) error {
	r.steered = append(r.steered, m)
	return nil
}
func (r *registry) Questions(questions.Agent) wire.QuestionsView { return r.view }
func (r *registry) MessageID(questions.Agent) string             { return "m1" }

var errStop = errors.New("the user stopped the turn")

type completion struct {
	n int
	r questions.Result
}

func (c *completion) done(r questions.Result) { c.n++; c.r = r }

func TestAnswererAbortsTheTurnFromInsideItsDelivery(t *testing.T) {
	for _, timed := range []bool{false, true} {
		name := "ASK-5 a blocking ask"
		if timed {
			name = "ASK-9 ASK-11 a timed ask"
		}
		t.Run(name+" whose answerer aborts the turn while it holds the delivery settles once as ASK_ABORTED and leaves nothing live", func(t *testing.T) {
			a := &agent{"s1"}
			turn := signal.New()
			held := 0
			var settleLater func(questions.Outcome)
			l := questions.ListenerFunc(func(r *questions.Request, next func(), settle func(questions.Outcome)) {
				held++
				settleLater = settle
				turn.Abort(errStop) // the answerer's own handler stops the turn, re-entrantly
				if !r.Signal.IsAborted() {
					t.Error("the delivery's signal did not abort with the turn inside the handler")
				}
				settle(questions.Outcome{Err: wire.PlainError("the answerer saw the abort")})
			})
			svc := questions.New(questions.Config{Runtime: &registry{live: a}, Listeners: []questions.Listener{l}})
			var c completion
			req := questions.Request{Questions: []wire.Question{{ID: "q", Question: "Continue?"}}, Agent: a, Signal: turn}
			if timed {
				svc.AskTimed(0, req, "c1", 5000, c.done)
			} else {
				svc.Ask(0, req, c.done)
			}
			if held != 1 || c.n != 1 || !c.r.Err.HasCode(wire.AskAborted) {
				t.Fatalf("delivered %d times, completed %d times with %+v (err %v)", held, c.n, c.r, c.r.Err)
			}
			settleLater(questions.Outcome{Value: []byte(`{"answers":[]}`)}) // a late answer changes nothing
			svc.Fire(10_000)
			if c.n != 1 || len(svc.Waits()) != 0 {
				t.Fatalf("completed %d times, waits %v", c.n, svc.Waits())
			}
			if _, ok := svc.NextDeadline(); ok {
				t.Fatal("a timer is still armed")
			}
		})
	}
}

func TestNoAgentRegistryOrNoProjection(t *testing.T) {
	a := &agent{"s1"}
	qs := []wire.Question{{ID: "q", Question: "Continue?"}}
	t.Run("CALLER-1 CALLER-4 without an agent registry every call with an agent fails CALLER_NOT_LIVE", func(t *testing.T) {
		delivered := 0
		l := questions.ListenerFunc(func(*questions.Request, func(), func(questions.Outcome)) { delivered++ })
		svc := questions.New(questions.Config{Listeners: []questions.Listener{l}})
		var ask, timed completion
		svc.Ask(0, questions.Request{Questions: qs, Agent: a, Signal: signal.New()}, ask.done)
		svc.AskTimed(0, questions.Request{Questions: qs, Agent: a, Signal: signal.New()}, "c1", 5000, timed.done)
		_, attachErr := svc.AttachWait(0, a, "c1", signal.New(), nil)
		ok, answerErr := svc.Answer(0, a, "c1", []byte(`{"answers":[{"id":"q","selected":[]}]}`))
		if !ask.r.Err.HasCode(wire.CallerNotLive) || !timed.r.Err.HasCode(wire.CallerNotLive) || !attachErr.HasCode(wire.CallerNotLive) || ok || !answerErr.HasCode(wire.CallerNotLive) {
			t.Fatalf("ask %v, askTimed %v, attachWait %v, answer %v %v", ask.r.Err, timed.r.Err, attachErr, ok, answerErr)
		}
		if delivered != 0 || len(svc.Waits()) != 0 {
			t.Fatalf("delivered %d, waits %v", delivered, svc.Waits())
		}
		// An ask without an agent needs no registry.
		var plain completion
		svc.Ask(0, questions.Request{Questions: qs, Signal: signal.New()}, plain.done)
		if delivered != 1 || plain.n != 0 {
			t.Fatalf("an ask without an agent: delivered %d, completed %d", delivered, plain.n)
		}
	})
	t.Run("LATE-1 without a projection the view is empty, so answer returns false and queues nothing", func(t *testing.T) {
		rt := &registry{live: a} // its projection shows nothing: the zero view
		svc := questions.New(questions.Config{Runtime: rt})
		ok, err := svc.Answer(0, a, "c1", []byte(`{"answers":[{"id":"q","selected":[]}]}`))
		if ok || err != nil || len(rt.steered) != 0 || len(svc.Reservations()) != 0 {
			t.Fatalf("answer %v %v, steered %v", ok, err, rt.steered)
		}
		// The same call, continued in a projection, is answerable: the empty view decided.
		rt.view = wire.QuestionsView{Active: []wire.PendingRow{{CallID: "c1", Questions: qs, State: "continued"}}}
		if ok, err := svc.Answer(0, a, "c1", []byte(`{"answers":[{"id":"q","selected":[]}]}`)); !ok || err != nil {
			t.Fatalf("with the projection: %v %v", ok, err)
		}
	})
}
