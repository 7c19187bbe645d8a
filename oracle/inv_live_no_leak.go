package oracle

import (
	"sort"
	"strconv"
	"strings"

	"github.com/twosettle/twosettle/trace"
)

// INV-LIVE-NO-LEAK (ASK-11, LATE-7, AGENT-2, GW-1): nothing volatile outlives what it
// belongs to, on hosts that report their volatile state. Its converse for reservations is
// INV-RESERVATION-HELD (inv_reservation_held.go).

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
			fg := c.waitOfState(w)
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
