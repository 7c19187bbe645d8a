package client

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/twosettle/twosettle/engine/mutant"
	"github.com/twosettle/twosettle/engine/session"
	"github.com/twosettle/twosettle/engine/wire"
)

var actionKinds = []string{
	wire.ActFocus, wire.ActBlur, wire.ActType, wire.ActChoose, wire.ActSkip, wire.ActNext, wire.ActPrev,
	wire.ActTakeTime, wire.ActSubmit, wire.ActHide, wire.ActClose, wire.ActReopen, wire.ActDiscard,
	wire.ActWindowBlur, wire.ActWindowFocus, wire.ActDelegate, wire.ActTeardown, wire.ActContinue, wire.ActToggleRow, wire.ActUnbind, wire.ActBind,
}

// plan checks a user action against the client's state without changing anything and
// returns the function that performs it. Every refusal says what exists instead.
func (c *Client) plan(a wire.UserAction) (func(), error) {
	switch a.Kind {
	case wire.ActWindowBlur:
		if c.page.windowBlurred {
			return nil, errors.New("window-blur: the window is already blurred")
		}
		return func() {
			c.page.windowBlurred = true
			if k := c.page.focus; k != nil {
				k.releaseFocus(c.now) // the page's focus stays in the surface
			}
		}, nil
	case wire.ActWindowFocus:
		if !c.page.windowBlurred {
			return nil, errors.New("window-focus: the window already has the focus")
		}
		return func() {
			c.page.windowBlurred = false
			if k := c.page.focus; k != nil {
				if k.disp == dispEditing {
					k.engage(c.now)
				}
				k.holdFocus(c.now)
			}
		}, nil
	case wire.ActTeardown:
		if c.page.torn {
			return nil, errors.New("teardown: the questions UI is already torn down (a reload mounts it again)")
		}
		return c.teardown, nil
	case wire.ActReopen:
		return c.planReopen(a)
	case wire.ActUnbind, wire.ActBind:
		return c.planBinding(a)
	case wire.ActToggleRow:
		s, r, err := c.findRow(a)
		if err != nil {
			return nil, errors.New(strings.Replace(err.Error(), "reopen:", "toggle-row:", 1))
		}
		return func() { c.toggleRow(s, r.callID) }, nil
	case wire.ActDiscard:
		return c.planDiscard(a)
	case wire.ActDelegate:
		k, err := c.findCard(a)
		if err != nil {
			return nil, err
		}
		if k.waterfall == nil {
			return nil, fmt.Errorf("delegate: card %s has no attached waterfall to hand on (channel=%s)", k.address(), k.channel())
		}
		return func() { c.delegate(k.waterfall) }, nil
	}
	if !slices.Contains(actionKinds, a.Kind) {
		return nil, fmt.Errorf("unknown user action %q (actions: %s)", a.Kind, strings.Join(actionKinds, ", "))
	}
	k, err := c.panelCard(a)
	if err != nil {
		return nil, err
	}
	switch a.Kind {
	case wire.ActFocus:
		if c.page.focus == k && !c.page.windowBlurred {
			return nil, fmt.Errorf("focus: card %s already has the focus", k.address())
		}
		return func() {
			if o := c.page.focus; o != nil && o != k {
				o.releaseFocus(c.now)
			}
			c.page.focus, c.page.windowBlurred = k, false
			k.holdFocus(c.now)
		}, nil
	case wire.ActBlur:
		if c.page.focus != k {
			return nil, fmt.Errorf("blur: card %s does not have the focus (%s)", k.address(), c.focusText())
		}
		return func() {
			c.page.focus = nil
			k.releaseFocus(c.now)
		}, nil
	case wire.ActNext, wire.ActPrev:
		if k.busy != viaNone {
			return nil, busyError(a.Kind, k)
		}
		to := k.index + 1
		if a.Kind == wire.ActPrev {
			to = k.index - 1
		}
		if to < 0 || to >= len(k.questions) {
			return nil, fmt.Errorf("%s: card %s is on question %d of %d", a.Kind, k.address(), k.index+1, len(k.questions))
		}
		return func() {
			k.index = to
			c.persist(k)
		}, nil
	case wire.ActTakeTime:
		if !k.timedWait {
			return nil, fmt.Errorf("take-time: card %s has no countdown (channel=%s)", k.address(), k.channel())
		}
		if ws := k.waitState(); ws != wire.WaitStateCounting && ws != wire.WaitStateFocused {
			return nil, fmt.Errorf("take-time: card %s does not offer Take time (wait=%s)", k.address(), ws)
		}
		return func() {
			k.disp = dispWaiting
			if !c.mutants.Has(mutant.TakeTimeIgnored) { // MUTANT take-time-ignored: the countdown keeps running
				k.takeTime()
			}
			c.persist(k)
		}, nil
	case wire.ActHide, wire.ActClose:
		if k.busy != viaNone {
			return nil, busyError(a.Kind, k)
		}
		if a.Kind == wire.ActHide && k.callID == "" {
			return nil, fmt.Errorf("hide: card %s is unkeyed: its close button cancels the request (use close)", k.address())
		}
		return func() { c.dismiss(k) }, nil
	}
	// The answering actions.
	if k.kind == kindReview {
		return nil, fmt.Errorf("%s: card %s is a read-only review of recorded answers", a.Kind, k.address())
	}
	if k.busy != viaNone {
		return nil, busyError(a.Kind, k)
	}
	if k.kind == kindPlanReview {
		return c.planPlanReview(a, k)
	}
	if a.Kind == wire.ActContinue {
		d := k.drafts[k.index]
		if !d.answered() {
			return nil, fmt.Errorf("continue: card %s, question %s: %s", k.address(), k.questions[k.index].ID, msgUnanswered)
		}
		if k.index < len(k.questions)-1 {
			return func() {
				k.index++
				c.persist(k)
			}, nil
		}
		if k.channel() == wire.ChannelNone {
			return nil, fmt.Errorf("continue: card %s has no answer channel yet, submission is disabled (state=%s)", k.address(), k.state)
		}
		return func() { c.submit(k) }, nil
	}
	if a.Kind == wire.ActSubmit {
		if k.channel() == wire.ChannelNone {
			return nil, fmt.Errorf("submit: card %s has no answer channel yet, submission is disabled (state=%s)", k.address(), k.state)
		}
		return func() { c.submit(k) }, nil
	}
	qi, err := questionIndex(a, k)
	if err != nil {
		return nil, err
	}
	q := k.questions[qi]
	switch a.Kind {
	case wire.ActChoose:
		if len(q.Options) == 0 {
			return nil, fmt.Errorf("choose: question %s of card %s has no options (type a custom answer)", q.ID, k.address())
		}
		label, ok := matchOption(q, a.Label)
		if !ok {
			return nil, fmt.Errorf("choose: question %s of card %s has no option %q (options: %s)", q.ID, k.address(), a.Label, optionList(q))
		}
		return func() {
			k.index = qi
			d := &k.drafts[qi]
			if q.IsMulti() {
				if i := slices.Index(d.selected, label); i >= 0 {
					d.selected = slices.Delete(slices.Clone(d.selected), i, i+1)
				} else {
					d.selected = append(slices.Clone(d.selected), label)
				}
			} else {
				d.selected, d.custom = []string{label}, ""
			}
			d.skipped = false
			c.edited(k)
			if !q.IsMulti() && qi < len(k.questions)-1 {
				k.index = qi + 1
				c.persist(k)
			}
		}, nil
	case wire.ActType:
		return func() {
			k.index = qi
			d := &k.drafts[qi]
			d.custom, d.skipped = a.Text, false
			if !q.IsMulti() {
				d.selected = nil
			}
			c.edited(k)
		}, nil
	case wire.ActSkip:
		return func() {
			k.index = qi
			k.drafts[qi].skipped = true
			c.edited(k)
			if qi < len(k.questions)-1 {
				k.index = qi + 1
				c.persist(k)
				return
			}
			c.submit(k)
		}, nil
	}
	return nil, fmt.Errorf("%s: not an action on a card", a.Kind)
}

