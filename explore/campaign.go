package explore

import (
	"context"
	"errors"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/twosettle/twosettle/scenarios"
)

// Campaign is a fuzz campaign: which seeds, against which host, with how many workers,
// and what to do with a failure. The zero value of each field is a sensible default.
type Campaign struct {
	// Start is the first seed of the campaign (0 means 1).
	Start uint64
	// Seeds is how many seeds the whole campaign (all shards together) covers: Start,
	// Start+1, ..., Start+Seeds-1. 0 with Duration set runs until the time is up.
	Seeds uint64
	// Duration stops dispatching new seeds after this much wall time (0: no limit).
	Duration time.Duration
	// Shard and Shards split the campaign: shard K of N (1 <= K <= N) runs the seeds whose
	// index i = seed-Start has i mod N = K-1, so the N shards together run each seed of
	// the campaign exactly once. Shards 0 means 1.
	Shard, Shards uint64
	// Workers run seeds in parallel (0: GOMAXPROCS). Results are reported in seed order
	// whatever the number of workers.
	Workers int
	// Options select the host (a mutant, another host).
	Options Options
	// Gen restricts the generated scenarios to what the host runs (a host that lacks
	// features: GenOptionsFor); the zero value generates everything.
	Gen GenOptions
	// StopAtFirst ends the campaign at its first failing seed (in seed order): every seed
	// before it still runs, none after it is reported (how mutants are killed).
	StopAtFirst bool
	// NoShrink reports failures as generated (faster; files are still written).
	NoShrink bool
	// Shrink bounds each shrink (zero: DefaultShrinkRuns and 30 s).
	Shrink ShrinkBudget
	// OutDir is where failures are written ("" writes nothing).
	OutDir string
	// Corpus is replayed first, before any seed (LoadCorpus): each scenario at its own
	// seed, against the same host. Its results are the report's Corpus, not seeds.
	Corpus []CorpusEntry
	// OnCorpus is called for each corpus scenario's result, in corpus order, before any
	// seed runs.
	OnCorpus func(CorpusResult)
	// OnFailure is called for each failure, in seed order, after its files are written.
	OnFailure func(Failure)
	// OnProgress is called about every ProgressEvery with the counters so far.
	OnProgress    func(Progress)
	ProgressEvery time.Duration
}

// Progress is a campaign's counters while it runs.
type Progress struct {
	SeedsRun uint64
	Failures int
	Elapsed  time.Duration
}

// Rate is seeds per second.
func (p Progress) Rate() float64 {
	if p.Elapsed <= 0 {
		return 0
	}
	return float64(p.SeedsRun) / p.Elapsed.Seconds()
}

// Report is what a campaign found. It holds counters and the failures only: nothing per
// passing seed, so memory stays flat however many seeds run.
type Report struct {
	// SeedsRun counts the seeds run. With StopAtFirst and a failure it is the number of
	// this shard's seeds up to and including the failing one (seeds to kill).
	SeedsRun uint64
	// Failures in seed order.
	Failures []Failure
	// Situations: how many runs reached each situation, in Situations() order.
	Situations [numSituations]uint64
	Records    uint64
	Elapsed    time.Duration
	// Interrupted: the context ended the campaign before its seeds were done.
	Interrupted bool
	// Gen are the campaign's generator options (Campaign.Gen).
	Gen GenOptions
	// Covered is exactly the seeds run (Covered: a prefix of the shard's seeds, however
	// the campaign ended); a merge's are the shards' together.
	Covered []SeedRange
	// Corpus is the corpus's results in corpus order (Campaign.Corpus).
	Corpus []CorpusResult
	// Missing names the shards a merge did not have ("3/8"): not set by Run.
	Missing []string
}

// SituationCounts are the situations with their counts, in report order.
func (r *Report) SituationCounts() []SituationCount {
	out := make([]SituationCount, numSituations)
	for i := range out {
		out[i] = SituationCount{Situation: situationList[i], Runs: r.Situations[i]}
	}
	return out
}

// SituationCount is one situation and the number of runs that reached it.
type SituationCount struct {
	Situation
	Runs uint64
}

// Unreached lists the situations no run reached that the campaign's generator options
// could reach (CannotReach lists the others).
func (r *Report) Unreached() []string {
	var out []string
	for i, n := range r.Situations {
		if _, ruled := r.Gen.cannotReach(i); n == 0 && !ruled {
			out = append(out, situationList[i].Name)
		}
	}
	return out
}

// CannotReach lists the situations the campaign could not reach because the host lacks a
// feature (GenOptions.CannotReach): none with every option on.
func (r *Report) CannotReach() []SituationNeed { return r.Gen.CannotReach() }

