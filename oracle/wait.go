package oracle

import (
	"slices"

	"github.com/twosettle/twosettle/engine/wire"
)

// A foreground is one question's first settlement: a model ask_user_question call (or a
// run_code sub-call, or a direct service ask) from its start to its result, with the
// timed wait the host runs for it, as commands, frames and effects show it.

type fgKey struct{ session, callID string }

// Modes of a foreground.
const (
	modeUnknown  = iota // not known yet (a default timeout, a sub-call)
	modeLegacy          // legacy schema: blocking ask, no wait
	modeBlocking        // timed schema with -1: blocking ask with wait {callId}
	modeTimed           // a timed wait
	modeInvalid         // arguments the tool must reject before asking
)

const (
	fgTool = iota
	fgPTC
	fgDirect
)

type foreground struct {
	key      fgKey
	kind     int
	directID string
	startRec int
	start    int64
	mode     int
	argMs    int64 // timeout from the arguments (ms), 0 if absent
	dupID    string
	args     askArgs // a tool call's arguments (its mode may be resolved later)
	deferred bool    // a tool call made before the trace showed the host's tool mode

	refused   bool // a child's call: it fails before any answerer, with no wait (CALLER-2)
	noAsk     bool // it fails before any answerer is reached (unreadable or empty batch, pre-aborted)
	dupWait   bool // another live wait holds its (Session, call id): DUPLICATE_WAIT, no wait of its own
	askOnly   bool // a direct blocking ask(): never a host wait, whatever its request's wait says
	timedAsk  bool // a direct askTimed: its request must carry wait {callId, timed: true} (ASK-8)
	selfAbort bool // a direct call whose own signal was aborted before the call
	ambiguous bool // a request first seen as a replay may be this call's

	deadline   int64
	dlKnown    bool
	dlFromArgs bool
	evidence   bool // a timed wait evidently exists (timed request, wait note, claim frame)

	event       *gwEvent
	connectedAt int // connected generations when it started

	claims         int
	unclaimedSince int64
	releaseRec     int
	streams        []*stream

	parentAbortRec int
	abortedAtStart bool // parentAbortRec is the command of the Apply it started in (abortedAtStart)
	lost           bool // cut off by a restart
	endRec         int
	waitEndRec     int // the wait evidently ended (note, finished request, result)
	expiryRec      int // the host expired it (unattended)
	resultRec      int

	noteLive, noteCreated, noteExpired bool
	noteClaims                         int
	noteDeadline                       int64
	noteRec                            int

	order     int    // creation order (its place in c.active)
	watched   uint64 // the expiryWatch round that last judged it
	liveAgent bool   // its Session's agent was live when it started (INV-TIMED-NEEDS-LIVE-AGENT)
}

func (c *Checker) newForeground(key fgKey, kind, rec int) *foreground {
	fg := &foreground{key: key, kind: kind, startRec: rec, start: c.recs[rec].Time, releaseRec: -1,
		parentAbortRec: -1, endRec: -1, waitEndRec: -1, expiryRec: -1, resultRec: -1, noteRec: -1}
	fg.unclaimedSince = fg.start
	c.expiry.seq++
	fg.order = c.expiry.seq
	fg.liveAgent = c.liveAgents[key.session]
	for _, cn := range c.conns {
		if cn.connected {
			fg.connectedAt++
		}
	}
	c.fgs[key] = fg
	c.active = append(c.active, fg)
	c.abortedAtStart(fg)
	return fg
}

// abortedAtStart marks a call that starts inside the Apply of a turn cancel or a session
// close, on a Session that Apply aborts, as parent-aborted at that Apply's command: the
// host fires the timers due at the command's instant first (under a host stall, every
// timer that came due before it), so a run_code sub-call the previous one's timer
// dispatches (a sleep ending at that instant) starts and is then aborted with its turn in
// the same Apply (ASK_ABORTED, WAIT-9), as parentAbort does for the calls already open
// when the command came; one whose own wait came due before the command expired first
// (expiredBeforeAbort). Nothing else can start a call in such an Apply: tool calls and
// direct calls are commands of their own.
func (c *Checker) abortedAtStart(fg *foreground) {
	ap := &c.ap
	if !ap.on || ap.idx >= fg.startRec || (fg.kind == fgDirect && !ap.closing) {
		return
	}
	if slices.Contains(ap.aborted, fg.key.session) {
		fg.parentAbortRec, fg.abortedAtStart = ap.idx, true
		// it started before the command took effect, in a turn, which runs only on a live
		// agent: a close has already disposed it in the model (INV-TIMED-NEEDS-LIVE-AGENT)
		fg.liveAgent = true
	}
}