// edited is the first-mutation rule: the disposition becomes editing, the countdown
// freezes for good, and the draft is saved with it (CD-4).
func (c *Client) edited(k *card) {
	k.hint = ""
	if k.disp == dispNone {
		k.disp = dispEditing
	}
	k.engage(c.now)
	c.persist(k)
}

// submit sends the batch through the card's channel as it is now (docs/PEER.md §6.6): through
// the waterfall (busy until reconciliation, draft kept: CARD-5), through the late-answer
// RPC (busy until its reply), or not at all.
func (c *Client) submit(k *card) {
	for i, d := range k.drafts {
		if !d.completed() {
			k.index, k.hint = i, msgIncomplete
			c.persist(k)
			return
		}
	}
	var buf [2]wire.AnswerItem // a card has a few questions: the batch lives on the stack
	c.send(k, buildBatch(buf[:0], k))
}

func (c *Client) send(k *card, batch []wire.AnswerItem) {
	switch k.channel() {
	case wire.ChannelWaterfall:
		k.busy, k.hint = viaWaterfall, ""
		v := wire.Answer{Answers: batch}.AppendJSON(nil)
		c.finish(k.waterfall, wire.Outcome{Kind: wire.OutcomeResult, Value: v})
		if c.mutants.Has(mutant.WaterfallSubmitAcknowledged) {
			k.busy = viaNone // MUTANT waterfall-submit-acknowledged: the local return taken for delivery
		}
	case wire.ChannelRPC:
		id := c.mintRPC()
		k.busy, k.busyRPC, k.hint = viaRPC, id, ""
		c.page.rpcs.set(id, &rpcCall{kind: rpcAnswer, gen: c.page.gen, card: k})
		args := make([]byte, 0, 128+len(k.session)+len(k.callID))
		args = wire.AppendJSONString(append(args, `{"agentId":`...), k.session)
		args = wire.AppendJSONString(append(args, `,"callId":`...), k.callID)
		args = append(args, `,"answer":`...)
		args = wire.Answer{Answers: batch}.AppendJSON(args)
		c.emit(wire.SendCall{Gen: c.page.gen, RPCID: id, Endpoint: wire.EndpointAnswer, Args: append(args, '}')})
	default:
		k.hint = msgUnavailable
	}
}

