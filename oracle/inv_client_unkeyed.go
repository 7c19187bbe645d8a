package oracle

import "github.com/twosettle/twosettle/engine/wire"

// INV-CLIENT-UNKEYED-KEYS (CARD-3): a blocking request without a call id has a card of its
// own whose key is unique across reloads (docs/PEER.md §6.2: question:<32 hex drawn once per
// page load>:<counter>), so an old stored draft never attaches to it. At every probe and
// at the end, an unkeyed card's key must not be one that a probe of an earlier page load of
// the same client showed, as a card's key or as a stored draft's key. Keys are remembered
// across reloads per client (the draft store is the client's own, DRAFT-1).

func (c *Checker) clientUnkeyedKeys(i int, cm *clientModel, cs *wire.ClientState) {
	if !c.on(invClientUnkeyedKeys) {
		return
	}
	for _, k := range cs.Cards {
		if k.CallID != "" || k.Kind == "review" {
			continue
		}
		if load, ok := cm.unkeyed[k.Key]; ok && load < cm.reloads {
			c.fail(invClientUnkeyedKeys, i, cm.name+": unkeyed card "+k.Key+" on page load "+itoa(cm.reloads)+
				" has a key page load "+itoa(load)+" already used: an old draft could attach to it", cm.cur)
			return
		}
	}
	for _, k := range cs.Cards {
		if k.CallID == "" && k.Kind != "review" {
			if _, ok := cm.unkeyed[k.Key]; !ok {
				cm.unkeyed[k.Key] = cm.reloads
			}
		}
	}
	for _, d := range cs.Drafts {
		if _, ok := cm.unkeyed[d.Key]; !ok {
			cm.unkeyed[d.Key] = cm.reloads
		}
	}
}
