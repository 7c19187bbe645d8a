package agent

import (
	"errors"
	"slices"
	"strconv"

	"github.com/twosettle/twosettle/engine/session"
	"github.com/twosettle/twosettle/engine/wire"
)

// DefaultWriteWindow is the peer's write-behind window in ms (docs/PEER-RUNTIME.md §5.3).
const DefaultWriteWindow = 200

// Config configures a Runtime.
type Config struct {
	// WriteWindow is the write-behind window in virtual ms: when a Session's log goes from
	// clean to dirty, everything appended is persisted WriteWindow ms later (or at the next
	// mandatory flush). 0 is write-through: every event is persisted as it is appended.
	// DefaultConfig uses DefaultWriteWindow.
	WriteWindow int64
	// Emit receives every effect (wire.Appended, wire.Persisted) in order. Nil: effects are
	// buffered for Drain.
	Emit func(wire.Effect)
	// Runner runs the tools the runtime does not own (it is asked first for every tool but
	// run_code). Nil: only the built-in tools exist.
	Runner Runner
}

// DefaultConfig is the peer's configuration: a 200 ms write window, no runner, effects
// buffered.
func DefaultConfig() Config { return Config{WriteWindow: DefaultWriteWindow} }

// Hooks are the runtime's notifications. Every field is optional. They run synchronously,
// after the event or mutation they report is complete; a hook may call back into the
// runtime (a turn step it triggers runs once the current one is done).
type Hooks struct {
	// Loaded reports that a Session's log was set up from history: a new Session (empty),
	// a fork (its inherited prefix) or a cold load after Restart (its durable prefix, before
	// the repair closers, which are then reported by Appended). Rebuild folds from log.
	Loaded func(sessionID string, log *session.Log)
	// Appended reports every event appended to a Session's log.
	Appended func(sessionID string, e session.Event)
	// Inserted reports a message queued in target (after its splice).
	Inserted func(sessionID, target string, m session.Message)
	// Claimed reports a message claimed into turn at a pre-step, in batch order (after the
	// claim splices and before the step's user/message admissions).
	Claimed func(sessionID string, m session.Message, turn int)
	// Discarded reports a message removed from the inbox with outcome canceled.
	Discarded func(sessionID string, m session.Message)
}

// Runtime is the agent runtime of one host: Sessions and their logs, live agent
// instances, the turn/step driver, the inbox, persistence and the built-in tools.
type Runtime struct {
	window int64
	emitFn func(wire.Effect)
	outbox []wire.Effect
	runner Runner
	hooks  []Hooks

	now   int64
	epoch int // bumped by Restart: calls of an older epoch are stale

	sessions map[string]*sess
	last     *sess    // the Session lookup found last (a Session is never removed)
	ids      []string // sorted session ids

	lastInstance int
	lastMessage  int

	timers   []timer
	timerSeq int
}

// New returns a runtime with no Session. A negative WriteWindow is treated as 0.
func New(cfg Config) *Runtime {
	w := cfg.WriteWindow
	if w < 0 {
		w = 0
	}
	return &Runtime{window: w, emitFn: cfg.Emit, runner: cfg.Runner, sessions: map[string]*sess{}}
}

// Subscribe adds a set of hooks; hooks run in subscription order.
func (rt *Runtime) Subscribe(h Hooks) { rt.hooks = append(rt.hooks, h) }

// Now is the runtime's clock: the latest time passed to Fire.
func (rt *Runtime) Now() int64 { return rt.now }

// Drain appends the buffered effects to dst, empties the buffer and returns dst. With
// Config.Emit set nothing is buffered.
func (rt *Runtime) Drain(dst []wire.Effect) []wire.Effect {
	dst = append(dst, rt.outbox...)
	clear(rt.outbox)
	rt.outbox = rt.outbox[:0]
	return dst
}

func (rt *Runtime) emit(e wire.Effect) {
	if rt.emitFn != nil {
		rt.emitFn(e)
		return
	}
	rt.outbox = append(rt.outbox, e)
}

// Errors of runtime commands. They are wrapped with context; test with errors.Is. A
// command that returns an error has changed nothing.
var (
	ErrUnknownSession   = errors.New("unknown session")
	ErrSessionExists    = errors.New("session already exists")
	ErrNoLiveAgent      = errors.New("no live agent")
	ErrNotRunning       = errors.New("no running turn")
	ErrNoOpenStep       = errors.New("no open step")
	ErrStepEnded        = errors.New("the model already ended the step")
	ErrDuplicateCall    = errors.New("duplicate call id in the open step")
	ErrDuplicateMessage = errors.New("duplicate message id in the inbox")
	ErrBadTarget        = errors.New("inbox target must be next-turn or next-step")
	ErrBadArgument      = errors.New("invalid argument")
	ErrStaleCall        = errors.New("the call belongs to a host before a restart")
	ErrCallSettled      = errors.New("the call already has its result")
)

// lookup is rt.sessions[id], remembering the last hit: most commands address the Session
// the previous one did.
func (rt *Runtime) lookup(id string) *sess {
	if s := rt.last; s != nil && s.id == id {
		return s
	}
	s := rt.sessions[id]
	if s != nil {
		rt.last = s
	}
	return s
}

func (rt *Runtime) session(id string) (*sess, error) {
	s := rt.lookup(id)
	if s == nil {
		return nil, wrap(ErrUnknownSession, id)
	}
	return s, nil
}

// live returns the Session and its live agent.
func (rt *Runtime) live(id string) (*sess, error) {
	s, err := rt.session(id)
	if err != nil {
		return nil, err
	}
	if s.agent == nil {
		return nil, wrap(ErrNoLiveAgent, id)
	}
	return s, nil
}

func (rt *Runtime) addSession(s *sess) {
	rt.sessions[s.id] = s
	i, _ := slices.BinarySearch(rt.ids, s.id)
	rt.ids = slices.Insert(rt.ids, i, s.id)
}

// NewMessageID mints a message id (msg-1, msg-2, …) unique for the runtime's lifetime,
// across restarts too.
func (rt *Runtime) NewMessageID() string {
	rt.lastMessage++
	return "msg-" + strconv.Itoa(rt.lastMessage)
}

type wrapped struct {
	err  error
	what string
}

func (w wrapped) Error() string { return "agent: " + w.what + ": " + w.err.Error() }
func (w wrapped) Unwrap() error { return w.err }

func wrap(err error, what string) error { return wrapped{err: err, what: what} }
