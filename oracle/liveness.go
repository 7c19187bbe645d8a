package oracle

import (
	"sort"
	"strconv"
	"strings"

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

	c.leaks(f)
	c.snapshot(FinalRecord, &f.Host, f.Clients)
}

// leaks compares the host's volatile state at the end with the oracle's model.
func (c *Checker) leaks(f *trace.Final) {
	h := &f.Host
	if !c.on(invLiveNoLeak) {
		return
	}
	if c.hasNotes || len(h.Waits) > 0 {
		held := map[fgKey]bool{}
		for _, w := range h.Waits {
			k := fgKey{w.Session, w.CallID}
			held[k] = true
			fg := c.waitFor(k)
			name := w.Session + "/" + w.CallID
			switch {
			case fg == nil || !fg.open():
				wit := -1
				if fg != nil {
					wit = fg.resultRec
				}
				c.fail(invLiveNoLeak, FinalRecord, name+": the host still holds a wait for a call that is no longer waiting", wit)
				return
			case w.Claims != fg.claims:
				c.fail(invLiveNoLeak, FinalRecord, name+": the host counts "+itoa(w.Claims)+" claims, the wire shows "+itoa(fg.claims), fg.startRec)
				return
			case w.Claims > 0 && w.TimerAt >= 0:
				c.fail(invLiveNoLeak, FinalRecord, name+": a timer is armed at "+strconv.FormatInt(w.TimerAt, 10)+" while claimed", fg.startRec)
				return
			case w.Claims == 0 && w.TimerAt < 0:
				c.fail(invLiveNoLeak, FinalRecord, name+": unclaimed with no timer armed: it can never expire", fg.startRec)
				return
			case fg.dlKnown && w.Deadline != fg.deadline:
				c.fail(invLiveNoLeak, FinalRecord, name+": the host holds deadline "+strconv.FormatInt(w.Deadline, 10)+", the call fixed "+strconv.FormatInt(fg.deadline, 10), fg.startRec)
				return
			}
		}
		if c.hasNotes {
			for _, fg := range c.active {
				if fg.open() && fg.mode == modeTimed && fg.noteLive && !held[fg.key] {
					c.fail(invLiveNoLeak, FinalRecord, fg.key.session+"/"+fg.key.callID+": the call still waits but the host holds no wait for it", fg.noteRec)
					return
				}
			}
		}
	}
	for _, r := range h.Reservations {
		s := c.sessions[r.Session]
		if s == nil || s.awaiting(r.CallID) == nil {
			c.fail(invLiveNoLeak, FinalRecord, r.Session+"/"+r.CallID+": reservation "+r.MessageID+" outlives its reply (no reply awaits admission)")
			return
		}
	}
	for _, p := range h.Pending {
		ev := c.events[p.EventID]
		if ev == nil {
			continue
		}
		if ev.finished || (ev.fg != nil && !ev.fg.open()) {
			wit := ev.finishRec
			if ev.fg != nil && ev.fg.resultRec >= 0 {
				wit = ev.fg.resultRec
			}
			c.fail(invLiveNoLeak, FinalRecord, "ev="+p.EventID+" is still pending in the gateway after its request finished", wit)
			return
		}
		var want []string
		for _, h := range ev.holders {
			want = append(want, h.client)
		}
		sort.Strings(want)
		got := append([]string(nil), p.Deliveries...)
		sort.Strings(got)
		if !stringsEqual(want, got) {
			c.fail(invLiveNoLeak, FinalRecord, "ev="+p.EventID+" is delivered to ["+strings.Join(got, ",")+"] in the host, to ["+strings.Join(want, ",")+"] on the wire", ev.firstRec)
			return
		}
	}
}
