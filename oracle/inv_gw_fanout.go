package oracle

import (
	"slices"
	"strings"
)

// INV-GW-FANOUT (GW-5): a new pending request is delivered to every connected generation at
// once (in the Apply that forwards it), under one event id, at most once per generation; a
// generation never gets it later except as a replay on connect.

// gwFanoutFrame: a waterfall frame for ev went to k (replay: in a Connect's Apply).
func (c *Checker) gwFanoutFrame(i int, k connKey, ev *gwEvent, replay bool) {
	for _, d := range ev.delivered {
		if d == k {
			c.fail(invGWFanout, i, "waterfall ev="+ev.id+" delivered twice to "+k.String(), ev.firstRec)
		}
	}
	if !replay && ev.firstAp != c.ap.idx {
		c.fail(invGWFanout, i, "waterfall ev="+ev.id+" reached "+k.String()+" after the Apply that forwarded it, and not as a replay on connect", ev.firstRec)
	}
}

// gwFanoutEndApply: every request first forwarded in this Apply reached every generation
// connected before it.
func (c *Checker) gwFanoutEndApply() {
	ap := &c.ap
	if len(ap.fresh) == 0 {
		return
	}
	// in client order: a map's order would make the verdict's text vary between runs
	conns := make([]*conn, 0, len(c.conns))
	for _, cn := range c.conns {
		conns = append(conns, cn)
	}
	slices.SortFunc(conns, func(a, b *conn) int { return strings.Compare(a.client, b.client) })
	for _, ev := range ap.fresh {
		for _, cn := range conns {
			if !cn.connected || cn.readyRec > ev.firstRec {
				continue
			}
			k := connKey{cn.client, cn.gen}
			got := false
			for _, d := range ev.delivered {
				if d == k {
					got = true
				}
			}
			if !got && c.on(invGWFanout) {
				c.fail(invGWFanout, ap.idx, "ev="+ev.id+" was forwarded but connected "+k.String()+" did not get it", ev.firstRec, cn.readyRec)
			}
		}
	}
}
