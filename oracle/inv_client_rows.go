package oracle

import "github.com/twosettle/twosettle/engine/wire"

// INV-CLIENT-ROWS (ROW-1, ROW-2, ROW-3): the action a tool row offers, at every probe and
// at the end, against the views its page received:
//   - a legacy call's row offers no question action (ROW-3);
//   - a row whose call the page's projection lists active, with no reply of it waiting in
//     the page's inbox, offers Answer: pending-and-answerable, waiting, and the
//     TOOL_OUTCOME_UNKNOWN variant alike (ROW-1), and again once a queued reply was
//     discarded (ROW-2).

// rowAnswer is the row action that reveals the card.
const rowAnswer = "Answer"

func (c *Checker) clientRows(i int, cm *clientModel, cs *wire.ClientState) {
	if !c.on(invClientRows) {
		return
	}
	last := make(map[fgKey]int, len(cs.Rows)) // a reused call id has a row per call: the last one is live
	for j, r := range cs.Rows {
		last[fgKey{r.Session, r.CallID}] = j
	}
	for j, r := range cs.Rows {
		if last[fgKey{r.Session, r.CallID}] != j {
			continue
		}
		if s := c.sessions[r.Session]; s != nil {
			if ci := s.calls2[r.CallID]; ci != nil && ci.legacy && r.Action != "" {
				c.fail(invClientRows, i, cm.name+": the row of legacy call "+r.Session+"/"+r.CallID+" offers "+r.Action, ci.rec)
				return
			}
		}
		v := cm.views[r.Session]
		if v == nil {
			continue
		}
		if _, active := v.questions.Row(r.CallID); active && !v.queuedFor(r.CallID) && r.Action != rowAnswer {
			c.fail(invClientRows, i, cm.name+": the row of "+r.Session+"/"+r.CallID+" offers "+quoteAction(r.Action)+
				" while the projection the page shows lists it answerable and no reply of it is queued", cm.cur)
			return
		}
	}
}

func quoteAction(a string) string {
	if a == "" {
		return "no action"
	}
	return `"` + a + `"`
}
