package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/twosettle/twosettle/conform"
	"github.com/twosettle/twosettle/explore"
)

// The merge tests (docs/ci.md, "Merging shards"): N shards merged are the report of one
// campaign of the same seeds, byte for byte but for the wall times and the merge's own
// account of its shards.

const mergeMutant = "delivery-is-claim" // fails often: the merges have failures to carry

var (
	wallTimes = regexp.MustCompile(`"(elapsed_ms|seeds_per_second)": [0-9.]+|time="[0-9.]+"`)
)

// comparable is a JSON or JUnit report without what differs between one campaign and
// its shards merged: the wall times (elapsed_ms, seeds_per_second, JUnit time=) and the
// merged report's last field, "merged" (its shards).
func comparable(b []byte) string {
	b = wallTimes.ReplaceAllFunc(b, func(m []byte) []byte {
		if bytes.HasPrefix(m, []byte("time=")) {
			return []byte(`time="T"`)
		}
		k, _, _ := bytes.Cut(m, []byte(":"))
		return []byte(string(k) + ": T") // a new slice: m is the report's own bytes
	})
	if i := bytes.Index(b, []byte(",\n  \"merged\": ")); i >= 0 {
		b = append(b[:i:i], "\n}\n"...)
	}
	return string(b)
}

func readFile(t *testing.T, p string) []byte {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// sameTree fails unless dirs a and b hold the same files with the same bytes.
func sameTree(t *testing.T, a, b string) {
	t.Helper()
	list := func(d string) []string {
		es, err := os.ReadDir(d)
		if err != nil {
			t.Fatal(err)
		}
		var n []string
		for _, e := range es {
			n = append(n, e.Name())
		}
		return n
	}
	na, nb := list(a), list(b)
	if strings.Join(na, " ") != strings.Join(nb, " ") {
		t.Fatalf("%s has %v\n%s has %v", a, na, b, nb)
	}
	for _, n := range na {
		if !bytes.Equal(readFile(t, filepath.Join(a, n)), readFile(t, filepath.Join(b, n))) {
			t.Fatalf("%s differs between %s and %s", n, a, b)
		}
	}
}

// campaignVsShards runs one campaign with --out dir/F, moves dir/F aside to dir/F.one,
// runs its shards (shard k with workers[k-1] workers) each into dir/shard-k and merges
// them with --out dir/F: the merged report and files are then comparable byte for byte
// with the campaign's, paths included. It returns the JSON and JUnit of both.
func campaignVsShards(t *testing.T, dir string, fuzz func(args ...string) (int, string, string), args []string, workers []int) (one, merged [2][]byte, oneCode, mergedCode int) {
	t.Helper()
	F := filepath.Join(dir, "F")
	code, out, errs := fuzz(append(args, "--out", F, "--junit", filepath.Join(dir, "one.xml"), "--workers", "2")...)
	if code > 1 {
		t.Fatalf("campaign: exit %d\n%s", code, errs)
	}
	oneCode = code
	one = [2][]byte{[]byte(out), readFile(t, filepath.Join(dir, "one.xml"))}
	if err := os.Rename(F, F+".one"); err != nil {
		t.Fatal(err)
	}
	var shards []string
	for k, w := range workers {
		sd := filepath.Join(dir, fmt.Sprintf("shard-%d", k+1))
		shard := fmt.Sprintf("%d/%d", k+1, len(workers))
		if code, _, errs := fuzz(append(args, "--shard", shard, "--out", sd, "--workers", fmt.Sprint(w))...); code > 1 {
			t.Fatalf("shard %s: exit %d\n%s", shard, code, errs)
		}
		shards = append(shards, sd)
	}
	mergedCode, mout, merrs := run(append([]string{"merge", "--json", "-", "--out", F, "--junit", filepath.Join(dir, "merged.xml")}, shards...)...)
	if mergedCode != oneCode {
		t.Fatalf("merge: exit %d, the campaign %d\n%s", mergedCode, oneCode, merrs)
	}
	merged = [2][]byte{[]byte(mout), readFile(t, filepath.Join(dir, "merged.xml"))}
	for i, what := range []string{"JSON", "JUnit"} {
		if a, b := comparable(one[i]), comparable(merged[i]); a != b {
			t.Fatalf("the merged %s is not the campaign's:\n%s", what, lineDiff(a, b))
		}
	}
	sameTree(t, F+".one", F)
	return one, merged, oneCode, mergedCode
}

// lineDiff is the first line where a and b differ, with its neighbours.
func lineDiff(a, b string) string {
	la, lb := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := 0; i < len(la) && i < len(lb); i++ {
		if la[i] != lb[i] {
			lo := max(i-3, 0)
			return fmt.Sprintf("line %d:\n-- one campaign:\n%s\n-- merged:\n%s", i+1,
				strings.Join(la[lo:min(i+3, len(la))], "\n"), strings.Join(lb[lo:min(i+3, len(lb))], "\n"))
		}
	}
	return fmt.Sprintf("lengths %d and %d lines", len(la), len(lb))
}

func TestMergedShardsAreOneCampaign(t *testing.T) {
	dir := t.TempDir()
	fuzz := func(args ...string) (int, string, string) { return run(append([]string{"fuzz"}, args...)...) }
	_, merged, code, _ := campaignVsShards(t, dir, fuzz, []string{"--json", "--seeds", "90", "--mutant", mergeMutant}, []int{1, 2, 1})
	var j fuzzJSON
	if err := json.Unmarshal(merged[0], &j); err != nil {
		t.Fatal(err)
	}
	if code != 1 || len(j.Failures) == 0 || j.SeedsRun != 90 || explore.RangesString(j.Covered) != "1-90" ||
		j.Merged == nil || j.Merged.Shards != 3 || len(j.Merged.From) != 3 || j.Campaign.Shards != 1 {
		t.Fatalf("exit %d, merged %+v", code, j)
	}
	if got := explore.RangesString(j.Merged.From[1].Covered); got != "2-89 step 3" {
		t.Fatalf("shard 2/3 covered %s", got)
	}
	// the text report names every shard, each failure's replay line in the merged
	// directory, and the seeds covered
	code, out, _ := run("merge", "--out", filepath.Join(dir, "F"), filepath.Join(dir, "shard-1"), filepath.Join(dir, "shard-2"), filepath.Join(dir, "shard-3"))
	for _, want := range []string{"merged 3 of 3 shards of simrun fuzz", "  shard 2/3 ", "replay: simrun replay --mutant " + mergeMutant + " " + filepath.Join(dir, "F", "fuzz-"),
		"seeds run: 1-90\n", "90 seeds, " + fmt.Sprint(len(j.Failures)) + " failures"} {
		if code != 1 || !strings.Contains(out, want) {
			t.Fatalf("exit %d, no %q in\n%s", code, want, out)
		}
	}
}

// conform fuzz's reports (another format: the judged process, what the oracle judged)
// merge the same way.
func TestMergedConformShardsAreOneCampaign(t *testing.T) {
	t.Setenv("SIMRUN_TEST_HOST", "refhost")
	t.Setenv("SIMRUN_TEST_MUTANT", mergeMutant)
	dir := t.TempDir()
	fuzz := func(args ...string) (int, string, string) {
		var out, errs bytes.Buffer
		code := conform.Main(append([]string{"fuzz", "--json", "-", "--host", os.Args[0]}, args...), nil, &out, &errs, os.Environ())
		s := out.String()
		if i := strings.Index(s, "\n{\n"); i >= 0 {
			s = s[i+1:] // the JSON after the text report
		}
		return code, s, errs.String()
	}
	_, merged, code, _ := campaignVsShards(t, dir, fuzz, []string{"--seeds", "24"}, []int{1, 2})
	var j struct {
		Role     string
		SeedsRun uint64 `json:"seeds_run"`
		Failures []explore.Failure
		Merged   *explore.MergeInfo
	}
	if err := json.Unmarshal(merged[0], &j); err != nil {
		t.Fatal(err)
	}
	if code != 1 || j.Role != "host" || j.SeedsRun != 24 || len(j.Failures) == 0 || j.Merged == nil {
		t.Fatalf("exit %d, %+v", code, j)
	}
	if !strings.Contains(string(merged[1]), "replay: conform --host "+os.Args[0]+" -v "+filepath.Join(dir, "F", "fuzz-")) {
		t.Fatalf("the merged JUnit does not replay with conform:\n%s", merged[1])
	}
}

// shards runs shards of a campaign of 20 seeds against mutant into dir/NAME-k, each with
// extra arguments, and returns their directories.
func shards(t *testing.T, dir, name string, n int, extra ...string) []string {
	t.Helper()
	var out []string
	for k := 1; k <= n; k++ {
		sd := filepath.Join(dir, fmt.Sprintf("%s-%d", name, k))
		args := append([]string{"fuzz", "--seeds", "20", "--shard", fmt.Sprintf("%d/%d", k, n), "--workers", "1", "--out", sd}, extra...)
		if code, _, errs := run(args...); code > 1 {
			t.Fatalf("%v: exit %d\n%s", args, code, errs)
		}
		out = append(out, sd)
	}
	return out
}

func TestMergeRefusesOtherCampaignsAndNamesMissingShards(t *testing.T) {
	dir := t.TempDir()
	a := shards(t, dir, "a", 2)
	other := shards(t, dir, "seeds", 2, "--start", "5")
	mutated := shards(t, dir, "mutant", 2, "--mutant", mergeMutant)
	// another build: the same record with another build line
	rec := readFile(t, filepath.Join(a[1], explore.RecordName(2, 2)))
	build := filepath.Join(dir, "build")
	os.MkdirAll(build, 0o755)
	var j map[string]any
	json.Unmarshal(rec, &j)
	j["campaign"].(map[string]any)["build"] = "v9.9.9 (revision 0123) go1.99"
	b, _ := json.Marshal(j)
	os.WriteFile(filepath.Join(build, explore.RecordName(2, 2)), b, 0o644)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{a[0], other[1]}, "start 1 vs 5"},
		{[]string{a[0], mutated[1]}, `config mutant "" vs "` + mergeMutant + `"`},
		{[]string{a[0], build}, "build "},
		{[]string{a[0], a[1], a[0]}, "shard 1/2 given twice"},
		{[]string{a[0], filepath.Join(a[0], explore.RecordName(1, 2))}, "given twice"},
		{[]string{dir}, "no shard record"},
	} {
		code, _, errs := run(append([]string{"merge", "--out", filepath.Join(dir, "m")}, tc.args...)...)
		if code != 2 || !strings.Contains(errs, tc.want) {
			t.Fatalf("%v: exit %d, want %q in\n%s", tc.args, code, tc.want, errs)
		}
	}
	// a missing shard: the report of what there is, naming it, and exit 2 (no failure)
	junitPath := filepath.Join(dir, "m.xml")
	code, out, errs := run("merge", "--json", "-", "--junit", junitPath, "--out", filepath.Join(dir, "m"), a[1])
	var m fuzzJSON
	if err := json.Unmarshal([]byte(out), &m); err != nil {
		t.Fatal(err, out)
	}
	if code != 2 || !strings.Contains(errs, "1 of 2 shards missing") || m.Merged == nil || strings.Join(m.Merged.Missing, ",") != "1/2" ||
		explore.RangesString(m.Covered) != "2-20 step 2" || m.SeedsRun != 10 {
		t.Fatalf("exit %d %q %+v", code, errs, m)
	}
	if x := string(readFile(t, junitPath)); !strings.Contains(x, `type="missing-shard"`) || !strings.Contains(x, "shards missing: 1/2") {
		t.Fatalf("the JUnit does not name the missing shard:\n%s", x)
	}
	// a merge of simrun fuzz and conform fuzz shards is refused by the command
	t.Setenv("SIMRUN_TEST_HOST", "refhost")
	c := filepath.Join(dir, "conform-2")
	if code := conform.Main([]string{"fuzz", "--host", os.Args[0], "--seeds", "20", "--shard", "2/2", "--workers", "1", "--out", c}, nil, new(bytes.Buffer), new(bytes.Buffer), os.Environ()); code != 0 {
		t.Fatalf("conform fuzz: exit %d", code)
	}
	if code, _, errs := run("merge", "--out", filepath.Join(dir, "m"), a[0], c); code != 2 || !strings.Contains(errs, `command "simrun fuzz" vs "conform fuzz"`) {
		t.Fatalf("exit %d %q", code, errs)
	}
}

