package client

import (
	"reflect"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/twosettle/twosettle/engine/session"
	"github.com/twosettle/twosettle/engine/wire"
)

const pendingText = `{"pending":true,"callId":"c1","message":"No answer batch arrived before the timeout."}`

func errResult(call, name, code, text string) session.Data {
	return session.ToolResult{Turn: 1, Step: 1, CallID: call, IsError: true, Err: session.ErrorInfo{Name: name, Code: code}, Text: text}
}

var (
	batchBun   = []wire.AnswerItem{{ID: "pkg", Selected: []string{"bun"}}}
	settledBun = wire.QuestionsView{Settled: []wire.SettledRow{{CallID: "c1", Answers: batchBun}}}
	settledNil = wire.QuestionsView{Settled: []wire.SettledRow{{CallID: "c1", Answers: []wire.AnswerItem{}}}}
	replyBun   = `{"kind":"answer_to_pending_question","tool":"ask_user_question","callId":"c1","questions":[{"id":"pkg","question":"Which package manager?"}],"answers":[{"id":"pkg","selected":["bun"]}]}`
	tou        = errResult("c1", session.ToolOutcomeUnknownName, session.ToolOutcomeUnknown, session.ToolOutcomeUnknownText)
)

// rowOf shows one session to a fresh client and returns c1's row.
func rowOf(t *testing.T, v wire.QuestionsView, inbox wire.InboxView, ds ...session.Data) (*h, wire.RowState) {
	x := newH(t)
	x.at(0, ready(1))
	x.at(0, update("s1", v, inbox, logOf(ds...)...))
	return x, x.row("c1")
}

