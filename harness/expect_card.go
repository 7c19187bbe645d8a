package harness

import (
	"strings"

	"github.com/twosettle/twosettle/engine/wire"
	"github.com/twosettle/twosettle/scenarios"
)

func init() { registerCheck(scenarios.ExpectCard, checkCard) }

// checkCard checks a card expectation: one card of a client's page.
func checkCard(r *Result, e *scenarios.Expectation, v view, session string, plan *Plan) {
	what := whatOf(e, v)
	c, ok := clientState(v, e, plan)
	if !ok {
		r.fail(e, "%s: no client %s in the state", what, e.Client)
		return
	}
	var card *wire.CardState
	var keys []string
	for i := range c.Cards {
		keys = append(keys, c.Cards[i].Key)
		if cardKeyMatches(c.Cards[i].Key, session, e.Subject) && (c.Cards[i].CallID == "") == strings.HasPrefix(e.Subject, "#") {
			card = &c.Cards[i]
		}
	}
	if e.None {
		if card != nil {
			r.fail(e, "%s on %s: expected no card, found %s", what, c.Client, card.String())
		}
		return
	}
	if card == nil {
		if len(keys) == 0 {
			keys = []string{"none"}
		}
		r.fail(e, "%s on %s: there is no such card (cards: %s)", what, c.Client, strings.Join(keys, ", "))
		return
	}
	shown := card.String()
	check := func(ok bool, field string) {
		if !ok {
			r.fail(e, "%s on %s: %s differs: %s", what, c.Client, field, shown)
		}
	}
	if e.State != "" {
		check(card.State == e.State, "state")
	}
	if e.Wait != "" {
		check(card.WaitState == e.Wait, "wait")
	}
	if e.Channel != "" {
		check(card.Channel == e.Channel, "channel")
	}
	if e.Countdown != "" {
		got := "none"
		if card.Countdown != nil {
			state := "paused"
			if card.Countdown.Running {
				state = "running"
			}
			got = msText(card.Countdown.RemainingMs) + " " + state
		}
		check(got == e.Countdown, "countdown (expected "+e.Countdown+", got "+got+")")
	}
	if e.Shown != nil {
		check(card.Shown == *e.Shown, "shown")
	}
	if e.Closed != nil {
		check(card.Closed == *e.Closed, "closed")
	}
	if e.Busy != nil {
		check(card.Busy == *e.Busy, "busy")
	}
	if e.Hint != "" {
		check(card.Hint == e.Hint || r.anyHintText && card.Hint != "", "hint")
	}
	if e.Seat != nil {
		check(card.Seat == *e.Seat, "seat")
	}
	if e.Focus != nil {
		check(card.Focus == *e.Focus, "focus")
	}
	if e.CardKind != "" {
		check(card.Kind == e.CardKind, "kind")
	}
	if e.Draft != "" {
		check(card.Draft == e.Draft, "draft")
	}
	if e.ViewQuestions != nil {
		if got, want := questionsJSON(card.Questions), questionsJSON(serviceQuestions(e.ViewQuestions)); got != want {
			r.fail(e, "%s on %s: the card holds the questions %s, not %s", what, c.Client, got, want)
		}
	}
}

// questionsJSON is the JSON a card's or a node's questions are compared in: a
// multi-select false is the same as none (a model may write either).
func questionsJSON(qs []wire.Question) string {
	norm := make([]wire.Question, len(qs))
	for i, q := range qs {
		if q.MultiSelect != nil && !*q.MultiSelect {
			q.MultiSelect = nil
		}
		norm[i] = q
	}
	return string(wire.AppendQuestionsJSON(nil, norm))
}
