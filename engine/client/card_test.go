package client

import (
	"strings"
	"testing"

	"github.com/twosettle/twosettle/engine/session"
	"github.com/twosettle/twosettle/engine/wire"
)

var noInbox wire.InboxView

func qs(q ...wire.Question) []wire.Question { return q }

func TestCards(t *testing.T) {
	t.Run("CARD-1 the live request and the continued row share one card", func(t *testing.T) {
		x := newH(t)
		x.at(0, ready(1))
		x.at(0, update("s1", view(qs(qPkg), "c1:continued"), noInbox))
		x.at(10, wf("e1", "s1", "c1", "keyed", qPkg))
		st := x.c.State()
		if len(st.Cards) != 1 {
			t.Fatalf("cards %v", st.Cards)
		}
		if k := st.Cards[0]; k.Key != "question:s1:c1" || k.State != wire.StateContinued || k.Channel != wire.ChannelWaterfall {
			t.Fatalf("%s", k)
		}
		// The same (session, call id) in another session is another card.
		x.at(20, wf("e2", "s2", "c1", "keyed", qPkg))
		if n := len(x.c.State().Cards); n != 2 {
			t.Fatalf("cards %d", n)
		}
	})
	t.Run("CARD-2 a forwarded request keeps its card through the claim frame", func(t *testing.T) {
		x := newH(t)
		x.at(0, ready(1))
		x.at(0, wf("e1", "s1", "c1", "timed", qPkg))
		x.at(10, update("s1", wire.QuestionsView{}, noInbox)) // the projection does not list c1 yet
		if !x.hasCard("c1") {
			t.Fatal("card swept before the claim frame")
		}
		x.at(20, item("c1-s1", 5000))
		x.at(30, update("s1", wire.QuestionsView{}, noInbox))
		if !x.hasCard("c1") {
			t.Fatal("card swept while its waterfall is attached")
		}
		x.at(40, end("c1-s1")) // the listener ends (CLAIM-6)
		x.at(50, update("s1", wire.QuestionsView{}, noInbox))
		if x.hasCard("c1") {
			t.Fatal("card kept after its request ended and the call is not listed")
		}
	})
	t.Run("CARD-3 an unkeyed request gets its own card with a reload-unique key", func(t *testing.T) {
		x := newH(t)
		x.at(0, ready(1))
		x.at(0, wf("e1", "s1", "", "", qName))
		x.at(0, wf("e2", "s1", "", "", qName))
		st := x.c.State()
		if len(st.Cards) != 2 || st.Cards[0].Key == st.Cards[1].Key {
			t.Fatalf("%v", st.Cards)
		}
		k1 := x.c.page.cards[0].key
		if !strings.HasPrefix(k1, "question:") || len(strings.Split(k1, ":")[1]) != 32 || !strings.HasSuffix(k1, ":1") {
			t.Fatalf("key %q", k1)
		}
		// The latest card holds the composer seat; the older one waits below it.
		if err := x.userErr(10, wire.ActType, "card=#1", "text=one"); !strings.Contains(err.Error(), "seat shows #2") {
			t.Fatal(err)
		}
		x.user(10, wire.ActType, "card=#2", "text=two")
		if x.c.page.cards[0].drafts[0].custom != "" {
			t.Fatal("the cards must not share a draft")
		}
	})
	t.Run("CARD-3 an old draft never attaches to a new unkeyed card", func(t *testing.T) {
		x := newH(t)
		x.at(0, ready(1))
		x.at(0, wf("e1", "s1", "", "", qName))
		x.user(10, wire.ActType, "text=old answer")
		oldKey := x.c.page.cards[0].key
		if _, ok := x.c.drafts.get(oldKey); !ok {
			t.Fatal("draft not stored")
		}
		x.at(20, wire.Reload{})
		x.at(30, ready(2))
		x.at(30, wf("e1", "s1", "", "", qName)) // the same request, replayed
		k := x.c.page.cards[0]
		if k.key == oldKey || k.drafts[0].custom != "" || k.engaged {
			t.Fatalf("the new card %s took the old draft of %s", k.key, oldKey)
		}
	})
	t.Run("CARD-4 channel selection: waterfall, rpc, none; the waterfall wins", func(t *testing.T) {
		x := newH(t)
		x.at(0, ready(1))
		// none: an open row with no forwarded request cannot be submitted.
		x.at(0, update("s1", view(qs(qPkg), "c1:continued", "c2:open"), noInbox))
		x.at(0, wf("e1", "s1", "c2", "timed", qPkg)) // c2 takes the seat, no frame yet
		if x.card("c2").Channel != wire.ChannelNone {
			t.Fatal(x.card("c2"))
		}
		x.user(1, wire.ActChoose, "card=c2", "label=npm")
		x.userErr(2, wire.ActSubmit, "card=c2")
		// waterfall
		x.at(3, item("c1-s1", 60000))
		expect(t, x.user(4, wire.ActSubmit, "card=c2"),
			`result gen=1 rpc=c1-r1 ev=e1 result {"answers":[{"id":"pkg","selected":["npm"]}]}`)
		// rpc: c1 is continued with no waterfall; reveal it through a reconciliation.
		x.c.publish(x.c.page.byKey.at("question:s1:c1"))
		x.user(5, wire.ActChoose, "card=c1", "label=bun")
		expect(t, x.user(6, wire.ActSubmit, "card=c1"),
			`call gen=1 rpc=c1-r2 userQuestions/answer {"agentId":"s1","callId":"c1","answer":{"answers":[{"id":"pkg","selected":["bun"]}]}}`)
		// both: a continued card that also receives a waterfall answers through it.
		x.at(7, httpOK("c1-r2", "true"))
		x.at(8, wf("e3", "s1", "c1", "keyed", qPkg))
		k := x.card("c1")
		if k.State != wire.StateContinued || k.Channel != wire.ChannelWaterfall {
			t.Fatal(k)
		}
	})
	t.Run("CARD-5 a waterfall submission keeps its draft and stays busy until reconciliation", func(t *testing.T) {
		x := newH(t)
		x.timedCard(0, 30000)
		x.at(0, update("s1", view(qs(qPkg), "c1:open"), noInbox))
		x.user(100, wire.ActChoose, "label=bun")
		x.user(200, wire.ActSubmit)
		k := x.card("c1")
		if !k.Busy || k.Draft != "{pkg=[bun]}" {
			t.Fatal(k)
		}
		if _, ok := x.c.drafts.get("question:s1:c1"); !ok {
			t.Fatal("the draft must be kept")
		}
		x.at(300, end("c1-s1"))
		x.at(400, update("s1", view(qs(qPkg), "c1:open"), noInbox)) // not yet reconciled
		if k := x.card("c1"); !k.Busy {
			t.Fatal(k)
		}
		x.userErr(500, wire.ActSubmit)
		settled := wire.QuestionsView{Settled: []wire.SettledRow{{CallID: "c1", Answers: []wire.AnswerItem{{ID: "pkg", Selected: []string{"bun"}}}}}}
		x.at(600, update("s1", settled, noInbox))
		if x.hasCard("c1") {
			t.Fatal("a settled question's card must go")
		}
		if _, ok := x.c.drafts.get("question:s1:c1"); ok {
			t.Fatal("removal clears the draft")
		}
	})
	t.Run("CARD-6 a question that turns continued mid-submit re-arms with the resubmit hint", func(t *testing.T) {
		x := newH(t)
		x.timedCard(0, 30000)
		x.at(0, update("s1", view(qs(qPkg), "c1:open"), noInbox))
		x.user(100, wire.ActChoose, "label=bun")
		x.user(200, wire.ActSubmit)
		x.at(300, end("c1-s1"))
		x.at(400, update("s1", view(qs(qPkg), "c1:continued"), noInbox))
		k := x.card("c1")
		if k.Busy || k.Hint != msgResubmit || k.Channel != wire.ChannelRPC || k.Draft != "{pkg=[bun]}" {
			t.Fatal(k)
		}
		expect(t, x.user(500, wire.ActSubmit),
			`call gen=1 rpc=c1-r2 userQuestions/answer {"agentId":"s1","callId":"c1","answer":{"answers":[{"id":"pkg","selected":["bun"]}]}}`)
	})
	t.Run("CARD-7 an accepted RPC submission closes the panel and settles nothing", func(t *testing.T) {
		x := newH(t)
		x.at(0, ready(1))
		x.at(0, update("s1", view(qs(qPkg), "c1:continued"), noInbox))
		x.user(10, wire.ActChoose, "label=npm")
		x.user(20, wire.ActSubmit)
		if k := x.card("c1"); !k.Busy {
			t.Fatal(k)
		}
		x.at(30, httpOK("c1-r1", "true"))
		k := x.card("c1")
		if k.Shown || k.Busy || k.State != wire.StateContinued || k.Hint != "" {
			t.Fatalf("accepted: %s", k)
		}
	})
	t.Run("CARD-7 a refused or failed RPC submission re-arms with the message", func(t *testing.T) {
		x := newH(t)
		x.at(0, ready(1))
		x.at(0, update("s1", view(qs(qPkg), "c1:continued"), noInbox))
		x.user(10, wire.ActChoose, "label=npm")
		x.user(20, wire.ActSubmit)
		x.at(30, httpOK("c1-r1", "false"))
		if k := x.card("c1"); !k.Shown || k.Busy || k.Hint != msgNotAnswerable {
			t.Fatal(k)
		}
		x.user(40, wire.ActSubmit)
		x.at(50, wire.FromHTTP{RPCID: "c1-r2", Envelope: wire.Failure(wire.GatewayInternal, "a reply for c1 is already queued")})
		if k := x.card("c1"); !k.Shown || k.Busy || k.Hint != "a reply for c1 is already queued" {
			t.Fatal(k)
		}
	})
	t.Run("CARD-8 a keyed card is removed only when unlisted, without request or waterfall", func(t *testing.T) {
		x := newH(t)
		x.at(0, ready(1))
		x.at(0, wf("e1", "s1", "c1", "keyed", qPkg))
		x.user(5, wire.ActChoose, "label=npm")
		x.at(10, update("s1", wire.QuestionsView{}, noInbox))
		if !x.hasCard("c1") {
			t.Fatal("removed with its request running")
		}
		x.at(20, cancel("e1"))
		if !x.hasCard("c1") {
			t.Fatal("removed by the cancel alone")
		}
		x.at(30, update("s1", view(qs(qPkg), "c1:open"), noInbox))
		if !x.hasCard("c1") {
			t.Fatal("removed while listed")
		}
		x.at(40, update("s1", wire.QuestionsView{}, noInbox))
		if x.hasCard("c1") {
			t.Fatal("kept although unlisted with nothing attached")
		}
		if len(x.c.State().Drafts) != 0 {
			t.Fatal("the removed card's draft must be cleared")
		}
	})
	t.Run("CARD-9 a continued card whose reply is queued is hidden and comes back on discard", func(t *testing.T) {
		x := newH(t)
		x.at(0, ready(1))
		x.at(0, update("s1", view(qs(qPkg), "c1:continued"), noInbox))
		queued := wire.InboxView{NextStep: []session.Message{replyMsg("m1", "c1", "{}")}}
		x.at(10, update("s1", view(qs(qPkg), "c1:continued"), queued))
		if x.hasCard("c1") {
			t.Fatal("a continued card with a queued reply must not be shown")
		}
		expect(t, x.user(20, wire.ActDiscard, "card=c1"), `call gen=1 rpc=c1-r1 inbox/discard {"agentId":"s1","messageId":"m1"}`)
		x.at(30, httpOK("c1-r1", "true"))
		x.at(30, update("s1", view(qs(qPkg), "c1:continued"), noInbox))
		k := x.card("c1")
		if !k.Shown || k.Channel != wire.ChannelRPC {
			t.Fatal(k)
		}
		x.user(40, wire.ActChoose, "label=bun")
		expect(t, x.user(50, wire.ActSubmit),
			`call gen=1 rpc=c1-r2 userQuestions/answer {"agentId":"s1","callId":"c1","answer":{"answers":[{"id":"pkg","selected":["bun"]}]}}`)
	})
	t.Run("CARD-10 neither a local submission nor a cancel frame decides the question", func(t *testing.T) {
		x := newH(t)
		x.timedCard(0, 30000)
		x.user(100, wire.ActChoose, "label=bun")
		x.user(200, wire.ActSubmit)
		k := x.card("c1")
		if k.State != wire.StateOpen || !k.Busy {
			t.Fatal(k)
		}
		expect(t, x.at(300, cancel("e1")), `cancel gen=1 stream=c1-s1`)
		if k := x.card("c1"); k.State != wire.StateOpen || !k.Shown {
			t.Fatal(k)
		}
		// Cancel without any submission: same.
		y := newH(t)
		y.timedCard(0, 30000)
		expect(t, y.at(10, cancel("e1")), `cancel gen=1 stream=c1-s1`)
		if k := y.card("c1"); k.State != wire.StateOpen || !k.Shown || k.Busy {
			t.Fatal(k)
		}
	})
	t.Run("CARD-11 closing an unkeyed card rejects with ASK_CANCELLED and ends it", func(t *testing.T) {
		x := newH(t)
		x.at(0, ready(1))
		x.at(0, wf("e1", "s1", "", "", qName))
		x.userErr(5, wire.ActHide, "card=#1")
		expect(t, x.user(10, wire.ActClose, "card=#1"),
			`result gen=1 rpc=c1-r1 ev=e1 rejected UserQuestionError/ASK_CANCELLED: "the user cancelled ask_user_question"`)
		if len(x.c.State().Cards) != 0 {
			t.Fatal(x.c.State().Cards)
		}
	})
	t.Run("CARD-11 an unkeyed card ends with its waterfall", func(t *testing.T) {
		x := newH(t)
		x.at(0, ready(1))
		x.at(0, wf("e1", "s1", "", "", qName))
		expect(t, x.at(10, cancel("e1")))
		if len(x.c.State().Cards) != 0 {
			t.Fatal(x.c.State().Cards)
		}
		x.at(20, wf("e2", "s1", "", "", qName))
		x.user(30, wire.ActType, "text=demo")
		expect(t, x.user(40, wire.ActSubmit), `result gen=1 rpc=c1-r1 ev=e2 result {"answers":[{"id":"name","selected":[],"custom":"demo"}]}`)
		if len(x.c.State().Cards) != 0 {
			t.Fatal(x.c.State().Cards)
		}
	})
	t.Run("CARD-11 closing a keyed card only hides it and records nothing", func(t *testing.T) {
		x := newH(t)
		x.timedCard(0, 30000)
		expect(t, x.user(10, wire.ActClose))
		k := x.card("c1")
		if k.Shown || k.Channel != wire.ChannelWaterfall || k.Countdown == nil || !k.Countdown.Running {
			t.Fatal(k)
		}
		y := newH(t)
		y.at(0, ready(1))
		y.at(0, update("s1", view(qs(qPkg), "c1:continued"), noInbox))
		expect(t, y.user(10, wire.ActHide))
		if k := y.card("c1"); k.Shown {
			t.Fatal(k)
		}
	})
	t.Run("CARD-12 teardown delegates every waterfall and removes every card", func(t *testing.T) {
		x := newH(t)
		x.at(0, ready(1))
		x.at(0, update("s1", view(qs(qPkg), "c3:continued"), noInbox))
		x.at(0, wf("e1", "s1", "c1", "timed", qPkg))
		x.at(0, item("c1-s1", 30000))
		x.at(0, wf("e2", "s1", "c2", "keyed", qPkg))
		x.user(1, wire.ActHide, "card=c2")
		x.at(2, wf("e3", "s1", "", "", qName))
		expect(t, x.user(10, wire.ActTeardown),
			`cancel gen=1 stream=c1-s1`,
			`result gen=1 rpc=c1-r1 ev=e1 next`,
			`result gen=1 rpc=c1-r2 ev=e2 next`,
			`result gen=1 rpc=c1-r3 ev=e3 next`)
		if n := len(x.c.State().Cards); n != 0 {
			t.Fatalf("%d cards left", n)
		}
		expect(t, x.at(20, wf("e4", "s1", "c4", "timed", qPkg)), `result gen=1 rpc=c1-r4 ev=e4 next`)
		x.at(30, update("s1", view(qs(qPkg), "c3:continued"), noInbox))
		if n := len(x.c.State().Cards); n != 0 {
			t.Fatalf("%d cards after teardown", n)
		}
	})
}

func TestIsKeyOf(t *testing.T) {
	for _, c := range [][2]string{{"s1", "c1"}, {"", ""}, {"s:1", "c"}, {"s", "1:c"}, {"a", ""}, {"", "b"}} {
		for _, d := range [][2]string{{"s1", "c1"}, {"", ""}, {"s:1", "c"}, {"s", "1:c"}, {"a", ""}, {"", "b"}, {"s1", "c"}} {
			if got, want := isKeyOf(keyOf(c[0], c[1]), d[0], d[1]), keyOf(c[0], c[1]) == keyOf(d[0], d[1]); got != want {
				t.Fatalf("isKeyOf(keyOf(%q, %q), %q, %q) = %v, want %v", c[0], c[1], d[0], d[1], got, want)
			}
		}
	}
	if isKeyOf("question:x", "", "") || isKeyOf("other:s1:c1", "s1", "c1") {
		t.Fatal("isKeyOf accepts a key of another shape")
	}
}
