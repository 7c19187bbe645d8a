package oracle

import (
	"sort"
	"strconv"

	"github.com/twosettle/twosettle/engine/session"
	"github.com/twosettle/twosettle/engine/wire"
	"github.com/twosettle/twosettle/trace"
)

// Check runs every invariant of the catalogue over one trace and its final state.
func Check(t *trace.Trace, opts Options) Verdict {
	return NewChecker(opts).Check(t)
}

// Checker checks traces. It keeps its options and reuses its memory between calls, so a
// fuzzer can hold one per worker. It is not safe for concurrent use.
type Checker struct {
	opts Options
	// lazy: timers may fire late (Options.LazyTimers, or from a host-stall fault on: the
	// runner held the host's timers back, so what came due fires at its next command)
	lazy    bool
	enabled [numInvariants]bool
	broken  [numInvariants]bool
	out     []Broken

	recs       []trace.Record
	hasNotes   bool
	hasClients bool
	healedAt   int64
	foldEvents int
	budget     string

	sessions  map[string]*sessModel
	sessOrder []*sessModel

	conns   map[string]*conn
	events  map[string]*gwEvent
	evOrder []*gwEvent
	streams map[streamKey]*stream
	fgs     map[fgKey]*foreground
	waits   map[fgKey]*foreground // the foreground owning each live host wait
	// orphans are direct askTimed waits whose agent a CloseSession disposed: they live on
	// to their end under their own signal, beside a new instance's wait for the same call
	// id (docs/PEER.md §4.3: the registry is keyed by the agent object)
	orphans  []*foreground
	hostMode int // the host's tool mode, once the trace shows it
	active   []*foreground
	expiry   expiryWatch // the open waits by expiry instant (performance only)
	directs  map[string]*directOp
	rpcs     map[rpcKey]*rpcCall
	accepted []*acceptance
	clients  map[string]*clientModel

	ap applyCtx

	asks map[string]askArgs // parseAskArgs of each arguments text read in this Check

	headers map[string]bool // timedHeader by tools JSON, kept across traces

	restarts    int            // host restarts so far
	handClaimed map[fgKey]bool // calls whose reply a ClaimReply command claimed by hand

	liveAgents map[string]bool // Sessions whose agent is live (INV-TIMED-NEEDS-LIVE-AGENT's model)
}

// timedHeader classifies a header's tools once per distinct JSON (hosts repeat theirs).
func (c *Checker) timedHeader(tools string) bool {
	if v, ok := c.headers[tools]; ok {
		return v
	}
	if c.headers == nil || len(c.headers) > 64 {
		c.headers = map[string]bool{}
	}
	v := timedHeader(tools)
	c.headers[tools] = v
	return v
}

// NewChecker returns a checker with the given options.
func NewChecker(opts Options) *Checker {
	c := &Checker{opts: opts}
	if c.opts.BoundMs <= 0 {
		c.opts.BoundMs = defaultBoundMs
	}
	for i := range c.enabled {
		c.enabled[i] = opts.Only == nil
	}
	for _, name := range opts.Only {
		for i, inv := range catalogue {
			if inv.Name == name {
				c.enabled[i] = true
			}
		}
	}
	for _, name := range opts.Skip {
		for i, inv := range catalogue {
			if inv.Name == name {
				c.enabled[i] = false
			}
		}
	}
	return c
}

