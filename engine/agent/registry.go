package agent

import (
	"strconv"

	"github.com/twosettle/twosettle/engine/session"
	"github.com/twosettle/twosettle/engine/wire"
)

// Agent is one agent instance: an object with identity. Its id equals its Session id; its
// instance number rises monotonically across the runtime (and across restarts). An
// instance is live while it is the registry entry for its id (Runtime.Live); once its
// Session is closed, resumed into a new instance or the host restarts, it is stale for
// good.
type Agent struct {
	id       string
	instance int
	owner    *Agent
	resumed  bool // entered by Resolve or a cold-load wake, not by Open
	header   bool // this instance wrote its first request/header
}

// ID is the agent's Session id.
func (a *Agent) ID() string { return a.id }

// Instance is the instance number (1, 2, … across the runtime).
func (a *Agent) Instance() int { return a.instance }

// Owner is the agent that owns this one at runtime (the owner's live instance when this
// one was entered), nil for a root. A resumed agent is always a root (CALLER-3).
func (a *Agent) Owner() *Agent { return a.owner }

// Root reports whether the agent has no runtime owner.
func (a *Agent) Root() bool { return a.owner == nil }

// String is "s1#3".
func (a *Agent) String() string { return a.id + "#" + strconv.Itoa(a.instance) }

// sess is one Session: its log, inbox, live instance and driver.
type sess struct {
	rt        *Runtime
	id        string
	log       *session.Log
	nextTurn  []session.Message
	nextStep  []session.Message
	agent     *Agent   // the live instance, nil when closed or cold
	instances []*Agent // every instance entered, in order
	unentered *Agent   // an instance minted by StaleInstance, never entered
	lastTurn  int      // the highest turn number in the log
	window    int      // the open write window's timer seq, 0 when clean or write-through
	// writeFault: the next inbox write fails (FailNextInboxWrite); volatile.
	writeFault bool

	d        *driver // the running turn, nil when idle
	wantTurn bool    // start a turn when idle if the inbox holds anything
	pumping  bool
	repump   bool
}

func (rt *Runtime) enter(s *sess, owner *Agent, resumed bool) *Agent {
	rt.lastInstance++
	a := &Agent{id: s.id, instance: rt.lastInstance, owner: owner, resumed: resumed}
	s.agent = a
	s.instances = append(s.instances, a)
	return a
}

// Open creates Session id with an empty log and enters its agent: a root, or a child owned
// by the live agent of Session owner (CALLER-2).
func (rt *Runtime) Open(id, owner string) (*Agent, error) {
	o, err := rt.checkNew(id, owner)
	if err != nil {
		return nil, err
	}
	s := &sess{rt: rt, id: id, log: session.New(id)}
	rt.addSession(s)
	rt.loaded(s)
	return rt.enter(s, o, false), nil
}

// Fork creates Session id whose log starts with parent's events through seq through
// (PROJ-11) and enters its agent as Open does. The inherited prefix is durable; the fork's
// inbox starts empty (inherited splices are skipped) and its turn numbers continue after
// the inherited ones. A prefix cut inside an open turn gets the interrupted-turn closers
// appended and persisted right after it (the peer's "synthetic fork results",
// docs/PEER-RUNTIME.md §8.6).
func (rt *Runtime) Fork(id, owner, parent string, through int) (*Agent, error) {
	o, err := rt.checkNew(id, owner)
	if err != nil {
		return nil, err
	}
	p, err := rt.session(parent)
	if err != nil {
		return nil, err
	}
	log, err := session.Fork(id, p.log, through)
	if err != nil {
		return nil, wrap(ErrBadArgument, err.Error())
	}
	s := &sess{rt: rt, id: id, log: log, lastTurn: lastTurn(log.Events())}
	rt.addSession(s)
	rt.loaded(s)
	s.commitRepair()
	return rt.enter(s, o, false), nil
}

func (rt *Runtime) checkNew(id, owner string) (*Agent, error) {
	if id == "" {
		return nil, wrap(ErrBadArgument, "empty session id")
	}
	if rt.lookup(id) != nil {
		return nil, wrap(ErrSessionExists, id)
	}
	if owner == "" {
		return nil, nil
	}
	o, err := rt.live(owner)
	if err != nil {
		return nil, wrap(err, "owner of "+id)
	}
	return o.agent, nil
}

func (rt *Runtime) loaded(s *sess) {
	for _, h := range rt.hooks {
		if h.Loaded != nil {
			h.Loaded(s.id, s.log)
		}
	}
}

func lastTurn(events []session.Event) int {
	n := 0
	for _, e := range events {
		if d, ok := e.Data.(session.TurnStart); ok && d.Turn > n {
			n = d.Turn
		}
	}
	return n
}

