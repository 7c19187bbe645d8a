package oracle

import (
	"github.com/twosettle/twosettle/engine/session"
	"github.com/twosettle/twosettle/engine/wire"
)

// INV-PROJ-SETTLE-ON-ADMIT (PROJ-5, PROJ-8, PROJ-9): a view shows a call settled (once
// more than the previous view did) only when the events since that view admitted its
// reply as user/message or answered it with a result: queuing a reply never settles.

func (c *Checker) projSettleOnAdmit(i int, s *sessModel, n int, q wire.QuestionsView, from int) {
	if !c.on(invProjSettleOnAdmit) {
		return
	}
	// counted once per view (linear in the settled rows, not quadratic)
	was := settledCounts(s.pubView)
	now := settledCounts(q)
	for _, row := range q.Settled {
		if now[row.CallID] <= was[row.CallID] {
			continue
		}
		if !settlesIn(s.log[from:n], row.CallID) {
			wit := []int{}
			for j := from; j < n; j++ {
				if d, ok := s.log[j].Data.(session.InboxSpliced); ok {
					for _, m := range d.Inserted {
						if m.Source.CallID == row.CallID {
							wit = append(wit, s.recOf(j))
						}
					}
				}
			}
			c.fail(invProjSettleOnAdmit, i, s.id+": the host shows "+row.CallID+" settled, but nothing since the previous view admitted its reply or answered it", wit...)
			break
		}
	}
}
