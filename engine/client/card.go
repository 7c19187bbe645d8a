package client

import (
	"strings"

	"github.com/twosettle/twosettle/engine/wire"
)

// Card kinds.
const (
	kindQuestion   = "question"
	kindPlanReview = "plan-review"
	kindReview     = "review"
)

// Busy reasons of a card's composer.
const (
	viaNone      = ""
	viaWaterfall = "waterfall" // an answer resolved the waterfall; no acknowledgement comes (CARD-5)
	viaRPC       = "rpc"       // a late answer RPC is in flight
)

// Composer messages (docs/PEER.md §6.10).
const (
	msgIncomplete    = "Please complete this question first."
	msgUnanswered    = "Please select an option or enter a custom answer."
	msgUnavailable   = "Cannot submit right now; try again in a moment."
	msgResubmit      = "The answer did not arrive before work continued; submit it again."
	msgRedelivered   = "The answer did not arrive; submit it again."
	msgNotAnswerable = "this question is no longer answerable"
)

// card is one PendingQuestion with its composer (docs/PEER.md §6.2, §6.6): the question state
// shared by the live request and the continued projection row of one (Session, call id),
// or the card of one unkeyed blocking request.
type card struct {
	seq       int // creation order
	key       string
	session   string
	callID    string // "" unkeyed
	unkeyed   int    // the N of "#N" for an unkeyed card
	questions []wire.Question
	kind      string
	state     string // open | continued

	// channels
	waterfall *delivery // the attached waterfall channel, nil none
	rpc       bool      // an rpc channel is attached (continued rows)
	rpcFirst  bool      // MUTANT rpc-channel-first

	// countdown (docs/PEER.md §6.2)
	timedWait   bool // the attached waterfall has a deadline
	hasDeadline bool // a local deadline runs
	// timedList is the page's deadline heap (page.timed), which every deadline this card
	// sets joins (dlVer tells the current one), so that the deadline scans read only cards
	// with a deadline running; nil once the card is removed.
	timedList    *deadlines
	dlVer        uint64
	load         int   // the page load the card belongs to (Client.loads)
	deadline     int64 // client time
	anchor       int64 // the client time the tick interval started
	hasRemaining bool  // a frozen remainder exists
	remaining    int64
	focused      bool // manual focus pause
	engaged      bool // edited: frozen for good
	held         bool // Take time: frozen for good

	requests int // forwarded requests whose listener has not finished (hasRequest)

	published bool
	pubSeq    int

	// composer
	drafts      []qdraft
	index       int
	disp        string // wait disposition saved with the draft
	busy        string // viaNone when not busy
	busyRPC     string // the rpc id of the in-flight answer call
	hint        string
	autofocused []bool // per question index: the optionless field autofocused once

	// storage of drafts and autofocused for a card of few questions (most have one)
	draftsBuf [2]qdraft
	focusBuf  [4]bool
}

func keyOf(session, callID string) string { return keyPrefix + session + ":" + callID }

const keyPrefix = "question:"

// isKeyOf reports whether key == keyOf(session, callID), without building the key.
func isKeyOf(key, session, callID string) bool {
	n := len(keyPrefix) + len(session)
	return len(key) == n+1+len(callID) && key[:len(keyPrefix)] == keyPrefix && key[len(keyPrefix):n] == session &&
		key[n] == ':' && key[n+1:] == callID
}

// cardOf is the card registered under keyOf(session, callID), or nil.
func (c *Client) cardOf(session, callID string) *card {
	if c.page.byKey.indexed() {
		return c.page.byKey.at(keyOf(session, callID)) // many cards: one lookup
	}
	var found *card
	c.page.byKey.each(func(key string, k *card) bool {
		if isKeyOf(key, session, callID) {
			found = k
			return false
		}
		return true
	})
	return found
}

// address is how user actions name the card: its call id, or "#N".
func (c *card) address() string {
	if c.callID != "" {
		return c.callID
	}
	return "#" + itoa(c.unkeyed)
}

func (c *card) precedence() int {
	if c.kind == kindPlanReview {
		return 2
	}
	return 1
}

// channel is the answer channel a submission would use now (docs/PEER.md §6.2).
func (c *card) channel() string {
	switch {
	case c.rpcFirst && c.rpc:
		return wire.ChannelRPC // MUTANT rpc-channel-first: a card that had the RPC keeps it
	case c.waterfall != nil:
		return wire.ChannelWaterfall
	case c.state == wire.StateContinued && c.rpc:
		return wire.ChannelRPC
	}
	return wire.ChannelNone
}

func (c *card) waitState() string {
	switch {
	case c.state == wire.StateContinued:
		return wire.WaitStateContinued
	case c.held:
		return wire.WaitStateWaiting
	case c.engaged:
		return wire.WaitStateEditing
	case c.focused:
		return wire.WaitStateFocused
	}
	return wire.WaitStateCounting
}

// countdown is the header's countdown, nil unless a timed waterfall is attached.
func (c *card) countdown(now int64) *wire.Countdown {
	if !c.timedWait {
		return nil
	}
	if c.hasDeadline {
		return &wire.Countdown{RemainingMs: max(0, c.deadline-now), Running: true}
	}
	if c.hasRemaining {
		return &wire.Countdown{RemainingMs: c.remaining}
	}
	return &wire.Countdown{}
}

func (c *card) setDeadline(now, at int64) {
	c.hasDeadline, c.deadline, c.anchor = true, at, now
	c.dlVer++
	if c.timedList != nil {
		c.timedList.push(c)
	}
}

// fireTick is the first tick of the card's interval at or after its deadline: the
// interval ticks every tick ms from anchor, and a tick expires the card when now >=
// deadline (docs/PEER.md §6.2).
func (c *card) fireTick(tick int64) int64 {
	k := int64(1)
	if d := c.deadline - c.anchor; d > tick {
		k = (d + tick - 1) / tick
	}
	return c.anchor + k*tick
}

