package sim

import (
	"errors"
	"math/rand/v2"
	"sort"
	"strconv"

	"github.com/twosettle/twosettle/engine/wire"
	"github.com/twosettle/twosettle/trace"
)

// Simulate validates cfg and runs it against host and clients (one port per configured
// client name), to quiescence or to cfg.Limit. The caller builds the ports; they must be
// fresh (a run starts at virtual time 0). On an error during the run (a port that breaks
// its contract, the record budget) the trace so far is returned with the error.
func Simulate(cfg Config, host wire.HostPort, clients map[string]wire.ClientPort) (*trace.Trace, error) {
	tr := &trace.Trace{}
	err := NewRunner().Run(&cfg, host, clients, tr)
	return tr, err
}

// Runner runs configurations one after another, reusing its buffers (the fuzzer keeps one
// per worker). A Runner is not safe for concurrent use.
type Runner struct {
	cfg  Config // a copy of the run's configuration (so a caller's Config need not escape)
	host wire.HostPort
	cl   []clientSim

	evs  []event // slab: queued events live here, addressed by slot
	free []int32
	q    queue
	// the events due at the current instant, in scheduling order (their seq: the heap
	// hands an instant's events over in seq order and later pushes have higher seqs):
	// those on no FIFO link in ready, each link's in its own queue in fifo, so picking a
	// candidate looks at each link's head only, not at everything queued behind it
	ready  []int32
	fifo   []linkQueue
	nReady int // events in ready and fifo not yet taken or released (some may be dead)
	cands  []cand
	heads  []int16 // links whose head is a candidate, by the head's seq
	floor  []int64
	seq    uint32
	now    int64
	recs   []trace.Record
	maxRec int
	err    error
	lost   bool // a port (the host's or a client's) returned a wire.PortLost: no further Apply

	pcgSched, pcgNet, pcgFault *rand.PCG
	sched, net, fault          *rand.Rand

	hostAt  int64
	hostHas bool
	// stallUntil: the host's timers fire no earlier than this (a host-stall fault)
	stallUntil int64
	tmin       int64 // the earliest live timer (host or client), noTimer if none
	hostTicks  int   // ticks delivered at the current instant (runaway guard)
	tickAt     int64

	watchers   []watcher
	model      []mslot
	sessions   []string
	stepNext   int
	randFaults []randFault
	healedAt   int64

	restarts int
	limitHit bool
	started  bool
	scratch  []*event
	wnext    []watcher
	cur      curRequest // the HTTP request the host is applying

	// Chooser, when set, takes the scheduler's choices and may inject steps (see
	// Chooser); nil is the seeded schedule stream. It is kept across runs.
	Chooser Chooser
	// CanonicalOrder (with a Chooser) offers an instant's candidates in canonical order
	// rather than in the order they were queued (see sortCands).
	CanonicalOrder bool
	stopped        bool // the Chooser stopped the run
}

// request is an outstanding HTTP request of a client.
type request struct {
	rpc       string
	inc       int32 // the page (incarnation) that sent it
	call      bool  // a Call: the host owes a Reply (an EventResult gets one only on failure)
	delivered bool  // the host has it
}

type curRequest struct {
	ci     int
	rpc    string
	inc    int32
	active bool
}

// Link states of a client, as the simulator sees them.
const (
	stDown       uint8 = iota // no link
	stConnecting              // a Connect is waiting for its backoff or in flight
	stUp                      // the host has processed Connect (gen is its Ready's generation)
)

type clientSim struct {
	name string
	cfg  ClientConfig
	port wire.ClientPort
	clk  clock

	at, simAt int64 // next client timer: client time and simulator time
	has       bool
	ticks     int
	tickAt    int64

	crashed        bool
	state          uint8
	epoch          int32 // bumped when a link goes down: kills what was in flight on it
	attempt        int32 // bumped at each connection attempt
	gen            int   // host generation of the live link, -1 before its Ready
	incarnation    int32 // bumped at each reload: HTTP replies for an older page are dropped
	fresh          bool  // the next Dial is honoured at once (after a reload)
	immediate      bool  // the next Dial is honoured at once (a reconnect step)
	partitionUntil int64
	delayNext      int64
	loseNext       int
	pending        []request // outstanding HTTP requests, in the order they were sent
	linkCmds       linkCmds  // its Connect and Disconnect, boxed once (kept across runs)
}

