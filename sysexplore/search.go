package sysexplore

import (
	"bytes"
	"context"
	"errors"
	"hash/fnv"
	"math/rand/v2"
	"strconv"
	"strings"
	"time"

	"github.com/twosettle/twosettle/engine/wire"
	"github.com/twosettle/twosettle/explore"
	"github.com/twosettle/twosettle/harness"
	"github.com/twosettle/twosettle/oracle"
	"github.com/twosettle/twosettle/sim"
	"github.com/twosettle/twosettle/trace"
)

// DefaultDepth is the depth bound when neither the command nor the configuration sets one.
const DefaultDepth = 40

// Unbounded as a depth (or more) is no bound: the search covers the whole state space.
const Unbounded = 1 << 30

// Options bound and shape a search.
type Options struct {
	// Depth: only the first Depth decisions of a run branch; later ones take the default
	// (no step placed, the first candidate). 0: the configuration's, else DefaultDepth.
	Depth int
	// Deviations bounds the non-default choices of a run (0: no bound): with it the search
	// covers every run that differs from the default one in at most that many places,
	// however deep (delay bounding).
	Deviations int
	// NoDedup explores a state again each time a run reaches it.
	NoDedup bool
	// KeepGoing searches on after the first violation.
	KeepGoing bool
	// Ctx stops the search (a deadline, an interrupt); the result says it was cut short.
	Ctx context.Context
	// Explore is the host and clients the runs use (Mutant, Host, Client).
	Explore explore.Options
	// Progress, if set, is called about every ProgressEvery with the running counts.
	Progress      func(Stats)
	ProgressEvery time.Duration
	// Random, when > 0, runs that many random walks instead of the search (a swarm over
	// the same world, for comparison): walk i takes every choice uniformly from a stream
	// seeded with i (1..Random); nothing is pruned.
	Random int
	// keepStates collects every state key reached (tests).
	keepStates bool
}

// Stats are a search's counts.
type Stats struct {
	// Runs: the runs played to their end and judged by the oracle (the schedules).
	Runs int `json:"schedules"`
	// Pruned: runs stopped at a state an earlier run had already reached.
	Pruned int `json:"pruned"`
	// States: distinct canonical states at decision points.
	States int `json:"states"`
	// Transitions: events dispatched and steps placed beyond the replayed prefixes (the
	// new edges each run walked).
	Transitions int `json:"transitions"`
	// Decisions: the choice points the search branched on.
	Decisions int `json:"decisions"`
	// MaxDepth: the most decisions one run went through (branching or not).
	MaxDepth int `json:"max_depth"`
	// Cut: choice points left unexplored because of the depth or deviation bound.
	Cut       int     `json:"cut_by_bound"`
	Exhausted bool    `json:"exhausted"` // every branch within the bounds was explored
	Seconds   float64 `json:"seconds"`
}

// Violation is a run the oracle rejected (or that failed), and the choices that reach it.
type Violation struct {
	Invariant string `json:"invariant"`
	Message   string `json:"message"`
	// Path is the run's choices, in order, as --path takes them.
	Path string `json:"path"`
	// Placed: the steps placed, with their times (ms).
	Placed []Placed `json:"placed"`
	Depth  int      `json:"depth"`
	// Run is the run's index (the Runs count when it was found).
	Run int `json:"run"`
}

// Placed is one step the explorer placed.
type Placed struct {
	Step string `json:"step"`
	At   int64  `json:"at_ms"`
	idx  int
}

// Result is what a search found.
type Result struct {
	Stats
	Violations []Violation `json:"violations"`
	Reached    explore.Reached
	states     map[string]bool
}

// decision kinds
const (
	kBefore = 'b' // place a step (choice i > 0: the i-th available) or not (0)
	kPick   = 'p' // the scheduler's pick
)

type decision struct {
	kind   byte
	arity  int
	choice int
	branch bool // the search may try its other choices
}

type visit struct{ depth, devs int32 }

// Search explores every run of c within the bounds. It replays each run from the
// start with a prefix of choices (the engine is deterministic), depth first.
func Search(c *Config, o Options) (*Result, error) {
	o.Depth = effectiveDepth(c, o.Depth)
	if o.Ctx == nil {
		o.Ctx = context.Background()
	}
	if o.ProgressEvery <= 0 {
		o.ProgressEvery = time.Second
	}
	s := newSearcher(c, o)
	return s.search()
}

