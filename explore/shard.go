package explore

import (
	"crypto/sha256"
	"encoding/hex"
	"maps"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
)

// Identity is what makes reports shards of one campaign (docs/ci.md, "Merging shards"):
// every fuzz report (simrun fuzz --json, conform fuzz --json, a shard's record) carries it
// as "campaign", and a merge refuses reports whose identities differ. The shard (K/N) is
// not part of it: it is what tells the shards of one campaign apart.
type Identity struct {
	// Command is the command that ran the campaign: "simrun fuzz" or "conform fuzz".
	Command string `json:"command"`
	// Build is the binary that ran it (Build): module version, VCS revision, whether the
	// tree was modified, Go version.
	Build string `json:"build"`
	// Start, Seeds and Duration are the campaign's seeds: Start, Start+1, ...,
	// Start+Seeds-1 (Seeds 0: as many as Duration allows), and its time box ("" none).
	Start    uint64 `json:"start"`
	Seeds    uint64 `json:"seeds"`
	Duration string `json:"duration,omitempty"`
	// Shards is N of --shard K/N (1 for a campaign run whole).
	Shards uint64 `json:"shards"`
	// Config is everything else that decides what a seed does: the host and client
	// commands, the mutant, the generator's and the oracle's options, shrinking, the
	// corpus's digest. Keys are the command's own; equal campaigns have equal maps.
	Config map[string]string `json:"config"`
}

// Differs names the first field in which b is another campaign than a ("" when they are
// the same campaign), with both values.
func (a Identity) Differs(b Identity) string {
	q := strconv.Quote
	switch {
	case a.Command != b.Command:
		return "command " + q(a.Command) + " vs " + q(b.Command)
	case a.Build != b.Build:
		return "build " + q(a.Build) + " vs " + q(b.Build)
	case a.Start != b.Start:
		return "start " + u(a.Start) + " vs " + u(b.Start)
	case a.Seeds != b.Seeds:
		return "seeds " + u(a.Seeds) + " vs " + u(b.Seeds)
	case a.Duration != b.Duration:
		return "duration " + q(a.Duration) + " vs " + q(b.Duration)
	case a.Shards != b.Shards:
		return "shards " + u(a.Shards) + " vs " + u(b.Shards)
	}
	keys := slices.Sorted(maps.Keys(a.Config))
	for k := range b.Config {
		if _, ok := a.Config[k]; !ok {
			keys = append(keys, k)
		}
	}
	for _, k := range keys {
		va, oka := a.Config[k]
		vb, okb := b.Config[k]
		if va != vb || oka != okb {
			return "config " + k + " " + q(va) + " vs " + q(vb)
		}
	}
	return ""
}

// NewIdentity is the identity of campaign c run by command with config: what every
// shard of it shares.
func NewIdentity(command string, c Campaign, config map[string]string) Identity {
	id := Identity{Command: command, Build: Build(), Start: max(c.Start, 1), Seeds: c.Seeds, Shards: max(c.Shards, 1), Config: config}
	if c.Duration > 0 {
		id.Duration = c.Duration.String()
	}
	return id
}

func u(n uint64) string { return strconv.FormatUint(n, 10) }

// Build names the running binary for Identity: "VERSION (revision REV[, modified])
// GOVERSION" from its build information ("(devel)" for a source tree's build). Two
// binaries built from one commit of an unmodified tree with one Go version are one build;
// builds of a modified tree cannot be told apart, so build once and copy the binary
// (docs/ci.md).
func Build() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "(no build information)"
	}
	v := bi.Main.Version
	if v == "" {
		v = "(devel)"
	}
	rev, modified := "", false
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			modified = s.Value == "true"
		}
	}
	if rev != "" {
		v += " (revision " + rev
		if modified {
			v += ", modified"
		}
		v += ")"
	}
	return v + " " + bi.GoVersion
}

