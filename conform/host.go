package conform

import (
	"errors"
	"fmt"
	"sync"

	"github.com/twosettle/twosettle/engine/wire"
)

// Pool runs a host command as processes, one per concurrent run: its Factory is a
// harness.HostFactory (safe for concurrent use) whose every run takes an idle process or
// starts one, sends start with the scenario's configuration, and gives the process back
// when the run's port is closed. A lost process is never reused.
type Pool struct {
	argv []string
	opts ProcessOptions

	mu     sync.Mutex
	idle   []*Process
	all    map[*Process]bool
	closed bool
	info   *HostInfo

	// ending counts the processes being closed in the background (lost, or given back to
	// a closed pool): Close waits for them too, so none outlives the runner.
	ending    sync.WaitGroup
	closeOnce sync.Once
}

// NewPool returns a pool for argv; no process starts before Hello or the first run.
func NewPool(argv []string, opts ProcessOptions) *Pool {
	return &Pool{argv: argv, opts: opts.normalised(), all: map[*Process]bool{}}
}

// Hello starts a process (kept for the first run) and returns what the host declared.
// An error means the host cannot be used at all: it did not start or does not speak the
// protocol.
func (pl *Pool) Hello() (HostInfo, error) {
	p, err := pl.get()
	if err != nil {
		return HostInfo{}, err
	}
	pl.put(p)
	return p.Info(), nil
}

func (pl *Pool) get() (*Process, error) {
	pl.mu.Lock()
	if pl.closed {
		pl.mu.Unlock()
		return nil, errors.New("the host pool is closed")
	}
	if n := len(pl.idle); n > 0 {
		p := pl.idle[n-1]
		pl.idle = pl.idle[:n-1]
		pl.mu.Unlock()
		return p, nil
	}
	pl.mu.Unlock()
	p, err := Start(pl.argv, pl.opts)
	if err != nil {
		return nil, err
	}
	pl.mu.Lock()
	defer pl.mu.Unlock()
	if pl.closed {
		pl.mu.Unlock()
		p.Close() // Close did not see it: it ends here, before the run gives up
		pl.mu.Lock()
		return nil, errors.New("the host pool is closed")
	}
	if pl.info == nil {
		info := p.Info()
		pl.info = &info
	} else if !sameInfo(*pl.info, p.Info()) {
		pl.endLocked(p)
		return nil, fmt.Errorf("the host declared %v in one process and %v in another: a host must say the same hello every time", *pl.info, p.Info())
	}
	pl.all[p] = true
	return p, nil
}

func sameInfo(a, b HostInfo) bool {
	if a.Name != b.Name || a.Version != b.Version || len(a.Features) != len(b.Features) {
		return false
	}
	for i := range a.Features {
		if a.Features[i] != b.Features[i] {
			return false
		}
	}
	return true
}

func (pl *Pool) put(p *Process) {
	pl.mu.Lock()
	defer pl.mu.Unlock()
	if pl.closed {
		return // Close took every process, this one too, and ends it
	}
	if p.Lost() != nil {
		delete(pl.all, p)
		pl.endLocked(p)
		return
	}
	pl.idle = append(pl.idle, p)
}

// endLocked closes p in the background (pl.mu is held and the pool is not closed, so
// this Add comes before Close's Wait); Close waits for it.
func (pl *Pool) endLocked(p *Process) {
	pl.ending.Add(1)
	go func() { defer pl.ending.Done(); p.Close() }()
}

// Close ends every process of the pool, idle or in a run (a run in progress then loses
// its host): bye, then SIGTERM and SIGKILL to each process group, and waits until all
// are reaped, those closed in the background included. Every call returns only once
// that is done (a second call, from a signal handler or a deferred call, waits for the
// first): a command that exits after Close leaves no host behind.
func (pl *Pool) Close() { pl.closeOnce.Do(pl.close) }

func (pl *Pool) close() {
	pl.mu.Lock()
	pl.closed = true
	var ps []*Process
	for p := range pl.all {
		ps = append(ps, p)
	}
	pl.all, pl.idle = map[*Process]bool{}, nil
	pl.mu.Unlock()
	var wg sync.WaitGroup
	for _, p := range ps {
		wg.Add(1)
		go func() { defer wg.Done(); p.Close() }()
	}
	wg.Wait()
	pl.ending.Wait()
}

// Factory builds one run's host on a pool process: it has the harness.HostFactory
// signature. A host that refuses the configuration returns a plain error; a host that
// cannot be started or breaks the protocol returns a *wire.PortLost.
func (pl *Pool) Factory(cfg wire.HostConfig) (wire.HostPort, error) {
	p, err := pl.get()
	if err != nil {
		return nil, &wire.PortLost{Err: err}
	}
	n := p.next()
	m, err := p.request(startLine(n, cfg), n, "start", TypeStarted, TypeRefused)
	if err != nil {
		// The lost process goes with the error (the harness closes it, which gives it
		// back to the pool to end): the run keeps its stderr for the report.
		return &ProcessHost{p: p, pool: pl}, err
	}
	if m.Type == TypeRefused {
		pl.put(p)
		msg := "refused"
		if m.Error != nil && *m.Error != "" {
			msg = *m.Error
		}
		return nil, errors.New(msg)
	}
	return &ProcessHost{p: p, pool: pl, intro: has(p.Info().Features, FeatureIntrospection)}, nil
}

