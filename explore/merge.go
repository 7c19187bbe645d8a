package explore

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"html"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/twosettle/twosettle/fileio"
)

// ShardRecord is what a merge reads of one fuzz report, written by either command
// (simrun fuzz --json, conform fuzz --json, or the record a shard leaves in its --out
// directory, RecordName): the fields both commands' reports share. Raw is the whole
// report, for the fields only one command writes.
type ShardRecord struct {
	Path        string            `json:"-"`
	Raw         []byte            `json:"-"`
	Campaign    *Identity         `json:"campaign"`
	Shard       string            `json:"shard"`
	SeedsRun    uint64            `json:"seeds_run"`
	Failures    []Failure         `json:"failures"`
	Situations  map[string]uint64 `json:"situations"`
	Records     uint64            `json:"records"`
	Interrupted bool              `json:"interrupted"`
	ElapsedMs   int64             `json:"elapsed_ms"`
	Covered     []SeedRange       `json:"covered"`
	Corpus      []CorpusResult    `json:"corpus"`
	k           uint64
}

// MergeInfo is a merged report's account of its shards ("merged" in its JSON): the
// number of shards of the campaign, each one merged and those missing.
type MergeInfo struct {
	Shards  uint64        `json:"shards"`
	From    []MergedShard `json:"from"`
	Missing []string      `json:"missing,omitempty"`
}

// MergedShard is one shard of a merge: where its report was, and what it ran.
type MergedShard struct {
	Shard       string      `json:"shard"`
	Report      string      `json:"report"`
	SeedsRun    uint64      `json:"seeds_run"`
	Covered     []SeedRange `json:"covered"`
	ElapsedMs   int64       `json:"elapsed_ms"`
	Interrupted bool        `json:"interrupted"`
}

// Merged is shards merged into one campaign's report.
type Merged struct {
	Identity Identity
	// First is the first shard's record (the fields only its command writes come from it:
	// the host, the generator's options, what the oracle judged).
	First *ShardRecord
	Info  MergeInfo
	// Report has the merged counters: seeds run (the sum), failures (in seed order, their
	// files in the merge's --out), records, elapsed (the longest shard: the shards ran
	// side by side), interrupted (any shard), covered, corpus and missing shards.
	Report     *Report
	Situations map[string]uint64
	// Warnings are failure files a shard named and the merge did not find.
	Warnings []string
}

// ReadShards reads the reports args name: a file is one report; a directory holds one
// or more shard records (shard-K-of-N.json, RecordName). Errors name the file.
func ReadShards(args []string) ([]*ShardRecord, error) {
	var out []*ShardRecord
	for _, a := range args {
		st, err := os.Stat(a)
		if err != nil {
			return nil, err
		}
		files := []string{a}
		if st.IsDir() {
			files, _ = filepath.Glob(filepath.Join(a, "shard-*-of-*.json"))
			if len(files) == 0 {
				return nil, fmt.Errorf("%s: no shard record (shard-K-of-N.json) in the directory", a)
			}
			slices.Sort(files)
		}
		for _, f := range files {
			r, err := readShard(f)
			if err != nil {
				return nil, err
			}
			out = append(out, r)
		}
	}
	if len(out) == 0 {
		return nil, errors.New("no shard to merge")
	}
	return out, nil
}

func readShard(path string) (*ShardRecord, error) {
	b, err := fileio.ReadLimited(path, 256<<20)
	if err != nil {
		return nil, err
	}
	r := &ShardRecord{Path: path, Raw: b}
	if err := json.Unmarshal(b, r); err != nil {
		return nil, fmt.Errorf("%s: not a fuzz report: %v", path, err)
	}
	if r.Campaign == nil {
		return nil, fmt.Errorf("%s: a fuzz report without its campaign's identity (written by an older build?)", path)
	}
	if r.Shard == "" {
		if r.Campaign.Shards > 1 {
			return nil, fmt.Errorf("%s: a report of %d shards without its shard", path, r.Campaign.Shards)
		}
		r.Shard = "1/1"
	}
	k, n, err := ParseShard(r.Shard)
	if err != nil || n != max(r.Campaign.Shards, 1) {
		return nil, fmt.Errorf("%s: shard %q of a campaign of %d shards", path, r.Shard, r.Campaign.Shards)
	}
	r.k = k
	return r, nil
}

