package oracle

import (
	"encoding/json"
	"math"

	"github.com/twosettle/twosettle/engine/wire"
)

// INV-CLIENT-DRAFTS (DRAFT-2, DRAFT-3, CARD-8): a page's draft store against its cards
// (docs/PEER.md §6.6, §6.7), at every probe and at the end:
//   - a card the page lists holds only a stored draft that fits its question set: one
//     {selected[], custom, skipped} per question, an integer index in range, wait absent,
//     editing or waiting (DRAFT-2: a stored draft that does not fit is dropped when the
//     card is made, and the card writes only drafts of its own shape);
//   - a card a probe of this page load listed and that is gone now was closed, and its
//     draft with it (CARD-8, DRAFT-3: a card's draft is cleared when it closes);
//   - once a Session's composer seat is mounted on a page that reconciled the Session
//     (a card of it shows as the seat), every stored draft of that Session is a card the
//     page lists: the mount pruned the rest, and afterwards only listed cards write drafts
//     and a closing card clears its own (DRAFT-3).
//
// A torn-down page is not judged (CARD-12 cleared every card and draft).

func (c *Checker) clientDrafts(i int, cm *clientModel, cs *wire.ClientState) {
	if !c.on(invClientDrafts) || cm.torn {
		return
	}
	cards := make(map[string]*wire.CardState, len(cs.Cards))
	seat := map[string]bool{}
	for j := range cs.Cards {
		k := &cs.Cards[j]
		cards[k.Key] = k
		if k.Seat {
			seat[k.Session] = true
		}
	}
	for _, d := range cs.Drafts {
		if k := cards[d.Key]; k != nil {
			if k.Kind != "review" && len(k.Questions) > 0 && !draftFits(d.JSON, len(k.Questions)) {
				c.fail(invClientDrafts, i, cm.name+": card "+k.Key+" of "+itoa(len(k.Questions))+" question(s) holds the stored draft "+
					quoteText(d.JSON)+", which does not fit its question set", cm.cur)
				return
			}
			continue
		}
		if cm.page.listed[d.Key] {
			c.fail(invClientDrafts, i, cm.name+": card "+d.Key+" closed on this page load but its draft "+quoteText(d.JSON)+" is still stored", cm.cur)
			return
		}
		if seat[d.Session] && cm.views[d.Session] != nil {
			c.fail(invClientDrafts, i, cm.name+": the composer of "+d.Session+" is mounted on a reconciled page, yet the stored draft "+
				d.Key+" belongs to no card it lists: the mount prunes it", cm.cur)
			return
		}
	}
	for _, k := range cs.Cards {
		cm.page.listed[k.Key] = true
	}
}

// draftFits reports whether a stored draft fits a card of n questions: {"drafts": n
// objects {"selected": [strings], "custom": string, "skipped": bool}, "index": an integer
// in [0, n), "wait": absent, "editing" or "waiting"}.
func draftFits(stored string, n int) bool {
	var top struct {
		Drafts []map[string]json.RawMessage `json:"drafts"`
		Index  *float64                     `json:"index"`
		Wait   *string                      `json:"wait"`
	}
	var raw map[string]json.RawMessage
	if json.Unmarshal([]byte(stored), &raw) != nil || json.Unmarshal([]byte(stored), &top) != nil {
		return false
	}
	if _, ok := raw["wait"]; ok && (top.Wait == nil || *top.Wait != "editing" && *top.Wait != "waiting") {
		return false
	}
	if top.Index == nil || *top.Index != math.Trunc(*top.Index) || *top.Index < 0 || *top.Index >= float64(n) || len(top.Drafts) != n {
		return false
	}
	for _, d := range top.Drafts {
		var sel []string
		var custom string
		var skipped bool
		if d == nil || json.Unmarshal(d["selected"], &sel) != nil || sel == nil && string(d["selected"]) != "[]" ||
			json.Unmarshal(d["custom"], &custom) != nil || string(d["custom"]) == "null" ||
			json.Unmarshal(d["skipped"], &skipped) != nil || string(d["skipped"]) == "null" {
			return false
		}
	}
	return true
}
