package sim

import (
	"math"
	"strconv"

	"github.com/twosettle/twosettle/engine/session"
	"github.com/twosettle/twosettle/engine/wire"
	"github.com/twosettle/twosettle/trace"
)

// watcher is an armed crash: it cuts the first later host Apply where its point exists.
type watcher struct {
	point  string
	effect int
	random bool

	// state carried across Applies (reset by a restart)
	waitSeq   bool // after-ptc-dispatch: (sess, seq) appended, awaiting its Persisted
	sess      string
	seq       int
	waitRPC   bool // answer ack: the answer Call (rpcClient, rpc) awaits its Reply
	rpcClient string
	rpc       string
}

// crashCut evaluates the armed watchers against one Apply: the smallest cut any of them
// asks for (ties: the first armed), or -1. Carried state is committed only when no crash
// lands (a crash resets it anyway).
func (r *Runner) crashCut(cmd wire.Command, effs []wire.Effect) (int, int) {
	// random crashes armed before the healed time do not land after it
	j := 0
	for _, w := range r.watchers {
		if w.random && r.now >= r.healedAt {
			continue
		}
		r.watchers[j] = w
		j++
	}
	r.watchers = r.watchers[:j]
	best, bi := -1, -1
	if cap(r.wnext) < len(r.watchers) {
		r.wnext = make([]watcher, len(r.watchers))
	}
	r.wnext = r.wnext[:len(r.watchers)]
	for i := range r.watchers {
		k, nw := r.watchers[i].eval(r, cmd, effs)
		r.wnext[i] = nw
		if k >= 0 && (best < 0 || k < best) {
			best, bi = k, i
		}
	}
	if bi < 0 {
		copy(r.watchers, r.wnext)
	}
	return best, bi
}

func (r *Runner) watchersReset() {
	for i := range r.watchers {
		w := &r.watchers[i]
		w.waitSeq, w.waitRPC = false, false
	}
}

// covers reports whether effect e is a Persisted of sess that makes seq durable.
func covers(e wire.Effect, sess string, seq int) bool {
	p, ok := e.(wire.Persisted)
	return ok && p.Session == sess && p.Through > seq
}

func isAppended(e wire.Effect, typ string) (wire.Appended, bool) {
	a, ok := e.(wire.Appended)
	if !ok || a.Event.Data == nil || a.Event.Data.Type() != typ {
		return wire.Appended{}, false
	}
	return a, true
}

// eval returns the cut this watcher asks for in this Apply (-1 for none) and its state
// after the Apply.
func (w watcher) eval(r *Runner, cmd wire.Command, effs []wire.Effect) (int, watcher) {
	n := len(effs)
	switch w.point {
	case PointAfterEffect:
		// counted without wait notes: a host without introspection sends none, and the
		// crash must land after the same effects whatever the host reports of its waits
		seen := 0
		for i, e := range effs {
			if _, ok := e.(wire.WaitNote); ok {
				continue
			}
			if seen == w.effect {
				return i, w
			}
			seen++
		}
	case PointBeforePTCDispatch:
		for i, e := range effs {
			if a, ok := isAppended(e, session.TypePTCDispatch); ok {
				for j := i + 1; j < n; j++ {
					if covers(effs[j], a.Session, a.Event.Seq) {
						return j, w
					}
				}
				return n, w
			}
		}
	case PointAfterPTCDispatch:
		start := 0
		if !w.waitSeq {
			start = n
			for i, e := range effs {
				if a, ok := isAppended(e, session.TypePTCDispatch); ok {
					w.waitSeq, w.sess, w.seq, start = true, a.Session, a.Event.Seq, i+1
					break
				}
			}
		}
		if w.waitSeq {
			for j := start; j < n; j++ {
				if covers(effs[j], w.sess, w.seq) {
					return j + 1, w
				}
			}
		}
	case PointBeforeAnswerAck, PointAfterAnswerAck:
		if c, ok := cmd.(wire.Call); ok && c.Endpoint == wire.EndpointAnswer && !w.waitRPC {
			w.waitRPC, w.rpcClient, w.rpc = true, c.Client, c.RPCID
		}
		if w.waitRPC {
			for j, e := range effs {
				if rp, ok := e.(wire.Reply); ok && rp.Client == w.rpcClient && rp.RPCID == w.rpc {
					if w.point == PointAfterAnswerAck {
						return j + 1, w
					}
					return j, w
				}
			}
		}
	case PointBetweenClaimAdmit:
		for i, e := range effs {
			if a, ok := e.(wire.Appended); ok {
				if m, ok := a.Event.Data.(session.UserMessage); ok && m.Message.Source.Kind == session.SourceUserQuestionReply {
					return i, w
				}
			}
		}
	case PointInsideWriteWindow:
		// the latest cut after which some event appended in this Apply is not yet durable
		var open [8]struct {
			sess string
			seq  int
		}
		no := 0
		last := -1
		for i, e := range effs {
			switch e := e.(type) {
			case wire.Appended:
				found := false
				for k := 0; k < no; k++ {
					if open[k].sess == e.Session {
						open[k].seq, found = e.Event.Seq, true
					}
				}
				if !found && no < len(open) {
					open[no].sess, open[no].seq = e.Session, e.Event.Seq
					no++
				}
			case wire.Persisted:
				for k := 0; k < no; k++ {
					if open[k].sess == e.Session && e.Through > open[k].seq {
						open[k] = open[no-1]
						no--
						break
					}
				}
			}
			if no > 0 {
				last = i + 1
			}
		}
		if last >= 0 {
			return last, w
		}
	case "": // random
		if w.random && n >= 0 {
			return r.fault.IntN(n + 1), w
		}
	}
	return -1, w
}

