package client

import (
	"slices"

	"github.com/twosettle/twosettle/engine/mutant"
	"github.com/twosettle/twosettle/engine/wire"
)

// ensure returns the card of (session, callID), creating and publishing it when there
// is none; a request without a call id always gets a fresh card (docs/PEER.md §6.3, CARD-1,
// CARD-3). A read-only review card holding the key gives way to the live card.
func (c *Client) ensure(session string, qs []wire.Question, callID string) *card {
	if callID != "" {
		if k := c.cardOf(session, callID); k != nil {
			if k.kind != kindReview {
				return k
			}
			c.remove(k)
		}
	}
	kind := kindQuestion
	if planReviewOf(qs) {
		kind = kindPlanReview
	}
	k := c.newCard(session, qs, callID, kind, nil)
	c.publish(k)
	return k
}

// newCard registers a card and restores its stored draft (DRAFT-2, CD-4).
func (c *Client) newCard(session string, qs []wire.Question, callID, kind string, review []wire.AnswerItem) *card {
	c.page.cardN++
	k := &card{
		timedList: &c.page.timed,
		load:      c.loads,
		seq:       c.page.cardN,
		session:   session,
		callID:    callID,
		questions: qs,
		kind:      kind,
		state:     wire.StateOpen,
		rpcFirst:  c.mutants.Has(mutant.RPCChannelFirst),
	}
	if len(qs) <= len(k.draftsBuf) {
		k.drafts = k.draftsBuf[:len(qs):len(qs)]
	} else {
		k.drafts = make([]qdraft, len(qs))
	}
	if len(qs) <= len(k.focusBuf) {
		k.autofocused = k.focusBuf[:len(qs):len(qs)]
	} else {
		k.autofocused = make([]bool, len(qs))
	}
	if callID != "" {
		k.key = keyOf(session, callID)
	} else {
		c.page.unkeyedN++
		k.unkeyed = c.page.unkeyedN
		k.key = "question:" + c.page.key + ":" + itoa(k.unkeyed)
	}
	var initialBuf [2]qdraft
	initial := initialDrafts(initialBuf[:0], qs, kind, review)
	for i := range initial {
		k.drafts[i] = initial[i].clone()
	}
	// MUTANT preselection-is-edit: a recommended preselection counts as the first edit.
	if kind != kindReview && c.mutants.Has(mutant.PreselectionIsEdit) && differs(initial, make([]qdraft, len(initial))) {
		k.disp = dispEditing
		k.engage(c.now)
	}
	if stored, ok := c.drafts.get(k.key); ok {
		if p, fits := c.rd.decodeProgress(stored, len(qs), c.mutants.Has(mutant.DraftCountUnchecked)); !fits {
			c.drafts.clear(k.key)
		} else {
			k.index = p.index
			if kind != kindReview {
				k.drafts = p.drafts
				k.disp = p.wait
				if k.disp == dispNone && differs(p.drafts, initial) {
					k.disp = dispEditing
				}
				switch k.disp {
				case dispWaiting:
					k.takeTime()
				case dispEditing:
					k.engage(c.now)
				}
			}
		}
	}
	c.sessionOf(session)
	c.page.cards = append(c.page.cards, k)
	c.page.byKey.set(k.key, k)
	return k // not published yet: the seat is unchanged
}

// initialDrafts: a recommended first option starts selected (not an edit, CD-5); a
// review card starts from the recorded answers.
func initialDrafts(dst []qdraft, qs []wire.Question, kind string, review []wire.AnswerItem) []qdraft {
	out := append(dst[:0], make([]qdraft, len(qs))...)
	for i, q := range qs {
		if kind == kindReview {
			for _, a := range review {
				if a.ID == q.ID {
					d := qdraft{selected: a.Selected}
					if a.Custom != nil {
						d.custom = *a.Custom
					}
					d.skipped = len(d.selected) == 0 && d.custom == ""
					out[i] = d
					break
				}
			}
			continue
		}
		if len(q.Options) > 0 && recommended(q.Options[0].Label) {
			out[i].selected = []string{q.Options[0].Label}
		}
	}
	return out
}

func differs(a, b []qdraft) bool {
	for i := range a {
		if !a[i].equal(b[i]) {
			return true
		}
	}
	return false
}

// publish (re)publishes a card: it becomes the latest of its precedence and so takes
// the composer seat unless a higher-precedence card holds it.
func (c *Client) publish(k *card) {
	c.page.pubN++
	k.published, k.pubSeq = true, c.page.pubN
	c.seatPublished(k)
}

// hide unpublishes a card: nothing is sent or recorded (CARD-11); its claim and
// countdown keep running (CD-7).
func (c *Client) hide(k *card) {
	k.published = false
	c.seatLeft(k)
}

// remove closes a card and clears its draft (CARD-8); a card that is no longer the
// registered one for its key is left alone.
func (c *Client) remove(k *card) {
	if c.page.byKey.at(k.key) != k {
		return
	}
	c.page.byKey.del(k.key)
	for i, o := range c.page.cards {
		if o == k {
			c.page.cards = append(c.page.cards[:i], c.page.cards[i+1:]...)
			break
		}
	}
	k.published = false
	k.hasDeadline = false
	k.timedList = nil
	c.seatLeft(k)
	if !c.mutants.Has(mutant.RemovalKeepsDraft) { // MUTANT removal-keeps-draft: the stored draft stays
		c.drafts.clear(k.key)
	}
	if c.page.focus == k {
		c.page.focus = nil
	}
}

// persist writes the composer's progress to the draft store (not for review cards).
func (c *Client) persist(k *card) {
	if k.kind == kindReview || c.page.byKey.at(k.key) != k {
		return
	}
	// The buffer is reused; it is sized for the usual text at once, not grown append by append.
	c.enc = progress{drafts: k.drafts, index: k.index, wait: k.disp}.appendTo(slices.Grow(c.enc[:0], 64+32*len(k.drafts)))
	c.drafts.replace(k.session, k.key, string(c.enc))
}

// setState moves a card between open and continued; a waterfall submission still in
// flight when the question turns continued re-arms the controls with the resubmit hint
// (CARD-6).
func (c *Client) setState(k *card, state string) {
	if k.state == state {
		return
	}
	k.state = state
	if state == wire.StateContinued && k.busy == viaWaterfall && !c.mutants.Has(mutant.ContinuedKeepsBusy) { // MUTANT continued-keeps-busy
		k.busy = viaNone
		k.hint = msgResubmit
	}
}
