package host

import (
	"github.com/twosettle/twosettle/engine/agent"
	"github.com/twosettle/twosettle/engine/gateway"
	"github.com/twosettle/twosettle/engine/mutant"
	"github.com/twosettle/twosettle/engine/questions"
	"github.com/twosettle/twosettle/engine/session"
	"github.com/twosettle/twosettle/engine/signal"
	"github.com/twosettle/twosettle/engine/wire"
)

// runtimeAdapter is the question service's view of the agent runtime and the projections
// (questions.Runtime). Agents are *agent.Agent values; identity is the pointer.
type runtimeAdapter struct{ h *Host }

func asAgent(a questions.Agent) *agent.Agent {
	ag, _ := a.(*agent.Agent)
	return ag
}

func (r runtimeAdapter) Live(a questions.Agent) bool {
	ag := asAgent(a)
	return ag != nil && r.h.rt.Live(ag)
}

func (r runtimeAdapter) Root(a questions.Agent) bool { return !r.h.rt.OwnedByLive(asAgent(a)) }

func (r runtimeAdapter) Inbox(a questions.Agent) (nextTurn, nextStep []session.Message) {
	v, err := r.h.rt.Inbox(a.ID())
	if err != nil {
		return nil, nil
	}
	return v.NextTurn, v.NextStep
}

func (r runtimeAdapter) Steer(a questions.Agent, m session.Message) error {
	_, err := r.h.rt.Send(a.ID(), m, session.NextStep)
	return err
}

func (r runtimeAdapter) Questions(a questions.Agent) wire.QuestionsView {
	if p := r.h.projOf(a.ID()); p != nil {
		return p.View()
	}
	return wire.QuestionsView{}
}

func (r runtimeAdapter) MessageID(questions.Agent) string { return r.h.rt.NewMessageID() }

// runTool is the runtime's Runner: the host owns ask_user_question (top-level calls and
// run_code sub-calls alike); every other tool is the runtime's.
func (h *Host) runTool(c *agent.Call) bool {
	if c.Name() != questions.ToolName {
		return false
	}
	epoch := h.epoch
	var a questions.Agent
	// MUTANT sub-call-without-agent: a run_code sub-call runs with no agent.
	if ag := c.Agent(); ag != nil && !(c.IsSubCall() && h.mutants.Has(mutant.SubCallWithoutAgent)) {
		a = ag
	}
	h.tool.Execute(h.now, questions.Call{CallID: c.ID(), Args: c.Args(), Agent: a, Signal: c.Signal()}, func(r questions.ToolResult) {
		if epoch != h.epoch {
			return // a call from before a restart: its turn is gone
		}
		// The runtime refuses a completion for a call it already settled (its agent was
		// disposed); that refusal changes nothing.
		_ = c.Complete(agent.Result{IsError: r.IsError, Err: r.Err, Text: r.Text})
	})
	return true
}

// forward is the host's forwarding listener of the user-questions/request waterfall: a
// scoped request goes to the gateway (every connected client); an unscoped one has no
// carrier and passes on (docs/PEER-RUNTIME.md §1.1), so it reaches NO_PROVIDER.
func (h *Host) forward(r *questions.Request, next func(), settle func(questions.Outcome)) {
	ag := asAgent(r.Agent)
	if ag == nil {
		next()
		return
	}
	epoch := h.epoch
	_, err := h.gw.Forward(gateway.Invocation{
		Event:   wire.EventQuestionsRequest,
		AgentID: ag.ID(),
		Request: r.Payload(),
		Signal:  r.Signal,
		Context: h.contextOf(ag),
		Settle: func(s gateway.Settlement) {
			if epoch != h.epoch {
				return
			}
			switch s.Kind {
			case wire.OutcomeResult:
				settle(questions.Outcome{Value: s.Value})
			case wire.OutcomeNext:
				next()
			default:
				settle(questions.Outcome{Err: wireError(s.Err)})
			}
		},
	})
	if err != nil {
		settle(questions.Outcome{Err: &wire.Error{Name: wire.TypeErrorName, Message: err.Error()}})
		return
	}
	if h.mutants.Has(mutant.DeliveryIsClaim) && r.Wait != nil && r.Wait.Timed && len(h.gw.Clients()) > 0 {
		// MUTANT delivery-is-claim: the delivery to a connected client holds a claim until
		// the wait ends.
		if w, ok := h.svc.Wait(r.Agent, r.Wait.CallID); ok {
			w.Attach(h.now, signal.New(), deliveryClaim{})
		}
	}
}

// deliveryClaim is the claim sink of MUTANT delivery-is-claim: nothing travels on it.
type deliveryClaim struct{}

func (deliveryClaim) Frame(int64) {}
func (deliveryClaim) End()        {}

// wireError is a rejection as the service sees it: a client's *wire.Error unchanged, an
// abort reason that is one (a wait's ASK_TIMED_OUT) too, anything else a plain Error.
func wireError(err error) *wire.Error {
	if e, ok := err.(*wire.Error); ok {
		return e
	}
	if err == nil {
		return wire.PlainError("rejected")
	}
	return wire.PlainError(err.Error())
}