// injectFault applies a fault now (scripted or drawn).
func (r *Runner) injectFault(f *Fault, random bool) {
	switch f.Kind {
	case FaultCrash:
		if f.Point == PointNow && !random {
			r.rec(trace.ActorSim, trace.Fault, 0, trace.Injected{Kind: FaultCrash, Of: -1})
			r.restart(-1)
			return
		}
		r.rec(trace.ActorSim, trace.Fault, 0, trace.Injected{Kind: FaultCrash, Point: f.Point, Of: -1, Armed: true, Random: random})
		r.watchers = append(r.watchers, watcher{point: f.Point, effect: f.Effect, random: random})
	case FaultCancelTurn:
		r.rec(trace.ActorSim, trace.Fault, 0, trace.Injected{Kind: f.Kind, Target: f.Session, Keep: f.KeepInbox, Of: -1, Random: random})
		r.noteSession(f.Session)
		r.applyHost(wire.CancelTurn{Session: f.Session, KeepInbox: f.KeepInbox}, true)
	case FaultHostStall:
		r.rec(trace.ActorSim, trace.Fault, 0, trace.Injected{Kind: f.Kind, N: f.ByMs.Ms(), Of: -1, Random: random})
		r.stallUntil = r.now + f.ByMs.Ms()
		r.refreshHost()
	case FaultInboxWrite:
		r.rec(trace.ActorSim, trace.Fault, 0, trace.Injected{Kind: f.Kind, Target: f.Session, Of: -1, Random: random})
		r.noteSession(f.Session)
		r.applyHost(wire.FailInboxWrite{Session: f.Session}, true)
	default:
		ci := r.clientIndex(f.Client)
		c := &r.cl[ci]
		inj := trace.Injected{Kind: f.Kind, Target: f.Client, Of: -1, Random: random, NoOp: c.crashed}
		switch f.Kind {
		case FaultClockJump:
			inj.N = f.ByMs.Ms()
		case FaultClockDrift:
			inj.N = f.PPM
		}
		r.rec(trace.ActorSim, trace.Fault, 0, inj)
		if c.crashed {
			return
		}
		switch f.Kind {
		case FaultReload:
			r.teardown(ci, false, true, trace.WhyLinkDown)
			c.incarnation++
			c.fresh = true
			r.applyClient(ci, wire.Reload{}, false)
		case FaultClientCrash:
			r.teardown(ci, false, true, trace.WhyCrashed)
			c.crashed, c.has = true, false
			r.retime()
		case FaultClockJump:
			c.clk.jump(r.now, f.ByMs.Ms())
			if c.has {
				c.simAt = c.clk.simTime(r.now, c.at)
				r.retime()
			}
		case FaultClockDrift:
			c.clk.drift(r.now, f.PPM)
			if c.has {
				c.simAt = c.clk.simTime(r.now, c.at)
				r.retime()
			}
		}
	}
}

// netAction applies a network action now.
func (r *Runner) netAction(a *NetAction, random bool) {
	ci := r.clientIndex(a.Client)
	c := &r.cl[ci]
	inj := trace.Injected{Kind: a.Kind, Target: a.Client, Of: -1, Random: random, NoOp: c.crashed}
	if a.Kind == NetPartition || a.Kind == NetDelay {
		inj.N = a.DurationMs.Ms()
	}
	switch a.Kind {
	case NetDisconnect:
		inj.NoOp = inj.NoOp || c.state == stDown
	case NetReconnect:
		inj.NoOp = inj.NoOp || c.state == stConnecting
	}
	r.rec(trace.ActorSim, trace.Fault, 0, inj)
	if c.crashed {
		return
	}
	switch a.Kind {
	case NetDisconnect:
		r.teardown(ci, true, true, trace.WhyLinkDown)
	case NetReconnect:
		switch c.state {
		case stUp:
			r.teardown(ci, true, true, trace.WhyLinkDown)
			c.immediate = true
		case stDown:
			r.startDial(ci, r.now)
		}
	case NetPartition:
		if until := r.now + a.DurationMs.Ms(); until > c.partitionUntil {
			c.partitionUntil = until
		}
		r.teardown(ci, true, true, trace.WhyLinkDown)
		r.killHTTP(ci)
	case NetDelay:
		c.delayNext += a.DurationMs.Ms()
	case NetLose:
		c.loseNext++
	}
}

