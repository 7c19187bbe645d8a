package oracle

import (
	"strconv"

	"github.com/twosettle/twosettle/engine/wire"
	"github.com/twosettle/twosettle/trace"
)

// The gateway model: connection generations, forwarded waterfall requests and their
// deliveries, and logical streams, as the host's frames and the commands show them.

type connKey struct {
	client string
	gen    int
}

func (k connKey) String() string { return k.client + "." + strconv.Itoa(k.gen) }

type conn struct {
	client     string
	gen        int // live generation (after its Ready)
	maxGen     int
	connected  bool
	connecting bool // a Connect was applied; its Ready has not been seen
	connectRec int
	readyRec   int
}

// Finish kinds of a waterfall request.
const (
	finishWinner  = "won"
	finishNext    = "passed"
	finishAbort   = "aborted"
	finishResult  = "ended-with-call" // its call got a result while no client held it
	finishRestart = "restart"
)

type gwEvent struct {
	id, name  string
	agent     string
	callID    string // wait.callId, "" for an unkeyed request
	keyed     bool
	timed     bool
	nq        int // questions in the request (-1: unreadable)
	order     int
	firstRec  int
	firstAp   int // the Apply that first delivered it
	holders   []connKey
	holderRec []int
	delivered []connKey

	finished   bool
	finishKind string
	finishRec  int
	finishAp   int
	needs      []connKey // holders owed a cancel at the finish
	needsRec   []int
	ambiguous  bool // an unkeyed replay the oracle could not tie to one call
	hasWinner  bool
	winner     connKey
	outcome    wire.Outcome
	winnerRec  int

	fg *foreground
}

func (ev *gwEvent) holds(k connKey) int {
	for i, h := range ev.holders {
		if h == k {
			return i
		}
	}
	return -1
}

func (ev *gwEvent) drop(k connKey) {
	if i := ev.holds(k); i >= 0 {
		ev.holders = append(ev.holders[:i], ev.holders[i+1:]...)
		ev.holderRec = append(ev.holderRec[:i], ev.holderRec[i+1:]...)
	}
}

type streamKey struct {
	client string
	gen    int
	id     string
}

type stream struct {
	key            streamKey
	endpoint       string
	session, call  string
	openRec        int
	items, itemRec int
	claim          bool
	ended          bool
	endRec         int
	endByCmd       bool
	fg             *foreground
}

type rpcKey struct{ client, rpc string }

type rpcCall struct {
	rec      int
	endpoint string
	args     []byte
}

func (c *Checker) conn(client string) *conn {
	cn := c.conns[client]
	if cn == nil {
		cn = &conn{client: client, readyRec: -1}
		c.conns[client] = cn
	}
	return cn
}

func (c *Checker) connectCmd(i int, x wire.Connect) {
	cn := c.conn(x.Client)
	if cn.connected {
		c.disconnectLater(i, x.Client)
	}
	cn.connecting, cn.connectRec = true, i
	c.ap.connect = cn
}

// disconnectLater drops client's live generation in the Apply of command i: at once, or,
// when a timer is due at the command's instant (a wait's expiry, a sleep's end), after the
// last cancel, stream end or request the host sends that generation: its timers fire
// before the command (GW-3, WAIT-9), and a call they complete may let a run_code go on to
// its next sub-call, whose request is forwarded.
func (c *Checker) disconnectLater(i int, client string) {
	cn := c.conns[client]
	at := -1
	if cn != nil && cn.connected && c.timerDue(c.recs[i].Time) {
		for j := i + 1; j < c.ap.end; j++ {
			f, ok := c.recs[j].Payload.(wire.SendFrame)
			if !ok || c.recs[j].Kind != trace.Out || f.Client != client || f.Gen != cn.gen {
				continue
			}
			switch f.Frame.(type) {
			case wire.Cancel, wire.StreamEnd, wire.StreamError, wire.Waterfall:
				at = j + 1
			}
		}
	}
	if at < 0 {
		c.disconnectCmd(i, client)
		return
	}
	c.ap.discClient, c.ap.discAt = client, at
}

