package killmatrix

import (
	"context"
	"errors"
	"runtime"
	"strings"
	"sync"
	"time"

	"github.com/twosettle/twosettle/engine/mutant"
	"github.com/twosettle/twosettle/explore"
	"github.com/twosettle/twosettle/harness"
	"github.com/twosettle/twosettle/oracle"
)

// Verdicts of the kill matrix.
const (
	KilledByOracle     = "killed-by-oracle"
	KilledByGoldenOnly = "killed-by-golden-only"
	Survived           = "survived"
)

// Defaults of Options.
const (
	DefaultSeeds  = 20000
	DefaultBudget = 10 * time.Second
)

// Options say which mutants run and how much fuzzing each gets. The zero value runs every
// mutant with the default budget.
type Options struct {
	// Only names the mutants to run (nil: all, in registry order). An unknown name is an
	// error.
	Only []string
	// Start is the first seed (0 means 1); Seeds is the fuzz budget in seeds per mutant
	// (0: DefaultSeeds); Budget bounds each mutant's fuzzing in wall time (0:
	// DefaultBudget; negative: no limit).
	Start, Seeds uint64
	Budget       time.Duration
	// Workers run mutants in parallel (0: GOMAXPROCS).
	Workers int
	// NoLibrary skips the scenario library; Library replaces the embedded one (nil: the
	// embedded library).
	NoLibrary bool
	Library   []harness.Entry
	// OnRow is called with each mutant's row as it finishes (in any order).
	OnRow func(Row)
	// Host, when set, opens the host a mutant runs against (an external process serving
	// the reference host with that mutant, e.g. conform refhost --mutant NAME) and the
	// function that closes it; the clients still get the mutant in-process. nil: the
	// reference host in-process.
	Host func(mutant string) (harness.HostFactory, func(), error)

	baselineFails func(seed uint64) bool // tests: stands in for the correct engine's verdict
}

// Row is one mutant's line of the kill matrix.
type Row struct {
	Name    string
	Side    string
	Doc     string
	Verdict string
	// SeedsToKill is how many seeds ran up to and including the killing one (0: none).
	SeedsToKill uint64
	// Seed is the killing seed, Invariant the first invariant the mutant violated on it and
	// Message its one-line description.
	Seed      uint64
	Invariant string
	Message   string
	// SeedsRun is how many seeds the fuzzing ran (SeedsToKill when killed).
	SeedsRun uint64
	// BaselineSkips counts seeds where the mutant violated the oracle but the correct
	// engine did too; RunErrors seeds that ended in a run error or could not run.
	BaselineSkips, RunErrors int
	// BudgetOut: the wall-time budget ended the fuzzing before the seeds did.
	BudgetOut bool
	FuzzTime  time.Duration
	Library   Library
}

// Library is what the scenario library said about a mutant.
type Library struct {
	Ran bool
	// Scenarios run, and how many failed: a golden mismatch (Golden), a failed expectation
	// or refusal check (Expectations), an unexpected oracle violation (Oracle), a step the
	// mutant made impossible (Invalid). One scenario can count in several.
	Scenarios, Failed                     int
	Golden, Expectations, Oracle, Invalid int
	First                                 string // the first failing scenario's name
	Time                                  time.Duration
}

// Caught reports whether the library caught the mutant.
func (l Library) Caught() bool { return l.Failed > 0 }

// Matrix is the kill matrix.
type Matrix struct {
	Rows    []Row
	Start   uint64
	Seeds   uint64
	Budget  time.Duration
	Workers int
	Elapsed time.Duration
	// Interrupted: the context ended the run (rows may be incomplete).
	Interrupted bool
}

// AllKilled reports whether every mutant was killed by the oracle.
func (m *Matrix) AllKilled() bool {
	for _, r := range m.Rows {
		if r.Verdict != KilledByOracle {
			return false
		}
	}
	return len(m.Rows) > 0 && !m.Interrupted
}

// Select resolves Only to registry entries, in registry order.
func Select(only []string) ([]mutant.Info, error) {
	all := mutant.All()
	if len(only) == 0 {
		return all, nil
	}
	want := map[string]bool{}
	for _, n := range only {
		n = strings.TrimSpace(n)
		if _, ok := mutant.Lookup(n); !ok {
			return nil, errors.New("unknown mutant " + n + " (known: " + mutant.Names() + ")")
		}
		want[n] = true
	}
	var out []mutant.Info
	for _, in := range all {
		if want[in.Name] {
			out = append(out, in)
		}
	}
	return out, nil
}

