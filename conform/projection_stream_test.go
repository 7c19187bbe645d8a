package conform

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/twosettle/twosettle/engine/wire"
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

// conform projection --log and --view judge a file line by line: a malformed first line
// of a 512 MiB file is reported at once, without reading the file whole (it was, before
// its first line was judged).
func TestProjectionLogJudgesAHugeFileLineByLine(t *testing.T) {
	dir := t.TempDir()
	huge := filepath.Join(dir, "huge.jsonl")
	if err := os.WriteFile(huge, []byte("{\"format\":\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(huge, 512<<20); err != nil { // sparse: the file system writes it lazily
		t.Skip("no sparse file:", err)
	}
	l := EdgeLog(7)
	l.Inherited, l.Parent = 0, ""
	logFile := filepath.Join(dir, "s.jsonl")
	b, _ := sessionlog.Append(nil, l)
	os.WriteFile(logFile, b, 0o644)
	for _, args := range [][]string{
		{"projection", "--log", huge},
		{"projection", "--log", huge, "--view", logFile},
		{"projection", "--log", logFile, "--view", huge},
	} {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		var out, errb bytes.Buffer
		code := Main(args, nil, &out, &errb, nil)
		runtime.ReadMemStats(&after)
		if code != 2 || !strings.HasPrefix(errb.String(), huge+":1: ") {
			t.Fatalf("%v: exit %d %s%s", args, code, out.String(), errb.String())
		}
		if n := after.TotalAlloc - before.TotalAlloc; n > 16<<20 {
			t.Fatalf("%v: allocated %d bytes to judge the first line of a 512 MiB file", args, n)
		}
	}
}

// The comparison that reads both files in step reports what CompareViews reports of the
// whole files, detail included.
func TestProjectionViewFilesCompareAsCompareViews(t *testing.T) {
	dir := t.TempDir()
	l := EdgeLog(7)
	l.Inherited, l.Parent = 0, ""
	logFile := filepath.Join(dir, "s.jsonl")
	b, _ := sessionlog.Append(nil, l)
	os.WriteFile(logFile, b, 0o644)
	views := filepath.Join(dir, "v.jsonl")
	ref := sessionlog.Views(l)
	for _, k := range []int{0, 2, len(ref) - 1} {
		got := sessionlog.Views(l)
		got[k].View = wire.QuestionsView{Active: []wire.PendingRow{{CallID: "zz", State: wire.StateOpen}}}
		for _, vs := range [][]wire.ViewLine{got, got[:k], append(sessionlog.Views(l), got[k])} {
			os.WriteFile(views, sessionlog.AppendViews(nil, vs), 0o644)
			want, wantOK := CompareViews(l, ref, vs)
			n, d, ok, err := compareViewFiles(logFile, views)
			if err != nil || n != len(l.Events) || ok != wantOK || d != want {
				t.Fatalf("k=%d, %d views: %d events, %v %v\n%+v\nwant %v\n%+v", k, len(vs), n, ok, err, d, wantOK, want)
			}
		}
	}
}