// applyCtx is the host Apply being processed: one host In record and the host Out
// records after it, up to the next host In.
type applyCtx struct {
	on    bool
	idx   int // record index of the In
	now   int64
	cmd   wire.Command
	end   int // index of the next host In (or len)
	limit int // effects allowed (a cut restart follows), -1: all
	n     int // effects seen

	replyInserts []replyInsert
	finished     []*gwEvent
	fresh        []*gwEvent // first delivered in this Apply (not as a replay)
	results      []*foreground

	connect      *conn // a Connect Apply: the connection it opens
	connectLive  bool  // a frame other than Ready/Waterfall already went to the new generation
	replayed     []*gwEvent
	abortSession string   // CancelTurn or CloseSession target
	closing      bool     // CloseSession
	aborted      []string // the Sessions whose turn this Apply aborts (the target, and on a close its live children)

	// a Restart between commands: timers due at its instant fire before the crash, so the
	// Apply's effects before restartAt (a record index) belong to the host that crashed
	restartPending bool
	restartAt      int

	// a disconnect (or a connect replacing a live generation) applied at record discAt:
	// a wait due at the command's instant expires first, with its cancels and stream ends
	discClient string
	discAt     int

	// an EventResult for a request a timer due first forwards in this Apply: applied at
	// record lateResultAt, after that request's fan-out (lateResultRec: the command)
	lateResult    *wire.EventResult
	lateResultAt  int
	lateResultRec int

	// an AppendEvent Apply: its event was appended (the scenario's, not the host's own)
	scripted bool

	claimEnds []*stream // claim streams the host ended in this Apply (INV-CLAIM-END-IGNORED)
}

type replyInsert struct {
	session, callID, msgID string
	idx, rec               int
	msg                    session.Message
}

func (c *Checker) reset(t *trace.Trace) {
	c.broken = [numInvariants]bool{}
	c.out = c.out[:0]
	c.recs = t.Records
	c.hasNotes, c.hasClients, c.healedAt, c.foldEvents, c.budget = false, false, 0, 0, ""
	c.lazy = c.opts.LazyTimers
	c.sessions = map[string]*sessModel{}
	c.sessOrder = c.sessOrder[:0]
	c.conns = map[string]*conn{}
	c.events = map[string]*gwEvent{}
	c.evOrder = c.evOrder[:0]
	c.streams = map[streamKey]*stream{}
	c.fgs = map[fgKey]*foreground{}
	c.waits = map[fgKey]*foreground{}
	c.orphans = c.orphans[:0]
	c.hostMode = hostModeUnknown
	c.active = c.active[:0]
	c.expiry = expiryWatch{}
	c.directs = map[string]*directOp{}
	c.rpcs = map[rpcKey]*rpcCall{}
	c.accepted = c.accepted[:0]
	c.restarts = 0
	c.handClaimed = map[fgKey]bool{}
	c.liveAgents = map[string]bool{}
	c.clients = map[string]*clientModel{}
	c.ap = applyCtx{}
	if c.asks == nil {
		c.asks = map[string]askArgs{}
	}
	clear(c.asks)
}