// attachWaterfall attaches d's channel; timed channels carry the client deadline.
func (c *card) attachWaterfall(now int64, d *delivery, timed bool, deadline int64, ignoreFocus bool) {
	c.waterfall = d
	c.timedWait = timed
	if c.held || c.engaged {
		return
	}
	c.hasDeadline = false
	if timed {
		c.setDeadline(now, deadline)
		if c.focused && !ignoreFocus { // MUTANT focus-lost-at-handshake skips this
			c.remaining, c.hasRemaining = max(0, deadline-now), true
			c.hasDeadline = false
		}
	}
}

// detachWaterfall detaches d if it is the attached channel; the frozen remainder and
// the flags stay.
func (c *card) detachWaterfall(d *delivery) {
	if c.waterfall != d {
		return
	}
	c.waterfall = nil
	c.timedWait = false
	c.hasDeadline = false
}

// holdFocus is a manual focus into the answer surface (CD-2, CD-3).
func (c *card) holdFocus(now int64) {
	if c.held || c.engaged || c.focused {
		return
	}
	if c.hasDeadline {
		c.remaining, c.hasRemaining = max(0, c.deadline-now), true
	} else {
		c.hasRemaining = false
	}
	c.hasDeadline = false
	c.focused = true
}

// releaseFocus resumes the preserved remainder; before the handshake it creates no timer.
func (c *card) releaseFocus(now int64) {
	if !c.focused {
		return
	}
	c.focused = false
	if c.timedWait && c.hasRemaining {
		c.setDeadline(now, now+c.remaining)
	} else {
		c.hasDeadline = false
	}
	c.hasRemaining = false
}

// engage is the first edit: it freezes the countdown for good (CD-4).
func (c *card) engage(now int64) {
	if c.held || c.engaged {
		return
	}
	if !c.hasRemaining && c.hasDeadline {
		c.remaining, c.hasRemaining = max(0, c.deadline-now), true
	}
	c.engaged, c.focused, c.hasDeadline = true, false, false
}

// takeTime freezes the countdown for good and makes the waterfall a blocking one (CD-4, CD-9).
func (c *card) takeTime() {
	if c.held {
		return
	}
	c.held, c.focused, c.hasRemaining, c.hasDeadline = true, false, false, false
}

// expirable reports whether a due tick expires the card (CD-6).
func (c *card) expirable() bool {
	return !c.held && !c.engaged && !c.focused && c.waterfall != nil
}

// draftText is the canonical text of the composer's draft.
func (c *card) draftText() string {
	var b strings.Builder
	b.WriteByte('{')
	for i, q := range c.questions {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(q.ID)
		b.WriteByte('=')
		d := c.drafts[i]
		switch {
		case d.skipped:
			b.WriteString("skipped")
		case !d.answered():
			b.WriteByte('-')
		default:
			b.WriteByte('[')
			for j, l := range d.selected {
				if j > 0 {
					b.WriteByte(',')
				}
				b.WriteString(wire.TextPart(l))
			}
			b.WriteByte(']')
			if trimSpace(d.custom) != "" {
				b.WriteByte('+')
				b.WriteString(wire.JSONString(d.custom))
			}
		}
	}
	b.WriteByte('}')
	return b.String()
}

func (c *card) snapshot(now int64, seat, focus bool) wire.CardState {
	return wire.CardState{
		Key:       c.key,
		Session:   c.session,
		CallID:    c.callID,
		Kind:      c.kind,
		State:     c.state,
		WaitState: c.waitState(),
		Countdown: c.countdown(now),
		Channel:   c.channel(),
		Shown:     c.published,
		Seat:      seat,
		Focus:     focus,
		Busy:      c.busy != viaNone,
		Hint:      c.hint,
		Index:     c.index,
		Draft:     c.draftText(),
		Questions: c.questions,
	}
}

// planReviewOf reports whether a batch is a plan review (docs/PEER.md §6.8): exactly one
// single-select question with a plan-review intent, a detail, at most two options, one
// of which is the approve label.
func planReviewOf(qs []wire.Question) bool {
	if len(qs) != 1 {
		return false
	}
	q := qs[0]
	if q.Intent == nil || q.Intent.Kind != wire.IntentPlanReview || q.Detail == nil || q.IsMulti() || len(q.Options) > 2 {
		return false
	}
	for _, o := range q.Options {
		if o.Label == q.Intent.Approve {
			return true
		}
	}
	return false
}

// recommended reports whether label ends with a recommended suffix: "(Recommended)" in
// any case, "(推荐)", or either in full-width brackets, with optional whitespace.
func recommended(label string) bool {
	_, ok := splitRecommended(label)
	return ok
}

// displayLabel is the label as the UI shows it: without its recommended suffix.
func displayLabel(label string) string {
	if head, ok := splitRecommended(label); ok {
		return head
	}
	return label
}

func splitRecommended(label string) (head string, ok bool) {
	s := strings.TrimRightFunc(label, isJSSpace)
	switch {
	case strings.HasSuffix(s, ")"):
		s = s[:len(s)-1]
	case strings.HasSuffix(s, "）"):
		s = s[:len(s)-len("）")]
	default:
		return "", false
	}
	i, w := strings.LastIndex(s, "("), 1
	if j := strings.LastIndex(s, "（"); j > i {
		i, w = j, len("（")
	}
	if i < 0 {
		return "", false
	}
	inner := strings.ToLower(trimSpace(s[i+w:]))
	if inner != "recommended" && inner != "推荐" {
		return "", false
	}
	return strings.TrimRightFunc(s[:i], isJSSpace), true
}
