package wire

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/twosettle/twosettle/engine/session"
)

// Inbox entries as a real host may send them decode as the peer's client reads them: null
// or another type where a string is expected is absent, an entry that is not an object is
// dropped, unknown keys are ignored; only kind user-question-reply with a string callId
// makes a late reply (CARD-9, ROW-2).
func TestInboxEntriesAsARealHostSendsThem(t *testing.T) {
	frame := func(entries string) string {
		return `{"kind":"from-host","frame":{"kind":"session-update","session":"s1","from":0,"questions":{},"inbox":{"next-turn":[],"next-step":[` + entries + `]}}}`
	}
	reply := func(id, call string) session.Message {
		return session.Message{ID: id, Source: session.Source{Kind: session.SourceUserQuestionReply, CallID: call, Outcome: "answered"}, Text: "{}"}
	}
	cases := []struct {
		name, entries string
		want          []session.Message
	}{
		{"CARD-9 a reply with a null callId is no reply of a call",
			`{"id":"m1","source":{"kind":"user-question-reply","callId":null,"outcome":"answered"},"text":"{}"}`,
			[]session.Message{{ID: "m1", Source: session.Source{Kind: session.SourceUserQuestionReply, Outcome: "answered"}, Text: "{}"}}},
		{"CARD-9 null text, noText and outcome are absent",
			`{"id":"m1","source":{"kind":"user-question-reply","callId":"c1","outcome":null},"text":null,"noText":null}`,
			[]session.Message{{ID: "m1", Source: session.Source{Kind: session.SourceUserQuestionReply, CallID: "c1"}}}},
		{"CARD-9 a null or non-object source is no source",
			`{"id":"m1","source":null,"text":"hi"},{"id":"m2","source":"user-question-reply","text":"hi"}`,
			[]session.Message{{ID: "m1", Text: "hi"}, {ID: "m2", Text: "hi"}}},
		{"CARD-9 values of another type are absent",
			`{"id":7,"source":{"kind":1,"callId":["c1"],"outcome":true},"text":{"type":"text"},"noText":"yes"}`,
			[]session.Message{{}}},
		{"CARD-9 entries that are not records are dropped, the rest kept in order",
			`null,{"id":"m1","source":{"kind":"user-question-reply","callId":"c1","outcome":"answered"},"text":"{}"},3,"m2",[],{"id":"m3","source":{"kind":"user-question-reply","callId":"c3","outcome":"answered"},"text":"{}"}`,
			[]session.Message{reply("m1", "c1"), reply("m3", "c3")}},
		{"CARD-9 the peer runtime's own keys (role, content) are ignored",
			`{"id":"m1","role":"user","content":[{"type":"text","text":"{}"}],"source":{"kind":"user-question-reply","callId":"c1","outcome":"answered","extra":null},"text":"{}"}`,
			[]session.Message{reply("m1", "c1")}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			in, err := DecodeClientInput([]byte(frame(c.entries)))
			if err != nil {
				t.Fatal(err)
			}
			got := in.(FromHost).Frame.(SessionUpdate).Inbox.NextStep
			if d := cmp.Diff(c.want, got); d != "" {
				t.Fatalf("(-want +got)\n%s", d)
			}
			// Re-encoded, the entries are canonical and decode to the same.
			b, err := AppendClientInputJSON(nil, in)
			if err != nil {
				t.Fatal(err)
			}
			back, err := DecodeClientInput(b)
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(in, back); d != "" {
				t.Fatalf("round trip (-first +second)\n%s", d)
			}
		})
	}
	// The lists stay arrays, and the frame around them stays strict.
	for _, bad := range []string{
		`{"kind":"from-host","frame":{"kind":"session-update","session":"s1","from":0,"questions":{},"inbox":{"next-step":null}}}`,
		`{"kind":"from-host","frame":{"kind":"session-update","session":"s1","from":0,"questions":{},"inbox":{"next-step":[],"later":[]}}}`,
	} {
		if _, err := DecodeClientInput([]byte(bad)); err == nil {
			t.Errorf("accepted %s", bad)
		}
	}
}