// A time-boxed shard stops at a seed boundary and says which seeds it ran: a
// seed-bounded shard of exactly those seeds finds the same failures and situations, and
// the merge of time-boxed shards covers exactly their seeds together.
func TestTimeBoxedShardsSayWhichSeedsTheyRan(t *testing.T) {
	dir := t.TempDir()
	var covered []explore.SeedRange
	runs := map[uint64]uint64{}
	var dirs []string
	for k := uint64(1); k <= 2; k++ {
		sd := filepath.Join(dir, fmt.Sprint("boxed-", k))
		code, out, errs := run("fuzz", "--json", "--mutant", mergeMutant, "--duration", "200ms", "--shard", fmt.Sprintf("%d/2", k),
			"--workers", fmt.Sprint(k), "--out", sd)
		var j fuzzJSON
		if err := json.Unmarshal([]byte(out), &j); err != nil || code > 1 {
			t.Fatalf("exit %d %v\n%s", code, err, errs)
		}
		if j.SeedsRun == 0 || len(j.Covered) != 1 || j.Campaign.Duration != "200ms" || j.Campaign.Seeds != 0 {
			t.Fatalf("shard %d: %+v", k, j)
		}
		last := j.Covered[0].Last
		if want := explore.Covered(1, k, 2, j.SeedsRun); explore.RangesString(want) != explore.RangesString(j.Covered) {
			t.Fatalf("shard %d ran %d seeds, covered %v", k, j.SeedsRun, j.Covered)
		}
		// the same shard bounded by seeds instead of time: the campaign's last seed is
		// the shard's last one
		_, out, _ = run("fuzz", "--json", "--mutant", mergeMutant, "--seeds", fmt.Sprint(last), "--shard", fmt.Sprintf("%d/2", k),
			"--workers", "1", "--out", filepath.Join(dir, fmt.Sprint("bounded-", k)))
		var b fuzzJSON
		json.Unmarshal([]byte(out), &b)
		if b.SeedsRun != j.SeedsRun || len(b.Failures) != len(j.Failures) || fmt.Sprint(b.Situations) != fmt.Sprint(j.Situations) || b.Records != j.Records {
			t.Fatalf("shard %d: time-boxed %d seeds %d failures %d records; bounded %d %d %d", k, j.SeedsRun, len(j.Failures), j.Records, b.SeedsRun, len(b.Failures), b.Records)
		}
		for i := range b.Failures {
			if b.Failures[i].Seed != j.Failures[i].Seed {
				t.Fatalf("shard %d: failure %d is seed %d, bounded %d", k, i, j.Failures[i].Seed, b.Failures[i].Seed)
			}
		}
		runs[k] = j.SeedsRun
		dirs = append(dirs, sd)
	}
	covered = explore.CoveredBy(1, 2, runs)
	code, out, errs := run(append([]string{"merge", "--json", "-", "--out", filepath.Join(dir, "m")}, dirs...)...)
	var m fuzzJSON
	if err := json.Unmarshal([]byte(out), &m); err != nil || code > 1 {
		t.Fatalf("exit %d %v %s", code, err, errs)
	}
	if explore.RangesString(m.Covered) != explore.RangesString(covered) || m.SeedsRun != runs[1]+runs[2] {
		t.Fatalf("merged covered %v, want %v", m.Covered, covered)
	}
	t.Logf("time-boxed shards ran %d and %d seeds; merged: %s", runs[1], runs[2], explore.RangesString(m.Covered))
}

