package agent

import (
	"fmt"

	"github.com/twosettle/twosettle/engine/session"
)

// checkNesting checks the structure of a log from seq from on (docs/PEER-RUNTIME.md §7.5 Logging):
// turns and steps nest properly with rising turn numbers and steps counted from 1;
// user/message only right after step/start (admission); every tool/call inside an open
// step, every tool/result in the same turn and step as its call and in call order;
// ptc-dispatch-start/dispatch pairs nested inside their parent's call, in order.
func checkNesting(events []session.Event, from int) error {
	turn, step, lastTurn, lastStep := -1, 0, 0, 0
	admitting := false
	var calls []string // calls of the open step without a result, in order
	callSet := map[string]bool{}
	ptcOpen := map[string]string{} // parent call -> sub-call in flight
	for _, e := range events {
		if e.Seq < from {
			continue
		}
		fail := func(format string, args ...any) error {
			return fmt.Errorf("#%d %s: %s", e.Seq, e.Data, fmt.Sprintf(format, args...))
		}
		if _, ok := e.Data.(session.UserMessage); !ok {
			admitting = false
		}
		switch d := e.Data.(type) {
		case session.TurnStart:
			if turn >= 0 {
				return fail("turn %d still open", turn)
			}
			if d.Turn <= lastTurn {
				return fail("turn number does not rise (last %d)", lastTurn)
			}
			turn, lastTurn, step, lastStep = d.Turn, d.Turn, 0, 0
		case session.TurnEnd:
			if turn < 0 || d.Turn != turn {
				return fail("no open turn %d", d.Turn)
			}
			if step > 0 {
				return fail("step %d still open", step)
			}
			turn = -1
		case session.StepStart:
			if turn < 0 || d.Turn != turn || step > 0 {
				return fail("step start outside its turn or inside a step")
			}
			if d.Step != lastStep+1 {
				return fail("step number %d does not follow %d", d.Step, lastStep)
			}
			step, lastStep = d.Step, d.Step
			admitting = true
		case session.StepEnd:
			if turn < 0 || d.Turn != turn || d.Step != step || step <= 0 {
				return fail("step end without its step")
			}
			if len(calls) > 0 {
				return fail("calls %v have no result", calls)
			}
			if len(ptcOpen) > 0 {
				return fail("sub-calls in flight %v", ptcOpen)
			}
			step = 0
			clear(callSet)
		case session.UserMessage:
			if !admitting {
				return fail("user/message outside admission")
			}
		case session.ToolCall:
			if turn < 0 || step <= 0 || d.Turn != turn || d.Step != step {
				return fail("tool call outside an open step")
			}
			if callSet[d.CallID] {
				return fail("duplicate call id in step")
			}
			callSet[d.CallID] = true
			calls = append(calls, d.CallID)
		case session.ToolResult:
			if turn < 0 || step <= 0 || d.Turn != turn || d.Step != step {
				return fail("tool result outside its open step")
			}
			if len(calls) == 0 || calls[0] != d.CallID {
				return fail("result out of call order (pending %v)", calls)
			}
			if _, ok := ptcOpen[d.CallID]; ok {
				if d.Err.Code != session.ToolOutcomeUnknown {
					return fail("run_code result while a sub-call is in flight")
				}
				delete(ptcOpen, d.CallID) // repair: the sub-call's record was lost (AGENT-4)
			}
			calls = calls[1:]
		case session.PTCDispatchStart:
			if len(calls) == 0 || !contains(calls, d.Parent) {
				return fail("sub-call outside its parent call")
			}
			if _, ok := ptcOpen[d.Parent]; ok {
				return fail("two sub-calls in flight")
			}
			ptcOpen[d.Parent] = d.SubCallID
		case session.PTCDispatch:
			if ptcOpen[d.Parent] != d.SubCallID {
				return fail("dispatch without its start")
			}
			delete(ptcOpen, d.Parent)
		}
	}
	return nil
}

func contains(s []string, x string) bool {
	for _, y := range s {
		if y == x {
			return true
		}
	}
	return false
}