// NewRunner returns a Runner with empty buffers.
func NewRunner() *Runner {
	r := &Runner{}
	r.pcgSched, r.pcgNet, r.pcgFault = rand.NewPCG(0, 0), rand.NewPCG(0, 0), rand.NewPCG(0, 0)
	r.sched, r.net, r.fault = rand.New(r.pcgSched), rand.New(r.pcgNet), rand.New(r.pcgFault)
	return r
}

// fail records the first error raised during a run (it stops the loop).
func (r *Runner) fail(msg string) {
	if r.err == nil {
		r.err = errors.New("sim: t=" + strconv.FormatInt(r.now, 10) + ": " + msg)
	}
}

// Run runs cfg into tr (whose Records buffer is reused). See the package function Run.
func (r *Runner) Run(cfg *Config, host wire.HostPort, clients map[string]wire.ClientPort, tr *trace.Trace) error {
	if err := Validate(cfg); err != nil {
		return err
	}
	if host == nil {
		return &ConfigError{Step: -1, Field: "host", Msg: "no host port"}
	}
	if len(clients) != len(cfg.Clients) {
		return &ConfigError{Step: -1, Field: "clients", Msg: "the run has " + strconv.Itoa(len(cfg.Clients)) +
			" configured clients but " + strconv.Itoa(len(clients)) + " client ports"}
	}
	r.reset(cfg, host, tr)
	for i := range cfg.Clients {
		cc := &cfg.Clients[i]
		p, ok := clients[cc.Name]
		if !ok || p == nil {
			return &ConfigError{Step: -1, Field: "clients", Msg: "no client port for " + strconv.Quote(cc.Name)}
		}
		c := &r.cl[i]
		pending, cmds := c.pending[:0], c.linkCmds
		if cmds.name != cc.Name {
			cmds = newLinkCmds(cc.Name)
		}
		*c = clientSim{name: cc.Name, cfg: *cc, port: p, clk: newClock(cc.Clock), gen: -1, pending: pending, linkCmds: cmds}
	}
	if err := r.drawRandomFaults(); err != nil {
		return err
	}
	r.pushStep(0)
	for i := range r.cl {
		r.refreshClient(i)
		if !r.cl[i].cfg.Offline {
			r.startDial(i, 0)
		}
	}
	r.refreshHost()
	r.loop()
	tr.Seed = cfg.Seed
	tr.Records = r.recs
	end := r.now
	if r.limitHit {
		end = cfg.Limit.Ms()
	}
	states := tr.Final.Clients[:0]
	if cap(states) < len(r.cl) {
		states = make([]wire.ClientState, len(r.cl))
	}
	states = states[:len(r.cl)]
	tr.Final = trace.Final{Time: end, Host: copyHostState(host.State()), Clients: states}
	for i := range r.cl {
		tr.Final.Clients[i] = copyClientState(r.clientState(i, end))
	}
	r.release()
	return r.err
}

// clientState is what client ci shows at simulator time t: its snapshot at its own clock
// reading of t (a running countdown reads deadline − that reading, CD-1), taken without an
// input, so a probe changes nothing. A crashed client shows what it showed when it crashed.
func (r *Runner) clientState(ci int, t int64) wire.ClientState {
	c := &r.cl[ci]
	if c.crashed {
		return c.port.State()
	}
	return c.port.StateAt(wire.Time(c.clk.at(t)))
}

