package wire

import (
	"strings"
	"testing"
)

func TestConformQuestionsViewJSONRoundTripsAndIsStrict(t *testing.T) {
	yes := true
	v := QuestionsView{
		Active:  []PendingRow{{CallID: "c1", Questions: []Question{{ID: "q", Question: "Which", Options: []Option{{Label: "a"}}, MultiSelect: &yes}}, State: StateOpen}},
		Settled: []SettledRow{{CallID: "c0", Answers: []AnswerItem{{ID: "q", Selected: []string{}}}}},
	}
	b := AppendQuestionsViewJSON(nil, v)
	const want = `{"active":[{"callId":"c1","questions":[{"id":"q","question":"Which","options":[{"label":"a"}],"multiSelect":true}],"state":"open"}],"settled":[{"callId":"c0","answers":[{"id":"q","selected":[]}]}]}`
	if string(b) != want {
		t.Fatalf("encoded\n %s\nwant\n %s", b, want)
	}
	got, err := DecodeQuestionsView(b)
	if err != nil {
		t.Fatal(err)
	}
	if again := AppendQuestionsViewJSON(nil, got); string(again) != want {
		t.Fatalf("round trip gave %s", again)
	}
	for _, bad := range []struct{ in, msg string }{
		{`{"active":[],"settled":[],"x":1}`, `view: unknown key "x"`},
		{`{"active":{}}`, `view.active`},
		{`{"active":[{"callId":"c1","questions":[],"state":"open","extra":true}]}`, `unknown key "extra"`},
		{`[]`, `view: want an object`},
		{`{"active":[`, `view: invalid JSON`},
	} {
		if _, err := DecodeQuestionsView([]byte(bad.in)); err == nil || !strings.Contains(err.Error(), bad.msg) {
			t.Errorf("DecodeQuestionsView(%s) = %v, want an error containing %q", bad.in, err, bad.msg)
		}
	}
}