// expiredBeforeAbort undoes abortedAtStart for a timed wait that came due at or before
// the aborting command's instant: with the host's timers held back (a host stall) the
// sub-call starts at an earlier timer's due time (ptcAsk) and its own deadline may fall
// before the command too; the host fires the timers due at the command first (a stall's
// timers fire at the next command, before it), so that wait expired unattended (WAIT-8),
// before the turn's signal aborted (WAIT-9), as parentAbort leaves a wait already due.
// Called once the deadline is known.
func (c *Checker) expiredBeforeAbort(fg *foreground) {
	if !fg.abortedAtStart || fg.parentAbortRec < 0 {
		return
	}
	if e, ok := fg.expiryAt(); ok && e <= c.recs[fg.parentAbortRec].Time {
		fg.parentAbortRec, fg.abortedAtStart = -1, false
	}
}

// setTimed marks the foreground as a timed wait and fixes its deadline when known.
func (c *Checker) setTimed(fg *foreground, rec int, why string) {
	if fg.deferred {
		c.learnHostMode(hostTimed)
	}
	c.callerRootOnlyTimed(fg, rec, why)
	c.toolModeTimed(fg, rec, why)
	if w := c.liveWait(fg.key); w == nil {
		c.waits[fg.key] = fg
	}
	fg.evidence = true
	if fg.mode == modeUnknown {
		fg.mode = modeTimed
	}
	if !fg.dlKnown {
		ms := fg.argMs
		if ms <= 0 {
			ms = c.opts.DefaultTimeoutMs
		}
		if ms > 0 && fg.kind != fgDirect {
			fg.deadline, fg.dlKnown, fg.dlFromArgs = fg.start+ms, true, true
		}
	}
	c.expiredBeforeAbort(fg)
	c.watch(fg)
}

func modeName(m int) string {
	switch m {
	case modeLegacy:
		return "legacy"
	case modeBlocking:
		return "blocking (-1)"
	case modeTimed:
		return "timed"
	case modeInvalid:
		return "invalid"
	}
	return "unknown"
}

// expiryAt is the instant a correct host expires the wait if nothing else ends it: the
// first instant at or after the deadline with no claim held (WAIT-3, WAIT-5).
func (fg *foreground) expiryAt() (int64, bool) {
	if fg.mode != modeTimed || !fg.dlKnown || fg.claims > 0 || fg.refused || fg.noAsk || fg.dupWait {
		return 0, false
	}
	if fg.unclaimedSince > fg.deadline {
		return fg.unclaimedSince, true
	}
	return fg.deadline, true
}

func (fg *foreground) open() bool { return fg.resultRec < 0 && !fg.lost && fg.waitEndRec < 0 }

// Host tool modes (TOOL-1, TOOL-4): the host's configuration decides the tool's path,
// whatever a request/header says (the header decides only what the projection tracks,
// PROJ-2). The trace shows it in the host's own header (a Header command without tools)
// or in how it runs a call (a request with or without a wait, a timed wait, pending).
const (
	hostModeUnknown = iota
	hostLegacy
	hostTimed
)

// learnHostMode records the host's tool mode and resolves the calls made before it was
// known.
func (c *Checker) learnHostMode(m int) {
	if c.hostMode != hostModeUnknown || m == hostModeUnknown {
		return
	}
	c.hostMode = m
	for _, fg := range c.active {
		if fg.deferred {
			c.resolveMode(fg)
		}
	}
}