func (r *Runner) reset(cfg *Config, host wire.HostPort, tr *trace.Trace) {
	r.cfg, r.host = *cfg, host
	if cap(r.cl) < len(cfg.Clients) {
		r.cl = make([]clientSim, len(cfg.Clients))
	}
	r.cl = r.cl[:len(cfg.Clients)]
	r.evs = r.evs[:0]
	r.free = r.free[:0]
	r.q = r.q[:0]
	r.ready = r.ready[:0]
	nl := 1 + 2*len(cfg.Clients)
	if cap(r.fifo) < nl {
		r.fifo = make([]linkQueue, nl)
		r.floor = make([]int64, nl)
	}
	r.fifo, r.floor = r.fifo[:nl], r.floor[:nl]
	for i := range r.fifo {
		r.fifo[i].reset()
	}
	clear(r.floor)
	r.nReady = 0
	r.seq, r.now = 0, 0
	r.recs = tr.Records[:0]
	r.maxRec = cfg.MaxRecords
	if r.maxRec == 0 {
		r.maxRec = DefaultMaxRecords
	}
	r.err, r.lost = nil, false
	r.stallUntil = 0
	a, b := streamSeed(cfg.Seed, StreamSchedule)
	r.pcgSched.Seed(a, b)
	a, b = streamSeed(cfg.Seed, StreamNetwork)
	r.pcgNet.Seed(a, b)
	a, b = streamSeed(cfg.Seed, StreamFaults)
	r.pcgFault.Seed(a, b)
	r.hostHas, r.hostTicks, r.tickAt, r.tmin = false, 0, 0, noTimer
	r.watchers = r.watchers[:0]
	r.model = r.model[:0]
	r.sessions = r.sessions[:0]
	r.stepNext = 0
	r.randFaults = r.randFaults[:0]
	r.healedAt = cfg.Healed.Ms()
	if r.healedAt == 0 {
		r.healedAt = cfg.Limit.Ms() + 1
	}
	r.restarts = 0
	r.limitHit = false
	r.stopped = false
}

// release drops references to the run's ports and payloads so a kept Runner pins nothing.
func (r *Runner) release() {
	for i := range r.cl {
		r.cl[i].port = nil
		r.cl[i].cfg = ClientConfig{}
	}
	clear(r.evs[:cap(r.evs)])
	r.host, r.cfg, r.recs = nil, Config{}, nil
}

// links: 0 is the script; client i has 1+2i (host->client mux) and 2+2i (client->host mux).
func downLink(ci int) int16 { return int16(1 + 2*ci) }
func upLink(ci int) int16   { return int16(2 + 2*ci) }

// push schedules e at time at (never before now). Events due now join the current
// instant's ready set; FIFO links keep their order whatever the latencies drawn.
func (r *Runner) push(e event, at int64) {
	if at < r.now {
		at = r.now
	}
	if e.link > 0 {
		if f := r.floor[e.link]; at < f {
			at = f
		}
		r.floor[e.link] = at
	}
	e.at = at
	r.seq++
	e.seq = r.seq
	var slot int32
	if n := len(r.free); n > 0 {
		slot = r.free[n-1]
		r.free = r.free[:n-1]
	} else {
		slot = int32(len(r.evs))
		r.evs = append(r.evs, event{})
	}
	// field by field, as in rec: a whole-struct copy takes the bulk write barrier
	d := &r.evs[slot]
	d.at, d.seq, d.kind, d.dead, d.sticky, d.client, d.link, d.epoch, d.idx, d.cmd, d.in =
		e.at, e.seq, e.kind, e.dead, e.sticky, e.client, e.link, e.epoch, e.idx, e.cmd, e.in
	if at == r.now && r.inInstant() {
		r.makeReady(slot)
		return
	}
	r.q.push(hkey{at: at, seq: e.seq, slot: slot})
}

// release1 frees a slot. Its event stays as it is until push overwrites it (clearing
// would cost a write barrier per pointer while the GC marks); release clears the slab.
func (r *Runner) release1(slot int32) {
	r.free = append(r.free, slot)
}

// pushStep queues scripted step i (steps are fed one at a time: they are one FIFO).
func (r *Runner) pushStep(i int) {
	if i < len(r.cfg.Steps) {
		r.push(event{kind: evStep, link: 0, client: -1, idx: int32(i)}, r.cfg.Steps[i].At.Ms())
	}
}

