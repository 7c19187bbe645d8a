package oracle

// INV-GW-SETTLE-ONCE (GW-1): a forwarded waterfall request finishes once: after its finish
// (a winning result or rejection, every delivery passing with next, or its signal aborting)
// no Waterfall frame for it is sent again (no replay) and no further Cancel; outcomes that
// arrive later are discarded (gateway.go eventResult). When a request finishes is the
// gateway model's (gateway.go finish).

// gwSettleOnceFrame: a waterfall frame for ev went to k.
func (c *Checker) gwSettleOnceFrame(i int, k connKey, ev *gwEvent) {
	if ev.finished && ev.finishKind != finishResult {
		c.fail(invGWSettleOnce, i, "waterfall ev="+ev.id+" sent to "+k.String()+" after the request finished ("+ev.finishKind+")", ev.finishRec)
	}
}

// gwSettleOnceCancel: a cancel for ev went to k; false: refused (the model ignores it).
func (c *Checker) gwSettleOnceCancel(i int, k connKey, ev *gwEvent) bool {
	if ev.finished && ev.finishAp != c.ap.idx {
		c.fail(invGWSettleOnce, i, "cancel ev="+ev.id+" to "+k.String()+" after the request had finished ("+ev.finishKind+")", ev.finishRec)
		return false
	}
	return true
}