// disconnectNow applies a deferred disconnect.
func (c *Checker) disconnectNow() {
	if cl := c.ap.discClient; cl != "" {
		c.ap.discClient = ""
		c.disconnectCmd(c.ap.idx, cl)
		if _, ok := c.ap.cmd.(wire.Connect); ok {
			c.conns[cl].connecting = true // the connect that replaced the generation
		}
	}
}

// timerDue reports whether a wait the oracle follows expires, or a sleep ends, at or
// before now.
func (c *Checker) timerDue(now int64) bool {
	for _, fg := range c.active {
		if e, ok := fg.expiryAt(); ok && fg.open() && e <= now {
			return true
		}
	}
	for _, s := range c.sessOrder {
		for _, oc := range s.calls {
			if oc.wake >= 0 && oc.wake <= now {
				return true
			}
		}
		for _, p := range s.ptc {
			if p.wake >= 0 && p.wake <= now {
				return true
			}
		}
	}
	return false
}

// disconnectCmd drops a client's live generation: its deliveries are removed without
// settling anything (GW-6) and every stream it had open ends (GW-7).
func (c *Checker) disconnectCmd(i int, client string) {
	cn := c.conns[client]
	if cn == nil {
		return
	}
	cn.connecting = false
	if !cn.connected {
		return
	}
	cn.connected = false
	k := connKey{client, cn.gen}
	for _, ev := range c.evOrder {
		if !ev.finished {
			ev.drop(k)
		}
	}
	for sk, st := range c.streams {
		if sk.client == client && !st.ended {
			c.endStream(sk, i, true)
		}
	}
}

func (c *Checker) streamOpen(i int, x wire.StreamOpen) {
	k := streamKey{x.Client, x.Gen, x.StreamID}
	if old := c.streams[k]; old != nil && !old.ended {
		return // a duplicate stream id: the host closes the socket; keep the first
	}
	st := &stream{key: k, endpoint: x.Endpoint, openRec: i, itemRec: -1, endRec: -1}
	if x.Endpoint == wire.EndpointAttachWait {
		st.session, st.call = waitArgs(x.Args)
		st.fg = c.waitFor(fgKey{st.session, st.call})
	}
	c.streams[k] = st
}

// endStream ends a stream; a claim it held is released.
func (c *Checker) endStream(k streamKey, rec int, byCmd bool) {
	st := c.streams[k]
	if st == nil || st.ended {
		return
	}
	st.ended, st.endRec, st.endByCmd = true, rec, byCmd
	if st.claim && st.fg != nil {
		fg := st.fg
		fg.claims--
		if fg.claims == 0 {
			fg.unclaimedSince, fg.releaseRec = c.recs[rec].Time, rec
			c.watch(fg)
		}
	}
}

// eventResult applies a client's $events/result for one delivery (command record i). A
// result naming a request this generation does not hold yet, which a timer due at the
// command's instant forwards to it in this very Apply (a sleep's end lets a run_code go on
// to its ask), is the host's to take after that request's fan-out: timers due at or
// before now fire first (docs/PROTOCOL.md#the-commands), the result uplink may overtake the
// frames, and the winner is whichever result the host processes first (docs/PEER-RUNTIME.md
// §1.1-§1.3). It is applied after the request's last Waterfall frame of the Apply.
func (c *Checker) eventResult(i int, x wire.EventResult) {
	ev := c.events[x.EventID]
	k := connKey{x.Client, x.Gen}
	if ev == nil || (!ev.finished && ev.holds(k) < 0) {
		if at := c.forwardedFirst(i, k, x.EventID); at >= 0 {
			c.ap.lateResult, c.ap.lateResultAt, c.ap.lateResultRec = &x, at, i
			return
		}
	}
	c.takeEventResult(i, x)
}

