package harness

import (
	"encoding/json"
	"strconv"

	"github.com/twosettle/twosettle/engine/wire"
	"github.com/twosettle/twosettle/scenarios"
	"github.com/twosettle/twosettle/sim"
)

func init() { registerCompiler(scenarios.ActorService, compileService) }

// compileService compiles a service step: a direct call (wire.Direct) with its result id.
func compileService(p *Plan, i int, st *scenarios.Step, session string, out *sim.Step) string {
	out.Host = serviceCommand(session, p.ServiceIDs[i], st.Service)
	return out.Host.String()
}

func serviceCommand(session, id string, c *scenarios.ServiceCall) wire.Command {
	d := wire.Direct{ID: id, Session: session, Agent: c.Agent}
	if d.Agent == "" {
		d.Agent = wire.AgentLive
	}
	switch c.Kind {
	case scenarios.ServiceAsk:
		d.Op = wire.OpAsk
	case scenarios.ServiceAskTimed:
		d.Op = wire.OpAskTimed
	default:
		d.Op = wire.OpAnswer
	}
	if c.Body != "" {
		d.Body = json.RawMessage(c.Body)
		return d
	}
	var b []byte
	switch c.Kind {
	case scenarios.ServiceAsk:
		b = append(b, `{"questions":`...)
		b = wire.AppendQuestionsJSON(b, serviceQuestions(c.Questions))
		if c.Call != "" {
			b = append(b, `,"wait":{"callId":`...)
			b = wire.AppendJSONString(b, c.Call)
			if c.Timed {
				b = append(b, `,"timed":true`...)
			}
			b = append(b, '}')
		}
	case scenarios.ServiceAskTimed:
		b = append(b, `{"questions":`...)
		b = wire.AppendQuestionsJSON(b, serviceQuestions(c.Questions))
		b = append(b, `,"callId":`...)
		b = wire.AppendJSONString(b, scenarios.AskTimedCall(c, id))
		timeout := int64(120000)
		if c.Timeout != nil {
			timeout = c.Timeout.Ms()
		}
		b = append(b, `,"timeoutMs":`...)
		b = strconv.AppendInt(b, timeout, 10)
	default:
		b = append(b, `{"callId":`...)
		b = wire.AppendJSONString(b, c.Call)
		b = append(b, `,"answer":`...)
		b = wire.Answer{Answers: AnswerItems(c.Answers)}.AppendJSON(b)
	}
	if c.Aborted {
		b = append(b, `,"aborted":true`...)
	}
	d.Body = append(b, '}')
	return d
}
