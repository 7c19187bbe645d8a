package session

import (
	"reflect"
	"testing"
)

func TestInterruptedTurnClosers(t *testing.T) {
	ev := func(ds ...Data) []Event {
		out := make([]Event, len(ds))
		for i, d := range ds {
			out[i] = Event{Seq: i, Time: int64(i), Data: d}
		}
		return out
	}
	t.Run("AGENT-3 an interrupted call is repaired with TOOL_OUTCOME_UNKNOWN, then step/end and turn/end interrupted", func(t *testing.T) {
		got := InterruptedTurnClosers(ev(
			TurnStart{Turn: 1}, StepStart{Turn: 1, Step: 1},
			ToolCall{Turn: 1, Step: 1, CallID: "a", Name: "ask_user_question"},
			ToolCall{Turn: 1, Step: 1, CallID: "b", Name: "sleep"},
			ToolResult{Turn: 1, Step: 1, CallID: "b", Text: "ok"},
		))
		want := []Data{
			ToolResult{Turn: 1, Step: 1, CallID: "a", IsError: true, Err: ErrorInfo{Name: ToolOutcomeUnknownName, Code: ToolOutcomeUnknown}, Text: ToolOutcomeUnknownText},
			StepEnd{Turn: 1, Step: 1},
			TurnEnd{Turn: 1, Reason: TurnEndReason{Kind: EndInterrupted}},
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("got %v\nwant %v", got, want)
		}
	})
	t.Run("AGENT-4 PTC sub-calls get no closer of their own, only their run_code parent", func(t *testing.T) {
		got := InterruptedTurnClosers(ev(
			TurnStart{Turn: 3}, StepStart{Turn: 3, Step: 1},
			ToolCall{Turn: 3, Step: 1, CallID: "r", Name: "run_code"},
			PTCDispatchStart{Parent: "r", SubCallID: "r:ptc:1", Name: "ask_user_question"},
		))
		if len(got) != 3 || got[0].(ToolResult).CallID != "r" {
			t.Fatalf("got %v", got)
		}
	})
	t.Run("no open turn needs no repair", func(t *testing.T) {
		if got := InterruptedTurnClosers(ev(TurnStart{Turn: 1}, TurnEnd{Turn: 1, Reason: TurnEndReason{Kind: EndCompleted}})); got != nil {
			t.Fatalf("got %v", got)
		}
	})
	t.Run("AGENT-3 a turn/end of another turn leaves the open turn to repair", func(t *testing.T) {
		got := InterruptedTurnClosers(ev(
			TurnStart{Turn: 1}, StepStart{Turn: 1, Step: 1},
			ToolCall{Turn: 1, Step: 1, CallID: "r", Name: "run_code"},
			TurnEnd{Turn: 48, Reason: TurnEndReason{Kind: EndCompleted}},
		))
		want := []Data{
			ToolResult{Turn: 1, Step: 1, CallID: "r", IsError: true, Err: ErrorInfo{Name: ToolOutcomeUnknownName, Code: ToolOutcomeUnknown}, Text: ToolOutcomeUnknownText},
			StepEnd{Turn: 1, Step: 1},
			TurnEnd{Turn: 1, Reason: TurnEndReason{Kind: EndInterrupted}},
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("got %v\nwant %v", got, want)
		}
	})
	t.Run("a turn open between steps gets only turn/end", func(t *testing.T) {
		got := InterruptedTurnClosers(ev(TurnStart{Turn: 1}, StepStart{Turn: 1, Step: 1}, StepEnd{Turn: 1, Step: 1}))
		if len(got) != 1 || got[0].(TurnEnd).Reason.Kind != EndInterrupted {
			t.Fatalf("got %v", got)
		}
	})
}