// forwardedFirst returns the record after the last Waterfall frame of request id that
// timers due at command i's instant sent in this Apply, when one of them went to k; -1
// otherwise.
func (c *Checker) forwardedFirst(i int, k connKey, id string) int {
	if !c.timerDue(c.recs[i].Time) {
		return -1
	}
	last, toK := -1, false
	for j := i + 1; j < c.ap.end; j++ {
		f, ok := c.recs[j].Payload.(wire.SendFrame)
		if !ok || c.recs[j].Kind != trace.Out {
			continue
		}
		if w, ok := f.Frame.(wire.Waterfall); ok && w.EventID == id {
			last = j
			toK = toK || (f.Client == k.client && f.Gen == k.gen)
		}
	}
	if !toK {
		return -1
	}
	return last + 1
}

// lateEventResultNow applies a result eventResult held back, once its request's fan-out
// is read (record i, or the Apply's end).
func (c *Checker) lateEventResultNow(i int) {
	if x := c.ap.lateResult; x != nil && i >= c.ap.lateResultAt {
		c.ap.lateResult = nil
		c.takeEventResult(c.ap.lateResultRec, *x)
	}
}

// takeEventResult applies a result at command record i.
func (c *Checker) takeEventResult(i int, x wire.EventResult) {
	ev := c.events[x.EventID]
	if ev == nil || ev.finished {
		return // discarded: the request already finished (GW-1)
	}
	k := connKey{x.Client, x.Gen}
	if ev.holds(k) < 0 {
		return // not a holder (passed, disconnected, stale generation): dropped
	}
	// Timers due at or before now fire first: if the host cancels this very delivery in
	// this Apply, the request finished before the result was processed.
	for j := i + 1; j < c.ap.end; j++ {
		if f, ok := c.recs[j].Payload.(wire.SendFrame); ok && f.Client == x.Client && f.Gen == x.Gen {
			if cf, ok := f.Frame.(wire.Cancel); ok && cf.EventID == x.EventID && c.dueBefore(ev) {
				return
			}
		}
	}
	switch x.Outcome.Kind {
	case wire.OutcomeNext:
		ev.drop(k)
		if len(ev.holders) == 0 {
			c.finish(ev, finishNext, i)
		}
	case wire.OutcomeResult, wire.OutcomeRejected:
		ev.hasWinner, ev.winner, ev.outcome, ev.winnerRec = true, k, x.Outcome, i
		ev.drop(k)
		c.finish(ev, finishWinner, i)
	}
}

// dueBefore reports whether something due at or before now (the request's wait expiring)
// could have finished ev before the host processed a result in this Apply.
func (c *Checker) dueBefore(ev *gwEvent) bool {
	if ev.fg == nil {
		return false
	}
	e, ok := ev.fg.expiryAt()
	return ok && c.ap.now >= e
}

func (c *Checker) finish(ev *gwEvent, kind string, rec int) {
	ev.finished, ev.finishKind, ev.finishRec, ev.finishAp = true, kind, rec, c.ap.idx
	ev.needs = append(ev.needs[:0], ev.holders...)
	ev.needsRec = append(ev.needsRec[:0], ev.holderRec...)
	c.ap.finished = append(c.ap.finished, ev)
	if fg := ev.fg; fg != nil && kind != finishNext && fg.waitEndRec < 0 && fg.mode == modeTimed {
		fg.waitEndRec = rec
		if kind == finishAbort && c.ap.abortSession != fg.key.session && fg.parentAbortRec < 0 {
			if _, restart := c.ap.cmd.(wire.Restart); !restart {
				c.hostExpiry(fg, rec)
			}
		}
	}
}

