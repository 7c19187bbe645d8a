package oracle

import "github.com/twosettle/twosettle/engine/wire"

// INV-REJECTION-RESTORED (ASK-5, TOOL-9): how the service restores a client's rejection
// (docs/PEER.md §4.2 step 6; a rejection crosses the wire as {name, message, code?} and
// reaches the host as a plain error, docs/PEER-RUNTIME.md §1.8). For a request whose
// winning outcome is a rejection E (the first rejection from a generation that still held
// the delivery), the call it was forwarded for settles:
//   - E is {name: "UserQuestionError", code, message} with a code: that domain error,
//     whatever the call's signal did: a tool result (or a run_code sub-call's dispatch)
//     keeps {UserQuestionError, code} with the text "Error: <message>"; a direct call fails
//     with exactly E. Under askTimed, ASK_TIMED_OUT is then mapped to pending (ASK-9,
//     INV-TIMED-RESULT-MAPPING), so it is left to that invariant;
//   - any other E with the call's signal aborted before it won: ASK_ABORTED;
//   - any other E: unchanged: a tool error with the text "Error: <message>" and no {name,
//     code}; a direct call fails with exactly E.

func (c *Checker) rejectionRestored(fg *foreground, r fgResult, rec int) {
	if !c.on(invRejectionRestored) || fg.lost || runtimeFailure(r) {
		return
	}
	ev := fg.event
	if ev == nil || ev.fg != fg || !ev.hasWinner || ev.outcome.Kind != wire.OutcomeRejected || ev.outcome.Error == nil {
		return
	}
	e := ev.outcome.Error
	timed := fg.timedAsk || (fg.mode == modeTimed && fg.evidence)
	name := fg.key.session + "/" + fg.key.callID
	fail := func(want string) {
		c.fail(invRejectionRestored, rec, name+": "+ev.winner.String()+" rejected with "+e.String()+", so the call must fail with "+
			want+", got "+restoredShape(r), ev.winnerRec)
	}
	if e.IsDomain() {
		if timed && e.Code == wire.AskTimedOut {
			return
		}
		if r.direct {
			if r.err == nil || *r.err != *e {
				fail("that domain error")
			}
			return
		}
		if r.kind != resError || !r.isError || r.name != wire.UserQuestionErrorName || r.code != e.Code || r.text != toolErrorTextPrefix+e.Message {
			fail("the tool error {UserQuestionError, " + e.Code + "} \"Error: " + clip(e.Message) + "\"")
		}
		return
	}
	if fg.parentAbortRec >= 0 && fg.parentAbortRec <= ev.winnerRec {
		if r.kind != resError || r.code != wire.AskAborted {
			fail("ASK_ABORTED (its signal had aborted)")
		}
		return
	}
	if r.direct {
		if r.err == nil || *r.err != *e {
			fail("that error unchanged")
		}
		return
	}
	if r.kind != resError || !r.isError || r.name != "" || r.code != "" || r.text != toolErrorTextPrefix+e.Message {
		fail("a plain tool error \"Error: " + clip(e.Message) + "\" with no {name, code}")
	}
}

// restoredShape is how a call settled, for a message.
func restoredShape(r fgResult) string {
	if r.direct && r.err != nil {
		return r.err.String()
	}
	if r.kind != resError {
		return r.String()
	}
	return "an error " + errShape(r) + " " + wire.JSONString(clip(r.text))
}
