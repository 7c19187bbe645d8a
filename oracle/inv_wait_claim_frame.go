package oracle

import (
	"strconv"

	"github.com/twosettle/twosettle/engine/wire"
)

// INV-WAIT-CLAIM-FRAME (WAIT-4, WAIT-6, WAIT-7): an attachWait stream yields at most one
// item, {"remainingMs":max(0, deadline − now)}, and only for a live timed wait: none for a
// closed, unknown, blocking or legacy call, and none at or after the deadline unless
// another claim is held (then remainingMs is 0). With WaitNote effects, a claim reports
// the same remaining time. A frame judged wrong registers no claim (wait.go claimFrame).

// waitClaimFrameOnce: a stream yields at most one item. false: refused.
func (c *Checker) waitClaimFrameOnce(i int, st *stream) bool {
	if st.items > 1 {
		c.fail(invWaitClaimFrame, i, st.session+"/"+st.call+": a second item on claim stream "+st.key.id, st.itemRec)
		return false
	}
	return true
}

// waitClaimFrameFor: the frame belongs to a live timed wait and reads {"remainingMs":N}.
// It returns N, and false when the frame is refused.
func (c *Checker) waitClaimFrameFor(i int, st *stream, fg *foreground, v []byte) (int64, bool) {
	name := st.session + "/" + st.call
	if fg == nil {
		c.fail(invWaitClaimFrame, i, name+": a claim frame for a wait that does not exist", st.openRec)
		return 0, false
	}
	if fg.mode == modeLegacy || fg.mode == modeBlocking || fg.mode == modeInvalid {
		c.fail(invWaitClaimFrame, i, name+": a claim frame for a call in "+modeName(fg.mode)+" mode, which has no timed wait", fg.startRec)
		return 0, false
	}
	if !fg.open() {
		end := fg.resultRec
		if end < 0 {
			end = fg.waitEndRec
		}
		c.fail(invWaitClaimFrame, i, name+": a claim frame for a wait that already ended", end)
		return 0, false
	}
	rem, ok := remainingMs(v)
	if !ok {
		c.fail(invWaitClaimFrame, i, name+": claim frame "+clip(string(v))+" is not {\"remainingMs\":N}")
		return 0, false
	}
	return rem, true
}

// waitClaimFrameRemaining: remainingMs against the known deadline.
func (c *Checker) waitClaimFrameRemaining(i int, st *stream, fg *foreground, rem int64) {
	now := c.recs[i].Time
	name := st.session + "/" + st.call
	want := fg.deadline - now
	if want < 0 {
		want = 0
	}
	if rem != want {
		c.fail(invWaitClaimFrame, i, name+": remainingMs "+strconv.FormatInt(rem, 10)+", want max(0, "+strconv.FormatInt(fg.deadline, 10)+
			" − "+strconv.FormatInt(now, 10)+") = "+strconv.FormatInt(want, 10), fg.startRec)
	}
	if now >= fg.deadline && fg.claims == 0 {
		c.fail(invWaitClaimFrame, i, name+": attached at t="+strconv.FormatInt(now, 10)+", past the deadline "+strconv.FormatInt(fg.deadline, 10)+
			" with no other claim: the wait must expire and yield no frame", fg.startRec)
	}
}

// waitClaimFrameNote: a WaitNote claimed reports max(0, deadline − now).
func (c *Checker) waitClaimFrameNote(i int, x wire.WaitNote, fg *foreground) {
	want := fg.noteDeadline - c.recs[i].Time
	if want < 0 {
		want = 0
	}
	if x.Remaining != want {
		c.fail(invWaitClaimFrame, i, x.Session+"/"+x.CallID+": claim reported remaining "+strconv.FormatInt(x.Remaining, 10)+", want "+strconv.FormatInt(want, 10), fg.noteRec)
	}
}