// askCall starts the foreground of a model ask_user_question call. A call of a child
// owned by a live agent fails before any answerer (CALLER-2).
func (c *Checker) askCall(s *sessModel, callID string, a askArgs, rec int) {
	fg := c.newForeground(fgKey{s.id, callID}, fgTool, rec)
	fg.args, fg.refused = a, s.childLive
	if c.hostMode == hostModeUnknown {
		fg.deferred = true
		return
	}
	c.resolveMode(fg)
}

// resolveMode classifies a tool call by the host's tool mode and its arguments, as the
// tool does (engine/questions Tool.Execute).
func (c *Checker) resolveMode(fg *foreground) {
	fg.deferred = false
	a := fg.args
	fg.noAsk = fg.noAsk || fg.refused || !a.ok || a.empty
	if c.hostMode == hostLegacy {
		fg.mode = modeLegacy
		return
	}
	if fg.kind == fgPTC {
		return // a timed-tool sub-call: its mode and wait are known from evidence
	}
	switch {
	case !a.ok:
		fg.mode = modeInvalid
	case a.dupID != "":
		fg.mode, fg.dupID = modeInvalid, a.dupID
	case a.hasTimeout && !a.timeoutOK:
		fg.mode = modeInvalid
	case a.hasTimeout && a.timeoutSecs == -1:
		fg.mode = modeBlocking
	case a.hasTimeout:
		fg.mode, fg.argMs = modeTimed, int64(a.timeoutSecs*1000)
	case c.opts.DefaultTimeoutMs > 0:
		fg.mode, fg.argMs = modeTimed, c.opts.DefaultTimeoutMs
	case c.opts.DefaultTimeoutMs < 0:
		fg.mode = modeBlocking
	}
	if fg.mode == modeTimed {
		fg.deadline, fg.dlKnown, fg.dlFromArgs = fg.start+fg.argMs, true, true
		defer c.watch(fg) // once dupWait is known
	}
	if (fg.mode == modeTimed || fg.mode == modeUnknown) && !fg.noAsk {
		if w := c.liveWait(fg.key); w != nil && w != fg {
			fg.dupWait = true // ASK-7: the live wait stays, this call fails DUPLICATE_WAIT
		} else if fg.mode == modeTimed {
			c.waits[fg.key] = fg
		}
	}
}

// orphanWaits runs when a CloseSession disposes session's agent: its live direct
// askTimed waits live on under their own signal (a close aborts only the turn and the
// gateway context), but they are the disposed agent's: a new instance's askTimed for the
// same call id is no duplicate (ASK-7 is per agent), and its wait stands beside them.
func (c *Checker) orphanWaits(session string) {
	for _, w := range c.active {
		if w.key.session == session && w.kind == fgDirect && c.liveWait(w.key) == w {
			c.orphans = append(c.orphans, w)
			delete(c.waits, w.key)
		}
	}
}

// orphanFor is the orphaned wait of key a note is for (nil: none). With no live wait of
// the key beside it, every note but a creation is the orphan's (the close that orphaned it
// may close it too); beside one, the note says whose it is: an expiry or an armed timer at
// the orphan's deadline, a close after its expiry, a release of a claim it holds.
func (c *Checker) orphanFor(i int, x wire.WaitNote) *foreground {
	key := fgKey{x.Session, x.CallID}
	cur := c.liveWait(key)
	for _, o := range c.orphans {
		if o.key != key || !o.noteLive || x.Kind == wire.WaitCreated {
			continue
		}
		if cur == nil {
			return o
		}
		switch x.Kind {
		case wire.WaitExpired:
			if o.dlKnown && o.deadline == c.recs[i].Time && !o.noteExpired {
				return o
			}
		case wire.WaitArmed:
			if o.dlKnown && o.deadline == x.At {
				return o
			}
		case wire.WaitClosed:
			if o.noteExpired {
				return o
			}
		case wire.WaitReleased:
			if o.noteClaims > 0 {
				return o
			}
		}
	}
	return nil
}