func (s *searcher) search() (*Result, error) {
	o := s.o
	start := time.Now()
	last := start
	if o.Random > 0 {
		s.o.NoDedup = true
		for i := 1; i <= o.Random && o.Ctx.Err() == nil; i++ {
			s.w.rnd = rand.New(rand.NewPCG(uint64(i), 0x5eed))
			if err := s.run(nil); err != nil {
				return s.res, err
			}
			if len(s.res.Violations) > 0 && !o.KeepGoing {
				break
			}
			if o.Progress != nil && time.Since(last) >= o.ProgressEvery {
				last = time.Now()
				s.res.Seconds = time.Since(start).Seconds()
				s.res.States = len(s.seen)
				o.Progress(s.res.Stats)
			}
		}
		s.res.Seconds = time.Since(start).Seconds()
		s.res.States = len(s.seen)
		return s.res, nil
	}
	var path []decision
	for {
		if err := s.run(path); err != nil {
			return s.res, err
		}
		path = s.w.path
		if len(s.res.Violations) > 0 && !o.KeepGoing {
			break
		}
		// backtrack: the deepest decision with a choice left
		for len(path) > 0 {
			d := &path[len(path)-1]
			if d.branch && d.choice+1 < d.arity {
				d.choice++
				break
			}
			path = path[:len(path)-1]
		}
		if len(path) == 0 {
			s.res.Exhausted = true
			break
		}
		if o.Ctx.Err() != nil {
			break
		}
		if o.Progress != nil && time.Since(last) >= o.ProgressEvery {
			last = time.Now()
			s.res.Seconds = time.Since(start).Seconds()
			s.res.States = len(s.seen)
			o.Progress(s.res.Stats)
		}
	}
	s.res.Seconds = time.Since(start).Seconds()
	s.res.States = len(s.seen)
	return s.res, nil
}

// effectiveDepth is the depth bound of a search: depth if set (< 0: unbounded), else the
// configuration's, else DefaultDepth.
func effectiveDepth(c *Config, depth int) int {
	if depth == 0 {
		depth = c.Depth
	}
	if depth == 0 {
		depth = DefaultDepth
	}
	if depth < 0 || depth > Unbounded {
		depth = Unbounded
	}
	return depth
}

// EffectiveDepth is the depth bound a search of c with depth uses.
func EffectiveDepth(c *Config, depth int) int { return effectiveDepth(c, depth) }

func newSearcher(c *Config, o Options) *searcher {
	s := &searcher{c: c, o: o, seen: map[[16]byte]visit{}, er: explore.NewRunner(o.Explore),
		sr: sim.NewRunner(), ports: map[string]wire.ClientPort{}, res: &Result{}}
	if o.keepStates {
		s.res.states = map[string]bool{}
	}
	s.hosts, s.clients = harness.ReferenceHost(o.Explore.Mutant), harness.ReferenceClient(o.Explore.Mutant)
	if o.Explore.Host != nil {
		s.hosts = o.Explore.Host
	}
	if o.Explore.Client != nil {
		s.clients = o.Explore.Client
	}
	s.w.s = s
	s.sr.Chooser = &s.w
	s.sr.CanonicalOrder = true // a pick means the same event in two runs at the same state
	return s
}

type searcher struct {
	c       *Config
	o       Options
	seen    map[[16]byte]visit
	er      *explore.Runner
	sr      *sim.Runner
	ports   map[string]wire.ClientPort
	tr      trace.Trace
	hosts   harness.HostFactory
	clients harness.ClientFactory
	res     *Result
	w       walker
	buf     bytes.Buffer
}

// walker is the Chooser of one run: it replays a prefix of decisions, then takes the
// defaults, recording each new decision.
type walker struct {
	s       *searcher
	path    []decision
	pos     int
	prefix  int
	devs    int
	placed  []bool
	faults  int
	at      []Placed
	avail   []int
	pruned  bool
	nondet  bool
	replay  bool // --path: choices replayed, no state check
	choices []int
	badPath bool
	rnd     *rand.Rand // random walks (Options.Random)
	stepBuf sim.Step
}

// Replay runs one path (as a Violation's Path gives it; missing choices are 0) and
// returns its trace, the violation if the run has one, and the steps it placed.
func Replay(c *Config, path []int, o Options) (*trace.Trace, *Violation, []Placed, error) {
	s := newSearcher(c, o)
	s.w.replay, s.w.choices = true, path
	if err := s.run(nil); err != nil {
		return nil, nil, nil, err
	}
	var v *Violation
	if len(s.res.Violations) > 0 {
		v = &s.res.Violations[0]
	}
	return &s.tr, v, s.w.at, nil
}

func (s *searcher) run(prefix []decision) error {
	w := &s.w
	w.path, w.pos, w.prefix, w.devs = prefix, 0, len(prefix), 0
	w.placed = make([]bool, len(s.c.places))
	w.faults, w.at, w.pruned, w.nondet, w.badPath = 0, nil, false, false, false
	x := harness.ExecuteWith(s.c.plan, s.hosts, s.clients, s.sr, s.ports, &s.tr)
	if w.nondet {
		return errNondeterministic
	}
	if w.badPath {
		return errors.New("--path: choice " + strconv.Itoa(w.pos) + " is out of range (it has " + strconv.Itoa(w.path[w.pos-1].arity) + " choices)")
	}
	if w.pos > s.res.MaxDepth {
		s.res.MaxDepth = w.pos
	}
	if w.pruned {
		s.res.Pruned++
		return nil
	}
	s.res.Runs++
	inv, msg := "", ""
	switch {
	case x.Lost != nil:
		return &LostError{Err: x.Lost.Err}
	case x.ConfigErr != nil:
		return x.ConfigErr
	case x.Refused != nil:
		return x.SimErr
	case x.SimErr != nil:
		inv, msg = explore.RunError, x.SimErr.Error()
	default:
		v := s.er.Check(&s.tr, s.c.Scenario)
		if v.Status == oracle.Violation {
			b := v.First()
			inv, msg = b.Invariant, b.Invariant+": "+b.Message
		}
		r := s.er.Scan(&s.tr, s.c.Scenario)
		for i := range s.res.Reached {
			s.res.Reached[i] |= r[i]
		}
	}
	if inv != "" {
		s.res.Violations = append(s.res.Violations, Violation{Invariant: inv, Message: explore.OneLine(msg),
			Path: pathText(w.path[:w.pos]), Placed: append([]Placed(nil), w.at...), Depth: w.pos, Run: s.res.Runs})
	}
	return nil
}

