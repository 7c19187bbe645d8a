package questions

import (
	"encoding/json"
	"slices"
	"strings"

	"github.com/twosettle/twosettle/engine/minheap"
	"github.com/twosettle/twosettle/engine/mutant"
	"github.com/twosettle/twosettle/engine/session"
	"github.com/twosettle/twosettle/engine/signal"
	"github.com/twosettle/twosettle/engine/wire"
)

// Agent is a runtime agent instance as the service sees it. Identity is the value itself:
// two instances with the same ID are different agents, and only the registry's current
// entry for an ID is live (CALLER-1). Implementations must be comparable (pointers).
type Agent interface {
	ID() string // the Session id
}

// Runtime is what the service needs of the agent runtime and the Session store. The host
// adapts engine/agent and its logs to it; the service never imports them.
type Runtime interface {
	// Live reports whether a is exactly the registry's entry for a.ID().
	Live(a Agent) bool
	// Root reports whether the live agent a is a runtime root (no live agent owns it).
	Root(a Agent) bool
	// Inbox returns the messages waiting in a's inbox: next-turn and next-step.
	Inbox(a Agent) (nextTurn, nextStep []session.Message)
	// Steer queues m in a's next-step inbox and wakes a (AGENT-1).
	Steer(a Agent, m session.Message) error
	// Questions is the userQuestions view of a's Session.
	Questions(a Agent) wire.QuestionsView
	// MessageID mints a message id that is unique in a's Session, also across restarts.
	MessageID(a Agent) string
}

// Config configures a Service.
type Config struct {
	Runtime Runtime
	// Listeners are the host-side waterfall listeners, in order; the terminal fallback
	// after them rejects with NO_PROVIDER.
	Listeners []Listener
	// Note receives the notes of every wait (nil: none).
	Note func(wire.WaitNote)
	// Mutants switches on deliberate bugs (engine/mutant); the zero set is the correct
	// service.
	Mutants mutant.Set
}

// Result is how an ask completes: with the waterfall's value (Answer; nil when it settled
// with no value), with pending (askTimed only), or with Err.
type Result struct {
	Answer  json.RawMessage
	Pending bool
	CallID  string
	Err     *wire.Error
}

// JSON is the result's value: the answer, or {"pending":true,"callId":…}. An error result
// has none.
func (r Result) JSON() json.RawMessage {
	if r.Pending {
		b := make([]byte, 0, 32+len(r.CallID))
		b = wire.AppendJSONString(append(b, `{"pending":true,"callId":`...), r.CallID)
		return append(b, '}')
	}
	return r.Answer
}

func fail(e *wire.Error) Result { return Result{Err: e} }

// Service is the UserQuestionService (docs/PEER.md §4): foreground asks and timed waits, client
// claims, late answers and the per-Session reply reservations. It is driven by the host:
// time comes in as now, and asynchronous completion is a callback that runs when a later
// call settles it.
type Service struct {
	rt        Runtime
	listeners []Listener
	note      func(wire.WaitNote)
	now       int64
	mutants   mutant.Set

	waits    map[waitKey]*waitEntry
	order    []*waitEntry // live waits in creation order
	waitSeq  int
	timers   timerHeap                          // the armings of the live waits' timers, earliest first
	reserved map[string]map[string]*reservation // Session id -> call id
}

type waitKey struct {
	agent  Agent
	callID string
}

type waitEntry struct {
	s    *Service
	key  waitKey
	wait *Wait
	seq  int
	live bool     // registered (between AskTimed and unregister)
	ask  timedAsk // the AskTimed call that owns the wait (one allocation for both)
}

// timedAsk is one AskTimed call in flight: it finishes once, with the first of the
// inner ask's completion and the wait's end.
type timedAsk struct {
	s        *Service
	entry    *waitEntry
	callID   string
	done     func(Result)
	finished bool
	wait     wire.Wait // the inner request's Wait
}

func (t *timedAsk) finish(res Result) {
	if t.finished {
		return
	}
	t.finished = true
	t.entry.wait.close(errAskAborted(), "completed")
	t.s.unregister(t.entry)
	t.done(res)
}

