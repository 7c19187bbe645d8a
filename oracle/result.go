package oracle

import (
	"github.com/twosettle/twosettle/engine/session"
	"github.com/twosettle/twosettle/engine/wire"
)

// Result kinds of a foreground.
const (
	resAnswers = iota + 1
	resPending
	resError
	resRepair // TOOL_OUTCOME_UNKNOWN
	resOther
)

type fgResult struct {
	kind    int
	code    string
	name    string // the error name a tool result keeps (TOOL-9)
	isError bool
	answers []wire.AnswerItem
	text    string
	direct  bool
	err     *wire.Error // a direct call's error
}

func (r fgResult) String() string {
	switch r.kind {
	case resAnswers:
		return "answers " + wire.AnswersString(r.answers)
	case resPending:
		return "pending"
	case resError:
		if r.code == "" {
			return "an error"
		}
		return "error " + r.code
	case resRepair:
		return "TOOL_OUTCOME_UNKNOWN"
	}
	return "result " + clip(r.text)
}

func classifyText(text string, isError bool, err session.ErrorInfo) fgResult {
	r := fgResult{text: text, isError: isError, code: err.Code, name: err.Name}
	switch {
	case err.Code == session.ToolOutcomeUnknown:
		r.kind = resRepair
	case isPending(text):
		r.kind = resPending
	case isError || err.Set():
		r.kind = resError
	default:
		if items, ok := parseBatch([]byte(text)); ok {
			r.kind, r.answers = resAnswers, items
		} else {
			r.kind = resOther
		}
	}
	return r
}

func isPending(text string) bool { p, _ := pendingInfo(text); return p }

func (c *Checker) toolResult(s *sessModel, d session.ToolResult, rec int) {
	fg := c.fgOf(fgKey{s.id, d.CallID}, fgTool)
	if fg == nil || fg.kind != fgTool {
		return
	}
	c.foregroundResult(fg, classifyText(d.Text, d.IsError, d.Err), rec)
}

func (c *Checker) ptcResult(s *sessModel, d session.PTCDispatch, rec int) {
	fg := c.fgOf(fgKey{s.id, d.SubCallID}, fgPTC)
	if fg == nil || fg.kind != fgPTC {
		return
	}
	c.foregroundResult(fg, classifyText(d.Text, d.IsError, d.Err), rec)
}

func (c *Checker) directResult(i int, x wire.DirectResult) {
	d := c.directs[x.ID]
	if d == nil {
		return
	}
	delete(c.directs, x.ID)
	c.serviceContract(i, d, x)
	c.timedNeedsLiveAgentDirect(i, d, x)
	c.callerRootOnlyDirect(i, d, x)
	if d.op == wire.OpAnswer {
		if d.agent != wire.AgentLive || d.stale {
			return
		}
		a := answerArgs{callID: d.body.CallID, raw: d.body.Answer.Answers}
		if len(a.raw) > 0 {
			a.batchOK = jsonUnmarshalBatch(a.raw, &a.batch)
		}
		switch {
		case x.Err != nil:
			code := x.Err.Code
			if code == "" {
				code = "?" // no domain error (a steering failure propagates, LATE-5)
			}
			c.answerOutcome(i, d.rec, d.session, a, false, code, false)
		case string(x.Value) == "true":
			c.answerOutcome(i, d.rec, d.session, a, true, "", false)
		case string(x.Value) == "false":
			c.answerOutcome(i, d.rec, d.session, a, false, "", false)
		}
		return
	}
	fg := d.fg
	if fg == nil {
		return
	}
	r := fgResult{direct: true}
	switch {
	case x.Err != nil:
		r.kind, r.code, r.isError, r.name, r.err = resError, x.Err.Code, true, x.Err.Name, x.Err
	case isPending(string(x.Value)):
		r.kind, r.text = resPending, string(x.Value)
	default:
		r.text = string(x.Value)
		if items, ok := parseBatch(x.Value); ok {
			r.kind, r.answers = resAnswers, items
		} else {
			r.kind = resOther
		}
	}
	c.foregroundResult(fg, r, i)
}

// preDispatch codes fail an ask before any request or wait reaches a client.
func preDispatch(code string) bool {
	switch code {
	case wire.EmptyQuestions, wire.BadIntent, wire.CallerNotLive, wire.DelegatedCaller, wire.BadTimeout, wire.DuplicateWait:
		return true
	}
	return false
}

// foregroundResult checks a foreground's first settlement.
func (c *Checker) foregroundResult(fg *foreground, r fgResult, rec int) {
	if fg.resultRec >= 0 {
		return
	}
	fg.resultRec = rec
	if fg.waitEndRec < 0 {
		fg.waitEndRec = rec
	}
	for j, a := range c.active {
		if a == fg {
			c.active = append(c.active[:j], c.active[j+1:]...)
			break
		}
	}
	c.ap.results = append(c.ap.results, fg)
	if r.kind == resRepair {
		return
	}
	c.callerRootOnlyResult(fg, r, rec)
	c.timedNeedsLiveAgent(fg, r, rec)
	c.toolErrorShape(fg, r, rec)
	c.rejectionRestored(fg, r, rec)

	// the question's own invariants, each in its inv_<name>.go
	c.pendingShape(fg, r, rec)
	c.toolModeResult(fg, r, rec)
	c.answerFromWinner(fg, r, rec)
	if fg.mode == modeTimed && fg.evidence && !(r.kind == resError && preDispatch(r.code)) {
		c.timedResultMapping(fg, r, rec)
		c.expiryKeepsTurn(fg, r, rec)
		ev := fg.event
		timedOutWinner := ev != nil && ev.hasWinner && ev.outcome.Kind == wire.OutcomeRejected && ev.outcome.Error.HasCode(wire.AskTimedOut)
		if r.kind == resPending && !timedOutWinner {
			c.hostExpiry(fg, rec)
		}
	}
	c.gwNextOnly(fg, r, rec)
}

func (c *Checker) directAgent(fg *foreground) string {
	if d := c.directs[fg.directID]; d != nil {
		return d.agent
	}
	return wire.AgentLive
}