func TestRows(t *testing.T) {
	call := toolCallEv("c1", timedAsk)
	t.Run("ROW-1 the state table", func(t *testing.T) {
		cases := []struct {
			name    string
			v       wire.QuestionsView
			inbox   wire.InboxView
			result  session.Data
			summary string
			state   string
			action  string
			first   string // the first transcript line
		}{
			{"waiting", view(qs(qPkg), "c1:open"), noInbox, nil, "waiting", "running", labelAnswer, "- Which package manager?"},
			{"waiting, unlisted", wire.QuestionsView{}, noInbox, nil, "waiting", "running", "", "- Which package manager?"},
			{"pending and answerable", view(qs(qPkg), "c1:continued"), noInbox, toolResultEv("c1", pendingText), summaryContinued, "ok", labelAnswer, verdictPending},
			{"queued reply", view(qs(qPkg), "c1:continued"), wire.InboxView{NextTurn: []session.Message{replyMsg("m1", "c1", replyBun)}},
				toolResultEv("c1", pendingText), "1/1 answered", "ok", labelViewAnswers, "Which package manager?: bun"},
			{"settled late", settledBun, noInbox, toolResultEv("c1", pendingText), "1/1 answered", "ok", labelViewAnswers, "Which package manager?: bun"},
			{"settled in time", settledBun, noInbox, toolResultEv("c1", `{"answers":[{"id":"pkg","selected":["bun"]}]}`), "1/1 answered", "ok", labelViewAnswers, "Which package manager?: bun"},
			{"answered, best-effort count from raw items not all valid", wire.QuestionsView{}, noInbox,
				toolResultEv("c1", `{"answers":[{"id":"pkg","selected":["bun"]},{"id":"env"},{"id":"x","selected":null,"custom":"own"},7]}`),
				"2/4 answered", "ok", "", "IN: " + timedAsk},
			{"answered, a null entry: the peer's count throws, the generic summary", wire.QuestionsView{}, noInbox,
				toolResultEv("c1", `{"answers":[null]}`), timedAsk, "ok", "", "IN: " + timedAsk},
			{"answered, no answers array: the generic summary", wire.QuestionsView{}, noInbox, toolResultEv("c1", `{"answers":{}}`), timedAsk, "ok", "", "IN: " + timedAsk},
			{"answered, valid items that do not pair: the exact count", wire.QuestionsView{}, noInbox,
				toolResultEv("c1", `{"answers":[{"id":"other","selected":[]},{"id":"x","selected":["a"]}]}`), "1/2 answered", "ok", "", "IN: " + timedAsk},
			{"closed: pending, not listed", wire.QuestionsView{}, noInbox, toolResultEv("c1", pendingText), "closed", "ok", "", verdictClosed},
			{"closed: settled empty", settledNil, noInbox, toolResultEv("c1", pendingText), "closed", "ok", "", verdictClosed},
			{"cancelled", wire.QuestionsView{}, noInbox, errResult("c1", wire.UserQuestionErrorName, wire.AskCancelled, "Error: the user cancelled ask_user_question"),
				"cancelled", "ok", "", verdictCancelled},
			{"interrupted", wire.QuestionsView{}, noInbox, errResult("c1", wire.UserQuestionErrorName, wire.AskAborted, "Error: aborted"),
				"interrupted", "stopped", "", verdictInterrupted},
			{"outcome unknown, answerable", view(qs(qPkg), "c1:continued"), noInbox, tou, "continued; answer still available", "ok", labelAnswer, verdictPending},
			{"outcome unknown, settled empty", settledNil, noInbox, tou, "closed", "ok", "", verdictClosed},
			{"outcome unknown, settled", settledBun, noInbox, tou, "1/1 answered", "ok", labelViewAnswers, "Which package manager?: bun"},
			{"outcome unknown, untracked", wire.QuestionsView{}, noInbox, tou, timedAsk, "error", "", "IN: " + timedAsk},
			{"another failure", wire.QuestionsView{}, noInbox, errResult("c1", "Error", "", "Error: question id \"a\" must be unique"), timedAsk, "error", "", "IN: " + timedAsk},
			{"interrupted code", wire.QuestionsView{}, noInbox, errResult("c1", "Error", "interrupted", "Error: interrupted"), timedAsk, "stopped", "", "IN: " + timedAsk},
		}
		for _, tc := range cases {
			ds := []session.Data{call}
			if tc.result != nil {
				ds = append(ds, tc.result)
			}
			_, r := rowOf(t, tc.v, tc.inbox, ds...)
			if r.Summary != tc.summary || r.State != tc.state || r.Action != tc.action || len(r.Transcript) == 0 || r.Transcript[0] != tc.first {
				t.Errorf("%s: %s", tc.name, r)
			}
		}
	})
	t.Run("ROW-1 a truncated call whose head was lost shows its call id in the generic row", func(t *testing.T) {
		for _, res := range []session.Data{toolResultEv("c1", "ok"), errResult("c1", "Error", "interrupted", "Error: interrupted"),
			session.ToolResult{Turn: 1, Step: 1, CallID: "c1", NoText: true}} {
			_, r := rowOf(t, wire.QuestionsView{}, noInbox, toolCallEv("c1", ""), res)
			if r.Summary != "c1" || r.Action != "" || len(r.Transcript) == 0 || r.Transcript[0] != "IN: " {
				t.Errorf("%v: %s", res, r)
			}
		}
	})
	t.Run("ROW-1 a pending text beside a reasoning block is read through its text: pending and answerable, Answer", func(t *testing.T) {
		x, r := rowOf(t, view(qs(qPkg), "c1:continued"), noInbox, call,
			session.ToolResult{Turn: 1, Step: 1, CallID: "c1", Text: pendingText, Reasoning: "the user is away"})
		if r.Summary != "continued; answer still available" || r.Action != labelAnswer {
			t.Fatalf("%s", r)
		}
		_, g := rowOf(t, wire.QuestionsView{}, noInbox, call,
			session.ToolResult{Turn: 1, Step: 1, CallID: "c1", IsError: true, Text: "boom", Reasoning: "the user is away"})
		if n := len(g.Transcript); g.Action != "" || n == 0 || g.Transcript[n-1] != "REASONING: the user is away" {
			t.Fatalf("the generic row's diagnostics name the reasoning block: %s", g)
		}
		if k := x.card("c1"); k.State != wire.StateContinued {
			t.Fatalf("the projection's continued row makes its card: %+v", k)
		}
	})
	t.Run("ROW-1 View answers on a queued reply expands the read-only transcript", func(t *testing.T) {
		x, r := rowOf(t, view(qs(qPkg), "c1:continued"), wire.InboxView{NextStep: []session.Message{replyMsg("m1", "c1", replyBun)}},
			call, toolResultEv("c1", pendingText))
		if r.Expanded || len(x.c.State().Cards) != 0 {
			t.Fatal(r, x.c.State().Cards)
		}
		expect(t, x.user(10, wire.ActReopen, "card=c1"))
		if r := x.row("c1"); !r.Expanded || len(x.c.State().Cards) != 0 {
			t.Fatal("View answers opens no panel while the reply is queued", r)
		}
	})
	t.Run("ROW-1 View answers on a settled call opens a read-only panel with the recorded answers", func(t *testing.T) {
		x, _ := rowOf(t, settledBun, noInbox, call, toolResultEv("c1", pendingText))
		x.user(10, wire.ActReopen, "card=c1")
		k := x.card("c1")
		if k.Kind != kindReview || !k.Seat || k.Draft != "{pkg=[bun]}" || k.Channel != wire.ChannelNone {
			t.Fatal(k)
		}
		x.userErr(20, wire.ActChoose, "label=npm")
		x.userErr(20, wire.ActSubmit)
		// The projection's sweep leaves a review card alone; closing it drops it.
		x.at(30, update("s1", settledBun, noInbox, logOf(call, toolResultEv("c1", pendingText))...))
		if !x.hasCard("c1") {
			t.Fatal("swept a review card")
		}
		x.user(40, wire.ActClose)
		if x.hasCard("c1") {
			t.Fatal("closing a review card drops it")
		}
	})
	t.Run("ROW-1 an Answer with no card to reveal toggles the disclosure", func(t *testing.T) {
		x, _ := rowOf(t, view(qs(qPkg), "c1:open"), noInbox, call)
		x.user(10, wire.ActReopen, "card=c1")
		if !x.row("c1").Expanded {
			t.Fatal(x.row("c1"))
		}
	})
	t.Run("ROW-2 discarding the queued reply restores the Answer action", func(t *testing.T) {
		queued := wire.InboxView{NextStep: []session.Message{replyMsg("m1", "c1", replyBun)}}
		x, r := rowOf(t, view(qs(qPkg), "c1:continued"), queued, call, toolResultEv("c1", pendingText))
		if r.Action != labelViewAnswers {
			t.Fatal(r)
		}
		expect(t, x.user(10, wire.ActDiscard, "card=c1"), `call gen=1 rpc=c1-r1 inbox/discard {"agentId":"s1","messageId":"m1"}`)
		x.at(20, update("s1", view(qs(qPkg), "c1:continued"), noInbox, logOf(call, toolResultEv("c1", pendingText))...))
		if r := x.row("c1"); r.Action != labelAnswer || r.Summary != summaryContinued {
			t.Fatal(r)
		}
		x.userErr(30, wire.ActDiscard, "card=c1")
	})
	t.Run("ROW-2 a malformed queued message leaves Answer in place", func(t *testing.T) {
		for _, text := range []string{"not json", `{"kind":"other","callId":"c1","answers":[]}`, `{"kind":"answer_to_pending_question","callId":"c2","answers":[]}`,
			`{"kind":"answer_to_pending_question","callId":"c1","answers":[{"id":"x","selected":[]}]}`} {
			_, r := rowOf(t, view(qs(qPkg), "c1:continued"), wire.InboxView{NextTurn: []session.Message{replyMsg("m1", "c1", text)}},
				call, toolResultEv("c1", pendingText))
			if r.Action != labelAnswer {
				t.Errorf("%s: %s", text, r)
			}
		}
	})
	t.Run("ROW-3 a legacy row offers no question action", func(t *testing.T) {
		legacy := toolCallEv("c1", `{"questions":[{"id":"pkg","question":"Which package manager?"}]}`)
		x, r := rowOf(t, wire.QuestionsView{}, noInbox, legacy)
		if r.Action != "" || r.State != "running" {
			t.Fatal(r)
		}
		x.at(10, update("s1", wire.QuestionsView{}, noInbox, logOf(legacy, toolResultEv("c1", `{"answers":[{"id":"pkg","selected":[],"custom":"bun"}]}`))...))
		r = x.row("c1")
		if r.Action != "" || r.Summary != "1/1 answered" || r.Transcript[0] != "Which package manager?: bun" {
			t.Fatal(r)
		}
		if err := x.userErr(20, wire.ActReopen, "card=c1"); !strings.Contains(err.Error(), "offers no action") {
			t.Fatal(err)
		}
	})
}

