package host

import (
	"errors"
	"fmt"
	"slices"

	"github.com/twosettle/twosettle/engine/agent"
	"github.com/twosettle/twosettle/engine/gateway"
	"github.com/twosettle/twosettle/engine/mutant"
	"github.com/twosettle/twosettle/engine/questions"
	"github.com/twosettle/twosettle/engine/session"
	"github.com/twosettle/twosettle/engine/signal"
	"github.com/twosettle/twosettle/engine/wire"
)

// Host is the reference host: the Session logs and agents (engine/agent), the Remote
// transport (engine/gateway) and the question feature (engine/questions), composed behind
// wire.HostPort.
type Host struct {
	cfg   Config
	gw    *gateway.Gateway
	rt    *agent.Runtime
	svc   *questions.Service
	tool  *questions.Tool
	tools string // the default request/header tools

	mutants mutant.Set // the deliberate bugs switched on (none in the correct engine)
	// expired are the Sessions whose waits expired unattended in the current firing
	// (MUTANT expiry-aborts-turn only).
	expired []string

	proj map[string]*questions.Projection // by Session id
	// the projection projOf found last, and its Session
	lastProjID string
	lastProj   *questions.Projection
	ids        []string       // every Session id, sorted (kept by onLoaded)
	logs       []*session.Log // the log of each Session of ids (a Session keeps its log)
	memo       questions.Memo // the projections' shared header reading

	// contexts are the agent-context lifetimes handed to the gateway with each forwarded
	// request: aborted when their instance stops being live (docs/PEER-RUNTIME.md §1.2 step 2).
	contexts []agentContext

	clients []*clientView // connected generations the host has sent updates to, by name
	upd     []builtUpdate // sendUpdates' scratch, one per Session

	now   int64
	epoch int // bumped by every restart: callbacks of an older epoch are dropped

	effects []wire.Effect // the current Apply's effects
	prev    []wire.Effect // the previous Apply's effects (Restart.CutAfter counts into them)
	// persisted counts of every Session at the start of the current and previous Apply
	startPersisted, prevPersisted []durable
}

// durable is how many events of a Session were persisted at some point.
type durable struct {
	id string
	n  int
}

type agentContext struct {
	agent *agent.Agent
	sig   *signal.Signal
}

var _ wire.HostPort = (*Host)(nil)

// New builds a host. An invalid configuration is an error.
func New(cfg Config) (*Host, error) {
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	window, _ := cfg.window()
	h := &Host{cfg: cfg, mutants: cfg.mutants(), proj: map[string]*questions.Projection{}, memo: defaultMemo,
		effects: make([]wire.Effect, 0, 16), prev: make([]wire.Effect, 0, 16)}
	h.gw = gateway.New(gateway.Config{Emit: h.emit, Mutants: h.mutants})
	h.rt = agent.New(agent.Config{WriteWindow: window, Emit: h.emit, Runner: agent.RunnerFunc(h.runTool)})
	h.rt.Subscribe(agent.Hooks{
		Loaded:    h.onLoaded,
		Appended:  h.onAppended,
		Claimed:   func(id string, m session.Message, turn int) { h.svc.OnClaimed(id, m, turn) },
		Discarded: func(id string, m session.Message) { h.svc.OnDiscarded(id, m) },
	})
	if err := h.newService(); err != nil {
		return nil, err
	}
	h.tools = headerFor(h.tool)
	for _, r := range []struct {
		endpoint string
		call     gateway.CallHandler
	}{{wire.EndpointAnswer, h.rpcAnswer}, {wire.EndpointDiscard, h.rpcDiscard}} {
		if err := h.gw.HandleCall(r.endpoint, r.call); err != nil {
			return nil, err
		}
	}
	if err := h.gw.Handle(wire.EndpointAttachWait, h.streamAttachWait); err != nil {
		return nil, err
	}
	return h, nil
}

