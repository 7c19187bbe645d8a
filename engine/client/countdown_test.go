package client

import (
	"strings"
	"testing"

	"github.com/twosettle/twosettle/engine/wire"
)

const timedOut = `rejected UserQuestionError/ASK_TIMED_OUT: "ask_user_question timed out before the user answered"`

func expired(rpc string) string { return "result gen=1 rpc=" + rpc + " ev=e1 " + timedOut }

func TestCountdown(t *testing.T) {
	t.Run("CD-1 the deadline is the client's now plus remainingMs", func(t *testing.T) {
		// The client's clock reads 10 000 when the frame arrives: the host's clock is
		// irrelevant, only the remainder travels.
		x := newH(t)
		x.timedCard(10_000, 2000)
		if x.next() != 12_000 {
			t.Fatalf("next %d", x.next())
		}
		expect(t, x.at(11_999, wire.ClientTick{}))
		expect(t, x.at(12_000, wire.ClientTick{}), expired("c1-r1"))
	})
	t.Run("CD-1 a snapshot between inputs reads the countdown at its own time and changes nothing", func(t *testing.T) {
		x := newH(t)
		x.timedCard(40, 4970) // client deadline 5010
		before := stateText(x.c.State())
		cd := func(st wire.ClientState) string { return st.Cards[0].Countdown.String() }
		if got := cd(x.c.StateAt(2000)); got != "3010ms running" {
			t.Fatal(got)
		}
		if got := cd(x.c.StateAt(9000)); got != "0ms running" { // past the deadline, its tick not delivered
			t.Fatal(got)
		}
		if got := cd(x.c.State()); got != "4970ms running" {
			t.Fatal(got)
		}
		if after := stateText(x.c.State()); after != before || x.next() != 5040 {
			t.Fatalf("StateAt changed the client:\n%s\n%s", before, after)
		}
		// A paused countdown does not move.
		x.user(100, wire.ActFocus)
		if got := cd(x.c.StateAt(3000)); got != "4910ms paused" {
			t.Fatal(got)
		}
	})
	t.Run("CD-1 expiry lands on the first tick at or after the deadline", func(t *testing.T) {
		x := newH(t)
		x.timedCard(0, 2500)
		if x.next() != 3000 {
			t.Fatalf("next %d", x.next())
		}
		expect(t, x.at(2999, wire.ClientTick{}))
		if cd := x.countdown("c1"); cd != "0ms running" {
			t.Fatal(cd)
		}
		expect(t, x.at(3000, wire.ClientTick{}), expired("c1-r1"))
		y := newHWith(t, Config{Name: "c1", TickMs: 1})
		y.timedCard(0, 2500)
		expect(t, y.at(2499, wire.ClientTick{}))
		expect(t, y.at(2500, wire.ClientTick{}), expired("c1-r1"))
	})
	t.Run("CD-2 focus pauses a pristine countdown and blur resumes the remainder", func(t *testing.T) {
		x := newH(t)
		x.timedCard(0, 2000)
		x.user(500, wire.ActFocus)
		if cd, ws := x.countdown("c1"), x.card("c1").WaitState; cd != "1500ms paused" || ws != wire.WaitStateFocused {
			t.Fatal(cd, ws)
		}
		if _, ok := x.c.NextDeadline(); ok {
			t.Fatal("no timer while focused")
		}
		expect(t, x.at(1400, wire.ClientTick{}))
		x.user(1500, wire.ActBlur)
		if cd := x.countdown("c1"); cd != "1500ms running" {
			t.Fatal(cd)
		}
		// Deadline 3 000; ticks from 1 500: 2 500, 3 500.
		if x.next() != 3500 {
			t.Fatalf("next %d", x.next())
		}
		expect(t, x.at(3499, wire.ClientTick{}))
		expect(t, x.at(3500, wire.ClientTick{}), expired("c1-r1"))
	})
	t.Run("CD-2 focus at 500 then blur at 1 500 leaves 1 500 remaining", func(t *testing.T) {
		x := newHWith(t, Config{Name: "c1", TickMs: 1})
		x.timedCard(0, 2000)
		x.user(500, wire.ActFocus)
		x.user(1500, wire.ActBlur)
		if cd := x.countdown("c1"); cd != "1500ms running" {
			t.Fatal(cd)
		}
		expect(t, x.at(2999, wire.ClientTick{}))
		expect(t, x.at(3000, wire.ClientTick{}), expired("c1-r1"))
	})
	t.Run("CD-2 window blur releases a focus pause", func(t *testing.T) {
		x := newHWith(t, Config{Name: "c1", TickMs: 1})
		x.timedCard(0, 2000)
		x.user(500, wire.ActFocus)
		x.user(700, wire.ActWindowBlur)
		if cd := x.countdown("c1"); cd != "1500ms running" {
			t.Fatal(cd)
		}
		x.user(900, wire.ActWindowFocus) // focus is still inside the surface: paused again
		if cd := x.countdown("c1"); cd != "1300ms paused" {
			t.Fatal(cd)
		}
	})
	t.Run("CD-3 focus before the handshake takes effect when the deadline arrives", func(t *testing.T) {
		x := newH(t)
		x.at(0, ready(1))
		x.at(0, wf("e1", "s1", "c1", "timed", qPkg))
		x.user(100, wire.ActFocus)
		x.at(300, item("c1-s1", 2000))
		if cd := x.countdown("c1"); cd != "2000ms paused" {
			t.Fatal(cd)
		}
		if _, ok := x.c.NextDeadline(); ok {
			t.Fatal("no timer while focused")
		}
		x.user(1000, wire.ActBlur)
		if cd := x.countdown("c1"); cd != "2000ms running" || x.next() != 3000 {
			t.Fatal(cd, x.next())
		}
	})
	t.Run("CD-3 a blur before the handshake arms no timer", func(t *testing.T) {
		x := newH(t)
		x.at(0, ready(1))
		x.at(0, wf("e1", "s1", "c1", "timed", qPkg))
		x.user(100, wire.ActFocus)
		x.user(200, wire.ActBlur)
		if _, ok := x.c.NextDeadline(); ok {
			t.Fatal("a blur before the handshake armed a timer")
		}
		if x.card("c1").Countdown != nil {
			t.Fatal(x.card("c1"))
		}
		x.at(300, item("c1-s1", 2000)) // the deadline counts from the frame, unpaused
		if cd := x.countdown("c1"); cd != "2000ms running" || x.next() != 2300 {
			t.Fatal(cd, x.next())
		}
	})
	t.Run("CD-4 the first edit freezes the countdown for good and is saved with the draft", func(t *testing.T) {
		x := newH(t)
		x.timedCard(0, 2000)
		x.user(500, wire.ActChoose, "label=bun")
		if k := x.card("c1"); k.WaitState != wire.WaitStateEditing || k.Countdown.String() != "1500ms paused" {
			t.Fatal(k)
		}
		x.user(600, wire.ActFocus)
		x.user(700, wire.ActBlur)
		if _, ok := x.c.NextDeadline(); ok {
			t.Fatal("an edited card must never count again")
		}
		expect(t, x.at(100_000, wire.ClientTick{}))
		js, _ := x.c.drafts.get("question:s1:c1")
		if !strings.Contains(js, `"wait":"editing"`) {
			t.Fatal(js)
		}
		// After a reload the replayed request finds the disposition: still frozen.
		x.at(100_001, wire.Reload{})
		x.at(100_002, ready(2))
		x.at(100_002, wf("e1", "s1", "c1", "timed", qPkg))
		x.at(100_003, item("c1-s2", 2000))
		k := x.card("c1")
		if k.WaitState != wire.WaitStateEditing || k.Countdown.Running || k.Draft != "{pkg=[bun]}" {
			t.Fatal(k)
		}
		if _, ok := x.c.NextDeadline(); ok {
			t.Fatal("frozen after reload")
		}
	})
	t.Run("CD-4 Take time freezes for good and survives reload", func(t *testing.T) {
		x := newH(t)
		x.timedCard(0, 2000)
		expect(t, x.user(400, wire.ActTakeTime))
		if k := x.card("c1"); k.WaitState != wire.WaitStateWaiting || k.Countdown.Running {
			t.Fatal(k)
		}
		x.userErr(500, wire.ActTakeTime)
		js, _ := x.c.drafts.get("question:s1:c1")
		if !strings.Contains(js, `"wait":"waiting"`) {
			t.Fatal(js)
		}
		x.at(600, wire.Reload{})
		x.at(600, ready(2))
		x.at(600, wf("e1", "s1", "c1", "timed", qPkg))
		x.at(700, item("c1-s2", 1500))
		if k := x.card("c1"); k.WaitState != wire.WaitStateWaiting {
			t.Fatal(k)
		}
		if _, ok := x.c.NextDeadline(); ok {
			t.Fatal("take time must hold after reload")
		}
	})
	t.Run("CD-5 a recommended preselection and navigation are not edits", func(t *testing.T) {
		x := newH(t)
		rec := q("pkg", "Which package manager?", "bun (Recommended)", "npm")
		x.at(0, ready(1))
		x.at(0, wf("e1", "s1", "c1", "timed", rec, qName))
		x.at(0, item("c1-s1", 2000))
		k := x.card("c1")
		if k.Draft != "{pkg=[bun (Recommended)] name=-}" || k.WaitState != wire.WaitStateCounting || !k.Countdown.Running {
			t.Fatal(k)
		}
		x.user(100, wire.ActNext)
		x.user(200, wire.ActPrev)
		if k := x.card("c1"); k.WaitState != wire.WaitStateCounting || !k.Countdown.Running {
			t.Fatal(k)
		}
		expect(t, x.at(2000, wire.ClientTick{}), expired("c1-r1"))
		// The display label without the suffix names the option too.
		y := newH(t)
		y.at(0, ready(1))
		y.at(0, wf("e1", "s1", "c1", "keyed", q("pkg", "?", "npm", "bun（推荐）"), qName))
		y.user(1, wire.ActChoose, "label=bun")
		if d := y.card("c1").Draft; d != "{pkg=[bun（推荐）] name=-}" {
			t.Fatal(d)
		}
	})
	t.Run("CD-6 local expiry only when the card is not held, edited or focused", func(t *testing.T) {
		cases := []struct {
			name   string
			act    string
			fields []string
			fires  bool
		}{
			{"pristine", "", nil, true},
			{"held", wire.ActTakeTime, nil, false},
			{"edited", wire.ActType, []string{"text=yarn"}, false},
			{"focused", wire.ActFocus, nil, false},
			{"navigated", wire.ActHide, nil, true}, // hidden, still counting (CD-7)
		}
		for _, tc := range cases {
			x := newH(t)
			x.timedCard(0, 2000)
			if tc.act != "" {
				x.user(100, tc.act, tc.fields...)
			}
			got := x.at(5000, wire.ClientTick{})
			if fired := len(got) == 1 && got[0] == expired("c1-r1"); fired != tc.fires {
				t.Errorf("%s: effects %v", tc.name, got)
			}
			if !x.hasCard("c1") {
				t.Errorf("%s: the card must stay", tc.name)
			}
		}
	})
	t.Run("CD-7 a hidden timed panel keeps its claim and countdown; the row reopens it", func(t *testing.T) {
		x := newH(t)
		x.timedCard(0, 2000)
		x.at(0, update("s1", view(qs(qPkg), "c1:open"), noInbox, logOf(toolCallEv("c1", timedAsk))...))
		expect(t, x.user(100, wire.ActHide))
		k := x.card("c1")
		if k.Shown || !k.Countdown.Running || k.Channel != wire.ChannelWaterfall {
			t.Fatal(k)
		}
		if r := x.row("c1"); r.Action != labelAnswer {
			t.Fatal(r)
		}
		expect(t, x.user(500, wire.ActReopen, "card=c1"))
		if k := x.card("c1"); !k.Shown || !k.Seat || k.Countdown.String() != "1500ms running" {
			t.Fatal(k)
		}
		x.user(600, wire.ActHide)
		expect(t, x.at(2000, wire.ClientTick{}), expired("c1-r1"))
	})
	t.Run("CD-8 autofocus only with a ready channel, no countdown and an unlocked card", func(t *testing.T) {
		x := newH(t)
		x.at(0, ready(1))
		x.at(0, wf("e1", "s1", "c1", "keyed", qName))
		if k := x.card("c1"); !k.Focus || k.WaitState != wire.WaitStateFocused {
			t.Fatalf("an untimed optionless card with a channel autofocuses: %s", k)
		}
		// A timed card: not while waiting for its frame, not while counting.
		y := newH(t)
		y.at(0, ready(1))
		y.at(0, wf("e1", "s1", "c1", "timed", qName))
		if k := y.card("c1"); k.Focus {
			t.Fatal(k)
		}
		y.at(10, item("c1-s1", 5000))
		if k := y.card("c1"); k.Focus || !k.Countdown.Running {
			t.Fatal(k)
		}
		// Options: never. No channel: never.
		z := newH(t)
		z.at(0, ready(1))
		z.at(0, wf("e1", "s1", "c1", "keyed", qPkg))
		if z.card("c1").Focus {
			t.Fatal(z.card("c1"))
		}
		w := newH(t)
		w.at(0, ready(1))
		w.at(0, update("s1", view(qs(qName), "c1:open"), noInbox))
		w.at(0, wf("e1", "s1", "c1", "timed", qName))
		w.at(1, end("c1-s1")) // no wait: delegated, no channel left
		if w.card("c1").Focus {
			t.Fatal(w.card("c1"))
		}
		// A continued card autofocuses its optionless question when the user reaches it.
		v := newH(t)
		v.at(0, ready(1))
		v.at(0, update("s1", view(qs(qPkg, qName), "c1:continued"), noInbox))
		if v.card("c1").Focus {
			t.Fatal(v.card("c1"))
		}
		v.user(1, wire.ActChoose, "label=npm") // advances to the optionless question
		if !v.card("c1").Focus {
			t.Fatal(v.card("c1"))
		}
		// Locked: a read-only review card never autofocuses.
		u := newH(t)
		u.at(0, ready(1))
		settled := wire.QuestionsView{Settled: []wire.SettledRow{{CallID: "c1", Answers: []wire.AnswerItem{{ID: "name", Selected: []string{}}}}}}
		u.at(0, update("s1", settled, noInbox, logOf(toolCallEv("c1", `{"questions":[{"id":"name","question":"Project name?"}]}`),
			toolResultEv("c1", `{"pending":true,"callId":"c1","message":"m"}`))...))
		u.user(1, wire.ActReopen, "card=c1")
		if k := u.card("c1"); k.Kind != kindReview || !k.Seat || k.Focus {
			t.Fatal(k)
		}
	})
	t.Run("CD-9 Take time holds only its own client", func(t *testing.T) {
		a, b := newHWith(t, Config{Name: "a"}), newHWith(t, Config{Name: "b"})
		for _, x := range []*h{a, b} {
			x.at(0, ready(1))
			x.at(0, wf("e1", "s1", "c1", "timed", qPkg))
			x.at(0, item(x.c.name+"-s1", 2000))
		}
		expect(t, a.user(100, wire.ActTakeTime)) // nothing goes to the host
		expect(t, b.at(2000, wire.ClientTick{}), "result gen=1 rpc=b-r1 ev=e1 "+timedOut)
		expect(t, a.at(2000, wire.ClientTick{}))
		// The host settles the shared waterfall with b's rejection and cancels a.
		expect(t, a.at(2100, cancel("e1")), `cancel gen=1 stream=a-s1`)
		if k := a.card("c1"); !k.Shown || k.WaitState != wire.WaitStateWaiting || k.Channel != wire.ChannelNone {
			t.Fatal(k)
		}
	})
	t.Run("CD-10 a client clock change moves local expiry; latency delays the start", func(t *testing.T) {
		x := newH(t)
		x.timedCard(0, 60_000)
		// The clock jumps forward 59 s (no real time passed): expiry at once.
		expect(t, x.at(60_500, wire.ClientTick{}), expired("c1-r1"))
		// The clock jumps back: expiry moves later by the jump.
		y := newH(t)
		y.timedCard(10_000, 2000)
		expect(t, y.at(5000, wire.ClientTick{}))
		if y.next() != 12_000 {
			t.Fatal(y.next())
		}
		expect(t, y.at(11_999, wire.ClientTick{}))
		expect(t, y.at(12_000, wire.ClientTick{}), expired("c1-r1"))
		// A frame that arrives 700 ms late starts the countdown 700 ms late.
		z := newH(t)
		z.at(0, ready(1))
		z.at(0, wf("e1", "s1", "c1", "timed", qPkg))
		z.at(700, item("c1-s1", 2000))
		if z.next() != 2700 {
			t.Fatal(z.next())
		}
	})
}