// TestAnsweredTranscript: the one-pass transcript is the pairing of a batch with its
// questions followed by its lines, for any batch (missing, repeated and extra ids, empty
// and custom answers).
func TestAnsweredTranscript(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		ids := rapid.SliceOfN(rapid.SampledFrom([]string{"a", "b", "c"}), 0, 3).Draw(t, "qs")
		var qs []wire.Question
		for _, id := range ids {
			qs = append(qs, wire.Question{ID: id, Question: "Q " + id + "?"})
		}
		var as []wire.AnswerItem
		for i := rapid.IntRange(0, 3).Draw(t, "n"); i > 0; i-- {
			a := wire.AnswerItem{ID: rapid.SampledFrom([]string{"a", "b", "c", "d"}).Draw(t, "id"),
				Selected: rapid.SliceOfN(rapid.SampledFrom([]string{"yes", "no", ""}), 0, 2).Draw(t, "sel")}
			if rapid.Bool().Draw(t, "custom") {
				c := rapid.SampledFrom([]string{"", "later", " x "}).Draw(t, "text")
				a.Custom = &c
			}
			as = append(as, a)
		}
		lines, pairs := pairAnswers(qs, as)
		var want []string
		if pairs {
			want = answeredLines(qs, lines)
		}
		got, ok := answeredTranscript(qs, as)
		if ok != pairs || !reflect.DeepEqual(got, want) {
			t.Fatalf("answeredTranscript(%v, %v) = %q %v, want %q %v", qs, as, got, ok, want, pairs)
		}
	})
}