// Reached is how many situations some run reached.
func (r *Report) Reached() int {
	n := 0
	for _, c := range r.Situations {
		if c > 0 {
			n++
		}
	}
	return n
}

// ParseShard reads "K/N" (1 <= K <= N).
func ParseShard(s string) (k, n uint64, err error) {
	a, b, ok := strings.Cut(s, "/")
	if ok {
		k, err = strconv.ParseUint(a, 10, 64)
		if err == nil {
			n, err = strconv.ParseUint(b, 10, 64)
		}
	}
	if !ok || err != nil || n == 0 || k == 0 || k > n {
		return 0, 0, errors.New("a shard is K/N with 1 <= K <= N, like 2/8")
	}
	return k, n, nil
}

// ShardSeeds returns the i-th seed of shard k of n and whether the campaign has it.
func (c *Campaign) seedAt(i uint64) (uint64, bool) {
	idx := (c.Shard - 1) + i*c.Shards
	if c.Seeds > 0 && idx >= c.Seeds {
		return 0, false
	}
	return c.Start + idx, true
}

func (c *Campaign) normalise() error {
	if c.Start == 0 {
		c.Start = 1
	}
	if c.Shards == 0 {
		c.Shards, c.Shard = 1, 1
	}
	if c.Shard == 0 || c.Shard > c.Shards {
		return errors.New("explore: shard " + strconv.FormatUint(c.Shard, 10) + " of " + strconv.FormatUint(c.Shards, 10))
	}
	if c.Seeds == 0 && c.Duration <= 0 {
		return errors.New("explore: a campaign needs a number of seeds or a duration")
	}
	if c.Workers <= 0 {
		c.Workers = runtime.GOMAXPROCS(0)
	}
	if c.ProgressEvery <= 0 {
		c.ProgressEvery = 250 * time.Millisecond
	}
	return nil
}

// result is what a worker tells the collector about one seed.
type result struct {
	i       uint64
	failure *Failure
	reached Reached
	records int
	// cut: the interruption cut the run short (its host was lost after ctx ended, the
	// runner having closed its hosts): no verdict, not counted as run.
	cut bool
}

// Run runs the campaign until its seeds are done, its duration is up, ctx ends or (with
// StopAtFirst) a seed fails. Seeds are dispatched in order; every dispatched seed
// finishes (an interrupted shrink writes what it has), so the seeds run are always a
// prefix of the shard's sequence, but for a seed whose host was lost after ctx ended: the
// runner closed its hosts under it, so it has no verdict and is neither counted nor
// reported (conform's second Ctrl-C).
func (c Campaign) Run(ctx context.Context) (*Report, error) {
	if err := c.normalise(); err != nil {
		return nil, err
	}
	start := time.Now()
	var corpus []CorpusResult
	if len(c.Corpus) > 0 {
		corpus = c.runCorpus(NewRunner(c.Options))
		for _, r := range corpus {
			if c.OnCorpus != nil {
				c.OnCorpus(r)
			}
		}
	}
	var deadline time.Time
	if c.Duration > 0 {
		deadline = start.Add(c.Duration)
	}
	var next atomic.Uint64
	var stopAt atomic.Uint64 // 1 + index of the first failure (StopAtFirst), 0 none
	results := make(chan result, 4*c.Workers)
	var wg sync.WaitGroup
	for w := 0; w < c.Workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := NewRunner(c.Options)
			for {
				if ctx.Err() != nil || (!deadline.IsZero() && time.Now().After(deadline)) {
					return
				}
				i := next.Add(1) - 1
				if s := stopAt.Load(); s != 0 && i >= s-1 {
					return
				}
				seed, ok := c.seedAt(i)
				if !ok {
					return
				}
				res := c.one(ctx, r, i, seed)
				if res.failure != nil && c.StopAtFirst {
					for {
						s := stopAt.Load()
						if s != 0 && s-1 <= i || stopAt.CompareAndSwap(s, i+1) {
							break
						}
					}
				}
				results <- res
			}
		}()
	}
	go func() { wg.Wait(); close(results) }()

	rep := &Report{Gen: c.Gen, Corpus: corpus}
	// Failures are reported in seed order: a failure waits until every seed before it
	// has finished. pending holds finished seeds ahead of the cursor (failures or nil).
	pending := map[uint64]*Failure{}
	cut := map[uint64]bool{}
	var cursor uint64
	lastProgress := time.Now()
	deliver := func() {
		for {
			f, ok := pending[cursor]
			if !ok {
				return
			}
			delete(pending, cursor)
			if cut[cursor] {
				delete(cut, cursor)
				cursor++
				continue
			}
			if s := stopAt.Load(); c.StopAtFirst && s != 0 && cursor >= s {
				cursor++
				continue // after the first failure: not part of this campaign
			}
			rep.SeedsRun++
			if f != nil {
				rep.Failures = append(rep.Failures, *f)
				if c.OnFailure != nil {
					c.OnFailure(*f)
				}
			}
			cursor++
		}
	}
	for res := range results {
		if res.cut {
			cut[res.i], pending[res.i] = true, nil
			deliver()
			continue
		}
		if s := stopAt.Load(); c.StopAtFirst && s != 0 && res.i >= s {
			pending[res.i] = nil // finished after the first failure: counted as nothing
			deliver()
			continue
		}
		rep.Records += uint64(res.records)
		for i := 0; i < numSituations; i++ {
			if res.reached.Has(i) {
				rep.Situations[i]++
			}
		}
		pending[res.i] = res.failure
		deliver()
		if c.OnProgress != nil && time.Since(lastProgress) >= c.ProgressEvery {
			lastProgress = time.Now()
			c.OnProgress(Progress{SeedsRun: rep.SeedsRun, Failures: len(rep.Failures), Elapsed: time.Since(start)})
		}
	}
	deliver()
	rep.Elapsed = time.Since(start)
	rep.Interrupted = ctx.Err() != nil
	rep.Covered = Covered(c.Start, c.Shard, c.Shards, rep.SeedsRun)
	sort.SliceStable(rep.Failures, func(i, j int) bool { return rep.Failures[i].Seed < rep.Failures[j].Seed })
	if c.OnProgress != nil {
		c.OnProgress(Progress{SeedsRun: rep.SeedsRun, Failures: len(rep.Failures), Elapsed: rep.Elapsed})
	}
	return rep, nil
}