func has(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}

// ProcessHost is one run's wire.HostPort over a host process: Apply sends an apply
// message and decodes the applied reply; NextDeadline is the deadline of the last reply;
// State asks for a snapshot. It is Losable (wire.Losable) and an io.Closer (Close gives
// the process back to its pool).
type ProcessHost struct {
	p        *Process
	pool     *Pool
	intro    bool
	deadline int64
	armed    bool
	effs     []wire.Effect
	closed   bool
	// realtime: the host is on its own timers (real-time mode): "now" is not its time, so
	// its "deadline", on its own clock, is not checked against it.
	realtime bool
}

// Process is the process the run is on.
func (h *ProcessHost) Process() *Process { return h.p }

// Apply implements wire.HostPort.
func (h *ProcessHost) Apply(at wire.Time, cmd wire.Command) ([]wire.Effect, error) {
	now := at.Ms() // the protocol's "now" is a plain integer of milliseconds
	n := h.p.next()
	line, err := applyLine(h.p.buf[:0], n, now, cmd)
	if err != nil {
		return nil, h.p.fail(fmt.Errorf("the runner cannot encode %s: %v", cmd, err))
	}
	h.p.buf = line
	m, err := h.p.request(line, n, "apply "+cmd.String(), TypeApplied)
	if err != nil {
		return nil, err
	}
	if m.Effects == nil {
		return nil, h.p.fail(fmt.Errorf(`the applied reply to %q (n=%d) has no "effects" array`, cmd.String(), n))
	}
	h.effs = h.effs[:0]
	for i, raw := range m.Effects {
		e, err := wire.DecodeEffect(raw)
		if err != nil {
			return nil, h.p.fail(fmt.Errorf("the applied reply to %q (n=%d): effects[%d]: %v", cmd.String(), n, i, err))
		}
		if _, ok := e.(wire.WaitNote); ok && !h.intro {
			return nil, h.p.fail(fmt.Errorf("the applied reply to %q (n=%d): effects[%d] is a wait-note, but the host did not declare %q", cmd.String(), n, i, FeatureIntrospection))
		}
		h.effs = append(h.effs, e)
	}
	h.armed = m.Deadline != nil
	if h.armed {
		h.deadline = *m.Deadline
		if h.deadline <= now && !h.realtime {
			return nil, h.p.fail(fmt.Errorf("the applied reply to %q (n=%d) says the next deadline is %d, not after now (%d): timers due by now fire inside apply (a host on its own timers runs with --realtime)", cmd.String(), n, h.deadline, now))
		}
	}
	if m.Error != nil {
		if *m.Error == "" {
			return nil, h.p.fail(fmt.Errorf(`the applied reply to %q (n=%d) refuses the command with an empty "error"`, cmd.String(), n))
		}
		return h.effs, errors.New(*m.Error)
	}
	return h.effs, nil
}

// NextDeadline implements wire.HostPort: the deadline the last reply declared.
func (h *ProcessHost) NextDeadline() (wire.Time, bool) { return wire.Time(h.deadline), h.armed }

// State implements wire.HostPort. A host that fails to answer is lost (Lost says why)
// and the state is empty.
func (h *ProcessHost) State() wire.HostState {
	n := h.p.next()
	m, err := h.p.request(stateLine(n), n, "state", TypeState)
	if err != nil {
		return wire.HostState{}
	}
	if m.State == nil {
		h.p.fail(fmt.Errorf(`the state reply (n=%d) has no "state"`, n))
		return wire.HostState{}
	}
	s, err := wire.DecodeHostState(m.State)
	if err != nil {
		h.p.fail(fmt.Errorf("the state reply (n=%d): %v", n, err))
		return wire.HostState{}
	}
	if !h.intro && (len(s.Waits) > 0 || len(s.Reservations) > 0 || len(s.Pending) > 0 || len(s.Clients) > 0) {
		h.p.fail(fmt.Errorf("the state reply (n=%d) shows waits, reservations, pending events or connections, but the host did not declare %q", n, FeatureIntrospection))
		return wire.HostState{}
	}
	return s
}

// Lost implements wire.Losable.
func (h *ProcessHost) Lost() *wire.PortLost { return h.p.Lost() }

// Close gives the process back to the pool (or ends it, if lost).
func (h *ProcessHost) Close() error {
	if !h.closed {
		h.closed = true
		h.pool.put(h.p)
	}
	return nil
}
