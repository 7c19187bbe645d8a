package oracle

import (
	"slices"

	"github.com/twosettle/twosettle/trace"
)

// final checks the final state and the healed phase.
func (c *Checker) final(f *trace.Final) {
	end := f.Time
	if n := len(c.recs); n > 0 && c.recs[n-1].Time > end {
		end = c.recs[n-1].Time
	}
	seen := map[string]bool{}
	for _, ss := range f.Host.Sessions {
		seen[ss.ID] = true
		s := c.sessions[ss.ID]
		c.logReportedFinal(ss, s)
		if s == nil {
			continue
		}
		if ss.Persisted > s.persisted {
			s.persisted = ss.Persisted
		}
		c.checkPublished(FinalRecord, s, len(s.log), ss.Questions, ss.Inbox)
	}
	for _, s := range c.sessOrder {
		c.logReportedLost(s, seen)
		c.restartPrefixFinal(s)
	}

	// waits that never ended
	for _, fg := range c.active {
		e, ok := fg.expiryAt()
		if !ok || !fg.open() || !c.endVisible(fg) {
			continue
		}
		c.waitExpiresOnTimeFinal(fg, end)
		c.liveQuestionsEnd(fg, e, end)
	}

	c.replyNotLostFinal(end)

	// in name order: a map's order would make the verdict's text vary between runs
	names := make([]string, 0, len(c.clients))
	for n := range c.clients {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, n := range names {
		c.delegated(c.clients[n])
	}
	c.leaks(f)
	c.snapshot(FinalRecord, &f.Host, f.Clients)
}