func (t *timedAsk) outer(err *wire.Error) {
	switch {
	case err.HasCode(wire.AskTimedOut):
		t.finish(Result{Pending: true, CallID: t.callID})
	case t.entry.wait.Signal().IsAborted():
		t.finish(fail(errAskAborted()))
	default:
		t.finish(fail(err))
	}
}

// waitEnded completes the ask with the wait's end.
func (t *timedAsk) waitEnded() { t.outer(errorOf(t.entry.wait.Signal().Reason())) }

// asked is the inner ask's completion.
func (t *timedAsk) asked(res Result) {
	w := t.entry.wait
	switch {
	case res.Err == nil:
		t.finish(res)
	case w.Signal().IsAborted():
		t.outer(errorOf(w.Signal().Reason()))
	case res.Err.HasCode(wire.NoProvider):
		if t.s.mutants.Has(mutant.NoProviderHangs) {
			return // MUTANT no-provider-hangs: NO_PROVIDER is swallowed, the ask never completes
		}
		w.OnDone(t.waitEnded)
	default:
		t.outer(res.Err)
	}
}

// New returns a service.
func New(c Config) *Service {
	return &Service{
		rt: c.Runtime, listeners: c.Listeners, note: c.Note, mutants: c.Mutants,
		waits: map[waitKey]*waitEntry{}, reserved: map[string]map[string]*reservation{},
	}
}

// Advance tells the service the current time (it never goes backwards).
func (s *Service) Advance(now int64) {
	if now > s.now {
		s.now = now
	}
}

func (s *Service) clock() int64 { return s.now }

// Ask is the blocking ask (docs/PEER.md §4.2). Checks, in order: a signal already aborted
// (ASK_ABORTED, no answerer is called, ASK-1); an empty batch (EMPTY_QUESTIONS, ASK-2); the
// liveness of a supplied agent (CALLER-*); plan-review intents (BAD_INTENT, ASK-3). Then
// the waterfall, whose rejection is restored (ASK-5): a domain error wins, even over an
// aborted signal; a non-domain rejection with the signal aborted becomes ASK_ABORTED;
// anything else propagates as it is.
func (s *Service) Ask(now int64, r Request, done func(Result)) {
	s.Advance(now)
	if r.Signal.IsAborted() {
		done(fail(errAskAborted()))
		return
	}
	// MUTANT empty-batch-forwarded: an empty batch goes to the clients.
	if len(r.Questions) == 0 && !s.mutants.Has(mutant.EmptyBatchForwarded) {
		done(fail(errEmptyQuestions()))
		return
	}
	if r.Agent != nil {
		if e := s.checkLive(r.Agent); e != nil {
			done(fail(e))
			return
		}
	}
	// MUTANT intent-approve-unchecked: only the detail is checked.
	if e := checkIntents(r.Questions, s.mutants.Has(mutant.IntentApproveUnchecked)); e != nil {
		done(fail(e))
		return
	}
	a := &asking{req: r, done: done}
	a.w = waterfall{s: s, r: &a.req, settle: a.settled}
	a.w.step(0)
}

// asking is one Ask in flight: its request and its waterfall (one allocation for both).
type asking struct {
	req  Request
	done func(Result)
	w    waterfall
}

func (a *asking) settled(o Outcome) {
	switch {
	case o.Err == nil:
		a.done(Result{Answer: o.Value})
	case o.Err.IsDomain():
		a.done(fail(o.Err))
	case a.req.Signal.IsAborted() || a.w.s.mutants.Has(mutant.PlainRejectionAborts):
		// MUTANT plain-rejection-aborts: any rejection that is not a domain error is an abort.
		a.done(fail(errAskAborted()))
	default:
		a.done(fail(o.Err))
	}
}