// queued visits every live queued event (heap and ready set).
func (r *Runner) queued(f func(e *event)) {
	for _, k := range r.q {
		if e := &r.evs[k.slot]; !e.dead {
			f(e)
		}
	}
	for _, slot := range r.ready {
		if e := &r.evs[slot]; !e.dead {
			f(e)
		}
	}
	for i := range r.fifo {
		q := &r.fifo[i]
		for _, slot := range q.s[q.h:] {
			if e := &r.evs[slot]; !e.dead {
				f(e)
			}
		}
	}
}

// inInstant reports whether the loop has started (events due now go to the ready set).
func (r *Runner) inInstant() bool { return r.started }

func (r *Runner) rec(actor string, kind trace.Kind, ct int64, p trace.Payload) {
	if len(r.recs) >= r.maxRec {
		r.fail("the run exceeded its budget of " + strconv.Itoa(r.maxRec) + " records (a livelock?)")
		return
	}
	// Filled in place, field by field: appending a Record literal copies it with a bulk
	// write barrier while the GC marks, the slowest way to store its three pointers.
	n := len(r.recs)
	if n < cap(r.recs) {
		r.recs = r.recs[:n+1]
	} else {
		r.recs = append(r.recs, trace.Record{})
	}
	d := &r.recs[n]
	d.Seq, d.Time, d.Actor, d.Kind, d.ClientTime, d.Payload = n, r.now, actor, kind, ct, p
}

func (r *Runner) loop() {
	r.started = true
	defer func() { r.started = false }()
	for r.err == nil {
		r.buildCands()
		if len(r.cands) > 0 && r.Chooser != nil && r.choose() {
			if r.stopped {
				return
			}
			continue // a step was injected: the candidates may have changed
		}
		if len(r.cands) == 0 {
			r.endInstant()
			t, ok := r.nextTime()
			if !ok {
				if r.Chooser != nil && r.choose() && !r.stopped {
					continue // injected at quiescence: the run goes on
				}
				return
			}
			if r.cfg.Limit > 0 && t > r.cfg.Limit.Ms() {
				r.limitHit = true
				return
			}
			if t > r.now {
				r.now = t
			}
			for len(r.q) > 0 && r.q[0].at <= r.now {
				k := r.q.pop()
				if r.evs[k.slot].dead {
					r.release1(k.slot)
				} else {
					r.makeReady(k.slot)
				}
			}
			if r.nReady == 1 && r.tmin > r.now && r.Chooser == nil {
				r.takeOnly() // the only candidate of the instant (the usual case): no need to list it
			}
			continue
		}
		pick := 0
		if n := len(r.cands); n > 1 {
			if r.Chooser != nil {
				if r.CanonicalOrder {
					r.sortCands()
				}
				if pick = r.Chooser.Pick(n); pick < 0 || pick >= n {
					r.stopped = true
					return
				}
			} else {
				pick = r.sched.IntN(n)
			}
			r.rec(trace.ActorSim, trace.Sched, 0, choice(pick, n))
		}
		switch c := r.cands[pick]; c.kind {
		case candHost:
			r.fireHostTimer()
		case candClient:
			r.fireClientTimer(int(c.i))
		case candReady:
			r.take(int(c.i))
		case candLink:
			r.takeHead(int(c.i))
		}
	}
}

// makeReady adds the event in slot to the current instant's ready events.
func (r *Runner) makeReady(slot int32) {
	r.nReady++
	if l := r.evs[slot].link; l >= 0 {
		r.fifo[l].s = append(r.fifo[l].s, slot)
		return
	}
	r.ready = append(r.ready, slot)
}

// endInstant releases what is left of the instant's ready events (all dead).
func (r *Runner) endInstant() {
	for _, slot := range r.ready {
		r.release1(slot)
	}
	r.ready = r.ready[:0]
	for i := range r.fifo {
		q := &r.fifo[i]
		for _, slot := range q.s[q.h:] {
			r.release1(slot)
		}
		q.reset()
	}
	r.nReady = 0
}

