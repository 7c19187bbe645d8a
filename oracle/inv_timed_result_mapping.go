package oracle

import "github.com/twosettle/twosettle/engine/wire"

// INV-TIMED-RESULT-MAPPING (ASK-9, CLAIM-7, WAIT-9): askTimed maps only ASK_TIMED_OUT to
// pending: a winning ASK_TIMED_OUT rejection (client countdown) yields pending, any other
// winning rejection propagates with its code, and a parent (turn) abort before any winner
// yields ASK_ABORTED, never pending. Judged on a timed call's first settlement (one that
// evidently had a timed wait and did not fail before dispatch).

func (c *Checker) timedResultMapping(fg *foreground, r fgResult, rec int) {
	name := fg.key.session + "/" + fg.key.callID
	ev := fg.event
	won := ev != nil && ev.hasWinner
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
	}
}
