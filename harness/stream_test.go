package harness

import (
	"bytes"
	"testing"
)

// With StreamTranscript a run holds no rendered transcript (it can be far larger than
// its trace: every record showing every open card made 680 MB of one buffer for 3 000
// open asks); WriteTranscript streams the same bytes, and a golden is still compared.
func TestStreamTranscriptIsTheSameTranscriptNeverHeld(t *testing.T) {
	lib := Library("")
	if len(lib) < 3 {
		t.Fatal("no library")
	}
	for _, e := range lib[:3] {
		eager := RunEntry(e, DefaultOptions())
		opts := DefaultOptions()
		opts.StreamTranscript = true
		lazy := RunEntry(e, opts)
		if eager.Golden.State != "match" || lazy.Golden.State != "match" {
			t.Fatalf("%s: golden %s eager, %s streamed; want match", e.Path, eager.Golden.State, lazy.Golden.State)
		}
		// the golden comparison rendered it; a run with no golden keeps none
		opts.Seed = 12345
		none := RunEntry(e, opts)
		if none.Transcript != nil {
			t.Fatalf("%s: a streamed run holds its transcript (%d bytes)", e.Path, len(none.Transcript))
		}
		var b bytes.Buffer
		if err := none.WriteTranscript(&b); err != nil {
			t.Fatal(err)
		}
		opts.StreamTranscript = false
		want := RunEntry(e, opts).Transcript
		if !bytes.Equal(b.Bytes(), want) {
			t.Fatalf("%s: the streamed transcript differs from the rendered one:\n%s\n---\n%s", e.Path, b.Bytes(), want)
		}
	}
}
