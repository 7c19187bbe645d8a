package client

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/twosettle/twosettle/engine/mutant"
	"github.com/twosettle/twosettle/engine/session"
	"github.com/twosettle/twosettle/engine/wire"
)

// toolName is the model-facing question tool.
const toolName = "ask_user_question"

// Row actions.
const (
	actNone   = iota
	actAnswer // "Answer": reveal the card
	actReview // "View answers": open the read-only review panel
	actQueued // "View answers": expand the read-only transcript while the reply is queued
)

// Row verdicts and summaries (docs/PEER.md §7.3).
const (
	verdictCancelled   = "This question set was cancelled before answers were submitted."
	verdictInterrupted = "This question set was interrupted before answers were submitted."
	verdictPending     = "These pending questions remain answerable from the composer."
	verdictClosed      = "This question is closed; its outcome is in the conversation below."
	// summaryContinued is the summary of a row whose question is continued and still
	// answerable: a pending result or TOOL_OUTCOME_UNKNOWN (the decision: a tool/result
	// "makes it continued for pending or TOOL_OUTCOME_UNKNOWN"; docs/PEER.md §7.3 rows 4 and 5).
	summaryContinued = "continued; answer still available"
	labelAnswer      = "Answer"
	labelViewAnswers = "View answers"
	notAnswered      = "Not answered"
)

// rowInfo is one ask_user_question tool row, computed from the tool call and result, the
// projection and the inbox.
type rowInfo struct {
	callID     string
	args       string
	summary    string
	state      string
	action     int
	transcript []string
	questions  []wire.Question // parsed from the arguments (nil: unreadable)
	answers    []wire.AnswerItem
}

// toolRows counts the Session's ask_user_question calls and visits each, in log order,
// with its first result.
func toolRows(s *sessionView, visit func(rowSource)) (n int) {
	log := s.events()
	if visit == nil {
		for _, e := range log {
			if tc, ok := e.Data.(session.ToolCall); ok && tc.Name == toolName {
				n++
			}
		}
		return n
	}
	// One pass pairs each call with the first result of its call id that comes before
	// another call of the same id (a log with thousands of calls is not rescanned from
	// each one).
	var srcs []rowSource
	var open map[string]int // call id → index in srcs of the call still without a result
	for _, e := range log {
		switch d := e.Data.(type) {
		case session.ToolCall:
			if open != nil {
				delete(open, d.CallID) // a later call of the same id ends the earlier one's search
			}
			if d.Name != toolName {
				continue
			}
			if open == nil {
				open = map[string]int{}
			}
			open[d.CallID] = len(srcs)
			srcs = append(srcs, rowSource{call: d})
		case session.ToolResult:
			if i, ok := open[d.CallID]; ok {
				srcs[i].result, srcs[i].done = d, true
				delete(open, d.CallID)
			}
		}
	}
	for _, src := range srcs {
		visit(src)
	}
	return len(srcs)
}

type rowSource struct {
	call   session.ToolCall
	result session.ToolResult
	done   bool
}

func (c *Client) rows(s *sessionView) []wire.RowState {
	n := toolRows(s, nil)
	if n == 0 {
		return nil
	}
	out := make([]wire.RowState, 0, n)
	toolRows(s, func(src rowSource) {
		r := computeRow(&c.rd, s, src, &c.rowQs, c.mutants.Has(mutant.UnknownOutcomeRowClosed))
		st := wire.RowState{Session: s.id, CallID: r.callID, Summary: r.summary, State: r.state,
			Transcript: r.transcript, Expanded: s.expanded[r.callID]}
		switch r.action {
		case actAnswer:
			st.Action = labelAnswer
		case actReview, actQueued:
			st.Action = labelViewAnswers
		}
		out = append(out, st)
	})
	return out
}

