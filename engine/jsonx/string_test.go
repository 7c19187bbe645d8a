package jsonx

import (
	"encoding/json"
	"testing"

	"pgregory.net/rapid"
)

func TestReadString(t *testing.T) {
	for _, c := range []struct {
		in   string
		want string
		next int
		ok   bool
	}{
		{`"plain" tail`, "plain", 7, true},
		{`""`, "", 2, true},
		{`"a\"b\\c\/d\b\f\n\r\t"`, "a\"b\\c/d\b\f\n\r\t", 22, true},
		{`"\u00e9\u20AC"`, "é€", 14, true},
		{`"\ud83d\ude00"`, "😀", 14, true},
		{`"\ud83d x"`, "\ufffd x", 10, true},         // a lone high surrogate
		{`"\ude00\ud83d"`, "\ufffd\ufffd", 14, true}, // a low one first, then a high one alone
		{`"\ud83d\u0041"`, "\ufffdA", 14, true},      // a high surrogate and no low one
		{"\"bad \xff byte\"", "bad \ufffd byte", 12, true},
		{"\"esc \\n and \xff\"", "esc \n and \ufffd", 14, true},
		{`"\x"`, "", 2, false},
		{`"\u12"`, "", 3, false},
		{`"\ud83d\uZZZZ"`, "", 9, false},
		{"\"raw \n newline\"", "", 5, false},
		{`"unterminated`, "", 13, false},
		{`"ends in \`, "", 10, false},
	} {
		got, next, ok := ReadString(c.in, 0)
		if got != c.want || ok != c.ok || (ok && next != c.next) {
			t.Errorf("ReadString(%q) = %q, %d, %v; want %q, %d, %v", c.in, got, next, ok, c.want, c.next, c.ok)
		}
	}
}

// ReadString agrees with encoding/json on any literal: the same acceptance and the
// same string (both turn bad UTF-8 and lone surrogates into U+FFFD).
func TestReadStringAgreesWithEncodingJSON(t *testing.T) {
	alphabet := []string{`\`, `"`, `u`, `d83d`, `de00`, `00e9`, `n`, `/`, "\xff", "\xc3", "\xa9", "é", "a", "\x01", " ", `ZZ`}
	rapid.Check(t, func(t *rapid.T) {
		parts := rapid.SliceOfN(rapid.SampledFrom(alphabet), 0, 12).Draw(t, "parts")
		lit := `"`
		for _, p := range parts {
			lit += p
		}
		lit += `"`
		got, next, ok := ReadString(lit, 0)
		var want string
		err := json.Unmarshal([]byte(lit), &want)
		if ok && next != len(lit) {
			// the literal closed early: compare the prefix encoding/json can read alone
			err = json.Unmarshal([]byte(lit[:next]), &want)
		}
		if ok != (err == nil) || (ok && got != want) {
			t.Fatalf("%q: ReadString = %q, %v; encoding/json = %q, %v", lit, got, ok, want, err)
		}
	})
}
