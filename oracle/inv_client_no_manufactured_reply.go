package oracle

import "github.com/twosettle/twosettle/engine/wire"

// INV-CLIENT-NO-MANUFACTURED-REPLY (AGENT-5, CARD-10, CARD-11): a client sends an answer
// (a waterfall result or a late-answer call) only in response to its user's submit, at
// most one per submit, and rejects with ASK_CANCELLED only for an unkeyed blocking
// request: hiding or closing a keyed panel records nothing and manufactures no reply.
// cm.submit (the current input is a submit) is set by the client model; cm.submitUsed is
// this invariant's own count of the answers that submit produced.

// noManufacturedResult checks a $events/result the client sends (ev nil: a request the
// page does not know).
func (c *Checker) noManufacturedResult(i int, cm *clientModel, x wire.SendResult, ev *clientEvent) {
	if x.Outcome.Kind == wire.OutcomeResult {
		if !cm.submit || cm.submitUsed {
			c.fail(invClientNoManufacturedReply, i, cm.name+": answered ev="+x.EventID+" in response to "+c.recs[cm.cur].Payload.String()+
				", not to a submit of its user", cm.cur)
		}
		cm.submitUsed = true
	}
	if x.Outcome.Kind == wire.OutcomeRejected && x.Outcome.Error.HasCode(wire.AskCancelled) && ev != nil && ev.keyed {
		c.fail(invClientNoManufacturedReply, i, cm.name+": rejected keyed request ev="+x.EventID+" ("+ev.call+") with ASK_CANCELLED: closing a keyed card records nothing", cm.cur)
	}
}

// noManufacturedAnswer checks a late-answer call the client sends.
func (c *Checker) noManufacturedAnswer(i int, cm *clientModel) {
	if !cm.submit || cm.submitUsed {
		c.fail(invClientNoManufacturedReply, i, cm.name+": sent a late answer in response to "+c.recs[cm.cur].Payload.String()+", not to a submit of its user", cm.cur)
	}
	cm.submitUsed = true
}
