package host

import "github.com/twosettle/twosettle/engine/wire"

// restart is a host crash and a cold load (AGENT-2, AGENT-3, AGENT-6). Everything volatile
// goes: the question service (waits, claims, timers, reservations) is replaced by a fresh
// one, the gateway drops every connection, pending event and stream (clients must
// reconnect, and then get a Reset of every Session), live agents, turns and runtime timers
// vanish. Each Session keeps its persisted prefix and is loaded cold with repair by the
// runtime; its projection is folded again from that log (PROJ-12).
//
// cutAfter < 0 crashes between commands: the prefix is what is persisted now. cutAfter = k
// crashes inside the previous Apply after its first k effects: a Session's prefix is what
// the last Persisted effect for it among those k reported, or, if none did, what was
// persisted when that Apply began (a Session created later in it keeps only what its
// creation made durable). Callbacks of the old epoch (tool completions, Direct results,
// wait notes, gateway settlements) are dropped.
func (h *Host) restart(now int64, cutAfter int) error {
	var cut map[string]int
	if cutAfter >= 0 {
		cut = map[string]int{}
		for _, id := range h.ids {
			cut[id] = h.rt.Log(id).Inherited()
		}
		for _, d := range h.prevPersisted {
			cut[d.id] = d.n
		}
		k := min(cutAfter, len(h.prev))
		for _, e := range h.prev[:k] {
			if p, ok := e.(wire.Persisted); ok && p.Through > cut[p.Session] {
				cut[p.Session] = p.Through
			}
		}
	}
	if now > h.now {
		h.now = now
	}
	h.epoch++
	h.gw.Reset()
	clear(h.contexts)
	h.contexts = h.contexts[:0]
	h.clients = nil
	// The runtime's clock must read now for the cold load. With a cut the crash lies in the
	// past: timers that came due since belong to a dead host, so whatever firing them emits
	// is dropped (and what it appended lies past the cut, which the crash truncates).
	mark := len(h.effects)
	h.rt.Fire(h.now)
	if cut != nil {
		clear(h.effects[mark:])
		h.effects = h.effects[:mark]
	}
	if err := h.newService(); err != nil {
		return err
	}
	h.svc.Advance(h.now)
	return h.rt.Restart(cut)
}
