package harness

import (
	"bytes"
	"regexp"
	"testing"
)

var recordLine = regexp.MustCompile(`^[0-9]{4} t=`)

// A NUL or a newline inside an answer label is escaped in every text form of the
// transcript: no NUL reaches a golden file and no record is split over two lines.
func TestTranscriptEscapesControlCharactersInLabels(t *testing.T) {
	src := `name: labels
summary: Labels with a NUL and a newline are answered.
mode: timed
timeout: 5
clients:
  a: {latency: 10ms}
steps:
  - {at: 0s, model: {prompt: go}}
  - {at: 0s, model: header}
  - {at: 0s, model: {call: c1, ask: [{id: q, question: "Q", multi: true, options: ["a\0b", "x\ny"]}]}}
  - {at: 1s, a: {choose: "a\0b"}}
  - {at: 1s, a: {choose: "x\ny"}}
  - {at: 1s, a: submit}
expect:
  - {at: end, view: "active=[] settled=[c1{q=[\"a\\u0000b\",\"x\\ny\"]}]"}
`
	r := RunEntry(entry(t, src), DefaultOptions())
	if r.Status() != Passed {
		t.Fatalf("%s %v", r.Line(), r.Failures)
	}
	if bytes.IndexByte(r.Transcript, 0) >= 0 {
		t.Fatal("a NUL byte in the transcript")
	}
	records := 0
	for _, l := range bytes.Split(r.Transcript, []byte("\n")) {
		if recordLine.Match(l) {
			records++
		}
	}
	if records != len(r.Trace.Records) {
		t.Fatalf("%d record lines for %d records: a record was split", records, len(r.Trace.Records))
	}
}