// findRow resolves the row a reopen addresses (by call id).
func (c *Client) findRow(a wire.UserAction) (*sessionView, rowInfo, error) {
	if a.Card == "" || strings.HasPrefix(a.Card, "#") {
		return nil, rowInfo{}, fmt.Errorf("reopen: name the tool call (card=<call id>); unkeyed cards have no tool row")
	}
	var hits []*sessionView
	var rows []rowInfo
	var all []string
	for _, id := range c.page.order {
		s := c.page.sessions.at(id)
		if a.Session != "" && id != a.Session {
			continue
		}
		var last rowSource
		found := false
		toolRows(s, func(src rowSource) {
			all = append(all, src.call.CallID)
			if src.call.CallID == a.Card {
				last, found = src, true
			}
		})
		if found {
			hits = append(hits, s)
			rows = append(rows, computeRow(&c.rd, s, last, nil, c.mutants.Has(mutant.UnknownOutcomeRowClosed))) // a review card keeps the questions
		}
	}
	switch len(hits) {
	case 0:
		return nil, rowInfo{}, fmt.Errorf("reopen: no tool row for %s (rows: %s)", a.Card, listOr(all))
	case 1:
		return hits[0], rows[0], nil
	}
	return nil, rowInfo{}, fmt.Errorf("reopen: several Sessions have a row for %s; name the session", a.Card)
}

// computeRow applies the row's state table in order (docs/PEER.md §7.3), then the queued override
// (docs/PEER.md §7.4). The questions of a one-question call are read into blk (see questionEntries).
func computeRow(rd *reader, s *sessionView, src rowSource, blk *entryBlock, unknownIsFailure bool) rowInfo {
	r := rowInfo{callID: src.call.CallID, args: src.call.Arguments, state: "ok"}
	r.questions, _ = rd.questionEntries(src.call.Arguments, blk)
	_, answerable := s.activeRow(r.callID)
	settled, isSettled := s.settledRow(r.callID)
	res := src.result
	code := ""
	if src.done {
		code = res.Err.Code
	}
	// A result read through its text block, also beside a reasoning block (docs/PEER.md
	// §8.21: the decision's pending-and-answerable row offers Answer, ROW-1).
	singleText := src.done && !res.NoText
	switch {
	case src.done && code == wire.AskCancelled:
		r.summary = "cancelled"
		if r.questions != nil {
			r.transcript = unansweredLines(verdictCancelled, r.questions)
		} else {
			r.transcript = rawLines(src)
		}
	case src.done && code == wire.AskAborted:
		r.summary, r.state = "interrupted", "stopped"
		r.transcript = unansweredLines(verdictInterrupted, r.questions)
	case !src.done:
		r.summary, r.state = "waiting", "running"
		r.transcript = unansweredLines("", r.questions)
		if answerable {
			r.action = actAnswer
		}
	case code == wire.ToolOutcomeUnknown && (answerable || isSettled) && !unknownIsFailure: // MUTANT unknown-outcome-row-closed skips it
		switch {
		case answerable:
			r.summary = summaryContinued
			r.transcript = unansweredLines(verdictPending, r.questions)
			r.action = actAnswer
		case len(settled.Answers) == 0:
			r.closed()
		default:
			r.answered(src, settled.Answers, true)
		}
	case singleText && !res.IsError && !res.Err.Set():
		pending := isPendingResult(res.Text)
		switch {
		case pending && answerable:
			r.summary = summaryContinued
			r.transcript = unansweredLines(verdictPending, r.questions)
			r.action = actAnswer
		case (pending && !isSettled) || (isSettled && len(settled.Answers) == 0):
			r.closed()
		case isSettled:
			r.answered(src, settled.Answers, true)
		default:
			as, ok := rd.answerEntries(res.Text)
			if !ok {
				as = nil
			}
			r.answered(src, as, false)
			if as == nil {
				if n, m, ok := rd.rawAnsweredCount(res.Text); ok {
					r.summary = countText(n, m) // the best-effort count (docs/PEER.md §7.3 row 5)
				}
			}
		}
	default:
		r.summary = genericSummary(src)
		switch {
		case code == "interrupted":
			r.state = "stopped"
		case res.IsError || res.Err.Set():
			r.state = "error"
		}
		r.transcript = rawLines(src)
	}
	if answerable && r.action == actAnswer {
		r.queuedOverride(rd, s)
	}
	if isSettled {
		r.answers = settled.Answers
	}
	return r
}

func (r *rowInfo) closed() {
	r.summary = "closed"
	r.transcript = unansweredLines(verdictClosed, r.questions)
}

// answered is the answered presentation; View answers only when a settled record exists
// and pairs with the questions (a legacy call gets a transcript but no action, ROW-3).
func (r *rowInfo) answered(src rowSource, as []wire.AnswerItem, fromSettled bool) {
	if r.questions != nil {
		if lines, pairs := answeredTranscript(r.questions, as); pairs {
			r.summary = countText(answeredCount(as), len(r.questions))
			r.transcript = lines
			if fromSettled {
				r.action = actReview
			}
			return
		}
	}
	switch {
	case as != nil:
		r.summary = countText(answeredCount(as), len(as))
		r.transcript = rawLines(src)
	default:
		r.summary = genericSummary(src)
		r.transcript = rawLines(src)
	}
}

