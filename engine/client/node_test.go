package client

import (
	"strings"
	"testing"

	"github.com/twosettle/twosettle/engine/session"
	"github.com/twosettle/twosettle/engine/wire"
)

func userMsg(id, text string) session.Data {
	return session.UserMessage{Message: session.Message{ID: id, Source: session.Source{Kind: session.SourceUser}, Text: text}}
}

func replyEv(id, call, text string) session.Data {
	return session.UserMessage{Message: replyMsg(id, call, text)}
}

func convOf(t *testing.T, ds ...session.Data) (*h, []string) {
	x := newH(t)
	x.at(0, ready(1))
	x.at(0, update("s1", wire.QuestionsView{}, noInbox, logOf(ds...)...))
	var out []string
	for _, e := range x.c.State().Conversation {
		out = append(out, e.String())
	}
	return x, out
}

func TestNodes(t *testing.T) {
	t.Run("NODE-1 a late reply is identified by its source, then parsed", func(t *testing.T) {
		x, _ := convOf(t,
			replyEv("m1", "c1", replyBun),
			userMsg("m2", replyBun), // the same JSON pasted by the user
			session.UserMessage{Message: session.Message{ID: "m3", Source: session.Source{Kind: session.SourceUserQuestionReply, CallID: "c1", Outcome: "dismissed"}, Text: replyBun}},
			session.UserMessage{Message: session.Message{ID: "m4", Source: session.Source{Kind: session.SourceUserQuestionReply, Outcome: "answered"}, Text: replyBun}},
		)
		ns := x.c.State().Nodes
		if len(ns) != 1 || ns[0].Seq != 0 || ns[0].CallID != "c1" || len(ns[0].Lines) != 1 || ns[0].Lines[0] != "Which package manager?: bun" {
			t.Fatal(ns)
		}
	})
	t.Run("NODE-1 headers, custom answers and skipped questions", func(t *testing.T) {
		text := `{"kind":"answer_to_pending_question","tool":"ask_user_question","callId":"c1","questions":[` +
			`{"id":"a","question":"Pick","header":"Tooling","options":[{"label":"x"},{"label":7}]},{"id":"b","question":"Name?"},{"id":3,"question":"bad"}],` +
			`"answers":[{"id":"a","selected":["x",5],"custom":"  also y  "},{"id":"b","selected":[]}]}`
		x, _ := convOf(t, replyEv("m1", "c1", text))
		n := x.c.State().Nodes[0]
		if strings.Join(n.Lines, " | ") != "Tooling — Pick: x, also y | Name?: Skipped" {
			t.Fatal(n)
		}
	})
	t.Run("NODE-2 an unreadable recorded payload keeps its raw text", func(t *testing.T) {
		for _, text := range []string{"{not json", `{"questions":"nope"}`, `"just a string"`, ""} {
			x, _ := convOf(t, replyEv("m1", "c1", text))
			ns := x.c.State().Nodes
			if len(ns) != 1 || len(ns[0].Lines) != 0 || ns[0].Text != text || ns[0].String() != "node s1#0 call=c1 raw="+wire.JSONString(text) {
				t.Errorf("%q: %v", text, ns)
			}
		}
	})
	t.Run("NODE-3 the reply is claimed exclusively and renders once", func(t *testing.T) {
		_, conv := convOf(t,
			session.TurnStart{Turn: 1},
			userMsg("m0", "hello"),
			toolCallEv("c1", timedAsk),
			replyEv("m1", "c1", replyBun),
			session.TurnEnd{Turn: 1, Reason: session.TurnEndReason{Kind: session.EndCompleted}},
		)
		got := strings.Join(conv, "\n")
		if strings.Count(got, "m1") != 0 || strings.Count(got, " reply c1") != 1 || strings.Count(got, " message ") != 1 {
			t.Fatalf("the reply must appear once, as a reply, never as a message:\n%s", got)
		}
	})
	t.Run("NODE-3 also for unscoped historical input", func(t *testing.T) {
		x, conv := convOf(t, replyEv("m1", "c1", replyBun), userMsg("m2", "later"))
		want := []string{
			"conv s1 #0 d0 group turn=0 folded",
			"conv s1 #0 d1 reply c1 turn=0 hidden",
			"conv s1 #1 d0 message m2 turn=0",
		}
		if strings.Join(conv, "\n") != strings.Join(want, "\n") {
			t.Fatalf("got\n%s", strings.Join(conv, "\n"))
		}
		if len(x.c.State().Nodes) != 1 {
			t.Fatal(x.c.State().Nodes)
		}
	})
	t.Run("NODE-4 the reply joins process grouping and whole-turn folding", func(t *testing.T) {
		_, conv := convOf(t,
			session.TurnStart{Turn: 1},
			userMsg("m0", "hello"),
			toolCallEv("c1", timedAsk),
			toolResultEv("c1", pendingText),
			session.TurnEnd{Turn: 1, Reason: session.TurnEndReason{Kind: session.EndCompleted}},
			session.TurnStart{Turn: 2}, // the reply opens this turn
			replyEv("m1", "c1", replyBun),
			session.ToolCall{Turn: 2, Step: 1, CallID: "c2", Name: "sleep", Arguments: `{"ms":5}`},
			session.TurnEnd{Turn: 2, Reason: session.TurnEndReason{Kind: session.EndCompleted}},
		)
		want := []string{
			"conv s1 #1 d0 message m0 turn=1",
			"conv s1 #0 d0 turn 1 turn=1 folded",
			"conv s1 #2 d1 group turn=1 folded hidden",
			"conv s1 #2 d2 tool c1 turn=1 hidden",
			"conv s1 #5 d0 turn 2 turn=2 folded",
			"conv s1 #6 d1 group turn=2 folded hidden",
			"conv s1 #6 d2 reply c1 turn=2 hidden",
			"conv s1 #7 d2 tool c2 turn=2 hidden",
		}
		if strings.Join(conv, "\n") != strings.Join(want, "\n") {
			t.Fatalf("got\n%s", strings.Join(conv, "\n"))
		}
	})
	t.Run("NODE-4 in a running turn the live group is open", func(t *testing.T) {
		_, conv := convOf(t,
			session.TurnStart{Turn: 1},
			replyEv("m1", "c1", replyBun),
			userMsg("m2", "steer"),
			toolCallEv("c2", timedAsk),
		)
		want := []string{
			"conv s1 #0 d0 turn 1 turn=1",
			"conv s1 #1 d1 group turn=1 folded",
			"conv s1 #1 d2 reply c1 turn=1 hidden",
			"conv s1 #2 d1 message m2 turn=1",
			"conv s1 #3 d1 group turn=1",
			"conv s1 #3 d2 tool c2 turn=1",
		}
		if strings.Join(conv, "\n") != strings.Join(want, "\n") {
			t.Fatalf("got\n%s", strings.Join(conv, "\n"))
		}
	})
}