// newService builds the question service and its tool for the current epoch: notes and
// completions of an older epoch's service never reach the effects.
func (h *Host) newService() error {
	epoch := h.epoch
	h.svc = questions.New(questions.Config{
		Runtime:   runtimeAdapter{h},
		Listeners: []questions.Listener{questions.ListenerFunc(h.forward)},
		Note: func(n wire.WaitNote) {
			if epoch == h.epoch {
				h.emit(n)
				if n.Kind == wire.WaitExpired && h.mutants.Has(mutant.ExpiryAbortsTurn) {
					h.expired = append(h.expired, n.Session) // MUTANT expiry-aborts-turn
				}
			}
		},
		Mutants: h.mutants,
	})
	tool, err := questions.NewTool(h.cfg.toolConfig(), h.svc)
	if err != nil {
		return err
	}
	tool.UseMemo(&h.memo) // the projection has just read the call's arguments
	h.tool = tool
	return nil
}

func (h *Host) emit(e wire.Effect) { h.effects = append(h.effects, e) }

// Apply processes one command at time now (wire.HostPort). Timers due at or before now
// fire first, each at its own due time; after the command, timers it made due (a 0 ms
// expiry) fire too, so they land in the same Apply. Then each connected client gets one
// SessionUpdate per Session that changed.
//
// An error means the command was malformed or impossible: the command changed nothing.
// Effects returned with an error are those of timers that came due before the command
// (time did advance); a command whose time has no due timer returns none.
func (h *Host) Apply(at wire.Time, cmd wire.Command) ([]wire.Effect, error) {
	now := at.Ms() // the engine counts in plain milliseconds inside
	// The buffer of the Apply before the previous one is free again: clearing what it held
	// (past its length it is zero already) keeps it from pinning those effects.
	clear(h.prev)
	h.prev, h.effects = h.effects, h.prev[:0]
	h.prevPersisted, h.startPersisted = h.startPersisted, h.prevPersisted[:0]
	for i, id := range h.ids {
		h.startPersisted = append(h.startPersisted, durable{id, h.logs[i].Persisted()})
	}
	if now < h.now {
		h.sendUpdates()
		return h.effects, fmt.Errorf("host: time went backwards: %d after %d", now, h.now)
	}
	var err error
	if r, ok := cmd.(wire.Restart); ok && r.CutAfter >= 0 {
		// The crash lies inside the previous Apply: no timer fires before it.
		if err = h.restart(now, r.CutAfter); err == nil {
			err = h.advance(now)
		}
	} else {
		if err = h.advance(now); err == nil {
			err = h.do(now, cmd)
			if e := h.advance(now); err == nil {
				err = e
			}
		}
	}
	h.sendUpdates()
	return h.effects, err
}

// maxFirings bounds one advance; a host that needs more has a timer bug.
const maxFirings = 1 << 20

// advance fires every timer due at or before now in time order: at each due time the
// runtime's timers (write windows, sleeps) first, then the question waits.
func (h *Host) advance(now int64) error {
	for i := 0; ; i++ {
		at, ok := h.NextDeadline()
		t := at.Ms()
		if !ok || t > now {
			break
		}
		if i == maxFirings {
			return errors.New("host: timers keep coming due at " + fmt.Sprint(t))
		}
		if t > h.now {
			h.now = t
		}
		h.svc.Advance(h.now)
		h.rt.Fire(h.now)
		h.svc.Fire(h.now)
		h.abortExpiredTurns()
	}
	if now > h.now {
		h.now = now
	}
	h.svc.Advance(h.now)
	h.rt.Fire(h.now)
	h.abortExpiredTurns() // an expiry inside the command itself (a claim after the deadline)
	return nil
}