// buildBatch is the answer batch in question order (docs/PEER.md §6.6 Submit), appended to into.
// send encodes a batch at once and keeps nothing of it, so the selections are the
// drafts' own lists, not copies.
func buildBatch(into []wire.AnswerItem, k *card) []wire.AnswerItem {
	out := slices.Grow(into[:0], len(k.questions))[:len(k.questions)]
	for i, q := range k.questions {
		d := k.drafts[i]
		out[i] = wire.AnswerItem{ID: q.ID}
		if d.skipped {
			out[i].Selected = []string{}
			continue
		}
		custom := trimSpace(d.custom)
		if custom == "" || q.IsMulti() {
			out[i].Selected = d.selected
		} else {
			out[i].Selected = []string{}
		}
		if out[i].Selected == nil {
			out[i].Selected = []string{}
		}
		if custom != "" {
			out[i].Custom = new(string) // not &custom: that would allocate for every question
			*out[i].Custom = custom
		}
	}
	return out
}

// dismiss is the close button: a keyed card only hides and records nothing; an unkeyed
// card rejects its waterfall with ASK_CANCELLED and ends with it (CARD-11); a review
// card is dropped.
func (c *Client) dismiss(k *card) {
	switch {
	case k.kind == kindReview:
		c.remove(k)
	case k.callID != "":
		if c.mutants.Has(mutant.ClosedPanelReplies) {
			c.send(k, dismissal(k)) // MUTANT closed-panel-replies: closing answers "skipped"
		}
		c.hide(k)
		if k.waterfall != nil && c.mutants.Has(mutant.HideReleasesClaim) {
			c.release(k.waterfall) // MUTANT hide-releases-claim
		}
	case k.waterfall != nil:
		c.finish(k.waterfall, wire.Outcome{Kind: wire.OutcomeRejected, Error: wire.QuestionError(wire.AskCancelled, wire.MsgAskCancelled)})
	default:
		k.hint = msgUnavailable
	}
}

// dismissal is MUTANT closed-panel-replies' manufactured reply: every question skipped.
func dismissal(k *card) []wire.AnswerItem {
	out := make([]wire.AnswerItem, len(k.questions))
	for i, q := range k.questions {
		out[i] = wire.AnswerItem{ID: q.ID, Selected: []string{}}
	}
	return out
}

