package explore

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/twosettle/twosettle/harness"
	"github.com/twosettle/twosettle/scenarios"
)

func TestShardsPartitionTheCampaign(t *testing.T) {
	for _, n := range []uint64{1, 2, 3, 7} {
		for _, seeds := range []uint64{1, 10, 100, 101} {
			count := map[uint64]int{}
			for k := uint64(1); k <= n; k++ {
				c := Campaign{Start: 5, Seeds: seeds, Shard: k, Shards: n}
				if err := c.normalise(); err != nil {
					t.Fatal(err)
				}
				for i := uint64(0); ; i++ {
					s, ok := c.seedAt(i)
					if !ok {
						break
					}
					count[s]++
				}
			}
			if uint64(len(count)) != seeds {
				t.Fatalf("%d shards of %d seeds cover %d seeds", n, seeds, len(count))
			}
			for s, c := range count {
				if c != 1 || s < 5 || s >= 5+seeds {
					t.Fatalf("%d shards of %d seeds: seed %d runs %d times", n, seeds, s, c)
				}
			}
		}
	}
	for _, bad := range []string{"0/3", "4/3", "1/0", "x/2", "2", "1/2/3", ""} {
		if _, _, err := ParseShard(bad); err == nil {
			t.Fatalf("ParseShard(%q) accepted", bad)
		}
	}
	if k, n, err := ParseShard("2/8"); err != nil || k != 2 || n != 8 {
		t.Fatalf("ParseShard(2/8) = %d %d %v", k, n, err)
	}
}