// Check checks one trace.
func (c *Checker) Check(t *trace.Trace) Verdict {
	c.reset(t)
	recs := t.Records
	for i := range recs {
		r := &recs[i]
		switch p := r.Payload.(type) {
		case wire.WaitNote:
			c.hasNotes = true
		case wire.Restart:
			if r.Kind == trace.In && r.Time > c.healedAt {
				c.healedAt = r.Time
			}
		case wire.ClientInput, wire.ClientEffect:
			c.hasClients = true
		default:
			_ = p
		}
		if r.Kind == trace.Fault && r.Time > c.healedAt {
			c.healedAt = r.Time
		}
	}
	if c.opts.HealedAt > 0 {
		c.healedAt = c.opts.HealedAt
	}
	n := len(recs)
	if c.opts.MaxRecords > 0 && n > c.opts.MaxRecords {
		n = c.opts.MaxRecords
		c.budget = "record budget of " + strconv.Itoa(c.opts.MaxRecords) + " spent at " + pad4(recs[n].Seq)
	}
	for i := 0; i < n; i++ {
		r := &recs[i]
		switch r.Kind {
		case trace.In:
			switch p := r.Payload.(type) {
			case wire.Command:
				c.endApply()
				c.beginApply(i, p)
			case wire.ClientInput:
				c.clientInput(i, r, p)
			}
		case trace.Reject:
			if r.Actor == trace.ActorHost {
				// a refused command: the host's state is unchanged, but timers that came due
				// before it may have fired, and their effects follow
				c.endApply()
				c.beginApply(i, wire.Tick{})
			}
		case trace.Fault:
			if f, ok := r.Payload.(trace.Injected); ok {
				c.clockFault(f)
				if f.Kind == faultHostStall {
					c.lazy = true
				}
			}
		case trace.Probe:
			if sn, ok := r.Payload.(trace.Snapshot); ok {
				c.snapshot(i, &sn.Host, sn.Clients)
			}
		case trace.Out:
			switch p := r.Payload.(type) {
			case wire.Effect:
				if !c.ap.on {
					continue
				}
				c.ap.n++
				if c.ap.limit >= 0 && c.ap.n > c.ap.limit {
					continue // cut by the crash that follows: never happened
				}
				c.hostEffect(i, p)
			case wire.ClientEffect:
				c.clientEffect(i, r, p)
			}
		}
		if c.opts.MaxFoldEvents > 0 && c.foldEvents > c.opts.MaxFoldEvents && c.budget == "" {
			c.budget = "fold budget of " + strconv.Itoa(c.opts.MaxFoldEvents) + " events spent at " + pad4(r.Seq)
			n = i + 1
			break
		}
	}
	c.endApply()
	if c.budget == "" {
		c.final(&t.Final)
	}
	v := Verdict{Records: n}
	sort.SliceStable(c.out, func(i, j int) bool {
		a, b := c.out[i], c.out[j]
		ka, kb := a.Record, b.Record
		if ka == FinalRecord {
			ka = 1 << 62
		}
		if kb == FinalRecord {
			kb = 1 << 62
		}
		if ka != kb {
			return ka < kb
		}
		return a.Invariant < b.Invariant
	})
	v.Violations = append([]Broken(nil), c.out...)
	switch {
	case len(v.Violations) > 0:
		v.Status = Violation
	case c.budget != "":
		v.Status, v.Reason = Unknown, c.budget
	default:
		v.Status = OK
	}
	return v
}

// fail records a violation of inv at record index rec (-1: the final state) with the
// given witness record indexes. Only the first violation of each invariant is kept.
func (c *Checker) fail(inv int, rec int, msg string, witness ...int) {
	if !c.enabled[inv] || c.broken[inv] {
		return
	}
	c.broken[inv] = true
	b := Broken{Invariant: catalogue[inv].Name, Record: FinalRecord, Message: msg}
	idx := append([]int(nil), witness...)
	if rec >= 0 {
		b.Record = c.recs[rec].Seq
		idx = append(idx, rec)
	}
	sort.Ints(idx)
	last := -2
	for _, i := range idx {
		if i == last || i < 0 || i >= len(c.recs) {
			continue
		}
		last = i
		b.Witness = append(b.Witness, c.recs[i].Seq)
		b.Lines = append(b.Lines, c.recs[i].String())
	}
	c.out = append(c.out, b)
}

func (c *Checker) on(inv int) bool { return c.enabled[inv] && !c.broken[inv] }