// randFault is one fault drawn from the fault stream before the run.
type randFault struct {
	kind   string
	client int
	n      int64
	pick   uint64
}

// maxRandomFaults bounds the faults one run may draw.
const maxRandomFaults = 100_000

// drawRandomFaults draws every random fault of the run up front, kind by kind in a fixed
// order, so that what a fault does never shifts when another kind is switched on or off
// within a kind's own draws (times, then target and magnitude for each).
func (r *Runner) drawRandomFaults() error {
	fc := &r.cfg.Faults
	if !fc.Any() {
		return nil
	}
	horizon := r.healedAt
	def := func(v, d int64) int64 {
		if v == 0 {
			return d
		}
		return v
	}
	jump := def(fc.JumpMaxMs.Ms(), DefaultJumpMaxMs)
	drift := def(fc.DriftMaxPPM, DefaultDriftMaxPPM)
	part := def(fc.PartitionMaxMs.Ms(), DefaultPartitionMaxMs)
	delay := def(fc.DelayMaxMs.Ms(), DefaultDelayMaxMs)
	kinds := []struct {
		kind string
		rate float64
	}{{FaultCrash, fc.CrashPerMin}, {NetDisconnect, fc.DisconnectPerMin}, {FaultReload, fc.ReloadPerMin},
		{FaultClockJump, fc.ClockJumpPerMin}, {NetPartition, fc.PartitionPerMin}, {NetLose, fc.LoseHTTPPerMin},
		{NetDelay, fc.DelayHTTPPerMin}, {FaultClientCrash, fc.ClientCrashPerMin}, {FaultClockDrift, fc.ClockDriftPerMin},
		{FaultCancelTurn, fc.CancelTurnPerMin}, {FaultInboxWrite, fc.InboxWriteFailPerMin}}
	for _, k := range kinds {
		if k.rate <= 0 {
			continue
		}
		mean := 60_000 / k.rate
		t := 0.0
		for {
			t += r.fault.ExpFloat64() * mean
			at := int64(math.Ceil(t))
			if t >= float64(horizon) || at >= horizon {
				break
			}
			if len(r.randFaults) >= maxRandomFaults {
				return &ConfigError{Step: -1, Field: "faults", Msg: "more than " + strconv.Itoa(maxRandomFaults) + " random faults in one run"}
			}
			f := randFault{kind: k.kind, client: -1}
			switch k.kind {
			case FaultCrash:
			case FaultCancelTurn, FaultInboxWrite:
				f.pick = r.fault.Uint64()
			default:
				f.client = r.fault.IntN(len(r.cl))
				switch k.kind {
				case FaultClockJump:
					f.n = r.fault.Int64N(2*jump+1) - jump
				case FaultClockDrift:
					f.n = r.fault.Int64N(2*drift+1) - drift
				case NetPartition:
					f.n = 1 + r.fault.Int64N(part)
				case NetDelay:
					f.n = 1 + r.fault.Int64N(delay)
				}
			}
			r.randFaults = append(r.randFaults, f)
			r.push(event{kind: evRandomFault, client: -1, link: -1, idx: int32(len(r.randFaults) - 1)}, at)
		}
	}
	return nil
}

func (r *Runner) fireRandomFault(i int) {
	f := r.randFaults[i]
	switch f.kind {
	case NetDisconnect, NetPartition, NetLose, NetDelay:
		r.netAction(&NetAction{Kind: f.kind, Client: r.cl[f.client].name, DurationMs: wire.Duration(f.n)}, true)
	case FaultCrash:
		r.injectFault(&Fault{Kind: FaultCrash}, true)
	case FaultCancelTurn, FaultInboxWrite:
		if len(r.sessions) == 0 {
			r.rec(trace.ActorSim, trace.Fault, 0, trace.Injected{Kind: f.kind, Of: -1, Random: true, NoOp: true})
			return
		}
		r.injectFault(&Fault{Kind: f.kind, Session: r.sessions[f.pick%uint64(len(r.sessions))]}, true)
	default:
		flt := Fault{Kind: f.kind, Client: r.cl[f.client].name}
		switch f.kind {
		case FaultClockJump:
			flt.ByMs = wire.Duration(f.n)
		case FaultClockDrift:
			flt.PPM = f.n
		}
		r.injectFault(&flt, true)
	}
}
