package oracle

import (
	"strconv"

	"github.com/twosettle/twosettle/engine/wire"
)

// INV-WAIT-DEADLINE (WAIT-1, TOOL-2): the deadline is fixed at creation, at the tool
// call's time plus its timeout (the default when left out; a run_code sub-call's time is
// the one its tool/ptc-dispatch-start records when a host stall caught it up: wait.go,
// ptcAsk), and never moves: the host
// never expires a wait before it; with WaitNote effects, created carries that deadline and
// every armed timer fires at max(now, deadline). The deadline a call fixes is the
// foreground model's (wait.go: resolveMode, setTimed).

// waitDeadlineExpiry: the host evidently expired fg's wait at record rec.
func (c *Checker) waitDeadlineExpiry(fg *foreground, rec int) {
	if now := c.recs[rec].Time; fg.dlKnown && now < fg.deadline {
		c.fail(invWaitDeadline, rec, fg.key.session+"/"+fg.key.callID+": the host expired the wait at t="+strconv.FormatInt(now, 10)+", before its deadline "+
			strconv.FormatInt(fg.deadline, 10), fg.startRec)
	}
}

// waitDeadlineCreated: a WaitNote created carries the deadline the call fixes.
func (c *Checker) waitDeadlineCreated(i int, x wire.WaitNote, fg *foreground) {
	if fg.dlKnown && x.Deadline != fg.deadline {
		c.fail(invWaitDeadline, i, x.Session+"/"+x.CallID+": wait created with deadline "+strconv.FormatInt(x.Deadline, 10)+", but its call fixes "+
			strconv.FormatInt(fg.deadline, 10), fg.startRec)
	}
}

// waitDeadlineArmed: a timer is armed at max(now, deadline). With the host's timers held
// back (lazy) its now may be a caught-up timer's due time, earlier than the record's: the
// timer is then armed anywhere from the deadline to max(now, deadline).
func (c *Checker) waitDeadlineArmed(i int, x wire.WaitNote, fg *foreground) {
	want := fg.noteDeadline
	if now := c.recs[i].Time; now > want {
		want = now
	}
	if c.lazy && x.At >= fg.noteDeadline && x.At <= want {
		return
	}
	if x.At != want {
		c.fail(invWaitDeadline, i, x.Session+"/"+x.CallID+": timer armed at "+strconv.FormatInt(x.At, 10)+", want max(now, deadline) = "+strconv.FormatInt(want, 10)+
			": the deadline moved", fg.noteRec)
	}
}

// waitDeadlineExpiredNote: a WaitNote expired comes at or after the deadline.
func (c *Checker) waitDeadlineExpiredNote(i int, x wire.WaitNote, fg *foreground) {
	if now := c.recs[i].Time; now < fg.noteDeadline {
		c.fail(invWaitDeadline, i, x.Session+"/"+x.CallID+": expired at "+strconv.FormatInt(now, 10)+", before the deadline "+strconv.FormatInt(fg.noteDeadline, 10), fg.noteRec)
	}
}
