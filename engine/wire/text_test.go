package wire

import (
	"strings"
	"testing"
)

func TestTextPartKeepsEveryTextFormOnOneLine(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"bun", "bun"},
		{"npm (recommended)", "npm (recommended)"},
		{"Café — ünïcode", "Café — ünïcode"},
		{"a\x00b", `"a\u0000b"`},
		{"x\ny", `"x\ny"`},
		{"cr\r", `"cr\r"`},
		{"tab\t", `"tab\t"`},
		{"\"quoted\"", `"\"quoted\""`},
		{"bad \xff utf-8", `"bad ` + "\ufffd" + ` utf-8"`},
		{"line\u2028sep", "\"line\u2028sep\""}, // quoted (the separator stays inside the JSON string)
	} {
		if got := TextPart(c.in); got != c.want {
			t.Errorf("TextPart(%q) = %s, want %s", c.in, got, c.want)
		}
	}
	item := AnswerItem{ID: "q", Selected: []string{"a\x00b", "x\ny", "bun"}}
	if got, want := item.String(), `q=["a\u0000b","x\ny",bun]`; got != want {
		t.Errorf("answer item %s, want %s", got, want)
	}
	q := Question{ID: "q", Question: "Q", Options: []Option{{Label: "x\ny"}, {Label: "bun"}}}
	if got := q.String(); strings.ContainsAny(got, "\n\x00") || got != `q "Q" ["x\ny"|bun]` {
		t.Errorf("question %s", got)
	}
	row := RowState{Session: "s1", CallID: "c1", State: "answered", Transcript: []string{"Q: x\ny"}}
	node := NodeState{Session: "s1", Seq: 3, CallID: "c1", Lines: []string{"Q: a\x00b"}}
	for _, s := range []string{row.String(), node.String()} {
		if strings.ContainsAny(s, "\n\x00") {
			t.Errorf("raw control character in %q", s)
		}
	}
}
