package oracle

import (
	"strconv"

	"github.com/twosettle/twosettle/engine/session"
	"github.com/twosettle/twosettle/engine/wire"
)

func itoa(n int) string { return strconv.Itoa(n) }

// sessionUpdate validates a SessionUpdate frame against the oracle's mirror: its events,
// its projection view (trace validation) and its inbox view.
func (c *Checker) sessionUpdate(i int, f wire.SessionUpdate) {
	s := c.session(f.Session)
	start := f.From
	if f.Reset {
		start = 0
	}
	c.logReportedUpdate(i, s, start, f.Events)
	n := start + len(f.Events)
	if n > len(s.log) {
		n = len(s.log)
	}
	if !f.Reset && len(f.Events) == 0 {
		n = len(s.log)
	}
	c.checkPublished(i, s, n, f.Questions, f.Inbox)
	s.pubView, s.pubLen, s.pubRec = f.Questions, n, i
}

// checkPublished checks a view the host published for s's log through length n.
func (c *Checker) checkPublished(i int, s *sessModel, n int, q wire.QuestionsView, in wire.InboxView) {
	from := s.pubLen
	if from < 0 || from > n {
		from = 0
	}
	c.projRefold(i, s, n, q, from)
	c.projSettleOnAdmit(i, s, n, q, from)
	c.legacyUntracked(i, s, q)
	c.inboxMirror(i, s, n, in, from)
}

func settledCounts(v wire.QuestionsView) map[string]int {
	m := make(map[string]int, len(v.Settled))
	for _, r := range v.Settled {
		m[r.CallID]++
	}
	return m
}

// settlesIn reports whether events record the settlement of call: an admitted reply or
// an answer result (PROJ-5, PROJ-8).
func settlesIn(events []session.Event, call string) bool {
	for _, e := range events {
		switch d := e.Data.(type) {
		case session.UserMessage:
			if d.Message.Source.Kind == session.SourceUserQuestionReply && d.Message.Source.CallID == call {
				return true
			}
		case session.ToolResult:
			if d.CallID == call && !d.IsError && !d.Err.Set() {
				return true
			}
		}
	}
	return false
}

func (s *sessModel) recOf(idx int) int {
	if idx >= 0 && idx < len(s.logRec) {
		return s.logRec[idx]
	}
	return -1
}

// relevantSince returns the records of the last few projection-relevant events in
// [from, n), the witness of a disagreement.
func (c *Checker) relevantSince(s *sessModel, from, n int) []int {
	var w []int
	for j := n - 1; j >= from && len(w) < 3; j-- {
		switch s.log[j].Data.(type) {
		case session.RequestHeader, session.ToolCall, session.ToolResult, session.PTCDispatch, session.UserMessage, session.InboxSpliced:
			if r := s.recOf(j); r >= 0 {
				w = append(w, r)
			}
		}
	}
	return w
}

// inboxMirror is INV-INBOX-MIRROR's check of a published inbox view (session.go checks
// the splices themselves).
func (c *Checker) inboxMirror(i int, s *sessModel, n int, in wire.InboxView, from int) {
	if !c.on(invInboxMirror) {
		return
	}
	if ref := inboxAt(s, n); !inboxEqual(ref, in) {
		c.fail(invInboxMirror, i, s.id+": the host shows inbox{"+in.String()+"} but its splices fold to {"+ref.String()+"}", c.relevantSince(s, from, n)...)
	}
}