// frame processes one frame the host sent.
func (c *Checker) frame(i int, x wire.SendFrame) {
	cn := c.conn(x.Client)
	if rd, ok := x.Frame.(wire.Ready); ok {
		if c.ap.discClient == x.Client {
			c.disconnectNow()
		}
		c.gwGenerationReady(i, x, cn, rd)
		cn.gen, cn.connected, cn.connecting, cn.readyRec = x.Gen, true, false, i
		if x.Gen > cn.maxGen {
			cn.maxGen = x.Gen
		}
		return
	}
	if !c.gwGenerationLive(i, x, cn) {
		return
	}
	k := connKey{x.Client, x.Gen}
	isConnect := c.ap.connect == cn
	switch f := x.Frame.(type) {
	case wire.Waterfall:
		c.waterfallFrame(i, k, f, isConnect)
		return
	case wire.Cancel:
		c.cancelFrame(i, k, f)
	case wire.StreamItem:
		st := c.streams[streamKey{x.Client, x.Gen, f.StreamID}]
		if !c.gwGenerationItem(i, k, f, st) {
			break
		}
		st.items++
		if st.endpoint == wire.EndpointAttachWait {
			c.claimFrame(i, st, f.Value)
		}
	case wire.StreamEnd, wire.StreamError:
		id := ""
		if e, ok := f.(wire.StreamEnd); ok {
			id = e.StreamID
		} else {
			id = f.(wire.StreamError).StreamID
		}
		sk := streamKey{x.Client, x.Gen, id}
		if !c.gwGenerationEnd(i, k, x.Frame, c.streams[sk]) {
			break
		}
		c.endStream(sk, i, false)
		if _, ok := f.(wire.StreamEnd); ok {
			c.hostEndedClaim(c.streams[sk])
		}
	case wire.SessionUpdate:
		c.sessionUpdate(i, f)
	}
	if isConnect {
		c.ap.connectLive = true
	}
}

func (c *Checker) waterfallFrame(i int, k connKey, f wire.Waterfall, replay bool) {
	ev := c.events[f.EventID]
	if ev == nil {
		ev = &gwEvent{id: f.EventID, name: f.Event, agent: f.AgentID, order: len(c.evOrder), firstRec: i, firstAp: c.ap.idx, winnerRec: -1, nq: -1}
		if req, err := wire.ParseQuestionRequest(f.Request); err == nil {
			ev.nq = len(req.Questions)
			if req.Wait != nil {
				ev.callID, ev.keyed, ev.timed = req.Wait.CallID, true, req.Wait.Timed
			}
		}
		c.events[f.EventID] = ev
		c.evOrder = append(c.evOrder, ev)
		if !replay {
			c.ap.fresh = append(c.ap.fresh, ev)
		}
		if f.Event == wire.EventQuestionsRequest {
			c.linkEvent(i, ev, replay)
		}
	}
	c.foregroundEndsWaterfallFrame(i, k, ev)
	c.gwSettleOnceFrame(i, k, ev)
	c.gwFanoutFrame(i, k, ev, replay)
	c.gwReplayFrame(i, k, ev, replay)
	if replay {
		c.ap.replayed = append(c.ap.replayed, ev)
	}
	ev.holders = append(ev.holders, k)
	ev.holderRec = append(ev.holderRec, i)
	ev.delivered = append(ev.delivered, k)
	c.callerRootOnlyFrame(i, k, f)
}

func (c *Checker) cancelFrame(i int, k connKey, f wire.Cancel) {
	ev := c.events[f.EventID]
	if !c.gwCancelKnown(i, k, f, ev) || !c.gwSettleOnceCancel(i, k, ev) {
		return
	}
	if !ev.finished {
		c.finish(ev, finishAbort, i)
	}
	j, ok := c.gwCancelOwed(i, k, ev)
	if !ok {
		return
	}
	ev.needs = append(ev.needs[:j], ev.needs[j+1:]...)
	ev.needsRec = append(ev.needsRec[:j], ev.needsRec[j+1:]...)
	ev.drop(k)
}

// eventPending reports whether a request is still pending in a correct gateway at time now.
func (c *Checker) eventPending(ev *gwEvent, now int64) bool {
	if ev.finished {
		return false
	}
	if fg := ev.fg; fg != nil {
		if fg.resultRec >= 0 || fg.lost || fg.waitEndRec >= 0 {
			return false
		}
		if e, ok := fg.expiryAt(); ok && now >= e {
			return false
		}
	}
	return true
}

// gatewayEndApply runs the gateway invariants that need a whole Apply.
func (c *Checker) gatewayEndApply() {
	c.gwCancelEndApply()
	c.gwFanoutEndApply()
	c.gwReplayEndApply()
}