// The shards of a real campaign run every seed once: their counts add up, and their
// situations add up to the whole campaign's.
func TestShardedCampaignAddsUp(t *testing.T) {
	whole, err := Campaign{Seeds: 60, Workers: 2, NoShrink: true}.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var sum Report
	for k := uint64(1); k <= 3; k++ {
		rep, err := Campaign{Seeds: 60, Shard: k, Shards: 3, Workers: 2, NoShrink: true}.Run(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		sum.SeedsRun += rep.SeedsRun
		sum.Records += rep.Records
		for i := range rep.Situations {
			sum.Situations[i] += rep.Situations[i]
		}
		sum.Failures = append(sum.Failures, rep.Failures...)
	}
	if sum.SeedsRun != 60 || sum.Records != whole.Records || sum.Situations != whole.Situations || len(sum.Failures) != len(whole.Failures) {
		t.Fatalf("shards: %d seeds %d records %d failures; whole: %d seeds %d records %d failures",
			sum.SeedsRun, sum.Records, len(sum.Failures), whole.SeedsRun, whole.Records, len(whole.Failures))
	}
}

func summary(rep *Report) []string {
	var out []string
	for _, f := range rep.Failures {
		out = append(out, f.Invariant+" "+f.Message+" "+filepath.Base(f.File))
	}
	return out
}

func TestWorkersDoNotChangeTheReport(t *testing.T) {
	var reps []*Report
	var order [][]uint64
	for _, w := range []int{1, 3} {
		var seen []uint64
		rep, err := Campaign{Seeds: 80, Workers: w, Options: buggy, NoShrink: true,
			OnFailure: func(f Failure) { seen = append(seen, f.Seed) }}.Run(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		reps, order = append(reps, rep), append(order, seen)
	}
	a, b := reps[0], reps[1]
	if len(a.Failures) == 0 {
		t.Fatal("the planted bug was not found in 80 seeds")
	}
	if a.SeedsRun != b.SeedsRun || a.Records != b.Records || a.Situations != b.Situations || !reflect.DeepEqual(summary(a), summary(b)) {
		t.Fatalf("1 worker: %d seeds %v; 3 workers: %d seeds %v", a.SeedsRun, summary(a), b.SeedsRun, summary(b))
	}
	for _, seen := range order {
		for i := 1; i < len(seen); i++ {
			if seen[i] <= seen[i-1] {
				t.Fatalf("failures reported out of seed order: %v", seen)
			}
		}
	}
}

// firstFailing is the first seed from start that fails against opts' host.
func firstFailing(t *testing.T, start uint64, opts Options) uint64 {
	r := NewRunner(opts)
	for seed := start; seed < start+500; seed++ {
		if out, _ := r.Run(Generate(seed)); out.Failed() {
			return seed
		}
	}
	t.Fatal("no failing seed in 500")
	return 0
}

func TestStopAtFirstReportsSeedsToKill(t *testing.T) {
	first := firstFailing(t, 1, buggy)
	for _, w := range []int{1, 4} {
		rep, err := Campaign{Seeds: 1000, Workers: w, Options: buggy, StopAtFirst: true, NoShrink: true}.Run(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if len(rep.Failures) != 1 || rep.Failures[0].Seed != first || rep.SeedsRun != first {
			t.Fatalf("%d workers: seeds run %d, failures %v; the first failing seed is %d", w, rep.SeedsRun, summary(rep), first)
		}
	}
}

func TestDurationAndInterruptKeepAPrefix(t *testing.T) {
	rep, err := Campaign{Duration: 300 * time.Millisecond, Workers: 2, NoShrink: true}.Run(context.Background())
	if err != nil || rep.SeedsRun == 0 || rep.Interrupted {
		t.Fatalf("duration campaign: %+v %v", rep, err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	dir := t.TempDir()
	var found []Failure
	go func() { time.Sleep(200 * time.Millisecond); cancel() }()
	rep, err = Campaign{Seeds: 1 << 40, Workers: 2, Options: buggy, OutDir: dir,
		OnFailure: func(f Failure) { found = append(found, f) }}.Run(ctx)
	if err != nil || !rep.Interrupted || rep.SeedsRun == 0 || rep.SeedsRun >= 1<<40 {
		t.Fatalf("interrupted campaign: %d seeds, interrupted=%v, %v", rep.SeedsRun, rep.Interrupted, err)
	}
	for _, f := range found {
		if _, err := os.Stat(f.File); err != nil {
			t.Fatalf("seed %d reported but not written: %v", f.Seed, err)
		}
	}
}

func TestBadCampaigns(t *testing.T) {
	for _, c := range []Campaign{{}, {Seeds: 1, Shard: 3, Shards: 2}, {Seeds: 1, Shard: 0, Shards: 2}} {
		if _, err := c.Run(context.Background()); err == nil {
			t.Fatalf("%+v ran", c)
		}
	}
}

// A failure is shrunk to at most a dozen steps that break the same invariant first, and
// the written YAML decodes and reruns (through the campaign's runner, as the planted
// bug is not the reference host's) to the same violation, with the transcript beside it.
func TestFailureIsShrunkAndWritten(t *testing.T) {
	dir := t.TempDir()
	rep, err := Campaign{Seeds: 200, Workers: 2, Options: buggy, StopAtFirst: true, OutDir: dir}.Run(context.Background())
	if err != nil || len(rep.Failures) != 1 {
		t.Fatalf("%v %v", summary(rep), err)
	}
	f := rep.Failures[0]
	if f.File == "" || f.WriteErr != "" || f.ShrunkTo > 12 || f.ShrunkTo >= f.Steps {
		t.Fatalf("failure %+v", f)
	}
	if f.Replay != "simrun replay "+f.File {
		t.Fatalf("replay line %q", f.Replay)
	}
	data, err := os.ReadFile(f.File)
	if err != nil {
		t.Fatal(err)
	}
	s, err := scenarios.Decode(f.File, data)
	if err != nil {
		t.Fatalf("the written YAML does not decode: %v\n%s", err, data)
	}
	if s.Seed != f.Seed || len(s.Steps) != f.ShrunkTo {
		t.Fatalf("written seed %d steps %d", s.Seed, len(s.Steps))
	}
	out, _ := NewRunner(buggy).Run(s)
	if out.Invariant() != f.Invariant {
		t.Fatalf("the written case fails with %q, not %s", out.Invariant(), f.Invariant)
	}
	tr, err := os.ReadFile(f.Transcript)
	if err != nil || !strings.Contains(string(tr), "\n  "+f.Invariant+" at ") {
		t.Fatalf("transcript %s: %v\n%s", f.Transcript, err, tr)
	}
	// issue 14 (6): its timeline page beside the YAML, the same run's violation on it
	if f.Timeline != TimelinePath(f.File) || filepath.Dir(f.Timeline) != dir {
		t.Fatalf("timeline %q beside %q", f.Timeline, f.File)
	}
	pg, err := os.ReadFile(f.Timeline)
	if err != nil || !strings.HasPrefix(string(pg), "<!DOCTYPE html>") || !strings.Contains(string(pg), `class="verdict violation"`) ||
		!strings.Contains(string(pg), "<b>"+f.Invariant+"</b>") {
		t.Fatalf("timeline %s: %v\n%.300s", f.Timeline, err, pg)
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.Contains(e.Name(), ".tmp-") {
			t.Fatalf("a temporary file was left: %s", e.Name())
		}
	}
}

// A campaign's failures replay through simrun replay's path (harness.RunEntry of the
// file, comparing the transcript written beside it as its golden) to the same violation.
// The reference engine passes these seeds, so the failures come from a campaign against a
// mutant the fuzzer kills within them (legacy-tracked); the replay runs the same mutant, as
// the replay line the campaign prints does (--mutant).
func TestCampaignFailuresReplay(t *testing.T) {
	const m = "legacy-tracked"
	dir := t.TempDir()
	rep, err := Campaign{Seeds: 150, Workers: 2, OutDir: dir, Options: Options{Mutant: m}, Shrink: ShrinkBudget{MaxRuns: 600}}.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Failures) == 0 {
		t.Fatalf("no seed of 1..150 fails with %s: nothing to replay", m)
	}
	opts := harness.DefaultOptions()
	opts.Mutant = m
	for i, f := range rep.Failures {
		if i == 3 {
			break
		}
		if f.WriteErr != "" {
			t.Fatalf("seed %d not written: %s", f.Seed, f.WriteErr)
		}
		data, err := os.ReadFile(f.File)
		if err != nil {
			t.Fatal(err)
		}
		r := harness.RunEntry(harness.FileEntry(f.File, data), opts)
		if r.Status() != harness.Failed || r.Verdict == nil || !verdictHas(r.Verdict.Text, f.Invariant) {
			t.Fatalf("seed %d: replay %s\n%s", f.Seed, r.Line(), r.Transcript)
		}
		if r.Golden.State != "match" {
			t.Fatalf("seed %d: the replay's transcript differs from the one written: %s", f.Seed, r.Golden)
		}
		if !strings.Contains(f.Replay, "--mutant "+m) {
			t.Errorf("seed %d: the replay line %q does not name the mutant", f.Seed, f.Replay)
		}
	}
}

// Memory stays flat: a Report keeps counters and failures only, and the heap after
// 3 000 seeds is no larger (beyond noise) than after 500.
func TestCampaignMemoryIsFlat(t *testing.T) {
	if testing.Short() {
		t.Skip("long")
	}
	var at []uint64
	marks := map[uint64]bool{500: true, 3000: true}
	var ms runtime.MemStats
	c := Campaign{Seeds: 3000, Workers: 2, NoShrink: true, ProgressEvery: time.Nanosecond}
	c.OnProgress = func(p Progress) {
		if marks[p.SeedsRun] || (p.SeedsRun >= 500 && len(at) == 0) || (p.SeedsRun == 3000 && len(at) == 1) {
			runtime.GC()
			runtime.ReadMemStats(&ms)
			at = append(at, ms.HeapInuse)
			marks[p.SeedsRun] = false
		}
	}
	if _, err := c.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	if len(at) < 2 {
		t.Fatalf("measured %v", at)
	}
	if grow := int64(at[len(at)-1]) - int64(at[0]); grow > 4<<20 {
		t.Fatalf("the heap grew by %d bytes between 500 and 3000 seeds (%v)", grow, at)
	}
}

// A failure's replay line names the campaign's host and client processes, so replaying it
// runs the same processes.
func TestReplayCommandNamesTheProcesses(t *testing.T) {
	got := ReplayCommand("f/x.yaml", Options{ReplayHost: "'my host'", ReplayClient: "'my ui'", Mutant: "m"})
	if want := "simrun replay --host 'my host' --client 'my ui' --mutant m f/x.yaml"; got != want {
		t.Fatalf("%q, want %q", got, want)
	}
}
