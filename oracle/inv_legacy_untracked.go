package oracle

import "github.com/twosettle/twosettle/engine/wire"

// INV-LEGACY-UNTRACKED (TOOL-1, PROJ-2, LATE-1): a call made while the latest request/header
// is legacy is never tracked: it never appears in any view the host publishes (active or
// settled), and no late reply is ever accepted or queued for it. Which calls are legacy
// is the session model's (sessModel.calls2).

// legacyUntracked judges a published view.
func (c *Checker) legacyUntracked(i int, s *sessModel, q wire.QuestionsView) {
	if !c.on(invLegacyUntracked) {
		return
	}
	for _, r := range q.Active {
		if ci := s.calls2[r.CallID]; ci != nil && ci.legacy {
			c.fail(invLegacyUntracked, i, s.id+": legacy call "+r.CallID+" is tracked as "+r.State, ci.rec)
		}
	}
	for _, r := range q.Settled {
		if ci := s.calls2[r.CallID]; ci != nil && ci.legacy {
			c.fail(invLegacyUntracked, i, s.id+": legacy call "+r.CallID+" is tracked as settled", ci.rec)
		}
	}
}

// legacyUntrackedQueued: a reply for call is queued in s's inbox at record rec.
func (c *Checker) legacyUntrackedQueued(rec int, s *sessModel, call string) {
	if ci := s.calls2[call]; ci != nil && ci.legacy {
		c.fail(invLegacyUntracked, rec, s.id+"/"+call+": a reply queued for a legacy call", ci.rec)
	}
}

// legacyUntrackedAccepted: answer() accepted a reply for call at record i.
func (c *Checker) legacyUntrackedAccepted(i int, s *sessModel, call string, callRec int) {
	if ci := s.calls2[call]; ci != nil && ci.legacy {
		c.fail(invLegacyUntracked, i, s.id+"/"+call+": answer() accepted a reply for a legacy call", ci.rec, callRec)
	}
}
