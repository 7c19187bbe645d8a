package oracle

import (
	"github.com/twosettle/twosettle/engine/session"
	"github.com/twosettle/twosettle/engine/wire"
)

// Allocation-free equality of the values the oracle compares.

func stringsEqual(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func strPtrEqual(a, b *string) bool {
	if a == nil || b == nil {
		return a == b
	}
	return *a == *b
}

func boolPtrEqual(a, b *bool) bool {
	if a == nil || b == nil {
		return a == b
	}
	return *a == *b
}

func messageEqual(a, b session.Message) bool { return a == b }

func messagesEqual(a, b []session.Message) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func dataEqual(a, b session.Data) bool {
	switch x := a.(type) {
	case session.InboxSpliced:
		y, ok := b.(session.InboxSpliced)
		return ok && x.Target == y.Target && x.Start == y.Start && x.Removed == y.Removed && x.Outcome == y.Outcome &&
			messagesEqual(x.Inserted, y.Inserted)
	case session.RequestHeader, session.TurnStart, session.TurnEnd, session.StepStart, session.StepEnd,
		session.UserMessage, session.ToolCall, session.ToolResult, session.PTCDispatchStart, session.PTCDispatch:
		return a == b
	}
	if a == nil || b == nil {
		return a == b
	}
	return a.String() == b.String()
}

func eventEqual(a, b session.Event) bool {
	return a.Seq == b.Seq && a.Time == b.Time && dataEqual(a.Data, b.Data)
}

func questionEqual(a, b wire.Question) bool {
	if a.ID != b.ID || a.Question != b.Question || !strPtrEqual(a.Detail, b.Detail) || !strPtrEqual(a.Header, b.Header) ||
		!boolPtrEqual(a.MultiSelect, b.MultiSelect) || len(a.Options) != len(b.Options) {
		return false
	}
	for i := range a.Options {
		if a.Options[i].Label != b.Options[i].Label || !strPtrEqual(a.Options[i].Description, b.Options[i].Description) {
			return false
		}
	}
	if a.Intent == nil || b.Intent == nil {
		return a.Intent == b.Intent
	}
	return *a.Intent == *b.Intent
}

func viewEqual(a, b wire.QuestionsView) bool {
	if len(a.Active) != len(b.Active) || len(a.Settled) != len(b.Settled) {
		return false
	}
	for i := range a.Active {
		x, y := a.Active[i], b.Active[i]
		if x.CallID != y.CallID || x.State != y.State || len(x.Questions) != len(y.Questions) {
			return false
		}
		for j := range x.Questions {
			if !questionEqual(x.Questions[j], y.Questions[j]) {
				return false
			}
		}
	}
	for i := range a.Settled {
		if a.Settled[i].CallID != b.Settled[i].CallID || !batchEqual(a.Settled[i].Answers, b.Settled[i].Answers) {
			return false
		}
	}
	return true
}

func inboxEqual(a, b wire.InboxView) bool {
	return messagesEqual(a.NextTurn, b.NextTurn) && messagesEqual(a.NextStep, b.NextStep)
}