// waitOfState is the foreground a wait of the host's state is: an orphan of its key
// with its deadline, else waitFor.
func (c *Checker) waitOfState(w wire.WaitState) *foreground {
	k := fgKey{w.Session, w.CallID}
	for _, o := range c.orphans {
		if o.key == k && o.noteLive && o.dlKnown && o.deadline == w.Deadline {
			return o
		}
	}
	return c.waitFor(k)
}

// liveWait is the foreground whose host wait for key is live, as far as the trace shows:
// the registry of waits is keyed by (agent, call id) and a call that shares one (a
// refused duplicate, a direct ask) never replaces it.
func (c *Checker) liveWait(k fgKey) *foreground {
	if w := c.waits[k]; w != nil && (w.noteLive || w.open()) && !w.lost {
		return w
	}
	return nil
}

// waitFor is the foreground a wait note or a claim stream for key belongs to: the live
// wait, else the latest foreground of key.
func (c *Checker) waitFor(k fgKey) *foreground {
	if w := c.liveWait(k); w != nil {
		return w
	}
	return c.fgs[k]
}

// fgOf is the latest foreground of key of the given kind still waiting for its result.
func (c *Checker) fgOf(k fgKey, kind int) *foreground {
	if fg := c.fgs[k]; fg != nil && fg.kind == kind && fg.resultRec < 0 {
		return fg
	}
	for j := len(c.active) - 1; j >= 0; j-- {
		if fg := c.active[j]; fg.key == k && fg.kind == kind {
			return fg
		}
	}
	return c.fgs[k]
}

// ptcAsk starts the foreground of a run_code sub-call of ask_user_question. Under the
// legacy tool it is a legacy call; under the timed tool its mode is known only from
// evidence (the header lists run_code only).
//
// at is the time its tool/ptc-dispatch-start records. It is the record's time unless the
// host's timers were held back (a host stall): a host catching its timers up in due order
// runs the program on from the previous sub-call's timer at that timer's due time and
// records it so, and the sub-call's deadline counts from there (WAIT-1: now at creation,
// the host's own; a sleep's wake is read the same way, sleepWake). A host that runs it at
// its late now records that time instead, and its deadline counts from that.
func (c *Checker) ptcAsk(s *sessModel, sub string, a askArgs, rec int, at int64) {
	fg := c.newForeground(fgKey{s.id, sub}, fgPTC, rec)
	if c.lazy && at < fg.start {
		fg.start, fg.unclaimedSince = at, at
	}
	fg.args, fg.refused = a, s.childLive
	if a.ok && a.hasTimeout && a.timeoutOK && a.timeoutSecs > 0 {
		fg.argMs = int64(a.timeoutSecs * 1000)
	}
	if c.hostMode == hostModeUnknown {
		fg.deferred = true
		return
	}
	c.resolveMode(fg)
}

// directOp is a Direct command awaiting its DirectResult.
type directOp struct {
	rec     int
	op      string
	session string
	agent   string
	body    directBody
	fg      *foreground
	stale   bool // the caller is not the live root (stale instance, or a child of a live owner)
}