// checkIntents checks every plan-review intent: approve must be one of that question's
// option labels, then detail must be present (BAD_INTENT, ASK-3).
func checkIntents(qs []wire.Question, anyApprove bool) *wire.Error {
	for _, q := range qs {
		if q.Intent == nil {
			continue
		}
		found := false
		for _, o := range q.Options {
			if o.Label == q.Intent.Approve {
				found = true
				break
			}
		}
		if !found && !anyApprove {
			return errBadIntentApprove(q.ID)
		}
		if q.Detail == nil {
			return errBadIntentDetail(q.ID)
		}
	}
	return nil
}

// MaxTimeoutMs is the largest timeout askTimed accepts (a 32-bit timer's range).
const MaxTimeoutMs = 2147483647

// AskTimed is the timed ask (docs/PEER.md §4.3). timeoutMs must be an integer in 1..MaxTimeoutMs
// (BAD_TIMEOUT, checked before liveness and dispatch, ASK-6); the agent must be the live
// root (a nil agent is CALLER_NOT_LIVE); a second live wait for the same agent and call
// fails with DUPLICATE_WAIT and leaves the first alone (ASK-7). The request is then asked
// with the wait's private signal and wait {callId, timed:true} (ASK-8), and its failure is
// mapped (ASK-9, ASK-10):
//   - the wait's signal aborted: the wait's reason;
//   - NO_PROVIDER: held until the wait closes, then the wait's reason;
//   - ASK_TIMED_OUT then becomes pending; any other failure with the wait aborted becomes
//     ASK_ABORTED; anything else propagates.
//
// Completion (any outcome) closes the wait, which releases its timer and claims, and
// removes its registry entry (ASK-11). An answer that settles first is the result (ASK-12).
func (s *Service) AskTimed(now int64, r Request, callID string, timeoutMs float64, done func(Result)) {
	s.Advance(now)
	// MUTANT liveness-before-timeout: the caller is checked before the timeout.
	if s.mutants.Has(mutant.LivenessBeforeTimeout) {
		if e := s.checkLive(r.Agent); e != nil {
			done(fail(e))
			return
		}
	}
	if !isInteger(timeoutMs) || timeoutMs < 1 || timeoutMs > MaxTimeoutMs {
		done(fail(errBadTimeout()))
		return
	}
	if e := s.checkLive(r.Agent); e != nil {
		done(fail(e))
		return
	}
	key := waitKey{r.Agent, callID}
	if _, dup := s.waits[key]; dup {
		done(fail(errDuplicateWait(callID)))
		return
	}
	w := NewWait(now, int64(timeoutMs), WaitConfig{
		Session: r.Agent.ID(), CallID: callID, Parent: r.Signal, Note: s.note, Clock: s.clock,
		Mutants: s.mutants,
	})
	s.waitSeq++
	entry := &waitEntry{s: s, key: key, wait: w, seq: s.waitSeq, live: true}
	s.waits[key] = entry
	s.order = append(s.order, entry)
	w.entry = entry
	entry.armed() // the timer NewWait armed

	t := &entry.ask
	// MUTANT ask-timed-untimed-wait: the forwarded wait leaves timed out.
	*t = timedAsk{s: s, entry: entry, callID: callID, done: done, wait: wire.Wait{CallID: callID, Timed: !s.mutants.Has(mutant.AskTimedUntimedWait)}}
	inner := r
	inner.Signal = w.Signal()
	inner.Wait = &t.wait
	if s.mutants.Has(mutant.WaterfallAfterPending) {
		// MUTANT waterfall-after-pending: the request lives with the turn's signal, and the
		// wait's end alone completes the ask (pending at expiry): the waterfall outlives it.
		inner.Signal = r.Signal
		w.OnDone(t.waitEnded)
	}
	s.Ask(now, inner, t.asked)
}

func (s *Service) unregister(e *waitEntry) {
	e.live = false
	if s.waits[e.key] == e {
		delete(s.waits, e.key)
	}
	for i, x := range s.order {
		if x == e {
			s.order = append(s.order[:i], s.order[i+1:]...)
			return
		}
	}
}

