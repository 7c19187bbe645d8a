package questions

import (
	"errors"
	"strings"
	"testing"

	"github.com/twosettle/twosettle/engine/session"
	"github.com/twosettle/twosettle/engine/wire"
)

func replyMsg(id, callID string) session.Message {
	return session.Message{ID: id, Source: session.Source{Kind: session.SourceUserQuestionReply, CallID: callID, Outcome: "answered"}, Text: "{}"}
}

// answered sets up a fixture whose s1 has continued c1 (questions a, b) and accepts one answer.
func answered(t *testing.T) *fixture {
	t.Helper()
	f := newFixture()
	f.rt.views["s1"] = continuedView()
	ok, err := f.svc.Answer(0, f.agent, "c1", raw(answerAB))
	if !ok || err != nil {
		t.Fatalf("answer: %v %v", ok, err)
	}
	return f
}

func TestLate(t *testing.T) {
	t.Run("LATE-1 answer is false for an unknown, open, settled or legacy call", func(t *testing.T) {
		f := newFixture()
		f.rt.views["s1"] = wire.QuestionsView{
			Active:  []wire.PendingRow{{CallID: "open", Questions: qs("a"), State: wire.StateOpen}},
			Settled: []wire.SettledRow{{CallID: "done", Answers: []wire.AnswerItem{}}},
		}
		for _, call := range []string{"unknown", "open", "done", "legacy"} {
			ok, err := f.svc.Answer(0, f.agent, call, raw(answerA))
			if ok || err != nil {
				t.Errorf("%s: %v %v", call, ok, err)
			}
		}
		if len(f.rt.steered) != 0 || len(f.svc.Reservations()) != 0 {
			t.Fatal("something was steered or reserved")
		}
	})
	t.Run("LATE-2 REPLY_QUEUED while another reply awaits admission, before validation", func(t *testing.T) {
		f := answered(t)
		ok, err := f.svc.Answer(0, f.agent, "c1", raw(answerAB))
		if ok || !err.HasCode(wire.ReplyQueued) {
			t.Fatalf("reserved: %v %v", ok, err)
		}
		ok, err = f.svc.Answer(0, f.agent, "c1", raw(`{"answers":[]}`)) // invalid too
		if ok || !err.HasCode(wire.ReplyQueued) {
			t.Fatalf("reserved and invalid: %v %v", ok, err)
		}
		// No reservation (a restart lost it), but the durable inbox holds a reply.
		for _, target := range []string{session.NextStep, session.NextTurn} {
			f := newFixture()
			f.rt.views["s1"] = continuedView()
			if target == session.NextStep {
				f.rt.nextStep["s1"] = []session.Message{replyMsg("old", "c1")}
			} else {
				f.rt.nextTurn["s1"] = []session.Message{{ID: "p", Source: session.Source{Kind: "user"}}, replyMsg("old", "c1")}
			}
			ok, err := f.svc.Answer(0, f.agent, "c1", raw(`not json`))
			if ok || !err.HasCode(wire.ReplyQueued) {
				t.Errorf("%s inbox: %v %v", target, ok, err)
			}
		}
		// A reply for another call, or an ordinary message, is no obstacle.
		f2 := newFixture()
		f2.rt.views["s1"] = continuedView()
		f2.rt.nextStep["s1"] = []session.Message{replyMsg("x", "c2"), {ID: "u", Source: session.Source{Kind: "user"}, Text: "c1"}}
		if ok, err := f2.svc.Answer(0, f2.agent, "c1", raw(answerAB)); !ok || err != nil {
			t.Fatalf("other call queued: %v %v", ok, err)
		}
	})
	t.Run("LATE-3 BAD_ANSWER unless the batch names each question id exactly once", func(t *testing.T) {
		bad := []string{
			`{"answers":[{"id":"a","selected":[]}]}`,
			`{"answers":[{"id":"a","selected":[]},{"id":"a","selected":[]}]}`,
			`{"answers":[{"id":"a","selected":[]},{"id":"c","selected":[]}]}`,
			`{"answers":[{"id":"a","selected":[]},{"id":"b","selected":[]},{"id":"c","selected":[]}]}`,
			`{"answers":[{"id":"a","selected":[]},"b"]}`,
			`{"answers":[{"id":"a","selected":[]},{"id":2,"selected":[]}]}`,
			`{"answers":{}}`, `{}`, `[]`, `null`, `garbage`,
		}
		for _, b := range bad {
			f := newFixture()
			f.rt.views["s1"] = continuedView()
			ok, err := f.svc.Answer(0, f.agent, "c1", raw(b))
			if ok || !err.HasCode(wire.BadAnswer) || !strings.Contains(err.Message, `"c1"`) || !strings.Contains(err.Message, "2 question") {
				t.Errorf("%s: %v %v", b, ok, err)
			}
			if len(f.svc.Reservations()) != 0 || len(f.rt.steered) != 0 {
				t.Errorf("%s: reserved or steered", b)
			}
		}
		// Only ids are checked: labels outside the options, custom with single select, order.
		f := newFixture()
		f.rt.views["s1"] = continuedView()
		ok, err := f.svc.Answer(0, f.agent, "c1", raw(`{"answers":[{"id":"b","selected":["zzz","yyy"],"custom":"c"},{"id":"a"}]}`))
		if !ok || err != nil {
			t.Fatalf("ids-only validation: %v %v", ok, err)
		}
	})
	t.Run("LATE-4 an accepted answer steers the reply message and returns true", func(t *testing.T) {
		f := newFixture()
		hdr := "Pick"
		f.rt.views["s1"] = wire.QuestionsView{Active: []wire.PendingRow{{CallID: "c1", State: wire.StateContinued, Questions: []wire.Question{
			{ID: "a", Question: "A?", Header: &hdr, Options: []wire.Option{{Label: "x"}}},
			{ID: "b", Question: "B?", MultiSelect: ptr(true)},
		}}}}
		in := ` {"answers":[ {"selected":["x"], "id":"a", "extra": 1.50, "n": 1e21} , {"id":"b","selected":[],"custom":"\u00e9\n"} ]} `
		ok, err := f.svc.Answer(0, f.agent, "c1", raw(in))
		if !ok || err != nil {
			t.Fatalf("answer: %v %v", ok, err)
		}
		if len(f.rt.steered) != 1 {
			t.Fatalf("steered %d", len(f.rt.steered))
		}
		m := f.rt.steered[0]
		if m.Source != (session.Source{Kind: "user-question-reply", CallID: "c1", Outcome: "answered"}) || !m.Source.IsQuestionReply() {
			t.Fatalf("source %+v", m.Source)
		}
		want := `{"kind":"answer_to_pending_question","tool":"ask_user_question","callId":"c1",` +
			`"questions":[{"id":"a","question":"A?","header":"Pick","options":[{"label":"x"}]},{"id":"b","question":"B?","multiSelect":true}],` +
			`"answers":[{"selected":["x"],"id":"a","extra":1.5,"n":1e+21},{"id":"b","selected":[],"custom":"é\n"}]}`
		if m.Text != want {
			t.Fatalf("reply text\n got %s\nwant %s", m.Text, want)
		}
		if rs := f.svc.Reservations(); len(rs) != 1 || rs[0].MessageID != m.ID || rs[0].ClaimedTurn != -1 {
			t.Fatalf("reservations %+v", rs)
		}
	})
	t.Run("LATE-5 a steer failure releases the reservation and propagates", func(t *testing.T) {
		f := newFixture()
		f.rt.views["s1"] = continuedView()
		f.rt.steerErr = errors.New("inbox refused the message")
		ok, err := f.svc.Answer(0, f.agent, "c1", raw(answerAB))
		if ok || err == nil || err.Message != "inbox refused the message" {
			t.Fatalf("steer failure: %v %v", ok, err)
		}
		if len(f.svc.Reservations()) != 0 {
			t.Fatal("reservation kept after a steer failure")
		}
		f.rt.steerErr = nil
		if ok, err := f.svc.Answer(0, f.agent, "c1", raw(answerAB)); !ok || err != nil {
			t.Fatalf("retry: %v %v", ok, err)
		}
	})
	t.Run("LATE-6 the reservation covers queuing, claim and admission", func(t *testing.T) {
		f := answered(t)
		m := f.rt.steered[0]
		f.rt.nextStep["s1"] = nil // claimed out of the inbox
		f.svc.OnClaimed("s1", m, 3)
		if rs := f.svc.Reservations(); len(rs) != 1 || rs[0].ClaimedTurn != 3 {
			t.Fatalf("after claim %+v", rs)
		}
		if _, err := f.svc.Answer(0, f.agent, "c1", raw(answerAB)); !err.HasCode(wire.ReplyQueued) {
			t.Fatalf("claimed, not admitted: %v", err)
		}
		f.svc.OnEvent("s1", session.Event{Seq: 9, Data: session.StepEnd{Turn: 3, Step: 1}})
		if len(f.svc.Reservations()) != 1 {
			t.Fatal("step/end released the reservation")
		}
	})
	t.Run("LATE-6 claiming a restored reply re-creates the reservation, and the first one wins", func(t *testing.T) {
		f := newFixture() // a fresh service, as after a restart
		f.rt.views["s1"] = continuedView()
		f.svc.OnClaimed("s1", replyMsg("restored", "c1"), 2)
		f.svc.OnClaimed("s1", replyMsg("other", "c1"), 2)
		f.svc.OnClaimed("s1", session.Message{ID: "plain", Source: session.Source{Kind: "user"}}, 2)
		rs := f.svc.Reservations()
		if len(rs) != 1 || rs[0].MessageID != "restored" || rs[0].ClaimedTurn != 2 {
			t.Fatalf("reservations %+v", rs)
		}
		if _, err := f.svc.Answer(0, f.agent, "c1", raw(answerAB)); !err.HasCode(wire.ReplyQueued) {
			t.Fatalf("answer: %v", err)
		}
		// Releases name the winning message only.
		f.svc.OnDiscarded("s1", replyMsg("other", "c1"))
		f.svc.OnEvent("s1", session.Event{Data: session.UserMessage{Message: replyMsg("other", "c1")}})
		if len(f.svc.Reservations()) != 1 {
			t.Fatal("a release for another message took the reservation")
		}
	})
	t.Run("LATE-7 admission as user/message releases the reservation", func(t *testing.T) {
		f := answered(t)
		m := f.rt.steered[0]
		f.svc.OnClaimed("s1", m, 1)
		f.svc.OnEvent("s1", session.Event{Data: session.UserMessage{Message: m}})
		if len(f.svc.Reservations()) != 0 {
			t.Fatal("admission kept the reservation")
		}
	})
	t.Run("LATE-7 a discard releases the reservation so the question can be answered again", func(t *testing.T) {
		f := answered(t)
		m := f.rt.steered[0]
		f.rt.nextStep["s1"] = nil
		f.svc.OnDiscarded("s1", m)
		if len(f.svc.Reservations()) != 0 {
			t.Fatal("discard kept the reservation")
		}
		if ok, err := f.svc.Answer(0, f.agent, "c1", raw(answerAB)); !ok || err != nil {
			t.Fatalf("answer again: %v %v", ok, err)
		}
	})
	t.Run("LATE-7 a turn that ends without admitting a reply claimed in it releases it", func(t *testing.T) {
		f := answered(t)
		m := f.rt.steered[0]
		f.rt.nextStep["s1"] = nil
		f.svc.OnEvent("s1", session.Event{Data: session.TurnEnd{Turn: 4}})
		if len(f.svc.Reservations()) != 1 {
			t.Fatal("turn/end released an unclaimed reservation")
		}
		f.svc.OnClaimed("s1", m, 5)
		f.svc.OnEvent("s1", session.Event{Data: session.TurnEnd{Turn: 4}})
		if len(f.svc.Reservations()) != 1 {
			t.Fatal("turn/end of another turn released it")
		}
		f.svc.OnEvent("s2", session.Event{Data: session.TurnEnd{Turn: 5}})
		if len(f.svc.Reservations()) != 1 {
			t.Fatal("turn/end of another Session released it")
		}
		f.svc.OnEvent("s1", session.Event{Data: session.TurnEnd{Turn: 5}})
		if len(f.svc.Reservations()) != 0 {
			t.Fatal("turn/end of the claiming turn kept it")
		}
		if ok, err := f.svc.Answer(0, f.agent, "c1", raw(answerAB)); !ok || err != nil {
			t.Fatalf("answer again: %v %v", ok, err)
		}
	})
	t.Run("LATE-9 a queued reply cancelled before admission leaves the question answerable", func(t *testing.T) {
		f := answered(t)
		m := f.rt.steered[0]
		// The projection still shows c1 continued: queuing settles nothing.
		if row, ok := f.rt.views["s1"].Row("c1"); !ok || row.State != wire.StateContinued {
			t.Fatal("view changed")
		}
		f.rt.nextStep["s1"] = nil
		f.svc.OnDiscarded("s1", m)
		if ok, err := f.svc.Answer(0, f.agent, "c1", raw(answerAB)); !ok || err != nil {
			t.Fatalf("answer after cancel: %v %v", ok, err)
		}
	})
}
