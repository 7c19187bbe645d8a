package oracle

import "github.com/twosettle/twosettle/engine/wire"

// INV-CALLER-ROOT-ONLY (CALLER-1, CALLER-2, CALLER-4): only the exact live runtime root
// asks: a direct service call made with a stale instance, or by a child owned by a live
// agent, never succeeds and never reaches a client; an ask_user_question call of a child
// fails and forwards nothing. Which Sessions are children of a live owner is the session
// model's (sessModel.childLive: an OpenSession with an owner, until a close disposes the
// owner); the checks are here.

// callerRootOnlyTimed: the trace shows a timed wait for fg.
func (c *Checker) callerRootOnlyTimed(fg *foreground, rec int, why string) {
	if fg.refused {
		c.fail(invCallerRootOnly, rec, fg.key.session+"/"+fg.key.callID+": a call of a child owned by a live agent got a timed wait ("+why+")", fg.startRec)
	}
}

// callerRootOnlyFrame: a waterfall frame went to client k.
func (c *Checker) callerRootOnlyFrame(i int, k connKey, f wire.Waterfall) {
	if s := c.sessions[f.AgentID]; s != nil && s.childLive && f.Event == wire.EventQuestionsRequest {
		c.fail(invCallerRootOnly, i, "a question of "+s.id+", a child owned by live "+s.owner+", reached "+k.String())
	}
}

// callerRootOnlyResult judges a call's first settlement.
func (c *Checker) callerRootOnlyResult(fg *foreground, r fgResult, rec int) {
	s := c.sessions[fg.key.session]
	if s != nil && s.childLive && fg.kind != fgDirect && r.kind != resError {
		c.fail(invCallerRootOnly, rec, fg.key.session+"/"+fg.key.callID+": a child owned by live "+s.owner+" got "+r.String()+" instead of failing", fg.startRec)
	}
}

// callerRootOnlyDirect judges a direct call's result.
func (c *Checker) callerRootOnlyDirect(i int, d *directOp, x wire.DirectResult) {
	if d.stale && (x.Err == nil || x.Value != nil) {
		c.fail(invCallerRootOnly, i, "direct "+d.op+" by a caller that is not the live root ("+d.agent+") succeeded", d.rec)
	}
}
