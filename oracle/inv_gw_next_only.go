package oracle

import "github.com/twosettle/twosettle/engine/wire"

// INV-GW-NEXT-ONLY (GW-6, ASK-4, ASK-10): NO_PROVIDER reaches a scoped ask only after every
// client its request was delivered to passed with next; a disconnect (or no client at all)
// leaves the request pending instead. Under askTimed NO_PROVIDER never surfaces: it holds
// on the bounded wait (pending at the deadline).

// gwNextOnly judges a call's first settlement when it is NO_PROVIDER.
func (c *Checker) gwNextOnly(fg *foreground, r fgResult, rec int) {
	if r.kind != resError || r.code != wire.NoProvider {
		return
	}
	name := fg.key.session + "/" + fg.key.callID
	ev := fg.event
	switch {
	case fg.mode == modeTimed && fg.evidence:
		c.fail(invGWNextOnly, rec, name+": NO_PROVIDER surfaced from a timed wait; it must hold until the deadline", fg.startRec)
	case ev != nil && !(ev.finished && ev.finishKind == finishNext):
		c.fail(invGWNextOnly, rec, name+": NO_PROVIDER while ev="+ev.id+" was not passed by every client it was delivered to", ev.firstRec)
	case ev == nil && (fg.mode == modeBlocking || fg.connectedAt == 0) && !fg.ambiguous && !(fg.kind == fgDirect && c.directAgent(fg) != wire.AgentLive):
		c.fail(invGWNextOnly, rec, name+": NO_PROVIDER but the request was never delivered and passed: it must wait for a client", fg.startRec)
	}
}
