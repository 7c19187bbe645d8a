package oracle

import "github.com/twosettle/twosettle/engine/wire"

// INV-CLIENT-CLAIM-DISCIPLINE (CLAIM-1, CLAIM-2, CLAIM-4, CLAIM-5): a client opens
// attachWait for a timed request before it answers or rejects it; it keeps that claim until
// the host has its outcome (no cancel of the claim between sending a result and the
// result's reply, nor in the same input just before it); it releases the claim before
// delegating with next; and a claim stream that ends with no frame (no host wait) makes it
// delegate the request with next in that input. The claims (cm.streams), the outcomes
// awaiting their reply (cm.results) and the delegation owed (cm.expectNext) are the client
// model's (client.go).

// claimDisciplineOutcome checks the outcome a client sends for a timed request; st is the
// claim stream the page opened for its call on this generation (nil none).
func (c *Checker) claimDisciplineOutcome(i int, cm *clientModel, x wire.SendResult, ev *clientEvent, st *clientStream) {
	switch x.Outcome.Kind {
	case wire.OutcomeResult, wire.OutcomeRejected:
		if st == nil {
			c.fail(invClientClaimDiscipline, i, cm.name+": sent "+x.Outcome.String()+" for timed ev="+x.EventID+" without opening attachWait for "+ev.call+" first", ev.rec)
		}
		for _, cs := range cm.cancelled {
			if cs.session == ev.session && cs.call == ev.call {
				c.fail(invClientClaimDiscipline, i, cm.name+": released its claim on "+ev.call+" in the same input, just before sending its outcome", cm.cur)
			}
		}
	case wire.OutcomeNext:
		if st != nil && !st.ended && !st.cancelled {
			c.fail(invClientClaimDiscipline, i, cm.name+": delegated timed ev="+x.EventID+" with next while still holding its claim stream "+st.id, st.openRec)
		}
	}
}

// claimKeptUntilAcknowledged checks a claim stream the client cancels: no outcome it sent
// for the call may still await the host's reply (CLAIM-2).
func (c *Checker) claimKeptUntilAcknowledged(i int, cm *clientModel, st *clientStream) {
	var first *clientResult // the earliest outcome still unacknowledged (map order never decides)
	for _, res := range cm.results {
		if res.key.session == st.session && res.key.callID == st.call && (first == nil || res.rec < first.rec) {
			first = res
		}
	}
	if first != nil {
		c.fail(invClientClaimDiscipline, i, cm.name+": released its claim on "+st.call+" before the host acknowledged the outcome it sent", first.rec)
	}
}

// delegated checks, when a client's input is over, that a claim stream which ended with
// no frame made it delegate its request with next (CLAIM-5: no host wait remains).
func (c *Checker) delegated(cm *clientModel) {
	if cm.expectNext == "" {
		return
	}
	ev := cm.expectNext
	cm.expectNext = ""
	if e := cm.events[ev]; e != nil && !e.done && c.on(invClientClaimDiscipline) {
		c.fail(invClientClaimDiscipline, cm.cur, cm.name+": the claim stream of ev="+ev+" ended with no frame but the client did not delegate it (next)", e.rec)
	}
}
