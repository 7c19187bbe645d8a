package oracle

import (
	"strconv"

	"github.com/twosettle/twosettle/engine/wire"
)

// INV-WAIT-CLAIMED-NO-EXPIRY (WAIT-2, WAIT-5): the host never expires a timed wait while a
// client holds a claim on it: at the Apply where the host expires the wait (pending
// without a winning ASK_TIMED_OUT), no claim that was held before the command (and not
// released by it) remained. With WaitNote effects it also checks that no expiry and no
// armed timer is reported while the host's own claim count is positive.

// waitClaimedNoExpiryAt: the host evidently expired fg's wait at record rec.
func (c *Checker) waitClaimedNoExpiryAt(fg *foreground, rec int) {
	for _, st := range fg.streams {
		if st.claim && st.itemRec < c.ap.idx && (!st.ended || (st.endRec >= c.ap.idx && !st.endByCmd)) {
			c.fail(invWaitClaimedNoExpiry, rec, fg.key.session+"/"+fg.key.callID+": the host expired the wait while "+st.key.client+"."+strconv.Itoa(st.key.gen)+
				" held a claim (stream "+st.key.id+")", st.itemRec)
			return
		}
	}
}

// waitClaimedNoExpiryNote: a WaitNote armed or expired while the host counts claims.
func (c *Checker) waitClaimedNoExpiryNote(i int, x wire.WaitNote, fg *foreground) {
	if fg.noteClaims <= 0 {
		return
	}
	name := x.Session + "/" + x.CallID
	if x.Kind == wire.WaitArmed {
		c.fail(invWaitClaimedNoExpiry, i, name+": timer armed while "+strconv.Itoa(fg.noteClaims)+" claim(s) are held", fg.noteRec)
	} else {
		c.fail(invWaitClaimedNoExpiry, i, name+": expired while "+strconv.Itoa(fg.noteClaims)+" claim(s) are held", fg.noteRec)
	}
}
