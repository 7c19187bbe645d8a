package oracle

import (
	"strconv"

	"github.com/twosettle/twosettle/engine/wire"
	"github.com/twosettle/twosettle/trace"
)

// INV-CLIENT-EXPIRY (CLAIM-7, CD-1, CD-4, CD-6): a client's local countdown rejects with
// ASK_TIMED_OUT only after it received the claim frame and its own clock reached the
// frame's arrival time plus remainingMs (pauses only add; a clock set back meanwhile moves
// expiry with it, CD-10), and never for a card its user edited or took time on (the freeze
// is for good on that client, and survives a reload with its stored draft); an untimed
// request has no countdown, so its ASK_TIMED_OUT from a client always fails (checked in
// clientEffect; a client that armed a countdown of its own used to pass). The freezes
// (cm.frozen, cm.frozeAt) and the clock's backward moves (cm.back) are the client model's.

// clientExpiryOutcome checks an outcome the client sends for a timed request; st is the
// claim stream the page opened for its call on this generation (nil none).
func (c *Checker) clientExpiryOutcome(i int, r *trace.Record, cm *clientModel, x wire.SendResult, ev *clientEvent, st *clientStream) {
	if x.Outcome.Kind != wire.OutcomeRejected || !x.Outcome.Error.HasCode(wire.AskTimedOut) {
		return
	}
	switch {
	case st == nil || !st.hasFrame:
		c.fail(invClientExpiry, i, cm.name+": countdown expiry for "+ev.call+" without a claim frame", ev.rec)
	case r.ClientTime < st.frameCT+st.rem-(cm.back-st.backAtFrame):
		// a pause resumes its preserved remainder from the client's clock as it
		// reads then (CD-2), so a clock moved back meanwhile moves expiry with it
		// (CD-10); nothing else makes it come earlier
		c.fail(invClientExpiry, i, cm.name+": countdown expiry for "+ev.call+" at client time "+strconv.FormatInt(r.ClientTime, 10)+
			", before "+strconv.FormatInt(st.frameCT, 10)+" + "+strconv.FormatInt(st.rem, 10), st.frameRec)
	case cm.frozenBefore(fgKey{ev.session, ev.call}):
		c.fail(invClientExpiry, i, cm.name+": countdown expiry for "+ev.call+", a card its user edited or took time on", st.frameRec)
	}
}

// frozenBefore reports whether k was frozen by an input before the current one: the
// client runs its due countdown ticks before it handles an input, so an expiry in the
// Apply of the edit itself came first. Across a reload the freeze survives with the
// stored draft, which a card restores only if it fits its question set (DRAFT-2): when
// the call was asked with different question counts, that is not known; nor is it when a
// mount may have pruned the stored draft (cm.maybePruned).
func (cm *clientModel) frozenBefore(k fgKey) bool {
	rec, ok := cm.frozen[k]
	if !ok || rec >= cm.cur || cm.maybePruned[k] {
		return false
	}
	return cm.frozeAt[k] == cm.reloads || cm.nq[k] >= 0
}
