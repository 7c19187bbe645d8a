package oracle

// INV-GW-REPLAY (GW-5, GW-6): a new connection generation receives Ready first, then every
// request still pending (with its original event id, in the order the requests were
// forwarded), before any other frame. A disconnect does not finish a request, so it is
// replayed. Which requests are still pending is the gateway model's (eventPending).

// gwReplayFrame: a waterfall frame for ev went to k (replay: in a Connect's Apply).
func (c *Checker) gwReplayFrame(i int, k connKey, ev *gwEvent, replay bool) {
	if replay && c.ap.connectLive {
		c.fail(invGWReplay, i, "replay of ev="+ev.id+" to "+k.String()+" after a live frame")
	}
}

// gwReplayEndApply: a Connect's Apply replayed every pending request, in forwarding order.
func (c *Checker) gwReplayEndApply() {
	ap := &c.ap
	cn := ap.connect
	if cn == nil || !cn.connected {
		return
	}
	last := -1
	for _, ev := range c.evOrder {
		if ev.firstAp == ap.idx || !c.eventPending(ev, ap.now) || (ev.ambiguous && ev.fg == nil) {
			continue
		}
		pos := -1
		for p, r := range ap.replayed {
			if r == ev {
				pos = p
			}
		}
		if pos < 0 {
			c.fail(invGWReplay, ap.idx, "new generation "+connKey{cn.client, cn.gen}.String()+" did not get pending ev="+ev.id+" replayed", ev.firstRec)
			break
		}
		if pos < last {
			c.fail(invGWReplay, ap.idx, "replay to "+connKey{cn.client, cn.gen}.String()+" out of forwarding order at ev="+ev.id, ev.firstRec)
			break
		}
		last = pos
	}
}