// LostError: the host or a client was lost during a run.
type LostError struct{ Err error }

func (e *LostError) Error() string { return "the host was lost: " + e.Err.Error() }

func pathText(p []decision) string {
	var b strings.Builder
	for i, d := range p {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.Itoa(d.choice))
	}
	return b.String()
}

// decide takes decision number w.pos: replayed from the prefix, or new (the default).
func (w *walker) decide(kind byte, arity int) int {
	if arity <= 1 {
		return 0
	}
	if w.replay {
		ch := 0
		if w.pos < len(w.choices) {
			ch = w.choices[w.pos]
		}
		w.pos++
		w.path = append(w.path, decision{kind: kind, arity: arity, choice: ch})
		if ch >= arity {
			w.badPath = true
			return -1
		}
		return ch
	}
	if w.pos < w.prefix {
		d := w.path[w.pos]
		if d.kind != kind || d.arity != arity {
			w.nondet = true
			return -1
		}
		w.pos++
		if d.choice > 0 {
			w.devs++
		}
		return d.choice
	}
	if w.rnd != nil {
		ch := w.rnd.IntN(arity)
		w.path = append(w.path, decision{kind: kind, arity: arity, choice: ch})
		w.pos++
		return ch
	}
	o := &w.s.o
	br := w.pos < o.Depth && (o.Deviations == 0 || w.devs < o.Deviations)
	if br {
		w.s.res.Decisions++
	} else {
		w.s.res.Cut++
	}
	w.path = append(w.path, decision{kind: kind, arity: arity, branch: br})
	w.pos++
	return 0
}

// Before offers the places available now: each not yet placed, after its actor's
// previous one, and within the fault budget.
func (w *walker) Before(now int64, n int) (*sim.Step, bool) {
	if w.nondet || w.badPath {
		return nil, false
	}
	c := w.s.c
	w.avail = w.avail[:0]
	for i := range c.places {
		p := &c.places[i]
		if w.placed[i] || p.after >= 0 && !w.placed[p.after] || p.fault && c.MaxFaults > 0 && w.faults >= c.MaxFaults {
			continue
		}
		w.avail = append(w.avail, i)
	}
	fresh := w.pos >= w.prefix
	if fresh {
		w.s.res.Transitions++
	}
	if fresh && !w.replay && (len(w.avail) > 0 || n > 1) && w.seenBefore(now) {
		w.pruned = true
		return nil, false
	}
	ch := w.decide(kBefore, 1+len(w.avail))
	if ch < 0 {
		return nil, false
	}
	if ch == 0 {
		return nil, true
	}
	i := w.avail[ch-1]
	w.placed[i] = true
	if c.places[i].fault {
		w.faults++
	}
	w.at = append(w.at, Placed{Step: c.places[i].text, At: now, idx: i})
	w.stepBuf = c.places[i].step
	return &w.stepBuf, true
}

// Pick takes the scheduler's pick.
func (w *walker) Pick(n int) int { return w.decide(kPick, n) }

// seenBefore hashes the state now (the simulator's canonical text and what has been
// placed) and reports whether a run reached it before with no fewer decisions left.
func (w *walker) seenBefore(now int64) bool {
	s := w.s
	s.buf.Reset()
	s.sr.WriteState(&s.buf)
	s.buf.WriteString("placed=")
	for i, p := range w.placed {
		if p {
			s.buf.WriteString(strconv.Itoa(i))
			s.buf.WriteByte(',')
		}
	}
	if s.res.states != nil {
		s.res.states[s.buf.String()] = true
	}
	h := fnv.New128a()
	h.Write(s.buf.Bytes())
	var k [16]byte
	h.Sum(k[:0])
	v := visit{int32(w.pos), int32(w.devs)}
	if s.o.Depth >= Unbounded {
		v.depth = 0 // no depth bound: how deep a state is reached does not matter
	}
	if s.o.Deviations == 0 {
		v.devs = 0
	}
	old, ok := s.seen[k]
	covered := ok && old.depth <= v.depth && old.devs <= v.devs

	if covered && !s.o.NoDedup {
		return true
	}
	if !ok || v.depth <= old.depth && v.devs <= old.devs {
		s.seen[k] = v // a visit covers another only if it had no fewer of both bounds left
	}
	return false
}
