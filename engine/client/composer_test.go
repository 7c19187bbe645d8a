package client

import (
	"testing"

	"github.com/twosettle/twosettle/engine/wire"
)

func planQ() wire.Question {
	detail := "1. do it\n2. check it"
	qq := q("plan", "Approve the plan?", "Approve it", "Change it")
	qq.Detail = &detail
	qq.Intent = &wire.Intent{Kind: wire.IntentPlanReview, Approve: "Approve it"}
	return qq
}

func TestComposer(t *testing.T) {
	t.Run("submit builds the batch in question order", func(t *testing.T) {
		x := newH(t)
		x.at(0, ready(1))
		m := multi(q("m", "Which?", "a", "b", "c"))
		x.at(0, wf("e1", "s1", "c1", "keyed", m, qPkg, qName))
		x.user(1, wire.ActChoose, "label=c")
		x.user(2, wire.ActChoose, "label=a")
		x.user(3, wire.ActChoose, "label=c") // toggled off
		x.user(4, wire.ActType, "text= extra ")
		x.user(5, wire.ActNext)
		x.user(6, wire.ActChoose, "label=npm") // single-select advances
		if k := x.card("c1"); k.Index != 2 {
			t.Fatal(k)
		}
		// Submitting with an incomplete question jumps to it with the hint.
		expect(t, x.user(7, wire.ActSubmit))
		if k := x.card("c1"); k.Index != 2 || k.Hint != msgIncomplete || k.Busy {
			t.Fatal(k)
		}
		expect(t, x.user(8, wire.ActSkip), // skipping the last question submits
			`result gen=1 rpc=c1-r1 ev=e1 result {"answers":[{"id":"m","selected":["a"],"custom":"extra"},{"id":"pkg","selected":["npm"]},{"id":"name","selected":[]}]}`)
	})
	t.Run("a single-select custom answer replaces the choice", func(t *testing.T) {
		x := newH(t)
		x.at(0, ready(1))
		x.at(0, wf("e1", "s1", "c1", "keyed", qPkg))
		x.user(1, wire.ActChoose, "label=npm")
		x.user(2, wire.ActType, "text=pnpm")
		expect(t, x.user(3, wire.ActSubmit), `result gen=1 rpc=c1-r1 ev=e1 result {"answers":[{"id":"pkg","selected":[],"custom":"pnpm"}]}`)
	})
	t.Run("a plan review takes the seat and offers Approve and Request changes", func(t *testing.T) {
		x := newH(t)
		x.at(0, ready(1))
		x.at(0, wf("e1", "s1", "", "", planQ()))
		x.at(1, wf("e2", "s1", "", "", qName)) // published later, lower precedence
		if k := x.card(x.c.page.cards[0].key); k.Kind != kindPlanReview || !k.Seat {
			t.Fatal(k)
		}
		x.userErr(2, wire.ActType, "text=x")
		x.userErr(2, wire.ActChoose, "label=Change it")
		expect(t, x.user(3, wire.ActSubmit), `result gen=1 rpc=c1-r1 ev=e1 result {"answers":[{"id":"plan","selected":["Approve it"]}]}`)
		// The plain card takes the seat; "Request changes" on another plan review cancels it.
		x.at(4, wf("e3", "s1", "", "", planQ()))
		expect(t, x.user(5, wire.ActClose), `result gen=1 rpc=c1-r2 ev=e3 rejected UserQuestionError/ASK_CANCELLED: "the user cancelled ask_user_question"`)
		if k := x.card(x.c.page.cards[0].key); k.Kind != kindQuestion || !k.Seat {
			t.Fatal(k)
		}
	})
	t.Run("a plan review that does not fit stays a plain question", func(t *testing.T) {
		p := planQ()
		p.Intent.Approve = "nothing"
		if planReviewOf([]wire.Question{p}) || planReviewOf([]wire.Question{planQ(), qName}) || !planReviewOf([]wire.Question{planQ()}) {
			t.Fatal("planReviewOf")
		}
	})
	t.Run("a replayed request re-arms a card whose waterfall answer was not confirmed", func(t *testing.T) {
		x := newH(t)
		x.timedCard(0, 30000)
		x.user(10, wire.ActChoose, "label=npm")
		x.user(20, wire.ActSubmit)
		x.at(30, wire.LinkDown{})
		x.at(40, ready(2))
		x.at(40, wf("e1", "s1", "c1", "timed", qPkg))
		if k := x.card("c1"); !k.Busy {
			t.Fatal("busy until the new channel attaches", k)
		}
		x.at(50, item("c1-s2", 29000))
		k := x.card("c1")
		if k.Busy || k.Hint != msgRedelivered || k.Channel != wire.ChannelWaterfall || k.WaitState != wire.WaitStateEditing {
			t.Fatal(k)
		}
		expect(t, x.user(60, wire.ActSubmit), `result gen=2 rpc=c1-r2 ev=e1 result {"answers":[{"id":"pkg","selected":["npm"]}]}`)
	})
	t.Run("recommended suffixes", func(t *testing.T) {
		for label, want := range map[string]string{
			"bun (Recommended)": "bun", "bun(recommended) ": "bun", "bun（推荐）": "bun", "bun (推荐)": "bun",
			"bun （ RECOMMENDED ）": "bun", "bun": "", "bun (fast)": "", "(Recommended)": "", "bun Recommended)": "",
		} {
			head, ok := splitRecommended(label)
			if ok != (want != "" || label == "(Recommended)") || (ok && head != want) {
				t.Errorf("%q: %q %v", label, head, ok)
			}
		}
	})
	t.Run("page keys differ per load and per seed", func(t *testing.T) {
		a, b, c := pageKey(1, 1), pageKey(1, 2), pageKey(2, 1)
		if a == b || a == c || len(a) != 32 || a != pageKey(1, 1) {
			t.Fatal(a, b, c)
		}
	})
}
