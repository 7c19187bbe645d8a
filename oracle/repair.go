package oracle

import "github.com/twosettle/twosettle/engine/session"

// The oracle's own crash-repair expectation (AGENT-3, AGENT-4), written from
// docs/PEER-RUNTIME.md §5.5 (the peer's repair rule), not from engine/session's repair:
// INV-RESTART-PREFIX judges the closers a restarted host appends against it.

// repairText is the model-facing text of a repaired tool result (the peer's exact words).
const repairText = "Error: the outcome of this tool call is unknown because the session was interrupted " +
	"before it returned. Retry only read-only or idempotent work; otherwise verify the current state or ask the user."

// RepairClosers is what a cold load must append to a durable log cut off by a crash: if a
// turn is open (its last turn/start has no turn/end of its own number), a failed tool/result
// {ToolOutcomeUnknownError, TOOL_OUTCOME_UNKNOWN} for every tool/call of the open turn
// recorded since the last turn/start, turn/end or step/end that has no tool/result yet,
// in call order; then step/end if a step is open; then turn/end {interrupted}. A PTC
// sub-call is a tool/ptc-dispatch, never a tool/call, so only its run_code is closed
// (AGENT-4). at is the time every closer carries: the last durable event's time.
func RepairClosers(events []session.Event) (closers []session.Data, at int64) {
	if len(events) > 0 {
		at = events[len(events)-1].Time
	}
	type open struct {
		turn    int
		inTurn  bool
		step    int
		inStep  bool
		pending []session.ToolCall
	}
	var o open
	for _, e := range events {
		switch d := e.Data.(type) {
		case session.TurnStart:
			o = open{turn: d.Turn, inTurn: true}
		case session.TurnEnd:
			if d.Turn == o.turn {
				o = open{} // another turn's end (written by hand) leaves the open turn open
			}
		case session.StepStart:
			o.step, o.inStep = d.Step, true
		case session.StepEnd:
			o.inStep, o.pending = false, nil
		case session.ToolCall:
			o.pending = append(o.pending, d)
		case session.ToolResult:
			// a result settles the earliest unsettled call of its id
			for i, c := range o.pending {
				if c.CallID == d.CallID {
					o.pending = append(o.pending[:i:i], o.pending[i+1:]...)
					break
				}
			}
		}
	}
	if !o.inTurn {
		return nil, at
	}
	for _, c := range o.pending {
		closers = append(closers, session.ToolResult{
			Turn: c.Turn, Step: c.Step, CallID: c.CallID, IsError: true, Text: repairText,
			Err: session.ErrorInfo{Name: session.ToolOutcomeUnknownName, Code: session.ToolOutcomeUnknown},
		})
	}
	if o.inStep {
		closers = append(closers, session.StepEnd{Turn: o.turn, Step: o.step})
	}
	return append(closers, session.TurnEnd{Turn: o.turn, Reason: session.TurnEndReason{Kind: session.EndInterrupted}}), at
}