// planPlanReview: the plan-review panel has exactly two buttons, Approve (submit, or
// choosing the approve option) and Request changes (close).
func (c *Client) planPlanReview(a wire.UserAction, k *card) (func(), error) {
	q := k.questions[0]
	approve := q.Intent.Approve
	if a.Kind == wire.ActChoose && a.Label != approve && a.Label != "Approve" {
		return nil, fmt.Errorf("choose: plan review %s offers only Approve (%q) and Request changes (close)", k.address(), approve)
	}
	if a.Kind != wire.ActChoose && a.Kind != wire.ActSubmit {
		return nil, fmt.Errorf("%s: plan review %s offers only Approve (submit) and Request changes (close)", a.Kind, k.address())
	}
	if k.channel() == wire.ChannelNone {
		return nil, fmt.Errorf("%s: plan review %s has no answer channel yet", a.Kind, k.address())
	}
	return func() {
		k.drafts[0] = qdraft{selected: []string{approve}}
		c.send(k, []wire.AnswerItem{{ID: q.ID, Selected: []string{approve}}})
	}, nil
}

// teardown is the plugin's disposal: every forwarded request is handed on (claim
// released first, then next) and every card, hidden ones included, is removed (CARD-12,
// CLAIM-4); a claim whose outcome is still in flight is released when its reply comes
// (CLAIM-2). The questions UI stays gone until a reload.
func (c *Client) teardown() {
	for _, d := range sortedDeliveries(&c.page.deliveries) {
		if d.phase != phDone {
			c.delegate(d)
		} else {
			c.releaseAfterOutcome(d)
		}
	}
	for _, k := range slices.Clone(c.page.cards) {
		c.remove(k)
	}
	c.page.torn = true
}

func (c *Client) planReopen(a wire.UserAction) (func(), error) {
	s, r, err := c.findRow(a)
	if err != nil {
		return nil, err
	}
	switch r.action {
	case actAnswer:
		return func() {
			if k := c.cardOf(s.id, r.callID); k != nil && !c.page.torn {
				c.publish(k) // reveal: republished, it takes the seat
				return
			}
			c.toggleRow(s, r.callID) // no panel to reveal: the pill toggles the disclosure
		}, nil
	case actReview:
		return func() {
			if c.page.torn {
				c.toggleRow(s, r.callID)
				return
			}
			k := c.cardOf(s.id, r.callID)
			if k == nil {
				k = c.newCard(s.id, r.questions, r.callID, kindReview, r.answers)
			}
			c.publish(k)
		}, nil
	case actQueued:
		return func() { c.toggleRow(s, r.callID) }, nil
	}
	return nil, fmt.Errorf("reopen: the row of %s offers no action (%s)", r.callID, r.summary)
}

func (c *Client) toggleRow(s *sessionView, callID string) {
	if s.expanded == nil {
		s.expanded = map[string]bool{}
	}
	s.expanded[callID] = !s.expanded[callID]
}

func (c *Client) planDiscard(a wire.UserAction) (func(), error) {
	var hits []*sessionView
	var ids []string
	for _, id := range c.page.order {
		s := c.page.sessions.at(id)
		if a.Session != "" && id != a.Session {
			continue
		}
		if m, ok := queuedReply(s.inbox, a.Card); ok && a.Card != "" {
			hits = append(hits, s)
			ids = append(ids, m.ID)
		}
	}
	switch len(hits) {
	case 0:
		return nil, fmt.Errorf("discard: no queued reply for %q (queued replies: %s)", a.Card, c.queuedList())
	case 1:
	default:
		return nil, fmt.Errorf("discard: several Sessions queue a reply for %s; name the session", a.Card)
	}
	s, msgID := hits[0], ids[0]
	return func() {
		id := c.mintRPC()
		c.page.rpcs.set(id, &rpcCall{kind: rpcDiscard, gen: c.page.gen})
		args := make([]byte, 0, 32+len(s.id)+len(msgID))
		args = wire.AppendJSONString(append(args, `{"agentId":`...), s.id)
		args = wire.AppendJSONString(append(args, `,"messageId":`...), msgID)
		c.emit(wire.SendCall{Gen: c.page.gen, RPCID: id, Endpoint: wire.EndpointDiscard, Args: append(args, '}')})
	}, nil
}