// one runs seed (index i of the shard), and shrinks and writes it if it fails.
func (c *Campaign) one(ctx context.Context, r *Runner, i, seed uint64) result {
	s := GenerateWith(seed, c.Gen)
	out, reached := r.Run(s)
	res := result{i: i, reached: reached, records: len(out.Trace.Records)}
	if !out.Failed() {
		return res
	}
	if out.Kind == HostLost && ctx.Err() != nil {
		return result{i: i, cut: true} // the host was closed under the run by its interruption
	}
	f := &Failure{Seed: seed, Invariant: out.Invariant(), Message: OneLine(out.Message()), Steps: len(s.Steps)}
	res.failure = f
	if out.Kind == HostLost {
		// A lost host is no verdict to shrink (a process that crashed, not a scenario that
		// fails): the generated scenario is written as it is, to retry against the host,
		// with the refusals seen before the loss marked and no transcript (none to
		// compare a retry with).
		f.ShrunkTo = len(s.Steps)
		if c.OutDir == "" {
			return res
		}
		Refusals(s, out.Plan, out.Trace)
		s.Summary = "simrun fuzz seed " + strconv.FormatUint(seed, 10) + ": " + OneLine(out.Message())
		c.write(f, scenarios.Encode(s), nil)
		return res
	}
	shrunk := s
	if !c.NoShrink && out.Kind != InvalidScenario {
		b := c.Shrink
		b.Ctx = ctx
		if b.Deadline.IsZero() {
			b.Deadline = time.Now().Add(30 * time.Second)
		}
		shrunk, _ = Shrink(r, s, f.Invariant, b)
	}
	f.ShrunkTo, f.Shrunk = len(shrunk.Steps), shrunk != s
	if c.OutDir == "" {
		return res
	}
	yaml, transcript, err := Final(r, shrunk, seed, f.Invariant, c.Options)
	if err != nil && shrunk != s {
		// the shrunk case does not reproduce through the harness: keep the original
		f.ShrunkTo, f.Shrunk = len(s.Steps), false
		yaml, transcript, err = Final(r, s, seed, f.Invariant, c.Options)
	}
	if err != nil {
		f.WriteErr = err.Error()
		return res
	}
	c.write(f, yaml, transcript)
	return res
}

// write stores failure f's files in OutDir (no transcript when it is nil), its timeline
// page beside them when it has a transcript, and names its replay line, or says why they
// could not be written.
func (c *Campaign) write(f *Failure, yaml, transcript []byte) {
	var err error
	f.File, f.Transcript, err = Write(c.OutDir, SeedName(f.Seed), yaml, transcript)
	if err != nil {
		f.WriteErr = err.Error()
		return
	}
	f.Replay = ReplayCommand(f.File, c.Options)
	if transcript != nil {
		// the failure's picture beside its YAML (a lost host's run has none to draw)
		if f.Timeline, err = WriteTimeline(f.File, yaml, c.Options); err != nil {
			f.WriteErr = "timeline: " + err.Error()
		}
	}
}
