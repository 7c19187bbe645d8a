package wire

import (
	"bytes"
	"testing"
	"unicode/utf8"
)

// FuzzDecodeCommand: the decoder of what a runner sends never panics, and whatever it
// accepts re-encodes to canonical bytes that decode to the same command.
func FuzzDecodeCommand(f *testing.F) {
	for _, s := range commandSamples {
		f.Add([]byte(s.json))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := DecodeCommand(data)
		if err != nil {
			return
		}
		b1, err := AppendCommandJSON(nil, c)
		if err != nil {
			t.Fatalf("decoded %s but cannot encode it: %v", c, err)
		}
		c2, err := DecodeCommand(b1)
		if err != nil {
			t.Fatalf("canonical %s does not decode: %v", b1, err)
		}
		b2, _ := AppendCommandJSON(nil, c2)
		if !bytes.Equal(b1, b2) {
			t.Fatalf("not canonical:\n%s\n%s", b1, b2)
		}
		// Invalid UTF-8 becomes U+FFFD on encoding (the protocol is UTF-8 text), so the
		// text forms agree from the first encoding on, and exactly for valid input.
		if utf8.Valid(data) && c.String() != c2.String() || !utf8.Valid(data) && c2.String() != mustCommand(t, b2).String() {
			t.Fatalf("the command changed through its JSON:\n%s\n%s", c, c2)
		}
	})
}

// FuzzDecodeEffect: the decoder of what a host sends never panics, and whatever it
// accepts re-encodes to canonical bytes that decode to the same effect.
func FuzzDecodeEffect(f *testing.F) {
	for _, s := range effectSamples {
		f.Add([]byte(s.json))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		e, err := DecodeEffect(data)
		if err != nil {
			return
		}
		b1, err := AppendEffectJSON(nil, e)
		if err != nil {
			t.Fatalf("decoded %s but cannot encode it: %v", e, err)
		}
		e2, err := DecodeEffect(b1)
		if err != nil {
			t.Fatalf("canonical %s does not decode: %v", b1, err)
		}
		if b2, _ := AppendEffectJSON(nil, e2); !bytes.Equal(b1, b2) {
			t.Fatalf("not canonical:\n%s\n%s", b1, b2)
		}
	})
}

func mustCommand(t *testing.T, b []byte) Command {
	c, err := DecodeCommand(b)
	if err != nil {
		t.Fatalf("%s: %v", b, err)
	}
	return c
}