// findCard resolves a card address: "" the composer seat, "#N" the N-th unkeyed card of
// this page load, anything else a call id.
func (c *Client) findCard(a wire.UserAction) (*card, error) {
	if a.Session != "" && c.page.sessions.at(a.Session) == nil {
		return nil, fmt.Errorf("%s: no session %q (sessions: %s)", a.Kind, a.Session, listOr(c.page.order))
	}
	inSession := func(k *card) bool { return a.Session == "" || k.session == a.Session }
	var buf [4]*card
	found := buf[:0]
	switch {
	case a.Card == "":
		for _, id := range c.page.order {
			if a.Session != "" && id != a.Session {
				continue
			}
			if k := c.seatOf(id); k != nil {
				found = append(found, k)
			}
		}
		if len(found) == 0 {
			return nil, fmt.Errorf("%s: no card is in the composer seat (cards: %s)", a.Kind, c.cardList())
		}
	case strings.HasPrefix(a.Card, "#"):
		n, err := strconv.Atoi(a.Card[1:])
		if err != nil || n < 1 {
			return nil, fmt.Errorf("%s: %q is not an unkeyed card address (#1, #2, …)", a.Kind, a.Card)
		}
		for _, k := range c.page.cards {
			if k.callID == "" && k.unkeyed == n && inSession(k) {
				found = append(found, k)
			}
		}
	default:
		for _, k := range c.page.cards {
			if k.callID == a.Card && inSession(k) {
				found = append(found, k)
			}
		}
	}
	switch len(found) {
	case 0:
		return nil, fmt.Errorf("%s: no card %s (cards: %s)", a.Kind, a.Card, c.cardList())
	case 1:
		return found[0], nil
	}
	return nil, fmt.Errorf("%s: card %q is ambiguous across sessions; name the session (cards: %s)", a.Kind, a.Card, c.cardList())
}

// panelCard resolves a card whose panel the user acts on: it must be in its Session's
// composer seat.
func (c *Client) panelCard(a wire.UserAction) (*card, error) {
	k, err := c.findCard(a)
	if err != nil {
		return nil, err
	}
	if !k.published {
		return nil, fmt.Errorf("%s: card %s is hidden; reopen it from its tool row", a.Kind, k.address())
	}
	if seat := c.seatOf(k.session); seat != k {
		how := "reopen it from its tool row"
		if k.callID == "" {
			how = "it shows once the cards above it end"
		}
		return nil, fmt.Errorf("%s: card %s is not in the composer seat of session %s (the seat shows %s); %s",
			a.Kind, k.address(), k.session, seat.address(), how)
	}
	return k, nil
}

func questionIndex(a wire.UserAction, k *card) (int, error) {
	if a.Question == "" {
		return k.index, nil
	}
	for i, q := range k.questions {
		if q.ID == a.Question {
			return i, nil
		}
	}
	ids := make([]string, len(k.questions))
	for i, q := range k.questions {
		ids[i] = q.ID
	}
	return 0, fmt.Errorf("%s: card %s has no question %q (questions: %s)", a.Kind, k.address(), a.Question, strings.Join(ids, ", "))
}

// matchOption accepts an option's label or its displayed form (recommended suffix removed).
func matchOption(q wire.Question, label string) (string, bool) {
	for _, o := range q.Options {
		if o.Label == label {
			return o.Label, true
		}
	}
	for _, o := range q.Options {
		if displayLabel(o.Label) == label {
			return o.Label, true
		}
	}
	return "", false
}

func optionList(q wire.Question) string {
	ls := make([]string, len(q.Options))
	for i, o := range q.Options {
		ls[i] = strconv.Quote(o.Label)
	}
	return strings.Join(ls, ", ")
}

func busyError(kind string, k *card) error {
	return fmt.Errorf("%s: card %s is busy (its %s submission is in flight)", kind, k.address(), k.busy)
}

func (c *Client) cardList() string {
	var parts []string
	multi := len(c.page.order) > 1
	for _, k := range c.page.cards {
		p := k.address()
		if multi {
			p = k.session + "/" + p
		}
		switch {
		case c.seatOf(k.session) == k:
			p += " (seat)"
		case !k.published:
			p += " (hidden)"
		default:
			p += " (shown)"
		}
		parts = append(parts, p)
	}
	return listOr(parts)
}

func (c *Client) focusText() string {
	if c.page.focus == nil {
		return "nothing has the focus"
	}
	return "card " + c.page.focus.address() + " has it"
}

func (c *Client) queuedList() string {
	var parts []string
	for _, id := range c.page.order {
		v := c.page.sessions.at(id).inbox
		for _, list := range [2][]session.Message{v.NextStep, v.NextTurn} {
			for _, m := range list {
				if m.Source.Kind == session.SourceUserQuestionReply && m.Source.CallID != "" {
					parts = append(parts, id+"/"+m.Source.CallID)
				}
			}
		}
	}
	return listOr(parts)
}

func listOr(parts []string) string {
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, ", ")
}
