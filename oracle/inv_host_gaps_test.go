package oracle_test

import (
	"testing"

	"github.com/twosettle/twosettle/engine/host"
	"github.com/twosettle/twosettle/engine/session"
	"github.com/twosettle/twosettle/engine/wire"
	"github.com/twosettle/twosettle/sim"
	"github.com/twosettle/twosettle/trace"
)

// The violation cases of the host invariants that guard TOOL-6, TOOL-9, ASK-5 and
// CLAIM-6 (INV-TIMED-NEEDS-LIVE-AGENT, INV-TOOL-ERROR-SHAPE, INV-REJECTION-RESTORED,
// INV-CLAIM-END-IGNORED), with the two base traces they need.

// baseRefusals: the timed tool refuses an invalid timeout and a repeated question id
// (plain errors), and a direct askTimed with no agent fails CALLER_NOT_LIVE.
func baseRefusals(t testing.TB) *trace.Trace {
	dup := `{"questions":[{"id":"a","question":"A?"},{"id":"a","question":"B?"}]}`
	return runBase(t, host.Config{ToolMode: "timed", WriteWindowMs: -1}, []string{"c1"}, append(opening(),
		sim.Step{At: 100, Host: wire.ToolCall{Session: "s1", CallID: "q1", Name: "ask_user_question", Args: askArgs("0")}},
		sim.Step{At: 120, Host: wire.ToolCall{Session: "s1", CallID: "q2", Name: "ask_user_question", Args: dup}},
		sim.Step{At: 200, Host: wire.EndStep{Session: "s1", Final: true}},
		sim.Step{At: 300, Host: wire.Direct{ID: "d1", Op: wire.OpAskTimed, Session: "s1", Agent: wire.AgentNone,
			Body: []byte(`{"questions":[{"id":"a","question":"A?"}],"callId":"w1","timeoutMs":5000}`)}},
	))
}

// baseCancelled: the legacy tool; c1 closes the unkeyed card, which rejects the request
// with ASK_CANCELLED (CARD-11), restored as the call's domain error (ASK-5).
func baseCancelled(t testing.TB) *trace.Trace {
	return runBase(t, host.Config{ToolMode: "legacy", WriteWindowMs: -1}, []string{"c1"}, append(opening(),
		sim.Step{At: 100, Host: wire.ToolCall{Session: "s1", CallID: "q1", Name: "ask_user_question", Args: askArgs("")}},
		user(500, "c1", wire.ActClose, ""),
		sim.Step{At: 1500, Host: wire.EndStep{Session: "s1", Final: true}},
	))
}

func init() {
	bases["refusals"], bases["cancelled"] = baseRefusals, baseCancelled
	violationCases = append(violationCases,
		violationCase{inv: "INV-TIMED-NEEDS-LIVE-AGENT", name: "TOOL-6 a call of a live agent fails for want of one", base: "timed", break_: func(m *mut) int {
			i := m.find(0, "host out append s1 #7 ", "tool/result", "call=q1")
			toolResult(m, i, func(d *session.ToolResult) {
				d.IsError, d.Text = true, "Error: timed questions require a live agent"
			})
			return i
		}},
		violationCase{inv: "INV-TIMED-NEEDS-LIVE-AGENT", name: "TOOL-6 a direct askTimed with no agent returns pending", base: "refusals", break_: func(m *mut) int {
			i := m.find(0, "host out direct-result d1")
			m.set(i, wire.DirectResult{ID: "d1", Value: []byte(`{"pending":true,"callId":"w1"}`)})
			return i
		}},
		violationCase{inv: "INV-TOOL-ERROR-SHAPE", name: "TOOL-9 TOOL-3 an invalid timeout's error text", base: "refusals", break_: func(m *mut) int {
			i := m.find(0, "host out append s1", "tool/result", "call=q1")
			toolResult(m, i, func(d *session.ToolResult) { d.Text = "Error: bad timeout" })
			return i
		}},
		violationCase{inv: "INV-TOOL-ERROR-SHAPE", name: "TOOL-9 TOOL-5 a repeated id's failure keeps a code", base: "refusals", break_: func(m *mut) int {
			i := m.find(0, "host out append s1", "tool/result", "call=q2")
			toolResult(m, i, func(d *session.ToolResult) { d.Err = session.ErrorInfo{Name: "UserQuestionError", Code: "BAD_ARGS"} })
			return i
		}},
		violationCase{inv: "INV-TOOL-ERROR-SHAPE", name: "TOOL-9 a service error loses its name", base: "cancelled", break_: func(m *mut) int {
			i := m.find(0, "host out append s1", "tool/result", "call=q1")
			toolResult(m, i, func(d *session.ToolResult) { d.Err.Name = "" })
			return i
		}},
		violationCase{inv: "INV-TOOL-ERROR-SHAPE", name: "TOOL-9 a failure without the Error: text", base: "cancelled", break_: func(m *mut) int {
			i := m.find(0, "host out append s1", "tool/result", "call=q1")
			toolResult(m, i, func(d *session.ToolResult) { d.Text = "the user cancelled ask_user_question" })
			return i
		}},
		violationCase{inv: "INV-REJECTION-RESTORED", name: "ASK-5 a domain rejection propagates as a plain error", base: "cancelled", break_: func(m *mut) int {
			i := m.find(0, "host out append s1", "tool/result", "call=q1")
			toolResult(m, i, func(d *session.ToolResult) { d.Err = session.ErrorInfo{} })
			return i
		}},
		violationCase{inv: "INV-REJECTION-RESTORED", name: "ASK-5 a domain rejection is restored with another message", base: "cancelled", break_: func(m *mut) int {
			i := m.find(0, "host out append s1", "tool/result", "call=q1")
			toolResult(m, i, func(d *session.ToolResult) { d.Text = "Error: ask_user_question was aborted before the user answered" })
			return i
		}},
		violationCase{inv: "INV-REJECTION-RESTORED", name: "ASK-5 a plain rejection becomes ASK_ABORTED with no abort", base: "cancelled", break_: func(m *mut) int {
			i := m.find(0, "host in event-result c1.1", "rejected")
			x := m.tr.Records[i].Payload.(wire.EventResult)
			x.Outcome.Error = wire.PlainError("the page went away")
			m.set(i, x)
			j := m.find(0, "host out append s1", "tool/result", "call=q1")
			toolResult(m, j, func(d *session.ToolResult) {
				d.Err, d.Text = session.ErrorInfo{Name: "UserQuestionError", Code: "ASK_ABORTED"}, "Error: ask_user_question was aborted before the user answered"
			})
			return j
		}},
		violationCase{inv: "INV-CLAIM-END-IGNORED", name: "CLAIM-6 the host ends a claim while its wait is open", base: "timed", break_: func(m *mut) int {
			end := m.tr.Records[m.find(0, "host out send c2.1 end stream=c2-s1")]
			i := m.find(0, "host out send c1.1 item stream=c1-s1") + 1
			end.Time = m.tr.Records[i-1].Time
			m.insert(i, end)
			return i
		}},
	)
}