// beginApply starts the Apply of host In record i.
func (c *Checker) beginApply(i int, cmd wire.Command) {
	r := &c.recs[i]
	ap := &c.ap
	*ap = applyCtx{on: true, idx: i, now: r.Time, cmd: cmd, limit: -1,
		replyInserts: ap.replyInserts[:0], finished: ap.finished[:0], fresh: ap.fresh[:0],
		results: ap.results[:0], replayed: ap.replayed[:0], aborted: ap.aborted[:0], claimEnds: ap.claimEnds[:0]}
	ap.end = len(c.recs)
	for j := i + 1; j < len(c.recs); j++ {
		if isHostApply(&c.recs[j]) {
			ap.end = j
			if rs, ok := c.recs[j].Payload.(wire.Restart); ok && rs.CutAfter >= 0 && c.recs[j].Kind == trace.In {
				ap.limit = rs.CutAfter
			}
			break
		}
	}
	c.waitsAtCommand(i)
	c.agentsAtCommand(cmd)
	switch x := cmd.(type) {
	case wire.OpenSession:
		c.openSession(x)
	case wire.ClaimReply:
		// a claim the scenario told the service by hand: the reply's reservation follows
		// that claim's turn, which the oracle's reply model does not (INV-RESERVATION-HELD)
		c.handClaimed[fgKey{x.Session, x.CallID}] = true
	case wire.CloseSession:
		ap.abortSession, ap.closing = x.Session, true
		c.parentAbort(x.Session, i, true)
		if s := c.sessions[x.Session]; s != nil {
			s.childLive = false // disposed: it comes back as a resumed root (CALLER-3)
			for _, o := range c.sessOrder {
				if o.owner == x.Session {
					o.childLive = false
				}
			}
		}
	case wire.CancelTurn:
		ap.abortSession = x.Session
		c.parentAbort(x.Session, i, false)
	case wire.Direct:
		c.directCmd(i, x)
	case wire.Connect:
		c.connectCmd(i, x)
	case wire.Disconnect:
		c.disconnectLater(i, x.Client)
	case wire.EventResult:
		c.eventResult(i, x)
	case wire.StreamOpen:
		c.streamOpen(i, x)
	case wire.StreamCancel:
		c.endStream(streamKey{x.Client, x.Gen, x.StreamID}, i, true)
	case wire.Call:
		c.rpcs[rpcKey{x.Client, x.RPCID}] = &rpcCall{rec: i, endpoint: x.Endpoint, args: x.Args}
	case wire.Restart:
		if x.CutAfter < 0 && ap.limit < 0 {
			ap.restartPending, ap.restartAt = true, c.restartSplit(i)
		} else {
			c.restart(i) // the crash lies inside the previous Apply: no timer fires before it
		}
	}
}

// isHostApply reports whether r starts a host Apply: a command delivered (In) or refused
// (Reject, whose effects are those of timers that came due first).
func isHostApply(r *trace.Record) bool {
	if r.Actor != trace.ActorHost {
		return false
	}
	if r.Kind == trace.Reject {
		return true
	}
	_, ok := r.Payload.(wire.Command)
	return ok && r.Kind == trace.In
}

func (c *Checker) openSession(x wire.OpenSession) {
	s := c.sessions[x.Session]
	if s == nil {
		s = c.newSession(x.Session)
	}
	if x.Owner != "" {
		s.owner, s.childLive = x.Owner, true
	}
	if x.ForkOf != "" && len(s.log) == 0 {
		p := c.sessions[x.ForkOf]
		if p != nil && x.ForkThrough >= -1 && x.ForkThrough < len(p.log) {
			s.inherited = x.ForkThrough + 1
			s.persisted = s.inherited
			s.resetDerived(c)
			for _, e := range p.log[:s.inherited] {
				c.appendEvent(s, e, -1, false)
			}
			s.lastTurn = -1 << 31
		}
	}
}

// hostEffect processes one effect of the current Apply.
func (c *Checker) hostEffect(i int, e wire.Effect) {
	if c.ap.discClient != "" && i >= c.ap.discAt {
		c.disconnectNow()
	}
	if c.ap.restartPending && i >= c.ap.restartAt {
		c.ap.restartPending = false
		c.restart(c.ap.idx)
	}
	c.lateEventResultNow(i)
	switch x := e.(type) {
	case wire.Appended:
		c.appended(i, x)
	case wire.Persisted:
		c.persistedEffect(i, x)
	case wire.SendFrame:
		c.frame(i, x)
	case wire.Reply:
		c.replyEffect(i, x)
	case wire.WaitNote:
		c.waitNote(i, x)
	case wire.DirectResult:
		c.directResult(i, x)
	}
}

