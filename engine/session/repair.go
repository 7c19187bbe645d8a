package session

// ToolOutcomeUnknownText is the model-visible text of a repaired tool result.
const ToolOutcomeUnknownText = "Error: the outcome of this tool call is unknown because the session was interrupted " +
	"before it returned. Retry only read-only or idempotent work; otherwise verify the current state or ask the user."

// InterruptedTurnClosers computes the events that close the last open turn of a log that
// was cut off by a crash (docs/PEER-RUNTIME.md §5.5), for a cold load to append (AGENT-3):
//   - a failed tool/result with {ToolOutcomeUnknownError, TOOL_OUTCOME_UNKNOWN} for every
//     top-level tool/call of the open step that has no tool/result, in call order;
//   - step/end if a step is open;
//   - turn/end with reason interrupted.
//
// It returns nil when no turn is open. Sub-calls of run_code are log-only
// tool/ptc-dispatch events and are never repaired: only their parent run_code gets a
// closer (AGENT-4).
func InterruptedTurnClosers(events []Event) []Data {
	turn, step := -1, -1
	var pending []ToolCall
	for _, e := range events {
		switch d := e.Data.(type) {
		case TurnStart:
			turn, step, pending = d.Turn, -1, pending[:0]
		case TurnEnd:
			// only the open turn's own end closes it: a turn/end of another turn (one
			// written by hand, as append-event does) leaves it open to repair
			if d.Turn == turn {
				turn, step, pending = -1, -1, pending[:0]
			}
		case StepStart:
			step = d.Step
		case StepEnd:
			step, pending = -1, pending[:0]
		case ToolCall:
			pending = append(pending, d)
		case ToolResult:
			for i, c := range pending {
				if c.CallID == d.CallID {
					pending = append(pending[:i], pending[i+1:]...)
					break
				}
			}
		}
	}
	if turn < 0 {
		return nil
	}
	out := make([]Data, 0, len(pending)+2)
	for _, c := range pending {
		out = append(out, ToolResult{
			Turn: c.Turn, Step: c.Step, CallID: c.CallID, IsError: true,
			Err:  ErrorInfo{Name: ToolOutcomeUnknownName, Code: ToolOutcomeUnknown},
			Text: ToolOutcomeUnknownText,
		})
	}
	if step >= 0 {
		out = append(out, StepEnd{Turn: turn, Step: step})
	}
	out = append(out, TurnEnd{Turn: turn, Reason: TurnEndReason{Kind: EndInterrupted}})
	return out
}

// RepairTime is the time repair closers carry: the last real event's time (docs/PEER-RUNTIME.md §5.5).
func RepairTime(events []Event) int64 {
	if len(events) == 0 {
		return 0
	}
	return events[len(events)-1].Time
}
