package conform

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/twosettle/twosettle/harness"
	"github.com/twosettle/twosettle/scenarios"
	"github.com/twosettle/twosettle/sessionlog"
)

// openAsksLog is the Session log of a run where the model asks n timed questions that
// stay open: every view holds every open card, so the views grow with the square of n.
func openAsksLog(t testing.TB, n int) *sessionlog.Log {
	t.Helper()
	var b strings.Builder
	fmt.Fprintf(&b, "name: open-asks\nsummary: %d open asks\nmode: timed\ntimeout: 100000\nclients:\n  a: {latency: 10ms}\nsteps:\n  - {at: 0s, model: {prompt: go}}\n  - {at: 0s, model: header}\n", n)
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "  - {at: 0s, model: {call: c%d, ask: [{id: q%d, question: Q%d}]}}\n", i, i, i)
	}
	s, err := scenarios.Decode("open-asks.yaml", []byte(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	r := &harness.Result{}
	harness.RunScenario(r, s, harness.Options{})
	if r.Trace == nil || len(r.Trace.Final.Host.Sessions) == 0 {
		t.Fatalf("no Session: %v %v", r.Invalid, r.Failures)
	}
	return sessionlog.FromState(r.Trace.Final.Host.Sessions[0])
}

// maxWrite records the largest single write.
type maxWrite struct {
	n, max int
}

func (m *maxWrite) Write(b []byte) (int, error) {
	m.n += len(b)
	m.max = max(m.max, len(b))
	return len(b), nil
}

// conform projection --log streams its output: the views are written as they are
// folded, never gathered into one buffer (10 000 open asks made a 2.3 MB log whose
// output ran out of memory).
func TestProjectionLogStreamsItsOutput(t *testing.T) {
	l := openAsksLog(t, 150)
	file := filepath.Join(t.TempDir(), "s.jsonl")
	b, _ := sessionlog.Append(nil, l)
	os.WriteFile(file, b, 0o644)
	var w maxWrite
	var errb bytes.Buffer
	if code := Main([]string{"projection", "--log", file}, nil, &w, &errb, nil); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	want := len(sessionlog.AppendViews(nil, sessionlog.Views(l)))
	if w.n != want || w.n < 1<<20 {
		t.Fatalf("wrote %d bytes, want the reference's %d (and over 1 MiB for this test to mean anything)", w.n, want)
	}
	if w.max > 64<<10 {
		t.Fatalf("the output went out in a write of %d bytes: it was gathered, not streamed", w.max)
	}
}