// Close disposes Session id's live agent: the instance becomes stale while the log and
// the inbox stay. Agents it owns are closed first. A running turn is aborted with reason
// disposed (the inbox is kept); a tool call that has not completed once the abort has run
// gets a failed result TOOL_ABORTED from the runtime (its own later completion is refused).
// The log is then flushed.
func (rt *Runtime) Close(id string) error {
	s, err := rt.live(id)
	if err != nil {
		return err
	}
	a := s.agent
	for _, cid := range rt.ids {
		if c := rt.lookup(cid); c.agent != nil && c.agent.owner == a {
			_ = rt.Close(cid)
		}
	}
	if s.d != nil {
		s.abortTurn(AbortDisposed)
		s.forceSettle()
	}
	s.wantTurn = false
	s.flush()
	s.agent = nil
	return nil
}

// Resolve returns Session id's live agent, resuming a closed or cold Session first (GW-8):
// a new root instance (CALLER-3) over the kept log and inbox. A resumed Session whose
// inbox holds messages wakes into a new turn at once. The peer's subagent fence (refusing
// an agent owned by another live agent) is the caller's to apply with Owner.
func (rt *Runtime) Resolve(id string) (*Agent, error) {
	s, err := rt.session(id)
	if err != nil {
		return nil, err
	}
	if s.agent != nil {
		return s.agent, nil
	}
	return s.resume(), nil
}

func (s *sess) resume() *Agent {
	a := s.rt.enter(s, nil, true)
	s.wantTurn = true
	s.pump()
	return a
}

// Agent returns Session id's live agent, or nil.
func (rt *Runtime) Agent(id string) *Agent {
	if s := rt.lookup(id); s != nil {
		return s.agent
	}
	return nil
}

// Live reports whether a is the registry entry for its id: the exact live instance.
func (rt *Runtime) Live(a *Agent) bool {
	if a == nil {
		return false
	}
	s := rt.lookup(a.id)
	return s != nil && s.agent == a
}

// OwnedByLive reports whether a's runtime owner is itself live (DELEGATED_CALLER).
func (rt *Runtime) OwnedByLive(a *Agent) bool { return a != nil && a.owner != nil && rt.Live(a.owner) }

// Instances returns every instance ever entered for Session id, oldest first.
func (rt *Runtime) Instances(id string) []*Agent {
	if s := rt.lookup(id); s != nil {
		return append([]*Agent(nil), s.instances...)
	}
	return nil
}

// StaleInstance returns an instance of Session id that is not the live one (CALLER-1):
// the most recent instance that is no longer live, or else an instance minted once (and
// then returned again) that was never entered in the registry.
func (rt *Runtime) StaleInstance(id string) (*Agent, error) {
	s, err := rt.session(id)
	if err != nil {
		return nil, err
	}
	for i := len(s.instances) - 1; i >= 0; i-- {
		if a := s.instances[i]; a != s.agent {
			return a, nil
		}
	}
	if s.unentered == nil {
		rt.lastInstance++
		s.unentered = &Agent{id: id, instance: rt.lastInstance}
	}
	return s.unentered, nil
}

// Sessions returns every Session id, sorted.
func (rt *Runtime) Sessions() []string { return append([]string(nil), rt.ids...) }

// Log returns Session id's log (read-only for callers), or nil.
func (rt *Runtime) Log(id string) *session.Log {
	if s := rt.lookup(id); s != nil {
		return s.log
	}
	return nil
}

// Phases of a Session's driver.
const (
	PhaseIdle    = "idle"
	PhaseRunning = "running"
)

// Phase is Session id's driver phase ("" for an unknown Session).
func (rt *Runtime) Phase(id string) string {
	s := rt.lookup(id)
	switch {
	case s == nil:
		return ""
	case s.d != nil:
		return PhaseRunning
	}
	return PhaseIdle
}

// State snapshots Session id as the host shows it; Questions is left for the host. The
// log is shared, not copied: its events never change (session.Log.Events).
func (rt *Runtime) State(id string) (wire.SessionState, bool) {
	s := rt.lookup(id)
	if s == nil {
		return wire.SessionState{}, false
	}
	return wire.SessionState{
		ID:        s.id,
		Parent:    s.log.Parent(),
		Inherited: s.log.Inherited(),
		Persisted: s.log.Persisted(),
		Log:       s.log.Since(0),
		Inbox:     s.inboxView(),
		Live:      s.agent != nil,
		Root:      s.agent != nil && s.agent.owner == nil,
		Phase:     rt.Phase(id),
	}, true
}