// AttachWait is the claim stream userQuestions/attachWait (docs/PEER.md §4.4), run when the client
// pulls its first frame: the liveness check (CALLER-4), then the live wait of (agent,
// callID) takes the claim (Wait.Attach). With no such wait the stream ends with no frame
// (WAIT-7). A liveness failure is returned and the sink is left alone.
func (s *Service) AttachWait(now int64, a Agent, callID string, client *signal.Signal, sink ClaimSink) (*Claim, *wire.Error) {
	s.Advance(now)
	if e := s.checkLive(a); e != nil {
		return nil, e
	}
	entry, ok := s.waits[waitKey{a, callID}]
	if !ok {
		sink.End()
		return nil, nil
	}
	return entry.wait.Attach(now, client, sink), nil
}

// NextDeadline is the earliest armed wait timer.
func (s *Service) NextDeadline() (at int64, ok bool) {
	if top, has := s.timers.top(); has {
		return top.at, true
	}
	return 0, false
}

// Fire expires every wait whose timer is due at or before now, earliest first (ties in
// creation order), and reports whether any fired.
func (s *Service) Fire(now int64) bool {
	s.Advance(now)
	fired := false
	for {
		top, has := s.timers.top()
		if !has || top.at > now {
			return fired
		}
		s.timers.Pop()
		top.e.wait.Fire(now)
		fired = true
	}
}

// Unload closes every registered wait with ASK_ABORTED, in creation order (ASK-11): a held
// NO_PROVIDER ask then completes with ASK_ABORTED.
func (s *Service) Unload() {
	for len(s.order) > 0 {
		e := s.order[0]
		e.wait.close(errAskAborted(), "unload")
		if len(s.order) > 0 && s.order[0] == e {
			s.unregister(e) // a wait whose ask had not completed synchronously
		}
	}
}

// Wait returns the live wait of (a, callID).
func (s *Service) Wait(a Agent, callID string) (*Wait, bool) {
	e, ok := s.waits[waitKey{a, callID}]
	if !ok {
		return nil, false
	}
	return e.wait, true
}

// Waits snapshots the live waits, sorted by Session, then call id, then creation.
func (s *Service) Waits() []wire.WaitState {
	es := append([]*waitEntry(nil), s.order...)
	slices.SortStableFunc(es, func(x, y *waitEntry) int {
		a, b := x.key, y.key
		if c := strings.Compare(a.agent.ID(), b.agent.ID()); c != 0 {
			return c
		}
		return strings.Compare(a.callID, b.callID)
	})
	out := make([]wire.WaitState, 0, len(es))
	for _, e := range es {
		at, armed := e.wait.Timer()
		if !armed {
			at = -1
		}
		out = append(out, wire.WaitState{
			Session: e.key.agent.ID(), CallID: e.key.callID, Deadline: e.wait.Deadline(),
			Claims: e.wait.Claims(), TimerAt: at,
		})
	}
	return out
}

// armed records that e's timer was armed (at its current timerAt) in the service's timer
// heap. A nil entry (a wait of its own) records nothing.
func (e *waitEntry) armed() {
	if e == nil || !e.live {
		return
	}
	if at, ok := e.wait.Timer(); ok {
		e.s.timers.Push(timerItem{at: at, seq: e.seq, e: e})
	}
}

// timerItem is one arming of a wait's timer; it is stale once the wait is unregistered,
// disarmed or re-armed for another time.
type timerItem struct {
	at  int64
	seq int
	e   *waitEntry
}

func (t timerItem) current() bool {
	at, ok := t.e.wait.Timer()
	return t.e.live && ok && at == t.at
}

// Before orders armings by time, then by the wait's creation.
func (t timerItem) Before(u timerItem) bool {
	return t.at < u.at || (t.at == u.at && t.seq < u.seq)
}

// timerHeap orders the armings of the live waits' timers by time, then by creation (the
// order Fire expires them in), so that the next deadline is found in logarithmic time
// however many waits are open; stale armings are dropped when they reach the top.
type timerHeap struct{ minheap.Heap[timerItem] }

// top is the earliest current arming.
func (h *timerHeap) top() (timerItem, bool) {
	for {
		t, ok := h.Top()
		if !ok || t.current() {
			return t, ok
		}
		h.Pop()
	}
}
