package oracle

import (
	"strconv"

	"github.com/twosettle/twosettle/engine/wire"
)

// INV-WAIT-LIFECYCLE (WAIT-10, WAIT-9, ASK-11, ASK-7), on hosts that report WaitNote
// effects: a wait is created once while live, its claim count moves by one per claim and
// release and never goes negative, it closes exactly once and reports nothing after, and
// it is closed by the end of the Apply that records its call's result (foreground
// completion releases the timer, the claims and the registry entry). Which wait a note
// belongs to is the foreground model's (wait.go waitNote).

// waitLifecycleCreatedBeside: a wait is created while another wait (w) of the call is live.
func (c *Checker) waitLifecycleCreatedBeside(i int, x wire.WaitNote, w *foreground) {
	c.fail(invWaitLifecycle, i, x.Session+"/"+x.CallID+": wait created while another wait for the call is live (ASK-7)", w.noteRec)
}

// waitLifecycleCreated: fg's wait is created while it is live.
func (c *Checker) waitLifecycleCreated(i int, x wire.WaitNote, fg *foreground) {
	if fg.noteLive {
		c.fail(invWaitLifecycle, i, x.Session+"/"+x.CallID+": wait created while another wait for the call is live", fg.noteRec)
	}
}

// waitLifecycleNoWait: a note other than created for a wait that is not live.
func (c *Checker) waitLifecycleNoWait(i int, x wire.WaitNote, fg *foreground) {
	c.fail(invWaitLifecycle, i, x.Session+"/"+x.CallID+": wait "+x.Kind+" reported for no live wait", fg.noteRec)
}

// waitLifecycleCount: a claim or a release moves the count by one (before the model
// takes the new count).
func (c *Checker) waitLifecycleCount(i int, x wire.WaitNote, fg *foreground) {
	name := x.Session + "/" + x.CallID
	switch x.Kind {
	case wire.WaitClaimed:
		if x.Claims != fg.noteClaims+1 {
			c.fail(invWaitLifecycle, i, name+": claims went from "+strconv.Itoa(fg.noteClaims)+" to "+strconv.Itoa(x.Claims)+" on one claim", fg.noteRec)
		}
	case wire.WaitReleased:
		if x.Claims != fg.noteClaims-1 || x.Claims < 0 {
			c.fail(invWaitLifecycle, i, name+": claims went from "+strconv.Itoa(fg.noteClaims)+" to "+strconv.Itoa(x.Claims)+" on one release", fg.noteRec)
		}
	}
}

// waitLifecycleResult: at the end of the Apply that recorded fg's result, its wait closed.
func (c *Checker) waitLifecycleResult(fg *foreground) {
	if fg.noteLive && !fg.noteExpired {
		c.fail(invWaitLifecycle, c.ap.idx, fg.key.session+"/"+fg.key.callID+": the call has its result but its wait was never closed", fg.noteRec, fg.resultRec)
	}
}