// takeOnly dispatches the instant's only ready event, unless it is an automatic step
// end (whose liveness buildCands decides).
func (r *Runner) takeOnly() {
	if len(r.ready) == 1 {
		if r.evs[r.ready[0]].kind != evAutoEnd {
			r.take(0)
		}
		return
	}
	for i := range r.fifo {
		if q := &r.fifo[i]; q.h < len(q.s) {
			r.takeHead(i)
			return
		}
	}
}

// take removes ready event c (an index into ready) and dispatches it.
func (r *Runner) take(c int) {
	slot := r.ready[c]
	e := r.evs[slot]
	if c < len(r.ready)-1 {
		copy(r.ready[c:], r.ready[c+1:])
	}
	r.ready = r.ready[:len(r.ready)-1]
	r.nReady--
	r.release1(slot)
	r.dispatch(&e)
}

// takeHead removes the head of link l's ready events and dispatches it.
func (r *Runner) takeHead(l int) {
	q := &r.fifo[l]
	slot := q.s[q.h]
	q.h++
	e := r.evs[slot]
	r.nReady--
	r.release1(slot)
	r.dispatch(&e)
}

// buildCands lists what may happen next at the current instant: due timers (host, then
// clients in order), then ready events in scheduling order, each FIFO link offering only
// its head (its first live event).
func (r *Runner) buildCands() {
	r.cands = r.cands[:0]
	if r.nReady == 0 && r.tmin > r.now {
		return // the usual end of an instant: nothing left, no timer due
	}
	if r.tmin <= r.now {
		if r.hostHas && r.hostAt <= r.now {
			r.cands = append(r.cands, cand{kind: candHost})
		}
		for i := range r.cl {
			c := &r.cl[i]
			if c.has && !c.crashed && c.simAt <= r.now {
				r.cands = append(r.cands, cand{kind: candClient, i: int32(i)})
			}
		}
	}
	// each link's first live event, in seq order (dead ones ahead of it are released)
	r.heads = r.heads[:0]
	for l := range r.fifo {
		q := &r.fifo[l]
		for q.h < len(q.s) && r.evs[q.s[q.h]].dead {
			r.release1(q.s[q.h])
			q.h++
			r.nReady--
		}
		if q.h == len(q.s) {
			continue
		}
		seq := r.headSeq(l)
		j := len(r.heads)
		r.heads = append(r.heads, int16(l))
		for ; j > 0 && r.headSeq(int(r.heads[j-1])) > seq; j-- {
			r.heads[j] = r.heads[j-1]
		}
		r.heads[j] = int16(l)
	}
	h := 0
	for i, slot := range r.ready {
		e := &r.evs[slot]
		if e.dead {
			continue
		}
		if e.kind == evAutoEnd && !r.autoEndLive(e) {
			e.dead = true
			continue
		}
		for ; h < len(r.heads) && r.headSeq(int(r.heads[h])) < e.seq; h++ {
			r.cands = append(r.cands, cand{kind: candLink, i: int32(r.heads[h])})
		}
		r.cands = append(r.cands, cand{kind: candReady, i: int32(i)})
	}
	for ; h < len(r.heads); h++ {
		r.cands = append(r.cands, cand{kind: candLink, i: int32(r.heads[h])})
	}
}

// headSeq is the seq of link l's head.
func (r *Runner) headSeq(l int) uint32 {
	q := &r.fifo[l]
	return r.evs[q.s[q.h]].seq
}

// nextTime is the earliest time anything is due after the current instant.
func (r *Runner) nextTime() (int64, bool) {
	for len(r.q) > 0 && r.evs[r.q[0].slot].dead {
		r.release1(r.q.pop().slot)
	}
	var t int64
	ok := false
	if len(r.q) > 0 {
		t, ok = r.q[0].at, true
	}
	if r.tmin != noTimer && (!ok || r.tmin < t) {
		t, ok = r.tmin, true
	}
	return t, ok
}

func (r *Runner) dispatch(e *event) {
	switch e.kind {
	case evStep:
		r.pushStep(int(e.idx) + 1)
		r.step(int(e.idx))
	case evMuxToHost, evHTTPToHost:
		r.deliverHost(e)
	case evMuxToClient, evHTTPToClient, evLinkDown:
		r.deliverClient(e)
	case evAutoEnd:
		r.fireAutoEnd(e)
	case evRandomFault:
		r.fireRandomFault(int(e.idx))
	}
}