func (c *Checker) directCmd(i int, x wire.Direct) {
	d := &directOp{rec: i, op: x.Op, session: x.Session, agent: x.Agent, body: parseDirectBody(x.Body)}
	s := c.sessions[x.Session]
	d.stale = x.Agent == wire.AgentStale || (x.Agent == wire.AgentLive && s != nil && s.childLive)
	c.directs[x.ID] = d
	if x.Agent != wire.AgentLive {
		return
	}
	switch x.Op {
	case wire.OpAskTimed:
		key := fgKey{x.Session, d.body.CallID}
		live := c.liveWait(key)
		fg := c.newForeground(key, fgDirect, i)
		fg.directID, fg.timedAsk = x.ID, true
		if t := d.body.TimeoutMs; t != nil && *t >= 1 && *t <= 2147483647 && *t == float64(int64(*t)) {
			fg.argMs = int64(*t)
			fg.deadline, fg.dlKnown, fg.dlFromArgs = fg.start+fg.argMs, true, true
			if live != nil {
				fg.dupWait = true // ASK-7
			} else if !d.stale {
				c.waits[key] = fg
			}
		}
		if d.body.Aborted {
			// WAIT-9: the wait closes at once with the parent's reason (ASK_ABORTED)
			fg.parentAbortRec, fg.selfAbort, fg.noAsk = i, true, true
		}
		fg.refused = d.stale
		d.fg = fg
		c.watch(fg)
	case wire.OpAsk:
		key := fgKey{x.Session, "direct:" + x.ID}
		fg := c.newForeground(key, fgDirect, i)
		fg.directID, fg.mode, fg.askOnly = x.ID, modeLegacy, true
		if d.body.Wait != nil && d.body.Wait.CallID != "" {
			delete(c.fgs, key)
			fg.key = fgKey{x.Session, d.body.Wait.CallID}
			c.fgs[fg.key] = fg
			// a blocking ask(): its request carries the caller's wait, timed or not, but
			// no host wait is behind it (only askTimed makes one; WAIT-7, CLAIM-5)
			fg.mode = modeBlocking
		}
		if d.body.Aborted {
			fg.parentAbortRec, fg.selfAbort, fg.noAsk = i, true, true // ASK-1
		}
		if len(questionIDs(d.body.Questions)) == 0 {
			fg.noAsk = true // ASK-2
		}
		fg.refused = d.stale
		d.fg = fg
	}
}

// linkEvent ties a newly seen question request to its foreground: by wait.callId, or, for
// an unkeyed request, to the one unlinked unkeyed foreground of that Session started in
// this Apply. A request first seen as a replay on connect was forwarded while no client
// was connected: it is tied to the first unlinked unkeyed foreground of its Session still
// waiting, in forwarding order, even when a call started in this Apply (the calls that may
// be its are marked ambiguous when the first is not certain).
func (c *Checker) linkEvent(i int, ev *gwEvent, replay bool) {
	if ev.keyed {
		fg := c.fgs[fgKey{ev.agent, ev.callID}]
		if fg != nil && fg.dupWait {
			// a refused duplicate askTimed (ASK-7) fails DUPLICATE_WAIT and forwards no
			// request: one for its key is the live wait's
			if w := c.liveWait(fg.key); w != nil {
				fg = w
			}
		}
		if fg == nil {
			fg = c.newForeground(fgKey{ev.agent, ev.callID}, fgTool, i)
		}
		if fg.event != nil && !fg.event.finished && fg.open() {
			return
		}
		fg.event, ev.fg = ev, fg
		c.serviceContractForwarded(i, ev, fg)
		if fg.deferred {
			c.learnHostMode(hostTimed) // the legacy tool forwards no wait (TOOL-1)
		}
		c.toolModeKeyed(i, ev, fg)
		switch {
		case fg.refused, fg.mode == modeInvalid:
			// judged: INV-CALLER-ROOT-ONLY (waterfallFrame), INV-TOOL-MODE
		case fg.askOnly:
			// a direct ask() forwards the caller's wait as it is
		case ev.timed:
			c.setTimed(fg, i, "timed request")
		case fg.mode == modeTimed || fg.mode == modeLegacy:
			// judged: INV-TOOL-MODE
		default:
			fg.mode = modeBlocking
		}
		return
	}
	unkeyed := func(fg *foreground) bool {
		return fg.key.session == ev.agent && fg.event == nil && !fg.refused &&
			(fg.mode == modeLegacy || fg.mode == modeInvalid || (fg.kind == fgPTC && fg.mode == modeUnknown) || fg.deferred)
	}
	var cand *foreground
	n, older := 0, false
	for _, fg := range c.active {
		switch {
		case unkeyed(fg) && fg.startRec >= c.ap.idx:
			cand, n = fg, n+1
		case unkeyed(fg) && fg.open() && !fg.noAsk && fg.mode != modeInvalid:
			older = true
		}
	}
	if replay && older {
		// A replay on connect comes in forwarding order: a call still waiting from before
		// this Apply was forwarded before one its timers started here (a host stall caught
		// up before the connect), so the request is not the new call's.
		n = 0
	}
	if n == 0 && replay {
		// Replays come in forwarding order, and the calls forwarded with no wait and still
		// waiting are pending in the gateway: the first of them is this request's. A call
		// whose mode is not known yet may have been forwarded with a wait instead: then the
		// link is not certain, and the calls are marked ambiguous.
		var first *foreground
		certain, unsure := 0, 0
		for pass := 0; pass < 2; pass++ {
			first, certain, unsure = nil, 0, 0
			for _, fg := range c.active {
				if !unkeyed(fg) || !fg.open() || fg.noAsk || fg.mode == modeInvalid ||
					(c.hostMode == hostTimed && fg.kind == fgPTC && fg.mode == modeUnknown) {
					continue
				}
				if fg.mode == modeLegacy {
					certain++
				} else {
					unsure++
				}
				if first == nil {
					first = fg
				}
			}
			if certain > 0 || unsure == 0 {
				break
			}
			// only calls of unknown mode could be its: the timed tool forwards wait
			// {callId}, so the host runs the legacy tool (TOOL-1)
			c.learnHostMode(hostLegacy)
		}
		if unsure > 0 {
			ev.ambiguous = true
			for _, fg := range c.active {
				if unkeyed(fg) && fg.open() {
					fg.ambiguous = true
				}
			}
			return
		}
		if first != nil {
			cand, n = first, 1
		}
	}
	if n == 1 {
		cand.event, ev.fg = ev, cand
		if cand.deferred {
			c.learnHostMode(hostLegacy) // the timed tool forwards wait {callId} (TOOL-4)
		}
		if cand.mode == modeUnknown {
			cand.mode = modeLegacy // a sub-call forwarded with no wait: the legacy tool
		}
		c.toolModeUnkeyed(i, ev, cand)
		return
	}
	c.toolModeNoWait(i, ev)
}

