package harness

import (
	"strconv"

	"github.com/twosettle/twosettle/engine/wire"
	"github.com/twosettle/twosettle/scenarios"
	"github.com/twosettle/twosettle/sim"
)

func init() { registerCompiler(scenarios.ActorInject, compileInject) }

// compileInject compiles a inject step: an $events/result (wire.EventResult) or a claim stream (wire.StreamOpen) from the client.
func compileInject(p *Plan, i int, st *scenarios.Step, session string, out *sim.Step) string {
	x := st.Inject
	gen := x.Gen
	if gen == 0 {
		gen = 1
	}
	if x.Attach != "" {
		args := wire.AppendJSONString([]byte(`{"agentId":`), session)
		args = append(wire.AppendJSONString(append(args, `,"callId":`...), x.Attach), '}')
		out.Host = wire.StreamOpen{Client: x.Client, Gen: gen, StreamID: "inject-" + strconv.Itoa(i+1), Endpoint: wire.EndpointAttachWait, Args: args}
		return out.Host.String()
	}
	o := wire.Outcome{Kind: wire.OutcomeNext}
	switch {
	case x.HasAns:
		o = wire.Outcome{Kind: wire.OutcomeResult, Value: wire.Answer{Answers: AnswerItems(x.Answers)}.AppendJSON(nil)}
	case x.Rejected != "":
		name, code, msg, _ := scenarios.ParseRejection(x.Rejected)
		o = wire.Outcome{Kind: wire.OutcomeRejected, Error: &wire.Error{Name: name, Code: code, Message: msg}}
	}
	out.Host = wire.EventResult{Client: x.Client, Gen: gen, RPCID: "inject-" + strconv.Itoa(i+1), EventID: x.Event, Outcome: o}
	return out.Host.String()
}
