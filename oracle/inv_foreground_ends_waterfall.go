package oracle

import "strconv"

// INV-FOREGROUND-ENDS-WATERFALL (GW-1, ASK-11, CLAIM-3): two settlements, one path each:
// once a forwarded call has its result, its waterfall request is finished (by the end of
// that Apply every holder but the winner was cancelled), never delivered or replayed again
// and not left pending in the gateway, and every claim stream on its wait was ended by the
// host.

// foregroundEndsWaterfallFrame: a waterfall frame for ev went to k.
func (c *Checker) foregroundEndsWaterfallFrame(i int, k connKey, ev *gwEvent) {
	switch {
	case ev.finished && ev.finishKind == finishResult:
		c.fail(invForegroundEndsWaterfall, i, "waterfall ev="+ev.id+" sent to "+k.String()+" after its call got its result", ev.finishRec)
	case !ev.finished && ev.fg != nil && ev.fg.resultRec >= 0:
		c.fail(invForegroundEndsWaterfall, i, "waterfall ev="+ev.id+" sent to "+k.String()+" after call "+ev.fg.key.callID+" got its result", ev.fg.resultRec)
	}
}

// foregroundEndsWaterfallResult: at the end of the Apply that recorded fg's result (before
// the model finishes its request).
func (c *Checker) foregroundEndsWaterfallResult(fg *foreground) {
	ap := &c.ap
	name := fg.key.session + "/" + fg.key.callID
	if ev := fg.event; ev != nil && !ev.finished && len(ev.holders) > 0 {
		c.fail(invForegroundEndsWaterfall, ap.idx, name+": the call has its result but ev="+ev.id+" is still delivered to "+
			ev.holders[0].String(), fg.resultRec, ev.holderRec[0])
	}
	for _, st := range fg.streams {
		if !st.ended {
			c.fail(invForegroundEndsWaterfall, ap.idx, name+": the call has its result but claim stream "+st.key.id+" of "+
				st.key.client+"."+strconv.Itoa(st.key.gen)+" is still open", fg.resultRec, st.itemRec)
			break
		}
	}
}
