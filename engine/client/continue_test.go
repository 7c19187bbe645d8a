package client

import (
	"strings"
	"testing"

	"github.com/twosettle/twosettle/engine/wire"
)

// The guarded Continue (docs/PEER.md §6.6 "Continue / primary button", Enter in a text field)
// and the tool row's own disclosure toggle.
func TestContinueAndRowToggle(t *testing.T) {
	t.Run("CARD-4 continue refuses an unanswered question with the UI's message, advances, then submits", func(t *testing.T) {
		x := newH(t)
		x.at(0, ready(1))
		x.at(0, wf("e1", "s1", "c1", "keyed", qPkg, qName))
		err := x.userErr(10, wire.ActContinue)
		if err == nil || !strings.Contains(err.Error(), msgUnanswered) {
			t.Fatalf("continue on an unanswered question: %v", err)
		}
		if k := x.card("c1"); k.Index != 0 || k.Hint != "" || k.Draft != "{pkg=- name=-}" {
			t.Fatal("a refused continue changes nothing", k)
		}
		x.user(20, wire.ActChoose, "label=bun") // single select advances by itself
		x.user(30, wire.ActPrev)
		expect(t, x.user(40, wire.ActContinue)) // answered, not last: advances, sends nothing
		if k := x.card("c1"); k.Index != 1 {
			t.Fatal(k)
		}
		if err := x.userErr(50, wire.ActContinue); err == nil || !strings.Contains(err.Error(), "question name") {
			t.Fatalf("the typed-answer question is unanswered: %v", err)
		}
		x.user(60, wire.ActType, "text=  ") // blank custom text is no answer
		if err := x.userErr(70, wire.ActContinue); err == nil {
			t.Fatal("continue with blank text")
		}
		x.user(80, wire.ActType, "text=demo")
		expect(t, x.user(90, wire.ActContinue),
			`result gen=1 rpc=c1-r1 ev=e1 result {"answers":[{"id":"pkg","selected":["bun"]},{"id":"name","selected":[],"custom":"demo"}]}`)
		if k := x.card("c1"); !k.Busy {
			t.Fatal("the last continue submits", k)
		}
	})
	t.Run("ROW-1 the row's own toggle opens and closes its disclosure without revealing the card", func(t *testing.T) {
		x, r := rowOf(t, view(qs(qPkg), "c1:continued"), noInbox, toolCallEv("c1", timedAsk), toolResultEv("c1", pendingText))
		if r.Expanded {
			t.Fatal(r)
		}
		expect(t, x.user(10, wire.ActToggleRow, "card=c1"))
		if r := x.row("c1"); !r.Expanded || r.Action != labelAnswer {
			t.Fatal(r)
		}
		x.user(20, wire.ActToggleRow, "card=c1")
		if r := x.row("c1"); r.Expanded {
			t.Fatal("a second toggle closes it", r)
		}
		if err := x.userErr(30, wire.ActToggleRow, "card=c9"); err == nil || !strings.Contains(err.Error(), "toggle-row: no tool row for c9") {
			t.Fatal(err)
		}
	})
}

func TestSessionBinding(t *testing.T) {
	t.Run("CARD-8 an unbound Session's projection neither creates nor sweeps cards; binding it reconciles at once", func(t *testing.T) {
		x := newH(t)
		x.at(0, ready(1))
		x.at(0, update("s1", view(qs(qPkg), "c1:continued"), noInbox))
		if !x.hasCard("c1") {
			t.Fatal("a continued row creates its card")
		}
		x.user(10, wire.ActUnbind) // the only Session
		x.at(20, update("s1", wire.QuestionsView{}, noInbox))
		if !x.hasCard("c1") {
			t.Fatal("an unbound Session's update swept a card")
		}
		x.at(30, update("s1", view(qs(qPkg), "c2:continued"), noInbox))
		if x.hasCard("c2") {
			t.Fatal("an unbound Session's update created a card")
		}
		if err := x.userErr(40, wire.ActUnbind); err == nil || !strings.Contains(err.Error(), "not bound") {
			t.Fatal(err)
		}
		x.user(50, wire.ActBind, "session=s1")
		if x.hasCard("c1") || !x.hasCard("c2") {
			t.Fatal("binding reconciles the latest views", x.c.State().Cards)
		}
		if err := x.userErr(60, wire.ActBind, "session=s7"); err == nil || !strings.Contains(err.Error(), "no session s7") {
			t.Fatal(err)
		}
	})
}
