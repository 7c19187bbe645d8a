package session

import (
	"strings"
	"testing"
)

func appendN(l *Log, n int) {
	for i := 0; i < n; i++ {
		l.Append(int64(i*10), TurnStart{Turn: i + 1})
	}
}

func TestLog(t *testing.T) {
	t.Run("seq is monotonic from 0", func(t *testing.T) {
		l := New("s1")
		appendN(l, 3)
		for i, e := range l.Events() {
			if e.Seq != i {
				t.Fatalf("event %d has seq %d", i, e.Seq)
			}
		}
		if l.NextSeq() != 3 {
			t.Fatalf("next seq %d", l.NextSeq())
		}
	})
	t.Run("AGENT-6 a crash keeps the persisted prefix and loses the unpersisted suffix", func(t *testing.T) {
		l := New("s1")
		appendN(l, 2)
		if !l.Persist() || l.Persisted() != 2 {
			t.Fatalf("persist: %d", l.Persisted())
		}
		appendN(l, 3)
		if !l.Dirty() {
			t.Fatal("not dirty after append")
		}
		if lost := l.Crash(); lost != 3 {
			t.Fatalf("lost %d events, want 3", lost)
		}
		if l.Len() != 2 || l.NextSeq() != 2 {
			t.Fatalf("after crash len=%d", l.Len())
		}
		e := l.Append(99, StepStart{Turn: 1, Step: 1})
		if e.Seq != 2 {
			t.Fatalf("seq after crash %d, want 2", e.Seq)
		}
	})
	t.Run("AGENT-6 a crash cut before a later persist keeps only the earlier durable prefix", func(t *testing.T) {
		l := New("s1")
		appendN(l, 4)
		l.PersistThrough(2)
		l.Persist()
		if lost := l.CrashAt(2); lost != 2 || l.Len() != 2 {
			t.Fatalf("lost %d len %d", lost, l.Len())
		}
	})
	t.Run("PersistThrough never moves the prefix backwards", func(t *testing.T) {
		l := New("s1")
		appendN(l, 4)
		l.PersistThrough(3)
		l.PersistThrough(1)
		l.PersistThrough(10)
		if l.Persisted() != 4 {
			t.Fatalf("persisted %d", l.Persisted())
		}
	})
	t.Run("PROJ-11 a fork inherits a durable copy of the prefix", func(t *testing.T) {
		p := New("p")
		appendN(p, 5)
		f, err := Fork("f", p, 2)
		if err != nil {
			t.Fatal(err)
		}
		if f.Inherited() != 3 || f.Persisted() != 3 || f.Len() != 3 || f.Parent() != "p" {
			t.Fatalf("fork inherited=%d persisted=%d len=%d", f.Inherited(), f.Persisted(), f.Len())
		}
		f.Append(1, TurnStart{Turn: 9})
		if p.Len() != 5 || p.Events()[3].Data.(TurnStart).Turn != 4 {
			t.Fatal("appending to the fork changed the parent")
		}
		if f.CrashAt(0); f.Len() != 3 {
			t.Fatalf("a crash dropped inherited events: len %d", f.Len())
		}
		if _, err := Fork("g", p, 5); err == nil {
			t.Fatal("fork past the end accepted")
		}
		if _, err := Fork("g", p, -1); err != nil {
			t.Fatalf("empty fork refused: %v", err)
		}
	})
	t.Run("Since returns the suffix", func(t *testing.T) {
		l := New("s")
		appendN(l, 3)
		if got := l.Since(1); len(got) != 2 || got[0].Seq != 1 {
			t.Fatalf("since 1: %v", got)
		}
		if got := l.Since(3); got != nil {
			t.Fatalf("since end: %v", got)
		}
	})
}

func TestCanonicalText(t *testing.T) {
	cases := []struct {
		d    Data
		want string
	}{
		{RequestHeader{Reason: "initial", Tools: `[{"name":"x"}]`}, `request/header reason=initial tools=[{"name":"x"}]`},
		{TurnEnd{Turn: 2, Reason: TurnEndReason{Kind: EndAborted, Detail: "user"}}, "turn/end turn=2 reason=aborted:user"},
		{ToolResult{Turn: 1, Step: 1, CallID: "c1", IsError: true, Err: ErrorInfo{Name: "UserQuestionError", Code: "ASK_ABORTED"}, Text: "Error: x"},
			"tool/result turn=1 step=1 call=c1 error err=UserQuestionError/ASK_ABORTED Error: x"},
		{UserMessage{Message: Message{ID: "m1", Source: Source{Kind: SourceUserQuestionReply, CallID: "c1", Outcome: "answered"}, Text: "{}"}},
			`user/message m1 user-question-reply(call=c1,outcome=answered) "{}"`},
		{InboxSpliced{Target: NextStep, Start: 0, Inserted: []Message{{ID: "m1", Source: Source{Kind: "user"}, Text: "hi"}}}, `agent/inbox/spliced queued next-step start=0 +[m1 user "hi"]`},
		{InboxSpliced{Target: NextStep, Start: 0, Removed: 1}, "agent/inbox/spliced claimed next-step start=0 removed=1"},
		{InboxSpliced{Target: NextTurn, Start: 1, Removed: 1, Outcome: OutcomeCanceled}, "agent/inbox/spliced discarded next-turn start=1 removed=1"},
	}
	for _, c := range cases {
		if got := c.d.String(); got != c.want {
			t.Errorf("got  %s\nwant %s", got, c.want)
		}
		if !strings.HasPrefix(c.d.String(), c.d.Type()) {
			t.Errorf("%s does not start with its type", c.d.String())
		}
	}
	e := Event{Seq: 7, Time: 5000, Data: StepEnd{Turn: 1, Step: 2}}
	if e.String() != "#7 t=5000 step/end turn=1 step=2" {
		t.Errorf("event text %q", e.String())
	}
}
