package oracle

import (
	"strconv"

	"github.com/twosettle/twosettle/engine/wire"
)

// INV-PERSIST-MONOTONIC (AGENT-6): a Session's persisted prefix (Persisted effects) never
// shrinks except by a crash, and never exceeds the events appended: durability is a prefix
// that only grows while the host lives.

// persistMonotonic judges a Persisted effect; false: refused (the model keeps its count).
func (c *Checker) persistMonotonic(i int, s *sessModel, x wire.Persisted) bool {
	if x.Through < s.persisted {
		c.fail(invPersistMonotonic, i, s.id+": persisted through "+strconv.Itoa(x.Through)+" after "+strconv.Itoa(s.persisted)+" with no crash between", s.persRec)
		return false
	}
	if x.Through > len(s.log) {
		c.fail(invPersistMonotonic, i, s.id+": persisted through "+strconv.Itoa(x.Through)+" but only "+strconv.Itoa(len(s.log))+" events were appended", s.lastRec())
		return false
	}
	return true
}