// genericSummary is the generic row's summary: the raw arguments, or the call id when the
// call's head was lost (docs/PEER.md §7.3 row 6).
func genericSummary(src rowSource) string {
	if src.call.Arguments == "" {
		return src.call.CallID
	}
	return src.call.Arguments
}

// queuedOverride: while a late reply for this call waits in the inbox, the row shows its
// submitted answers and View answers only expands the transcript (docs/PEER.md §7.4).
func (r *rowInfo) queuedOverride(rd *reader, s *sessionView) {
	m, ok := queuedReply(s.inbox, r.callID)
	if !ok || m.NoText {
		return
	}
	top, ok := rd.object(m.Text)
	if !ok {
		return
	}
	if kind, _ := top.Get("kind").Str(); kind != "answer_to_pending_question" {
		return
	}
	if id, _ := top.Get("callId").Str(); id != r.callID {
		return
	}
	as, ok := wire.AnswersOf(top.Get("answers"), wire.OtherKeysDropped)
	if !ok {
		return
	}
	if r.questions == nil {
		return
	}
	lines, pairs := answeredTranscript(r.questions, as)
	if !pairs {
		return
	}
	r.summary = countText(answeredCount(as), len(r.questions))
	r.transcript = lines
	r.action = actQueued
}

func countText(answered, total int) string {
	return strconv.Itoa(answered) + "/" + strconv.Itoa(total) + " answered"
}

// unansweredLines: the verdict, then the question texts.
func unansweredLines(verdict string, qs []wire.Question) []string {
	var out []string
	if verdict != "" {
		out = append(out, verdict)
	}
	for _, q := range qs {
		out = append(out, "- "+q.Question)
	}
	return out
}

// answeredTranscript is answeredLines(qs, pairAnswers(qs, as)) in one pass: the
// transcript, and false when the batch does not pair with the questions.
func answeredTranscript(qs []wire.Question, as []wire.AnswerItem) ([]string, bool) {
	if len(qs) != len(as) {
		return nil, false
	}
	for i := range as {
		for j := range i {
			if as[j].ID == as[i].ID {
				return nil, false
			}
		}
	}
	out := make([]string, len(qs))
	for i, q := range qs {
		found := false
		for _, a := range as {
			if a.ID != q.ID {
				continue
			}
			custom := a.Custom != nil && *a.Custom != ""
			if len(a.Selected) == 0 && !custom {
				out[i] = q.Question + ": " + notAnswered
			} else {
				var b strings.Builder
				n := len(q.Question) + 2
				for _, s := range a.Selected {
					n += len(s) + 2
				}
				if custom {
					n += len(*a.Custom) + 2
				}
				b.Grow(n)
				b.WriteString(q.Question)
				b.WriteString(": ")
				for k, s := range a.Selected {
					if k > 0 {
						b.WriteString(", ")
					}
					b.WriteString(s)
				}
				if custom {
					if len(a.Selected) > 0 {
						b.WriteString(", ")
					}
					b.WriteString(*a.Custom)
				}
				out[i] = b.String()
			}
			found = true
			break
		}
		if !found {
			return nil, false
		}
	}
	return out, true
}

// answeredLines: question → answer lines; a question with none shows "Not answered".
func answeredLines(qs []wire.Question, lines [][]string) []string {
	out := make([]string, len(qs))
	for i, q := range qs {
		if len(lines[i]) == 0 {
			out[i] = q.Question + ": " + notAnswered
		} else {
			out[i] = q.Question + ": " + strings.Join(lines[i], ", ")
		}
	}
	return out
}

// rawLines are the raw IN/OUT diagnostics.
func rawLines(src rowSource) []string {
	out := []string{"IN: " + src.call.Arguments}
	if src.done {
		if src.result.NoText {
			out = append(out, "OUT: (no text)")
		} else {
			out = append(out, "OUT: "+src.result.Text)
		}
		if src.result.Reasoning != "" {
			out = append(out, "REASONING: "+src.result.Reasoning)
		}
	}
	return out
}