// abortExpiredTurns is MUTANT expiry-aborts-turn: every unattended expiry cancels the
// calling turn too. Without the mutant nothing is ever queued here.
func (h *Host) abortExpiredTurns() {
	for len(h.expired) > 0 {
		id := h.expired[0]
		h.expired = h.expired[1:]
		_ = h.rt.CancelTurn(id, true)
		h.releaseContexts()
	}
}

// NextDeadline is the earliest armed timer: the waits' and the runtime's (write windows,
// sleeps).
func (h *Host) NextDeadline() (wire.Time, bool) {
	a, okA := h.rt.NextDeadline()
	b, okB := h.svc.NextDeadline()
	switch {
	case okA && okB:
		return wire.Time(min(a, b)), true
	case okA:
		return wire.Time(a), true
	}
	return wire.Time(b), okB
}

// State snapshots the host: every Session (log, view, inbox, liveness) by id, the live
// waits and the reservations by Session then call id, the connected clients by name, and
// the gateway's pending events in creation order.
func (h *Host) State() wire.HostState {
	var st wire.HostState
	for _, id := range h.ids {
		ss, ok := h.rt.State(id)
		if !ok {
			continue
		}
		if p := h.projOf(id); p != nil {
			ss.Questions = p.View()
		}
		st.Sessions = append(st.Sessions, ss)
	}
	st.Waits = h.svc.Waits()
	st.Reservations = h.svc.Reservations()
	st.Clients = h.gw.Clients()
	st.Pending = h.gw.Pending()
	return st
}

// Projection returns the current userQuestions view of Session id.
func (h *Host) Projection(id string) (wire.QuestionsView, bool) {
	p := h.projOf(id)
	if p == nil {
		return wire.QuestionsView{}, false
	}
	return p.View(), true
}

// projOf is h.proj[id], remembering the last hit (an event's Session is usually the
// previous event's).
func (h *Host) projOf(id string) *questions.Projection {
	if h.lastProj != nil && h.lastProjID == id {
		return h.lastProj
	}
	p := h.proj[id]
	if p != nil {
		h.lastProjID, h.lastProj = id, p
	}
	return p
}

// onLoaded rebuilds a Session's projection from its log (a new Session, a fork, a cold
// load).
func (h *Host) onLoaded(id string, log *session.Log) {
	if i, found := slices.BinarySearch(h.ids, id); !found {
		h.ids = slices.Insert(h.ids, i, id)
		h.logs = slices.Insert(h.logs, i, log)
	} else {
		h.logs[i] = log
	}
	p := questions.NewProjectionMemo(log.Inherited(), &h.memo)
	p.SetMutants(h.mutants)
	for _, e := range log.Events() {
		p.Apply(e)
	}
	h.proj[id] = p
	if h.lastProj != nil && h.lastProjID == id {
		h.lastProj = p
	}
}

// onAppended folds every appended event into the projection and shows it to the service
// (admission and turn/end release reservations).
func (h *Host) onAppended(id string, e session.Event) {
	if p := h.projOf(id); p != nil {
		p.Apply(e)
	}
	h.svc.OnEvent(id, e)
}

// releaseContexts aborts the context of every instance that is no longer live (after a
// Close): the gateway cancels their pending events.
func (h *Host) releaseContexts() {
	kept := h.contexts[:0]
	var gone []*signal.Signal
	for _, c := range h.contexts {
		if h.rt.Live(c.agent) {
			kept = append(kept, c)
		} else {
			gone = append(gone, c.sig)
		}
	}
	clear(h.contexts[len(kept):])
	h.contexts = kept
	for _, s := range gone {
		s.Abort(gateway.ErrContextReleased)
	}
}

func (h *Host) contextOf(a *agent.Agent) *signal.Signal {
	for _, c := range h.contexts {
		if c.agent == a {
			return c.sig
		}
	}
	s := signal.New()
	if !h.rt.Live(a) {
		s.Abort(gateway.ErrContextReleased)
		return s
	}
	h.contexts = append(h.contexts, agentContext{agent: a, sig: s})
	return s
}
