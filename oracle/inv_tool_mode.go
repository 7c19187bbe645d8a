package oracle

import "strconv"

// INV-TOOL-MODE (TOOL-1, TOOL-3, TOOL-4, TOOL-5): ask_user_question takes the path the
// host's tool mode and the call's arguments select (the request/header decides only what
// the projection tracks): the legacy tool forwards a blocking request with no wait and
// never returns pending; under the timed tool -1 forwards wait {callId} without timed, a
// positive timeout forwards wait {callId, timed:true}, and an invalid timeout, unreadable
// questions or a repeated question id fail the call with an error result before any
// client sees a question or a wait exists. The mode of each call is the foreground
// model's (wait.go: resolveMode, learnHostMode); the checks are here.

// toolModeTimed: the trace shows a timed wait for fg (why says how).
func (c *Checker) toolModeTimed(fg *foreground, rec int, why string) {
	switch fg.mode {
	case modeLegacy, modeBlocking, modeInvalid:
		c.fail(invToolMode, rec, fg.key.session+"/"+fg.key.callID+": a call in "+modeName(fg.mode)+" mode got a timed wait ("+why+")", fg.startRec)
	}
}

// toolModeKeyed: a request with wait {callId} was forwarded for fg (before the model
// learns from it).
func (c *Checker) toolModeKeyed(i int, ev *gwEvent, fg *foreground) {
	switch {
	case fg.refused:
		// a child's call: INV-CALLER-ROOT-ONLY
	case fg.mode == modeInvalid:
		c.fail(invToolMode, i, ev.agent+"/"+ev.callID+": an invalid call reached a client instead of failing first", fg.startRec)
	case fg.askOnly, ev.timed:
		// a direct ask() forwards the caller's wait as it is; a timed request: toolModeTimed
	case fg.mode == modeTimed || fg.mode == modeLegacy:
		c.fail(invToolMode, i, ev.agent+"/"+ev.callID+": a call in "+modeName(fg.mode)+" mode forwarded wait {callId} without timed", fg.startRec)
	}
}

// toolModeUnkeyed: a request with no wait was tied to fg.
func (c *Checker) toolModeUnkeyed(i int, ev *gwEvent, fg *foreground) {
	if fg.mode == modeInvalid {
		c.fail(invToolMode, i, ev.agent+"/"+fg.key.callID+": an invalid call reached a client instead of failing first", fg.startRec)
	}
}

// toolModeNoWait: a request with no wait that no call of unknown or legacy mode can own
// was forwarded in this Apply: a timed or -1 call made in it should have sent a wait.
func (c *Checker) toolModeNoWait(i int, ev *gwEvent) {
	for _, fg := range c.active {
		if fg.key.session == ev.agent && fg.startRec >= c.ap.idx && (fg.mode == modeTimed || fg.mode == modeBlocking) && fg.kind == fgTool {
			c.fail(invToolMode, i, ev.agent+"/"+fg.key.callID+": the request forwarded for a call in "+modeName(fg.mode)+" mode carries no wait", fg.startRec)
			return
		}
	}
}

// toolModeResult judges a call's first settlement.
func (c *Checker) toolModeResult(fg *foreground, r fgResult, rec int) {
	name := fg.key.session + "/" + fg.key.callID
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
}
