package wire

import (
	"bytes"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
)

// The client vocabulary's decoders against arbitrary input (go test -fuzz
// FuzzDecodeClientInput / FuzzDecodeClientEffect), with the host vocabulary's rules:
// never a panic, whatever decodes encodes to a canonical line that decodes to the same
// value and encodes to the same bytes again; for valid UTF-8 the value survives exactly.

func FuzzDecodeClientInput(f *testing.F) {
	var lines []string
	for _, s := range clientInputSamples() {
		lines = append(lines, s.json)
	}
	fuzzSeeds(f, append(lines, `{"kind":"user","action":{"kind":"type","text":"\ud800"}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		in, err := DecodeClientInput(data)
		if err != nil {
			return
		}
		canon, err := AppendClientInputJSON(nil, in)
		if err != nil {
			t.Fatalf("decoded %q into %#v, which does not encode: %v", data, in, err)
		}
		checkLine(t, canon)
		in2, err := DecodeClientInput(canon)
		if err != nil {
			t.Fatalf("the canonical line %s does not decode: %v", canon, err)
		}
		if again, _ := AppendClientInputJSON(nil, in2); !bytes.Equal(again, canon) {
			t.Fatalf("not canonical:\n%s\n%s", canon, again)
		}
		if utf8.Valid(data) {
			if d := cmp.Diff(in, in2); d != "" {
				t.Fatalf("%q changed on the way (-first +second):\n%s", data, d)
			}
		}
	})
}

func FuzzDecodeClientEffect(f *testing.F) {
	var lines []string
	for _, s := range clientEffectSamples {
		lines = append(lines, s.json)
	}
	fuzzSeeds(f, lines)
	f.Fuzz(func(t *testing.T, data []byte) {
		e, err := DecodeClientEffect(data)
		if err != nil {
			return
		}
		canon, err := AppendClientEffectJSON(nil, e)
		if err != nil {
			t.Fatalf("decoded %q into %#v, which does not encode: %v", data, e, err)
		}
		checkLine(t, canon)
		e2, err := DecodeClientEffect(canon)
		if err != nil {
			t.Fatalf("the canonical line %s does not decode: %v", canon, err)
		}
		if again, _ := AppendClientEffectJSON(nil, e2); !bytes.Equal(again, canon) {
			t.Fatalf("not canonical:\n%s\n%s", canon, again)
		}
		if utf8.Valid(data) {
			if d := cmp.Diff(e, e2); d != "" {
				t.Fatalf("%q changed on the way (-first +second):\n%s", data, d)
			}
		}
	})
}
