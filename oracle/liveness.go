package oracle

import (
	"sort"
	"strconv"

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
		if s == nil {
			if len(ss.Log) > 0 {
				c.fail(invLogReported, FinalRecord, ss.ID+": the final state has a Session the trace never appended to")
			}
			continue
		}
		if len(ss.Log) != len(s.log) {
			c.fail(invLogReported, FinalRecord, s.id+": the final log has "+itoa(len(ss.Log))+" events, the appended log "+itoa(len(s.log)), s.lastRec())
		} else {
			for j := range ss.Log {
				if !eventEqual(ss.Log[j], s.log[j]) {
					c.fail(invLogReported, FinalRecord, s.id+": the final log has "+ss.Log[j].String()+" where the appended log has "+s.log[j].String(), s.recOf(j))
					break
				}
			}
		}
		if ss.Inherited != s.inherited {
			c.fail(invLogReported, FinalRecord, s.id+": the final state says "+itoa(ss.Inherited)+" inherited events, the fork copied "+itoa(s.inherited))
		}
		if ss.Persisted < s.persisted || ss.Persisted > len(ss.Log) {
			c.fail(invLogReported, FinalRecord, s.id+": the final persisted count "+itoa(ss.Persisted)+" is not between the last reported "+
				itoa(s.persisted)+" and the log length "+itoa(len(ss.Log)), s.persRec)
		}
		if ss.Persisted > s.persisted {
			s.persisted = ss.Persisted
		}
		c.checkPublished(FinalRecord, s, len(s.log), ss.Questions, ss.Inbox)
	}
	for _, s := range c.sessOrder {
		if !seen[s.id] && len(s.log) > s.inherited {
			c.fail(invLogReported, FinalRecord, s.id+": the final state lost a Session with "+itoa(len(s.log))+" events", s.lastRec())
		}
		if len(s.closers) > 0 {
			c.fail(invRestartPrefix, FinalRecord, s.id+": the restart left the turn open: repair closer "+s.closers[0].String()+" was never appended", s.closerRec)
		}
	}

	// waits that never ended
	for _, fg := range c.active {
		e, ok := fg.expiryAt()
		if !ok || !fg.open() || !c.endVisible(fg) {
			continue
		}
		name := fg.key.session + "/" + fg.key.callID
		if !c.lazy && end > e {
			c.fail(invWaitExpiresOnTime, FinalRecord, name+": the run went on to t="+strconv.FormatInt(end, 10)+" but the wait, due to expire at "+
				strconv.FormatInt(e, 10)+" with no claim held, never ended", fg.startRec, fg.releaseRec)
		}
		due := e
		if c.healedAt > due {
			due = c.healedAt
		}
		if due+c.opts.BoundMs <= end {
			c.fail(invLiveQuestionsEnd, FinalRecord, name+": still open at t="+strconv.FormatInt(end, 10)+", "+
				strconv.FormatInt(end-e, 10)+" ms after its expiry instant with no claim held", fg.startRec)
		}
	}

	// accepted replies
	for _, a := range c.accepted {
		if a.lost {
			continue
		}
		due := a.time
		if c.healedAt > due {
			due = c.healedAt
		}
		if a.idx >= a.s.persisted && due+c.opts.BoundMs <= end {
			c.fail(invReplyNotLost, FinalRecord, a.s.id+"/"+a.callID+": accepted reply "+a.msgID+" is still not durable at the end", a.rec, a.insertRec)
		}
	}

	names := make([]string, 0, len(c.clients))
	for n := range c.clients {
		names = append(names, n)
	}
	sort.Strings(names) // the first client owing a delegation is reported, whatever the map order
	for _, n := range names {
		c.delegated(c.clients[n])
	}
	c.leaks(f)
	c.snapshot(FinalRecord, &f.Host, f.Clients)
}
