package client

import "github.com/twosettle/twosettle/engine/wire"

// viewIndex finds a call's rows in a Session's projection view by call id, built once per
// view received (a tool row reads it for each call: with thousands of rows a scan each was
// quadratic). It answers as wire.QuestionsView.Row and SettledFor do: the first row of
// the call id.
type viewIndex struct {
	active  map[string]int
	settled map[string]int
}

// index is the index of s.questions, built on first use after the view changed.
func (s *sessionView) index() *viewIndex {
	if s.qidx != nil {
		return s.qidx
	}
	v := s.questions
	x := &viewIndex{active: make(map[string]int, len(v.Active)), settled: make(map[string]int, len(v.Settled))}
	for i, r := range v.Active {
		if _, ok := x.active[r.CallID]; !ok {
			x.active[r.CallID] = i
		}
	}
	for i, r := range v.Settled {
		if _, ok := x.settled[r.CallID]; !ok {
			x.settled[r.CallID] = i
		}
	}
	s.qidx = x
	return x
}

// activeRow is s.questions.Row(callID).
func (s *sessionView) activeRow(callID string) (wire.PendingRow, bool) {
	if i, ok := s.index().active[callID]; ok {
		return s.questions.Active[i], true
	}
	return wire.PendingRow{}, false
}

// settledRow is s.questions.SettledFor(callID).
func (s *sessionView) settledRow(callID string) (wire.SettledRow, bool) {
	if i, ok := s.index().settled[callID]; ok {
		return s.questions.Settled[i], true
	}
	return wire.SettledRow{}, false
}
