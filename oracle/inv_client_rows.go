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
	active := map[string]map[string]bool{} // per Session, the calls its view lists active (performance only)
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
		if active[r.Session] == nil {
			active[r.Session] = make(map[string]bool, len(v.questions.Active))
			for _, q := range v.questions.Active {
				active[r.Session][q.CallID] = true
			}
		}
		if active[r.Session][r.CallID] && !v.queuedFor(r.CallID) && r.Action != rowAnswer {
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
