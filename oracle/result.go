package oracle

import (
	"strconv"

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
	if d.stale && (x.Err == nil || x.Value != nil) {
		c.fail(invCallerRootOnly, i, "direct "+d.op+" by a caller that is not the live root ("+d.agent+") succeeded", d.rec)
	}
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
	name := fg.key.session + "/" + fg.key.callID
	if r.kind == resRepair {
		return
	}
	s := c.sessions[fg.key.session]
	if s != nil && s.childLive && fg.kind != fgDirect && r.kind != resError {
		c.fail(invCallerRootOnly, rec, name+": a child owned by live "+s.owner+" got "+r.String()+" instead of failing", fg.startRec)
	}
	c.timedNeedsLiveAgent(fg, r, rec)
	c.toolErrorShape(fg, r, rec)
	c.rejectionRestored(fg, r, rec)

	// INV-PENDING-SHAPE
	if r.kind == resPending {
		if r.direct {
			if want := `{"pending":true,"callId":` + wire.JSONString(fg.key.callID) + `}`; r.text != want {
				c.fail(invPendingShape, rec, name+": askTimed pending value "+clip(r.text)+", want "+want)
			}
		} else if msg := checkPendingText(r.text, fg.key.callID); msg != "" {
			c.fail(invPendingShape, rec, name+": "+msg)
		} else if r.isError {
			c.fail(invPendingShape, rec, name+": the pending result is marked as an error")
		}
	}

	// INV-TOOL-MODE
	switch {
	case fg.mode == modeInvalid && r.kind != resError:
		why := "an invalid timeout"
		if fg.dupID != "" {
			why = "a repeated question id " + strconv.Quote(fg.dupID)
		}
		c.fail(invToolMode, rec, name+": a call with "+why+" got "+r.String()+" instead of an error", fg.startRec)
	case (fg.mode == modeLegacy || fg.mode == modeBlocking) && r.kind == resPending:
		c.fail(invToolMode, rec, name+": a call in "+modeName(fg.mode)+" mode returned pending", fg.startRec)
	}

	ev := fg.event
	won := ev != nil && ev.hasWinner
	// INV-ANSWER-FROM-WINNER
	if r.kind == resAnswers {
		if !r.direct {
			if canon := canonicalBatch(r.answers); canon != r.text {
				c.fail(invAnswerFromWinner, rec, name+": answer text "+clip(r.text)+" is not the compact "+clip(canon))
			}
		}
		linkable := ev != nil || fg.mode == modeTimed || fg.mode == modeBlocking
		switch {
		case won && ev.outcome.Kind == wire.OutcomeResult:
			if items, ok := parseBatch(ev.outcome.Value); ok && !batchEqual(items, r.answers) {
				c.fail(invAnswerFromWinner, rec, name+": the result carries "+wire.AnswersString(r.answers)+" but the winner "+
					ev.winner.String()+" answered "+wire.AnswersString(items), ev.winnerRec)
			}
		case linkable:
			w := []int{fg.startRec}
			if ev != nil && ev.winnerRec >= 0 {
				w = append(w, ev.winnerRec)
			}
			c.fail(invAnswerFromWinner, rec, name+": answer "+wire.AnswersString(r.answers)+" without a winning result outcome", w...)
		}
	} else if won && ev.outcome.Kind == wire.OutcomeResult {
		if _, ok := parseBatch(ev.outcome.Value); ok && fg.mode != modeInvalid {
			c.fail(invAnswerFromWinner, rec, name+": "+ev.winner.String()+" won with an answer but the call got "+r.String(), ev.winnerRec)
		}
	}

	timed := fg.mode == modeTimed && fg.evidence && !(r.kind == resError && preDispatch(r.code))
	timedOutWinner := won && ev.outcome.Kind == wire.OutcomeRejected && ev.outcome.Error.HasCode(wire.AskTimedOut)
	if timed {
		// INV-TIMED-RESULT-MAPPING
		switch {
		case won && ev.outcome.Kind == wire.OutcomeRejected:
			code := ""
			if ev.outcome.Error.IsDomain() {
				code = ev.outcome.Error.Code
			}
			if code == wire.AskTimedOut && r.kind != resPending {
				c.fail(invTimedResultMapping, rec, name+": "+ev.winner.String()+" rejected with ASK_TIMED_OUT but the call got "+r.String()+", not pending", ev.winnerRec)
			} else if code != wire.AskTimedOut && (r.kind != resError || (code != "" && r.code != code)) {
				want := "its error"
				if code != "" {
					want = code
				}
				c.fail(invTimedResultMapping, rec, name+": "+ev.winner.String()+" rejected with "+ev.outcome.String()+" but the call got "+r.String()+", want "+want, ev.winnerRec)
			}
		case !won && fg.parentAbortRec >= 0 && (fg.kind != fgDirect || fg.selfAbort):
			// a direct call's own pre-aborted signal is its parent (ASK-9, WAIT-9); a
			// session close ends a direct call through its released gateway context
			if r.kind == resPending || (r.kind == resError && r.code != wire.AskAborted) {
				c.fail(invTimedResultMapping, rec, name+": the turn was aborted but the call got "+r.String()+", want ASK_ABORTED", fg.parentAbortRec)
			}
		case !won && fg.parentAbortRec < 0 && !fg.lost:
			// INV-EXPIRY-KEEPS-TURN
			if r.kind == resError || r.kind == resOther {
				c.fail(invExpiryKeepsTurn, rec, name+": the unattended wait ended with "+r.String()+", not pending", fg.startRec)
			}
		}
		if r.kind == resPending && !timedOutWinner {
			c.hostExpiry(fg, rec)
		}
	}

	// INV-GW-NEXT-ONLY
	if r.kind == resError && r.code == wire.NoProvider {
		switch {
		case fg.mode == modeTimed && fg.evidence:
			c.fail(invGWNextOnly, rec, name+": NO_PROVIDER surfaced from a timed wait; it must hold until the deadline", fg.startRec)
		case ev != nil && !(ev.finished && ev.finishKind == finishNext):
			c.fail(invGWNextOnly, rec, name+": NO_PROVIDER while ev="+ev.id+" was not passed by every client it was delivered to", ev.firstRec)
		case ev == nil && (fg.mode == modeBlocking || fg.connectedAt == 0) && !fg.ambiguous && !(fg.kind == fgDirect && c.directAgent(fg) != wire.AgentLive):
			c.fail(invGWNextOnly, rec, name+": NO_PROVIDER but the request was never delivered and passed: it must wait for a client", fg.startRec)
		}
	}
}

func (c *Checker) directAgent(fg *foreground) string {
	if d := c.directs[fg.directID]; d != nil {
		return d.agent
	}
	return wire.AgentLive
}

// turnAborted checks that a turn ends aborted only by a turn cancel or a session close.
func (c *Checker) turnAborted(s *sessModel, rec int) {
	ap := &c.ap
	if ap.abortSession == s.id || ap.closing {
		return
	}
	if _, ok := ap.cmd.(wire.Restart); ok {
		return
	}
	c.fail(invExpiryKeepsTurn, rec, s.id+": the turn ended aborted in the Apply of "+ap.cmd.String()+", not of a turn cancel", ap.idx)
}