// A failure corpus is replayed first in every campaign: the shrunk failures of a
// campaign against a mutant fail again against it (exit 1 with no new seed), pass
// against the correct engine, and the merge keeps one account of them.
func TestCorpusReplayedFirstInEveryShard(t *testing.T) {
	dir := t.TempDir()
	corpus := filepath.Join(dir, "corpus")
	if code, _, errs := run("fuzz", "--seeds", "12", "--mutant", mergeMutant, "--workers", "2", "--out", corpus); code != 1 {
		t.Fatalf("exit %d %s", code, errs)
	}
	yamls, _ := filepath.Glob(filepath.Join(corpus, "*.yaml"))
	if len(yamls) == 0 {
		t.Fatal("no failure to make a corpus of")
	}
	// against the correct engine: every corpus scenario passes
	code, out, errs := run("fuzz", "--json", "--seeds", "4", "--corpus", corpus, "--out", filepath.Join(dir, "clean"))
	var j fuzzJSON
	if err := json.Unmarshal([]byte(out), &j); err != nil || code != 0 || len(j.Corpus) != len(yamls) {
		t.Fatalf("exit %d %v %s %+v", code, err, errs, j.Corpus)
	}
	for _, c := range j.Corpus {
		if c.Failed() || c.Replay != "simrun replay "+c.File {
			t.Fatalf("%+v", c)
		}
	}
	if !strings.Contains(j.Campaign.Config["corpus"], fmt.Sprintf("%d files sha256:", len(yamls))) {
		t.Fatalf("config %v", j.Campaign.Config)
	}
	// against the mutant, in two shards that merge: the corpus fails first in each
	s := shards(t, dir, "m", 2, "--mutant", mergeMutant, "--corpus", corpus)
	code, out, _ = run("fuzz", "--mutant", mergeMutant, "--seeds", "20", "--shard", "1/2", "--workers", "1", "--corpus", corpus, "--out", filepath.Join(dir, "text"))
	if code != 1 || !strings.HasPrefix(out, "FAIL    corpus "+yamls[0]) || !strings.Contains(out, fmt.Sprintf("corpus: %d scenarios replayed, %d failed", len(yamls), len(yamls))) {
		t.Fatalf("exit %d\n%s", code, out)
	}
	code, out, _ = run(append([]string{"merge", "--json", "-", "--junit", filepath.Join(dir, "m.xml"), "--out", filepath.Join(dir, "merged")}, s...)...)
	var m fuzzJSON
	if err := json.Unmarshal([]byte(out), &m); err != nil || code != 1 || len(m.Corpus) != len(yamls) || !m.Corpus[0].Failed() {
		t.Fatalf("exit %d %v %+v", code, err, m.Corpus)
	}
	if x := string(readFile(t, filepath.Join(dir, "m.xml"))); !strings.Contains(x, `<testcase name="corpus `+filepath.Base(yamls[0])+`"`) {
		t.Fatalf("no corpus testcase in\n%s", x)
	}
	// a shard with another corpus is another campaign
	os.WriteFile(filepath.Join(corpus, "another.yaml"), readFile(t, yamls[0]), 0o644)
	other := shards(t, dir, "o", 2, "--mutant", mergeMutant, "--corpus", corpus)
	if code, _, errs := run("merge", "--out", filepath.Join(dir, "merged2"), s[0], other[1]); code != 2 || !strings.Contains(errs, "config corpus") {
		t.Fatalf("exit %d %s", code, errs)
	}
}