// runaway guard: how many timer firings one actor may take at a single instant.
const maxTicksPerInstant = 10_000

func (r *Runner) fireHostTimer() {
	if r.tickAt != r.now {
		r.tickAt, r.hostTicks = r.now, 0
	}
	r.hostTicks++
	if r.hostTicks > maxTicksPerInstant {
		r.fail("host timer keeps firing at the same instant (NextDeadline " + strconv.FormatInt(r.hostAt, 10) + " after " + strconv.Itoa(maxTicksPerInstant) + " ticks)")
		return
	}
	r.applyHost(wire.Tick{}, true)
}

func (r *Runner) fireClientTimer(ci int) {
	c := &r.cl[ci]
	if c.tickAt != r.now {
		c.tickAt, c.ticks = r.now, 0
	}
	c.ticks++
	if c.ticks > maxTicksPerInstant {
		r.fail("client " + c.name + " timer keeps firing at the same instant (NextDeadline " + strconv.FormatInt(c.at, 10) + ")")
		return
	}
	r.applyClient(ci, wire.ClientTick{}, false)
}

func (r *Runner) refreshHost() {
	at, has := r.host.NextDeadline()
	r.hostAt, r.hostHas = at.Ms(), has
	if r.hostHas && r.hostAt < r.stallUntil {
		r.hostAt = r.stallUntil // stalled: what came due fires when the stall ends
	}
	r.retime()
}

func (r *Runner) refreshClient(ci int) {
	c := &r.cl[ci]
	at, has := c.port.NextDeadline()
	c.at, c.has = at.Ms(), has
	if c.has {
		c.simAt = c.clk.simTime(r.now, c.at)
	}
	r.retime()
}

// findRequest is the index of client c's outstanding request rpc sent by incarnation inc
// (any incarnation if inc < 0), the latest if several, or -1.
func (c *clientSim) findRequest(rpc string, inc int32) int {
	for i := len(c.pending) - 1; i >= 0; i-- {
		if p := &c.pending[i]; p.rpc == rpc && (inc < 0 || p.inc == inc) {
			return i
		}
	}
	return -1
}

func (c *clientSim) dropRequest(i int) {
	c.pending = append(c.pending[:i], c.pending[i+1:]...)
}

const noTimer = int64(1<<63 - 1)

// retime recomputes the earliest live timer after a timer or a clock changed.
func (r *Runner) retime() {
	t := noTimer
	if r.hostHas {
		t = r.hostAt
	}
	for i := range r.cl {
		if c := &r.cl[i]; c.has && !c.crashed && c.simAt < t {
			t = c.simAt
		}
	}
	r.tmin = t
}

func (r *Runner) clientIndex(name string) int {
	for i := range r.cl {
		if r.cl[i].name == name {
			return i
		}
	}
	return -1
}

// noteSession adds a Session name to the sorted set of known Sessions (the targets of
// random turn cancels).
func (r *Runner) noteSession(s string) {
	if s == "" {
		return
	}
	if n := len(r.sessions); n > 0 && r.sessions[n-1] == s {
		return
	}
	i := sort.SearchStrings(r.sessions, s)
	if i < len(r.sessions) && r.sessions[i] == s {
		return
	}
	r.sessions = append(r.sessions, "")
	copy(r.sessions[i+1:], r.sessions[i:])
	r.sessions[i] = s
}

// choice tables: boxed Choice payloads for small tie sets, so a pick allocates nothing.
var choiceTab = func() [][]trace.Payload {
	t := make([][]trace.Payload, 17)
	for n := 2; n < len(t); n++ {
		t[n] = make([]trace.Payload, n)
		for p := 0; p < n; p++ {
			t[n][p] = trace.Choice{Pick: p, Of: n}
		}
	}
	return t
}()

func choice(pick, n int) trace.Payload {
	if n < len(choiceTab) {
		return choiceTab[n][pick]
	}
	return trace.Choice{Pick: pick, Of: n}
}
