package oracle

import "github.com/twosettle/twosettle/engine/wire"

// INV-CLIENT-AUTOFOCUS (CD-8): the page autofocuses a card's optionless text field only
// when an answer channel is ready, no countdown is active and the card is not locked
// (docs/PEER.md §6.6, §8.15). At every probe and at the end, a card that has the page's
// focus although no user focus action of this page load could have named it was
// autofocused, so:
//   - it has a question with no options (only the optionless text field autofocuses);
//   - a call-keyed card had, on this page load, a ready channel with no countdown: an
//     untimed request for its call (a blocking or -1 wait), a claim frame without a
//     remainingMs, or a continued row (the late-answer channel). A card that only ever had
//     a timed waterfall (or none) cannot have been autofocused.
//
// Unkeyed cards come from blocking requests (no countdown): only their questions are
// judged.

func (c *Checker) clientAutofocus(i int, cm *clientModel, cs *wire.ClientState) {
	if !c.on(invClientAutofocus) {
		return
	}
	for _, k := range cs.Cards {
		if !k.Focus || k.Kind == "review" || len(k.Questions) == 0 {
			continue
		}
		key := fgKey{k.Session, k.CallID}
		if cm.page.userFocused(key) {
			continue
		}
		optionless := false
		for _, q := range k.Questions {
			if len(q.Options) == 0 {
				optionless = true
			}
		}
		switch {
		case !optionless:
			c.fail(invClientAutofocus, i, cm.name+": card "+k.Key+" has the focus, which no user action gave it, but every question has "+
				"options: only an optionless text field autofocuses", cm.cur)
			return
		case k.CallID != "" && !cm.page.untimed[key]:
			c.fail(invClientAutofocus, i, cm.name+": card "+k.Key+" has the focus, which no user action gave it, but it never had a ready "+
				"channel without a countdown on this page load: autofocus waits for one", cm.cur)
			return
		}
	}
}
