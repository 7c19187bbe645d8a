package oracle

import (
	"github.com/twosettle/twosettle/engine/session"
	"github.com/twosettle/twosettle/engine/wire"
)

// INV-CLIENT-NODES (NODE-1, NODE-2, NODE-3): a page draws a late-reply node exactly for
// the user/message events of the log it received whose source is a late reply (kind
// user-question-reply, a call id, outcome answered), once each; identical JSON in an
// ordinary message, or a reply source with another outcome, is not a reply. A node it
// could not read (no question-and-answer line) keeps the raw text (NODE-2). Checked at
// every probe and at the end.

func (c *Checker) clientNodes(i int, cm *clientModel, cs *wire.ClientState) {
	if !c.on(invClientNodes) {
		return
	}
	drawn := map[fgKey]int{}
	for _, n := range cs.Nodes {
		s := c.sessions[n.Session]
		v := cm.views[n.Session]
		if s == nil || v == nil || n.Seq >= len(s.log) || n.Seq >= v.logLen {
			continue
		}
		d, ok := s.log[n.Seq].Data.(session.UserMessage)
		if !ok || !d.Message.Source.IsQuestionReply() || d.Message.Source.CallID != n.CallID {
			c.fail(invClientNodes, i, cm.name+": a late-reply node for "+n.CallID+" at "+n.Session+" #"+itoa(n.Seq)+
				" where the log has "+s.log[n.Seq].String(), s.recOf(n.Seq))
			return
		}
		if raw := d.Message.Text; len(n.Lines) == 0 && !d.Message.NoText && n.Text != raw {
			c.fail(invClientNodes, i, cm.name+": the unreadable reply at "+n.Session+" #"+itoa(n.Seq)+" shows "+
				quoteText(n.Text)+", not its raw text", s.recOf(n.Seq))
			return
		}
		k := fgKey{n.Session, itoa(n.Seq)}
		if drawn[k]++; drawn[k] > 1 {
			c.fail(invClientNodes, i, cm.name+": the reply at "+n.Session+" #"+itoa(n.Seq)+" is drawn twice", s.recOf(n.Seq))
			return
		}
	}
	for _, id := range cm.viewsBySession() {
		v := cm.views[id]
		s := c.sessions[id]
		if s == nil || !hasSessionRows(cs, id) {
			continue
		}
		for j := s.inherited; j < v.logLen && j < len(s.log); j++ {
			d, ok := s.log[j].Data.(session.UserMessage)
			if ok && d.Message.Source.IsQuestionReply() && drawn[fgKey{id, itoa(s.log[j].Seq)}] == 0 {
				c.fail(invClientNodes, i, cm.name+": the late reply "+s.log[j].String()+" has no node", s.recOf(j))
				return
			}
		}
	}
}

// hasSessionRows reports whether the page lays out the Session's conversation at all.
func hasSessionRows(cs *wire.ClientState, id string) bool {
	for _, e := range cs.Conversation {
		if e.Session == id {
			return true
		}
	}
	return false
}

func quoteText(s string) string { return wire.JSONString(clip(s)) }
