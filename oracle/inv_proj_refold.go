package oracle

import "github.com/twosettle/twosettle/engine/wire"

// INV-PROJ-REFOLD (PROJ-1, PROJ-3..7, PROJ-10..12): every questions view the host publishes
// (a SessionUpdate, the final state) is the oracle's own fold (fold.go) of the host's log
// through the events that view covers (trace validation).

func (c *Checker) projRefold(i int, s *sessModel, n int, q wire.QuestionsView, from int) {
	if !c.on(invProjRefold) {
		return
	}
	if ref, ok := c.viewAt(s, n); ok && !viewEqual(ref, q) {
		wit := c.relevantSince(s, from, n)
		c.fail(invProjRefold, i, s.id+": the host shows questions{"+q.String()+"} after #"+itoa(n-1)+
			" but the reference projection folds to {"+ref.String()+"}", wit...)
	}
}