func (c *Checker) appended(i int, x wire.Appended) {
	s := c.session(x.Session)
	e := x.Event
	now := c.recs[i].Time
	if e.Seq < len(s.log) && e.Seq < s.inherited && eventEqual(s.log[e.Seq], e) {
		return // a re-report of an inherited event
	}
	c.logSeqAppended(i, s, e, now)
	c.restartPrefixAppended(i, s, e)
	e.Seq = len(s.log) // keep the mirror consistent after a reported gap
	// The event an AppendEvent command wrote is the scenario's, not the host's (the
	// record-level checks above still hold for it: seq and time are the host's).
	if a, ok := c.ap.cmd.(wire.AppendEvent); ok && c.ap.on && !c.ap.scripted && a.Session == s.id && dataEqual(a.Event.Data, e.Data) {
		c.ap.scripted = true
		c.scriptedEvent(s, e, i)
		return
	}
	c.appendEvent(s, e, i, true)
}

func (s *sessModel) lastRec() int {
	for j := len(s.logRec) - 1; j >= 0; j-- {
		if s.logRec[j] >= 0 {
			return s.logRec[j]
		}
	}
	return -1
}

func (c *Checker) persistedEffect(i int, x wire.Persisted) {
	s := c.session(x.Session)
	if !c.persistMonotonic(i, s, x) {
		return
	}
	s.persisted, s.persRec = x.Through, i
}

// restartSplit finds where the restarted host's effects begin in the Apply of a Restart
// between commands (record i): timers due at its instant fire first, and what they do
// (wait expiries, the calls and steps they complete, what the runtime does next) belongs
// to the host that crashed. The split is the first append from which the Apply reads as
// a restart: every Session's appends after it continue from its durable prefix at that
// point and begin with exactly that prefix's repair closers (at the repair time), while
// those before it continue the live log. With no such append (a host that repairs
// wrongly), it is the first append no timer of the crashing host makes: one at another
// time, a repair result or an interrupted turn end. It returns a record index (c.ap.end:
// every effect came before the crash).
func (c *Checker) restartSplit(i int) int {
	type pre struct {
		extra     []session.Event // appended before the split
		persisted int
	}
	state := make(map[string]*pre, len(c.sessOrder))
	for _, s := range c.sessOrder {
		state[s.id] = &pre{persisted: s.persisted}
	}
	var appends []int
	for j := i + 1; j < c.ap.end; j++ {
		if r := &c.recs[j]; r.Kind == trace.Out {
			switch x := r.Payload.(type) {
			case wire.Appended:
				appends = append(appends, j)
			case wire.Persisted:
				// before any append: the crashing host's write window, due first (a
				// stalled one caught up), which the durable prefix includes
				if p := state[x.Session]; p != nil && len(appends) == 0 && x.Through > p.persisted {
					p.persisted = x.Through
				}
			}
		}
	}
	type post struct {
		durable int
		closers []session.Data
		at      int64
		n       int
	}
	consistent := func(from int) bool {
		posts := make(map[string]*post, len(c.sessOrder))
		for _, s := range c.sessOrder {
			p := state[s.id]
			log := s.log
			if len(p.extra) > 0 {
				log = append(append([]session.Event(nil), s.log...), p.extra...)
			}
			durable := p.persisted
			if durable < s.inherited {
				durable = s.inherited
			}
			if durable > len(log) {
				durable = len(log)
			}
			closers, at := RepairClosers(log[:durable])
			posts[s.id] = &post{durable: durable, closers: closers, at: at}
		}
		for j := from; j < c.ap.end; j++ {
			a, ok := c.recs[j].Payload.(wire.Appended)
			if !ok || c.recs[j].Kind != trace.Out {
				continue
			}
			p := posts[a.Session]
			if p == nil || a.Event.Seq != p.durable+p.n {
				return false
			}
			if p.n < len(p.closers) && (!dataEqual(p.closers[p.n], a.Event.Data) || a.Event.Time != p.at) {
				return false
			}
			p.n++
		}
		for _, p := range posts {
			if p.n < len(p.closers) {
				return false
			}
		}
		return true
	}
	all := true
	for _, j := range appends {
		if consistent(j) {
			return j
		}
		a := c.recs[j].Payload.(wire.Appended)
		if !c.lazy && a.Event.Time != c.recs[i].Time {
			all = false // no timer of the crashing host appends at another time: the split is not after it
			break
		}
		if p := state[a.Session]; p != nil {
			p.extra = append(p.extra, a.Event)
		}
		// the crashing host's Persisted effects up to the next append
		for k := j + 1; k < c.ap.end; k++ {
			if _, ok := c.recs[k].Payload.(wire.Appended); ok {
				break
			}
			if x, ok := c.recs[k].Payload.(wire.Persisted); ok {
				if p := state[x.Session]; p != nil && x.Through > p.persisted {
					p.persisted = x.Through
				}
			}
		}
	}
	if all && consistent(c.ap.end) {
		return c.ap.end
	}
	for _, j := range appends {
		a := c.recs[j].Payload.(wire.Appended)
		d, _ := a.Event.Data.(session.ToolResult)
		e, _ := a.Event.Data.(session.TurnEnd)
		if (!c.lazy && a.Event.Time != c.recs[i].Time) || d.Err.Code == session.ToolOutcomeUnknown ||
			(e.Turn != 0 && e.Reason.Kind == session.EndInterrupted) {
			return j
		}
	}
	return c.ap.end
}