// Measure builds the kill matrix. Rows are in registry order whatever the number of workers.
func Measure(ctx context.Context, opts Options) (*Matrix, error) {
	infos, err := Select(opts.Only)
	if err != nil {
		return nil, err
	}
	if opts.Start == 0 {
		opts.Start = 1
	}
	if opts.Seeds == 0 {
		opts.Seeds = DefaultSeeds
	}
	if opts.Budget == 0 {
		opts.Budget = DefaultBudget
	}
	if opts.Workers <= 0 {
		opts.Workers = runtime.GOMAXPROCS(0)
	}
	lib := opts.Library
	if lib == nil && !opts.NoLibrary {
		lib = harness.Library("")
	}
	m := &Matrix{Rows: make([]Row, len(infos)), Start: opts.Start, Seeds: opts.Seeds, Budget: opts.Budget, Workers: opts.Workers}
	start := time.Now()
	base := &baseline{verdicts: map[uint64]bool{}, override: opts.baselineFails}
	var next int
	var mu sync.Mutex
	var wg sync.WaitGroup
	for w := 0; w < opts.Workers && w < len(infos); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			baseRunner := explore.NewRunner(explore.Options{})
			for {
				mu.Lock()
				i := next
				next++
				mu.Unlock()
				if i >= len(infos) || ctx.Err() != nil {
					return
				}
				row := runOne(ctx, infos[i], opts, lib, base, baseRunner)
				m.Rows[i] = row
				if opts.OnRow != nil {
					mu.Lock()
					opts.OnRow(row)
					mu.Unlock()
				}
			}
		}()
	}
	wg.Wait()
	m.Elapsed = time.Since(start)
	m.Interrupted = ctx.Err() != nil
	return m, nil
}

// baseline is the correct engine's oracle verdict per seed, shared by every mutant.
type baseline struct {
	mu       sync.Mutex
	verdicts map[uint64]bool // seed -> the correct engine fails it
	// override replaces the correct engine's verdict (tests of the differential rule).
	override func(seed uint64) bool
}

func (b *baseline) fails(r *explore.Runner, seed uint64) bool {
	if b.override != nil {
		return b.override(seed)
	}
	b.mu.Lock()
	v, ok := b.verdicts[seed]
	b.mu.Unlock()
	if ok {
		return v
	}
	out, _ := r.Run(explore.Generate(seed))
	v = out.Failed()
	b.mu.Lock()
	b.verdicts[seed] = v
	b.mu.Unlock()
	return v
}

// runOne is one mutant's row: the library, then the fuzz budget.
func runOne(ctx context.Context, in mutant.Info, opts Options, lib []harness.Entry, base *baseline, baseRunner *explore.Runner) Row {
	row := Row{Name: in.Name, Side: in.Side, Doc: in.Doc}
	var hosts harness.HostFactory
	if opts.Host != nil {
		h, closeHost, err := opts.Host(in.Name)
		if err != nil {
			row.Message = "the host cannot be used: " + explore.OneLine(err.Error())
			row.Verdict = Survived
			return row
		}
		defer closeHost()
		hosts = h
	}
	if lib != nil {
		row.Library = runLibrary(in.Name, lib, hosts)
	}
	t0 := time.Now()
	var deadline time.Time
	if opts.Budget > 0 {
		deadline = t0.Add(opts.Budget)
	}
	r := explore.NewRunner(explore.Options{Mutant: in.Name, Host: hosts})
	for i := uint64(0); i < opts.Seeds; i++ {
		if ctx.Err() != nil {
			break
		}
		if !deadline.IsZero() && time.Now().After(deadline) {
			row.BudgetOut = true
			break
		}
		seed := opts.Start + i
		out, _ := r.Run(explore.Generate(seed))
		row.SeedsRun = i + 1
		switch {
		case out.Kind != "":
			row.RunErrors++
			continue
		case out.Verdict.Status != oracle.Violation:
			continue
		}
		if base.fails(baseRunner, seed) {
			row.BaselineSkips++
			continue
		}
		row.SeedsToKill, row.Seed = i+1, seed
		row.Invariant = out.Invariant()
		row.Message = explore.OneLine(out.Message())
		break
	}
	row.FuzzTime = time.Since(t0)
	switch {
	case row.SeedsToKill > 0:
		row.Verdict = KilledByOracle
	case row.Library.Caught():
		row.Verdict = KilledByGoldenOnly
	default:
		row.Verdict = Survived
	}
	return row
}

// runLibrary runs every library scenario against the mutant, goldens and expectations
// included.
func runLibrary(name string, lib []harness.Entry, hosts harness.HostFactory) Library {
	t0 := time.Now()
	l := Library{Ran: true}
	opts := harness.DefaultOptions()
	opts.Mutant, opts.Host = name, hosts
	for _, e := range lib {
		r := harness.RunEntry(e, opts)
		l.Scenarios++
		if r.Status() == harness.Passed || r.Lost != nil {
			continue // a lost host (--host) is no verdict: neither a pass nor a catch
		}
		l.Failed++
		if l.First == "" {
			l.First = r.Name()
		}
		if r.Invalid != nil {
			l.Invalid++
		}
		if r.Golden.Failed() {
			l.Golden++
		}
		oracleFailed, other := false, false
		for _, f := range r.Failures {
			if strings.HasPrefix(f.Msg, oracleFailure) {
				oracleFailed = true
			} else {
				other = true
			}
		}
		if oracleFailed {
			l.Oracle++
		}
		if other {
			l.Expectations++
		}
	}
	l.Time = time.Since(t0)
	return l
}

// oracleFailure starts the failure the harness records for an unexpected oracle violation.
const oracleFailure = "the oracle found a violation"