// parentAbort runs at a turn cancel (session's own calls) or a session close (also the
// calls of the live children it owns, which Close disposes first): the turn's signal
// aborts, and with it every forwarded request of those calls (GW-3) and every timed
// wait (WAIT-9). A direct call has its own signal: only a close reaches it (the agent's
// gateway context is released).
func (c *Checker) parentAbort(session string, i int, closing bool) {
	c.ap.aborted = append(c.ap.aborted, session)
	if closing {
		for _, s := range c.sessOrder {
			if s.owner == session && s.childLive {
				c.ap.aborted = append(c.ap.aborted, s.id)
			}
		}
	}
	for _, fg := range c.active {
		if e, ok := fg.expiryAt(); (ok && c.recs[i].Time >= e) || !fg.open() || fg.parentAbortRec >= 0 {
			continue // the wait already ended (its result may still wait for earlier calls)
		}
		s := c.sessions[fg.key.session]
		child := closing && s != nil && s.owner == session && s.childLive
		if (fg.key.session != session && !child) || (fg.kind == fgDirect && !closing) {
			continue
		}
		fg.parentAbortRec = i
		if ev := fg.event; ev != nil && !ev.finished && fg.key.session == session {
			c.finish(ev, finishAbort, i)
		}
	}
}

// endVisible reports whether the trace would show the end of fg's wait when it happens:
// with WaitNote effects, with a delivered request (its cancels), or when nothing can
// delay the call's result (it is the earliest unresolved call of its step).
func (c *Checker) endVisible(fg *foreground) bool {
	if c.hasNotes || fg.kind != fgTool || (fg.event != nil && len(fg.event.holders) > 0) {
		return true
	}
	s := c.sessions[fg.key.session]
	if s == nil {
		return true
	}
	for _, oc := range s.calls {
		if oc.callID == fg.key.callID {
			return true
		}
		if oc.name != "" {
			return false
		}
	}
	return true
}