// Digest is a short content digest of named byte strings (a corpus's files) for an
// Identity's Config: "N files sha256:HEX" over the names and contents in name order.
func Digest(files map[string][]byte) string {
	h := sha256.New()
	for _, n := range slices.Sorted(maps.Keys(files)) {
		h.Write([]byte(n + "\x00" + strconv.Itoa(len(files[n])) + "\x00"))
		h.Write(files[n])
	}
	return strconv.Itoa(len(files)) + " files sha256:" + hex.EncodeToString(h.Sum(nil))[:16]
}

// RecordName is the file a shard writes its JSON report to in its --out directory,
// "shard-K-of-N.json": the shard's record, which simrun merge reads. Distinct shards have
// distinct names, so shards may share one directory (their failure files are named by
// seed, and no seed is in two shards).
func RecordName(k, n uint64) string {
	return "shard-" + u(k) + "-of-" + u(n) + ".json"
}

// SeedRange is seeds First, First+Step, ..., Last (Step 0 or 1: every seed from First
// to Last): how a report says exactly which seeds it ran ("covered").
type SeedRange struct {
	First uint64 `json:"first"`
	Last  uint64 `json:"last"`
	Step  uint64 `json:"step,omitempty"`
}

// String is "F-L", "F-L step S" or "F" for one seed.
func (r SeedRange) String() string {
	switch {
	case r.First == r.Last:
		return u(r.First)
	case r.Step > 1:
		return u(r.First) + "-" + u(r.Last) + " step " + u(r.Step)
	}
	return u(r.First) + "-" + u(r.Last)
}

// RangesString is ranges joined by ", " ("none" for none).
func RangesString(rs []SeedRange) string {
	if len(rs) == 0 {
		return "none"
	}
	s := make([]string, len(rs))
	for i, r := range rs {
		s[i] = r.String()
	}
	return strings.Join(s, ", ")
}

// Covered is the seeds shard k of n of a campaign from start ran when it ran run of them:
// a shard always runs a prefix of its sequence start+k-1, start+k-1+n, ... (Campaign.Run),
// so this is exactly its seeds. Never nil.
func Covered(start, k, n, run uint64) []SeedRange {
	if n == 0 {
		k, n = 1, 1
	}
	return CoveredBy(start, n, map[uint64]uint64{k: run})
}

// CoveredBy is the seeds the shards of a campaign from start in n shards ran together,
// runs[k] being how many seeds shard k ran (a shard not in runs ran none): one contiguous
// range for the seeds every shard ran, then each shard's further seeds as one range of
// step n, in seed order, single seeds next to a range joined to it. Never nil.
func CoveredBy(start, n uint64, runs map[uint64]uint64) []SeedRange {
	out := []SeedRange{}
	// Shard k ran indices k-1+j*n for j < runs[k]: every shard ran j < least.
	var least uint64
	if uint64(len(runs)) == n {
		least = ^uint64(0)
		for k, c := range runs {
			if k >= 1 && k <= n {
				least = min(least, c)
			}
		}
	}
	if least > 0 {
		out = append(out, SeedRange{First: start, Last: start + least*n - 1})
	}
	for k, c := range runs {
		if k < 1 || k > n || c <= least {
			continue
		}
		r := SeedRange{First: start + k - 1 + least*n, Last: start + k - 1 + (c-1)*n}
		if r.First != r.Last && n > 1 {
			r.Step = n
		}
		out = append(out, r)
	}
	slices.SortFunc(out, func(a, b SeedRange) int {
		if a.First < b.First {
			return -1
		}
		if a.First > b.First {
			return 1
		}
		return 0
	})
	// contiguous ranges and single seeds next to each other are one range
	merged := out[:0]
	for _, r := range out {
		if m := len(merged); m > 0 && merged[m-1].Step == 0 && r.Step == 0 && r.First == merged[m-1].Last+1 {
			merged[m-1].Last = r.Last
			continue
		}
		merged = append(merged, r)
	}
	return merged
}
