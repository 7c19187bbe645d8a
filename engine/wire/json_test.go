package wire

import (
	"encoding/json"
	"testing"

	"pgregory.net/rapid"
)

func ptr[T any](v T) *T { return &v }

func TestAppendJSONStringMatchesJSONStringify(t *testing.T) {
	cases := map[string]string{
		"plain":      `"plain"`,
		`a"b\c`:      `"a\"b\\c"`,
		"tab\tnl\n":  `"tab\tnl\n"`,
		"<html>&":    `"<html>&"`, // JSON.stringify does not escape HTML
		"\x01\x1f":   `"\u0001\u001f"`,
		"é 中":        `"é 中"`,
		"bad\xffutf": "\"bad\ufffdutf\"",
	}
	for in, want := range cases {
		if got := JSONString(in); got != want {
			t.Errorf("JSONString(%q) = %s, want %s", in, got, want)
		}
	}
	rapid.Check(t, func(t *rapid.T) {
		s := rapid.String().Draw(t, "s")
		var back string
		if err := json.Unmarshal([]byte(JSONString(s)), &back); err != nil {
			t.Fatalf("not JSON: %v", err)
		}
		var want string
		_ = json.Unmarshal(mustMarshal(s), &want)
		if back != want {
			t.Fatalf("round trip %q -> %q, want %q", s, back, want)
		}
	})
}

func mustMarshal(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}

func TestAnswerJSON(t *testing.T) {
	t.Run("TOOL-8 the answer text is compact JSON with keys id, selected, custom", func(t *testing.T) {
		a := Answer{Answers: []AnswerItem{{ID: "pkg", Selected: nil, Custom: ptr("bun")}, {ID: "x", Selected: []string{"A", "B"}}}}
		got := string(a.AppendJSON(nil))
		want := `{"answers":[{"id":"pkg","selected":[],"custom":"bun"},{"id":"x","selected":["A","B"]}]}`
		if got != want {
			t.Fatalf("got  %s\nwant %s", got, want)
		}
	})
	t.Run("questions keep the peer key order and leave absent fields out", func(t *testing.T) {
		q := Question{ID: "q", Question: "Which?", Header: ptr("H"), Detail: ptr("D"),
			Options: []Option{{Label: "a", Description: ptr("first")}, {Label: "b"}}, MultiSelect: ptr(false)}
		got := string(q.AppendJSON(nil))
		want := `{"id":"q","question":"Which?","detail":"D","header":"H","options":[{"label":"a","description":"first"},{"label":"b"}],"multiSelect":false}`
		if got != want {
			t.Fatalf("got  %s\nwant %s", got, want)
		}
		b, _ := json.Marshal(q)
		if string(b) != want {
			t.Fatalf("MarshalJSON differs: %s", b)
		}
	})
	t.Run("a request round-trips through ParseQuestionRequest", func(t *testing.T) {
		r := QuestionRequest{Questions: []Question{{ID: "q", Question: "?"}}, Wait: &Wait{CallID: "c1", Timed: true}}
		raw := r.AppendJSON(nil)
		if string(raw) != `{"questions":[{"id":"q","question":"?"}],"wait":{"callId":"c1","timed":true}}` {
			t.Fatalf("request %s", raw)
		}
		back, err := ParseQuestionRequest(raw)
		if err != nil || back.Wait == nil || !back.Wait.Timed || back.Questions[0].ID != "q" {
			t.Fatalf("parse: %v %+v", err, back)
		}
		for _, bad := range []string{`[]`, `{}`, `{"questions":[{"id":""}]}`, `nope`} {
			if _, err := ParseQuestionRequest(json.RawMessage(bad)); err == nil {
				t.Errorf("accepted %s", bad)
			}
		}
	})
	t.Run("GW-8 envelopes are {ok,value} or {ok:false,error:{code,message}}", func(t *testing.T) {
		if s := OKValue(json.RawMessage("true")).String(); s != `{"ok":true,"value":true}` {
			t.Fatal(s)
		}
		if s := (Envelope{OK: true}).String(); s != `{"ok":true}` {
			t.Fatal(s)
		}
		if s := Failure("gateway/internal", `bad "x"`).String(); s != `{"ok":false,"error":{"code":"gateway/internal","message":"bad \"x\""}}` {
			t.Fatal(s)
		}
	})
}
