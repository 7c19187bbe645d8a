package harness

import (
	"strconv"

	"github.com/twosettle/twosettle/engine/session"
	"github.com/twosettle/twosettle/engine/wire"
	"github.com/twosettle/twosettle/scenarios"
	"github.com/twosettle/twosettle/sim"
)

func init() { registerCompiler(scenarios.ActorModel, compileModel) }

// compileModel compiles a model step: a host command (a tool call, a header, the end of a step or turn, a cancel, a message).
func compileModel(p *Plan, i int, st *scenarios.Step, session string, out *sim.Step) string {
	out.Host = modelCommand(session, st.Model)
	return out.Host.String()
}

func modelCommand(session string, m *scenarios.ModelAction) wire.Command {
	switch m.Kind {
	case scenarios.ModelHeader:
		return wire.Header{Session: session, Tools: m.Tools}
	case scenarios.ModelAsk:
		args := m.Args
		if args == "" {
			args = string(askArgs(m.Questions, m.Timeout))
		}
		return wire.ToolCall{Session: session, CallID: m.Call, Name: scenarios.ToolAsk, Args: args}
	case scenarios.ModelRun:
		args := m.Args
		if args == "" {
			args = string(runArgs(m.Calls))
		}
		return wire.ToolCall{Session: session, CallID: m.Call, Name: scenarios.ToolRun, Args: args}
	case scenarios.ModelSleep:
		return wire.ToolCall{Session: session, CallID: m.Call, Name: scenarios.ToolSleep, Args: `{"ms":` + strconv.FormatInt(m.For.Ms(), 10) + `}`}
	case scenarios.ModelTool:
		args := m.Args
		if args == "" {
			args = "{}"
		}
		return wire.ToolCall{Session: session, CallID: m.Call, Name: m.Name, Args: args}
	case scenarios.ModelEndStep:
		return wire.EndStep{Session: session}
	case scenarios.ModelEndTurn:
		return wire.EndStep{Session: session, Final: true}
	case scenarios.ModelCancel:
		return wire.CancelTurn{Session: session, KeepInbox: m.KeepInbox}
	case scenarios.ModelPrompt:
		return wire.Send{Session: session, Target: "next-turn", Text: m.Text, Source: messageSource(m.Source)}
	case scenarios.ModelSteer:
		return wire.Send{Session: session, Target: "next-step", Text: m.Text, Source: messageSource(m.Source)}
	}
	return wire.Tick{}
}

// messageSource is a scenario's message source as the host records it (zero: the user's).
func messageSource(m scenarios.MessageSource) session.Source {
	return session.Source{Kind: m.Kind, CallID: m.Call, Outcome: m.Outcome}
}

// askArgs writes the model's ask_user_question arguments: {"questions":[...],"timeout":N}
// in the model's vocabulary (multi_select).
func askArgs(qs []scenarios.Question, timeout string) []byte {
	b := []byte(`{"questions":[`)
	for i, q := range qs {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"id":`...)
		b = wire.AppendJSONString(b, q.ID)
		b = append(b, `,"question":`...)
		b = wire.AppendJSONString(b, q.Question)
		if q.Header != "" {
			b = append(b, `,"header":`...)
			b = wire.AppendJSONString(b, q.Header)
		}
		if len(q.Options) > 0 {
			b = append(b, `,"options":[`...)
			for j, o := range q.Options {
				if j > 0 {
					b = append(b, ',')
				}
				b = append(b, `{"label":`...)
				b = wire.AppendJSONString(b, o.Label)
				if o.Description != "" {
					b = append(b, `,"description":`...)
					b = wire.AppendJSONString(b, o.Description)
				}
				b = append(b, '}')
			}
			b = append(b, ']')
		}
		if q.Multi {
			b = append(b, `,"multi_select":true`...)
		}
		b = append(b, '}')
	}
	b = append(b, ']')
	if timeout != "" {
		b = append(b, `,"timeout":`...)
		b = append(b, timeout...)
	}
	return append(b, '}')
}

func runArgs(calls []scenarios.SubCall) []byte {
	b := []byte(`{"calls":[`)
	for i, c := range calls {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"name":`...)
		switch c.Kind {
		case scenarios.SubAsk:
			b = wire.AppendJSONString(b, scenarios.ToolAsk)
			b = append(b, `,"arguments":`...)
			if c.Args != "" {
				b = append(b, c.Args...)
			} else {
				b = append(b, askArgs(c.Questions, c.Timeout)...)
			}
		case scenarios.SubSleep:
			b = wire.AppendJSONString(b, scenarios.ToolSleep)
			b = append(b, `,"arguments":{"ms":`...)
			b = strconv.AppendInt(b, c.For.Ms(), 10)
			b = append(b, '}')
		default:
			b = wire.AppendJSONString(b, c.Name)
			b = append(b, `,"arguments":`...)
			if c.Args != "" {
				b = append(b, c.Args...)
			} else {
				b = append(b, "{}"...)
			}
		}
		b = append(b, '}')
	}
	return append(b, "]}"...)
}