// MergeShards merges shard records of one campaign: it refuses records of different
// campaigns (Identity.Differs) and a shard given twice; a missing shard is named in the
// merge (Report.Missing, Info.Missing). The failures' files (YAML, transcript, timeline
// page) are copied into out ("" copies nothing and keeps the shards' paths), found
// beside the shard's report or where it named them; their paths and replay lines name
// the copies.
func MergeShards(recs []*ShardRecord, out string) (*Merged, error) {
	id := *recs[0].Campaign
	byShard := map[uint64]*ShardRecord{}
	for _, r := range recs {
		if d := id.Differs(*r.Campaign); d != "" {
			return nil, fmt.Errorf("%s and %s are not shards of one campaign: %s", recs[0].Path, r.Path, d)
		}
		if o, ok := byShard[r.k]; ok {
			return nil, fmt.Errorf("shard %s given twice: %s and %s", r.Shard, o.Path, r.Path)
		}
		byShard[r.k] = r
	}
	n := max(id.Shards, 1)
	m := &Merged{Identity: id, Info: MergeInfo{Shards: n, From: []MergedShard{}}, Situations: map[string]uint64{}, Report: &Report{}}
	runs := map[uint64]uint64{}
	var first *ShardRecord
	for k := uint64(1); k <= n; k++ {
		r, ok := byShard[k]
		if !ok {
			m.Info.Missing = append(m.Info.Missing, fmt.Sprintf("%d/%d", k, n))
			continue
		}
		if first == nil {
			first = r
		} else if d := corpusDiffers(first.Corpus, r.Corpus); d != "" {
			return nil, fmt.Errorf("%s and %s replayed the corpus differently: %s", first.Path, r.Path, d)
		}
		runs[k] = r.SeedsRun
		m.Info.From = append(m.Info.From, MergedShard{Shard: r.Shard, Report: r.Path, SeedsRun: r.SeedsRun,
			Covered: Covered(id.Start, k, n, r.SeedsRun), ElapsedMs: r.ElapsedMs, Interrupted: r.Interrupted})
		rep := m.Report
		rep.SeedsRun += r.SeedsRun
		rep.Records += r.Records
		rep.Interrupted = rep.Interrupted || r.Interrupted
		rep.Elapsed = max(rep.Elapsed, time.Duration(r.ElapsedMs)*time.Millisecond)
		for name, c := range r.Situations {
			m.Situations[name] += c
		}
		for _, f := range r.Failures {
			if out != "" {
				m.Warnings = append(m.Warnings, copyFailure(&f, filepath.Dir(r.Path), out)...)
			}
			rep.Failures = append(rep.Failures, f)
		}
	}
	m.First = first
	// the merged report is the whole campaign's: its identity is one campaign's, whose
	// shards Info lists
	m.Identity.Shards = 1
	m.Report.Corpus = first.Corpus
	m.Report.Missing = m.Info.Missing
	m.Report.Covered = CoveredBy(id.Start, n, runs)
	slices.SortStableFunc(m.Report.Failures, func(a, b Failure) int {
		switch {
		case a.Seed < b.Seed:
			return -1
		case a.Seed > b.Seed:
			return 1
		}
		return 0
	})
	return m, nil
}

// corpusDiffers compares two shards' corpus results ("" when they agree): the same
// files with the same verdicts. They replay the same scenarios with the same build, so a
// difference is a nondeterministic host.
func corpusDiffers(a, b []CorpusResult) string {
	if len(a) != len(b) {
		return fmt.Sprintf("%d vs %d scenarios", len(a), len(b))
	}
	for i := range a {
		if filepath.Base(a[i].File) != filepath.Base(b[i].File) || a[i].Invariant != b[i].Invariant {
			return fmt.Sprintf("%s %q vs %s %q", a[i].File, a[i].Invariant, b[i].File, b[i].Invariant)
		}
	}
	return ""
}

// copyFailure copies f's files from the shard's directory into out and renames them in
// f, returning what it could not find or write.
func copyFailure(f *Failure, dir, out string) []string {
	var warn []string
	oldFile := f.File
	newFile := filepath.Join(out, filepath.Base(oldFile))
	for _, p := range []*string{&f.File, &f.Transcript, &f.Timeline} {
		if *p == "" {
			continue
		}
		dst := filepath.Join(out, filepath.Base(*p))
		var edit func([]byte) []byte
		if p == &f.Timeline && oldFile != "" {
			// the page names the YAML it was drawn from
			edit = func(b []byte) []byte {
				return bytes.ReplaceAll(b, []byte(html.EscapeString(oldFile)), []byte(html.EscapeString(newFile)))
			}
		}
		if err := copyInto(dst, edit, filepath.Join(dir, filepath.Base(*p)), *p); err != nil {
			warn = append(warn, fmt.Sprintf("seed %d: %v", f.Seed, err))
			continue
		}
		*p = dst
	}
	if oldFile != "" && f.File != oldFile && strings.HasSuffix(f.Replay, oldFile) {
		f.Replay = strings.TrimSuffix(f.Replay, oldFile) + f.File
	}
	return warn
}

// copyInto copies the first of srcs that exists to dst (nothing when it is dst itself),
// through edit when it is not nil.
func copyInto(dst string, edit func([]byte) []byte, srcs ...string) error {
	for _, src := range srcs {
		st, err := os.Stat(src)
		if err != nil {
			continue
		}
		if dt, err := os.Stat(dst); err == nil && os.SameFile(st, dt) {
			return nil
		}
		b, err := os.ReadFile(src)
		if err != nil {
			return err
		}
		if edit != nil {
			b = edit(b)
		}
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return err
		}
		return fileio.WriteAtomic(dst, b)
	}
	return fmt.Errorf("%s not found (looked for %s)", filepath.Base(dst), strings.Join(srcs, " and "))
}

// Unreached lists, in Situations() order, the situations with no run in counts that are
// not in cannot (those a missing feature rules out): a report's "unreached" from its
// counts, as Report.Unreached.
func Unreached(counts map[string]uint64, cannot map[string][]string) []string {
	out := []string{}
	for _, s := range situationList {
		if _, ruled := cannot[s.Name]; counts[s.Name] == 0 && !ruled {
			out = append(out, s.Name)
		}
	}
	return out
}

// Reached counts the situations with runs in counts.
func ReachedIn(counts map[string]uint64) int {
	n := 0
	for _, c := range counts {
		if c > 0 {
			n++
		}
	}
	return n
}
