package wire

import (
	"encoding/json"
	"testing"
)

// The Session log file lines, view lines and the projection profile's messages are what
// the schemas in docs/protocol say, and the schemas refuse an unknown key.
func TestSessionLogAndProjectionSchemasAcceptTheCodec(t *testing.T) {
	v := newSchemaValidator()
	check := func(file, line string, want bool) {
		t.Helper()
		var x any
		if err := json.Unmarshal([]byte(line), &x); err != nil {
			t.Fatalf("%s: %v", line, err)
		}
		if err := v.check(t, file, x); (err == "") != want {
			t.Errorf("%s: %s: valid=%v, want %v (%s)", file, line, err == "", want, err)
		}
	}
	for _, h := range []LogHeader{{Session: "s1"}, {Session: "f1", Parent: "s1", Inherited: 4}} {
		line := AppendLogHeaderJSON(nil, h)
		check("session-log.schema.json", string(line), true)
		check("session-log.schema.json", string(line[:len(line)-1])+`,"extra":1}`, false)
		got, err := DecodeLogHeader(line)
		if err != nil || got != h {
			t.Errorf("header %s decodes to %+v, %v", line, got, err)
		}
	}
	for _, s := range eventSamples {
		check("session-log.schema.json", s.json, true)
		check("messages.schema.json", `{"type":"event","n":3,"event":`+s.json+`}`, true)
	}
	yes := true
	view := QuestionsView{
		Active:  []PendingRow{{CallID: "c1", Questions: []Question{{ID: "q", Question: "Q", Options: []Option{{Label: "a"}}, MultiSelect: &yes}}, State: StateContinued}},
		Settled: []SettledRow{{CallID: "c0", Answers: []AnswerItem{{ID: "q", Selected: []string{"a"}}}}},
	}
	vl := AppendViewLineJSON(nil, ViewLine{Seq: 7, View: view})
	check("view-line.schema.json", string(vl), true)
	check("view-line.schema.json", `{"seq":7,"view":{"active":[],"settled":[]},"x":0}`, false)
	check("view.schema.json", `{"active":[{"callId":"c1","questions":[],"state":"closed"}],"settled":[]}`, false)
	viewJSON := string(AppendQuestionsViewJSON(nil, view))
	for _, m := range []struct {
		line string
		want bool
	}{
		{`{"type":"hello","protocol":"twosettle-conform/1","runner":"twosettle conform","profile":"projection"}`, true},
		{`{"type":"hello","protocol":"twosettle-conform/1","name":"n","profiles":["host","projection"]}`, true},
		{`{"type":"fold-start","n":1,"session":"s1","inherited":0}`, true},
		{`{"type":"fold-start","n":1,"session":"s1"}`, false},
		{`{"type":"view","n":2,"view":` + viewJSON + `}`, true},
		{`{"type":"view","n":2,"view":{"active":[]}}`, true}, // an absent list is empty, as the decoder reads it
		{`{"type":"view","n":2,"view":{"active":[],"pending":[]}}`, false},
	} {
		check("messages.schema.json", m.line, m.want)
	}
}