// claimFrame registers the claim of an attachWait stream's one frame, once
// INV-WAIT-CLAIM-FRAME has judged it (a frame it refuses registers nothing).
func (c *Checker) claimFrame(i int, st *stream, v []byte) {
	if !c.waitClaimFrameOnce(i, st) {
		return
	}
	fg := st.fg
	if fg == nil {
		fg = c.waitFor(fgKey{st.session, st.call})
		st.fg = fg
	}
	rem, ok := c.waitClaimFrameFor(i, st, fg, v)
	if !ok {
		return
	}
	c.setTimed(fg, i, "claim frame")
	if fg.dlKnown {
		c.waitClaimFrameRemaining(i, st, fg, rem)
	} else if rem > 0 {
		fg.deadline, fg.dlKnown = c.recs[i].Time+rem, true
	}
	st.claim, st.itemRec = true, i
	fg.claims++
	fg.streams = append(fg.streams, st)
}

// hostExpiry is called at the record where the host evidently expired fg's wait
// unattended (a WaitNote expired, a request aborted with no parent abort, or a pending
// result with no winning ASK_TIMED_OUT).
func (c *Checker) hostExpiry(fg *foreground, rec int) {
	if fg.expiryRec >= 0 {
		return
	}
	fg.expiryRec = rec
	c.waitClaimedNoExpiryAt(fg, rec)
	c.waitDeadlineExpiry(fg, rec)
}

func (c *Checker) waitNote(i int, x wire.WaitNote) {
	key := fgKey{x.Session, x.CallID}
	fg := c.fgs[key]
	if o := c.orphanFor(i, x); o != nil {
		fg = o
	} else if w := c.waits[key]; w != nil && w.noteLive && w != fg {
		if x.Kind == wire.WaitCreated {
			c.waitLifecycleCreatedBeside(i, x, w)
		} else {
			fg = w // the live wait's note, while a later call shares its key (a refused duplicate, a direct ask)
		}
	}
	if fg == nil || (x.Kind == wire.WaitCreated && !fg.open() && !fg.noteLive) {
		if fg == nil || fg.resultRec >= 0 || fg.lost {
			fg = c.newForeground(key, fgTool, i)
		}
	}
	if x.Kind == wire.WaitCreated {
		c.waitLifecycleCreated(i, x, fg)
		c.setTimed(fg, i, "wait note")
		c.waits[key] = fg
		fg.noteLive, fg.noteCreated, fg.noteExpired, fg.noteClaims, fg.noteDeadline, fg.noteRec = true, true, false, 0, x.Deadline, i
		c.waitDeadlineCreated(i, x, fg)
		if !fg.dlKnown {
			fg.deadline, fg.dlKnown = x.Deadline, true
			c.expiredBeforeAbort(fg)
			c.watch(fg)
		}
		return
	}
	if !fg.noteLive {
		c.waitLifecycleNoWait(i, x, fg)
		return
	}
	switch x.Kind {
	case wire.WaitArmed:
		c.waitClaimedNoExpiryNote(i, x, fg)
		c.waitDeadlineArmed(i, x, fg)
	case wire.WaitClaimed:
		c.waitLifecycleCount(i, x, fg)
		fg.noteClaims = x.Claims
		c.waitClaimFrameNote(i, x, fg)
	case wire.WaitReleased:
		c.waitLifecycleCount(i, x, fg)
		fg.noteClaims = x.Claims
	case wire.WaitExpired:
		c.waitClaimedNoExpiryNote(i, x, fg)
		c.waitDeadlineExpiredNote(i, x, fg)
		fg.noteExpired = true
		if fg.waitEndRec < 0 {
			fg.waitEndRec = i
		}
		c.hostExpiry(fg, i)
	case wire.WaitClosed:
		fg.noteLive = false
		if fg.waitEndRec < 0 {
			fg.waitEndRec = i
		}
	}
}

// waitsEndApply runs at the end of an Apply: the calls whose result it recorded have
// their request finished and their wait closed, once the invariants judged them.
func (c *Checker) waitsEndApply() {
	ap := &c.ap
	for _, fg := range ap.results {
		c.foregroundEndsWaterfallResult(fg)
		c.waitLifecycleResult(fg)
		if ev := fg.event; ev != nil && !ev.finished {
			ev.finished, ev.finishKind, ev.finishRec, ev.finishAp = true, finishResult, fg.resultRec, ap.idx
		}
		fg.noteLive = false
	}
	c.waitExpiresOnTimeEndApply()
}