// restart crashes the host: every Session keeps its persisted prefix, everything volatile
// is gone, and the next events of each Session must be its repair closers.
func (c *Checker) restart(i int) {
	c.restarts++
	clear(c.liveAgents) // every agent is gone with the host; a resume enters a new one
	now := c.recs[i].Time
	for _, s := range c.sessOrder {
		durable := s.persisted
		if durable < s.inherited {
			durable = s.inherited
		}
		if durable > len(s.log) {
			durable = len(s.log)
		}
		c.replyLostByCrash(i, s, durable)
		log, recs := s.log[:durable], s.logRec[:durable]
		s.log, s.logRec = make([]session.Event, 0, len(log)+8), make([]int, 0, len(log)+8)
		s.replies = nil
		s.resetDerived(c)
		for j, e := range log {
			c.appendEvent(s, e, recs[j], false)
		}
		copy(s.logRec, recs)
		s.persisted, s.persRec = durable, -1
		s.childLive = false
		s.closers, s.closerTime = RepairClosers(s.log)
		s.closerRec = i
		s.pubLen = -1
	}
	_ = now
	for _, cn := range c.conns {
		cn.connected = false
	}
	for _, ev := range c.evOrder {
		if !ev.finished {
			ev.finished, ev.finishKind, ev.finishRec = true, finishRestart, i
		}
		ev.holders = ev.holders[:0]
	}
	for k, st := range c.streams {
		if !st.ended {
			c.endStream(k, i, true)
		}
	}
	for _, fg := range c.active {
		fg.lost = true
		fg.endRec = i
	}
	c.active = c.active[:0]
	for _, fg := range c.fgs {
		fg.noteLive = false
	}
}

// endApply runs the checks that need a whole Apply.
func (c *Checker) endApply() {
	if !c.ap.on {
		return
	}
	c.disconnectNow()
	if c.ap.restartPending {
		c.ap.restartPending = false
		c.restart(c.ap.idx)
	}
	if c.ap.limit < 0 {
		// a crash cut this Apply: its "by the end of the Apply" obligations never came due,
		// nor did a result held back for a fan-out the cut voided
		c.lateEventResultNow(c.ap.end)
		c.gatewayEndApply()
		c.waitsEndApply()
		c.claimEndIgnored()
	}
	c.ap.on = false
}

// faultHostStall is the simulator's host-stall fault (sim.FaultHostStall): the host's
// timers were held back, so from then on a wait may expire at the host's next command.
const faultHostStall = "host-stall"
