package wire

import (
	"bytes"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"

	"github.com/twosettle/twosettle/engine/jsonx"
)

// The decoders against arbitrary input (go test -fuzz FuzzDecodeCommand / FuzzDecodeEffect):
// they never panic, and whatever decodes encodes (a decoder never builds a value the
// encoder refuses) to a canonical line that decodes to the same value and encodes to the
// same bytes again. For valid UTF-8 input the value survives the trip exactly.

// fuzzSeeds are the sample lines and a few near misses of each.
func fuzzSeeds(f *testing.F, lines []string) {
	for _, l := range lines {
		f.Add([]byte(l))
		f.Add([]byte(l[:len(l)/2]))
	}
	for _, s := range []string{``, `{}`, `null`, `[]`, `{"kind":1}`, "{\"kind\":\"tick\"}\n",
		`{"kind":"call","client":"a","gen":1,"rpcId":"r","endpoint":"e","args":{` + "\n" + `}}`,
		`{"kind":"call","client":"a","gen":1,"rpcId":"r","endpoint":"e","argsRaw":" 1"}`,
		"{\"kind\":\"call\",\"client\":\"a\",\"gen\":1,\"rpcId\":\"r\",\"endpoint\":\"e\",\"args\":\"\xff\"}",
		`{"kind":"connect","client":"\ud800x"}`} {
		f.Add([]byte(s))
	}
}

func FuzzDecodeCommand(f *testing.F) {
	var lines []string
	for _, s := range commandSamples {
		lines = append(lines, s.json)
	}
	fuzzSeeds(f, lines)
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := DecodeCommand(data)
		if err != nil {
			return
		}
		canon, err := AppendCommandJSON(nil, c)
		if err != nil {
			t.Fatalf("decoded %q into %#v, which does not encode: %v", data, c, err)
		}
		checkLine(t, canon)
		c2, err := DecodeCommand(canon)
		if err != nil {
			t.Fatalf("the canonical line %s does not decode: %v", canon, err)
		}
		again, _ := AppendCommandJSON(nil, c2)
		if !bytes.Equal(again, canon) {
			t.Fatalf("not canonical:\n%s\n%s", canon, again)
		}
		if utf8.Valid(data) {
			if d := cmp.Diff(c, c2); d != "" {
				t.Fatalf("%q changed on the way (-first +second):\n%s", data, d)
			}
		}
	})
}

func FuzzDecodeEffect(f *testing.F) {
	var lines []string
	for _, s := range effectSamples {
		lines = append(lines, s.json)
	}
	for _, s := range eventSamples {
		lines = append(lines, `{"kind":"appended","session":"s1","event":`+s.json+`}`)
	}
	fuzzSeeds(f, lines)
	f.Fuzz(func(t *testing.T, data []byte) {
		e, err := DecodeEffect(data)
		if err != nil {
			return
		}
		canon, err := AppendEffectJSON(nil, e)
		if err != nil {
			t.Fatalf("decoded %q into %#v, which does not encode: %v", data, e, err)
		}
		checkLine(t, canon)
		e2, err := DecodeEffect(canon)
		if err != nil {
			t.Fatalf("the canonical line %s does not decode: %v", canon, err)
		}
		again, _ := AppendEffectJSON(nil, e2)
		if !bytes.Equal(again, canon) {
			t.Fatalf("not canonical:\n%s\n%s", canon, again)
		}
		if utf8.Valid(data) {
			if d := cmp.Diff(e, e2); d != "" {
				t.Fatalf("%q changed on the way (-first +second):\n%s", data, d)
			}
		}
	})
}

// checkLine asserts what every encoded message is: one line of valid UTF-8 JSON.
func checkLine(t *testing.T, line []byte) {
	t.Helper()
	if !jsonx.Valid(line) || !utf8.Valid(line) || bytes.ContainsAny(line, "\n\r") {
		t.Fatalf("not one line of UTF-8 JSON: %q", line)
	}
}
