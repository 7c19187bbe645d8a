package agent

import (
	"github.com/twosettle/twosettle/engine/session"
	"github.com/twosettle/twosettle/engine/signal"
)

// Abort kinds of a turn: the Detail of an aborted turn/end and the Kind of the turn
// signal's reason.
const (
	AbortUser     = "user"
	AbortDisposed = "disposed"
)

// TurnAborted is the reason a turn's signal aborts with.
type TurnAborted struct{ Kind string }

func (e *TurnAborted) Error() string { return "agent: turn aborted (" + e.Kind + ")" }

// driver is one running turn (docs/PEER-RUNTIME.md §4.4).
type driver struct {
	turn       int
	step       int  // the current (or last) step of the turn, 0 before the first
	stepOpen   bool // step/start appended, step/end not yet
	modelEnded bool // EndStep called for the open step
	final      bool // the model ended the turn with its last EndStep
	calls      []*Call
	committed  int // calls of the open step whose tool/result is appended
	sig        *signal.Signal
	aborted    string        // abort kind, "" while not aborted
	latched    bool          // a waking send arrived while aborting
	sigv       signal.Signal // sig's storage
}

// pump runs the driver until it waits for the model, a tool or a message. It is
// reentrancy-safe: a call from inside a transition (a hook, a tool completing at once) is
// folded into the running loop.
func (s *sess) pump() {
	if s.pumping {
		s.repump = true
		return
	}
	s.pumping = true
	for {
		s.repump = false
		if !s.pumpOnce() && !s.repump {
			break
		}
	}
	s.pumping = false
}

// pumpOnce makes one transition and reports whether it did.
func (s *sess) pumpOnce() bool {
	d := s.d
	if d == nil {
		if !s.wantTurn {
			return false
		}
		s.wantTurn = false
		if s.agent == nil || s.inboxEmpty() {
			return false
		}
		s.lastTurn++
		s.d = &driver{turn: s.lastTurn}
		s.d.sig = &s.d.sigv
		s.append(session.TurnStart{Turn: s.lastTurn})
		return true
	}
	if d.stepOpen {
		if d.committed < len(d.calls) {
			c := d.calls[d.committed]
			if !c.done {
				return false
			}
			d.committed++
			s.append(c.resultEvent())
			return true
		}
		if !d.modelEnded && d.aborted == "" {
			return false
		}
		d.stepOpen = false
		s.append(session.StepEnd{Turn: d.turn, Step: d.step})
		return true
	}
	switch {
	case d.aborted != "":
		s.endTurn(session.TurnEndReason{Kind: session.EndAborted, Detail: d.aborted}, d.latched)
	case d.step > 0 && d.final && len(s.nextStep) == 0:
		s.endTurn(session.TurnEndReason{Kind: session.EndCompleted}, true)
	default:
		s.preStep()
	}
	return true
}

// preStep claims the step's batch, flushes (the pre-step checkpoint), opens the step and
// admits the batch as user/message events (admission), then flushes again (the checkpoint
// before the model request). A first step with nothing to enter ends the turn completed.
func (s *sess) preStep() {
	d := s.d
	first := d.step == 0
	batch := s.claim(first, d.turn)
	if first && len(batch) == 0 {
		s.endTurn(session.TurnEndReason{Kind: session.EndCompleted}, true)
		return
	}
	s.flush()
	d.step++
	d.stepOpen, d.modelEnded, d.final = true, false, false
	clear(d.calls)
	d.calls, d.committed = d.calls[:0], 0
	s.append(session.StepStart{Turn: d.turn, Step: d.step})
	for _, m := range batch {
		s.append(session.UserMessage{Message: m})
	}
	s.flush()
}

// endTurn appends turn/end; again says whether a new turn starts if the inbox holds
// anything (after a completed turn, or an aborted one that latched a wake).
func (s *sess) endTurn(reason session.TurnEndReason, again bool) {
	turn := s.d.turn
	s.d = nil
	s.wantTurn = again
	s.append(session.TurnEnd{Turn: turn, Reason: reason})
}

// abortTurn aborts the running turn's signal with kind; tool calls see it and their
// results still commit. The turn ends aborted once every call of the open step committed.
func (s *sess) abortTurn(kind string) {
	d := s.d
	if d == nil || d.aborted != "" {
		return
	}
	d.aborted = kind
	d.sig.Abort(&TurnAborted{Kind: kind})
	s.pump()
}

// forceSettle gives every call still running in an aborted turn a TOOL_ABORTED result, so
// that the turn ends now (Close).
func (s *sess) forceSettle() {
	for s.d != nil {
		var open *Call
		for _, c := range s.d.calls {
			if !c.done {
				open = c
				break
			}
		}
		if open == nil {
			return
		}
		if p := open.ptc; p != nil && p.current != nil && !p.current.done {
			open = p.current
		}
		open.settle(Failed(ToolAbortedName, ToolAborted, "the tool call was stopped because its agent was disposed"))
	}
}

// EndStep says the model finished its output for the open step of Session id; final: it
// ended the turn. The step ends once every tool call of it has its result committed;
// then another step runs unless the model ended the turn and next-step is empty, in
// which case the turn ends completed.
func (rt *Runtime) EndStep(id string, final bool) error {
	s, err := rt.live(id)
	if err != nil {
		return err
	}
	d := s.d
	switch {
	case d == nil:
		return wrap(ErrNotRunning, "end step of "+id)
	case !d.stepOpen:
		return wrap(ErrNoOpenStep, "end step of "+id)
	case d.modelEnded:
		return wrap(ErrStepEnded, "end step of "+id)
	}
	d.modelEnded, d.final = true, final
	s.pump()
	return nil
}

// CancelTurn cancels Session id's agent (reason user): unless keepInbox, the inbox is
// cleared first (a canceled splice per non-empty list, a Discarded notification per
// message); then the running turn, if any, is aborted. With no running turn only the
// clearing happens.
func (rt *Runtime) CancelTurn(id string, keepInbox bool) error {
	s, err := rt.live(id)
	if err != nil {
		return err
	}
	if !keepInbox {
		s.clearInbox()
	}
	s.abortTurn(AbortUser)
	return nil
}

// Request header reasons.
const (
	HeaderInitial = "initial"
	HeaderResume  = "resume"
	HeaderChange  = "change"
)

// Header appends request/header with tools (raw JSON) to Session id's log: reason initial
// for the first header of an opened instance, resume for the first of a resumed one,
// change afterwards.
func (rt *Runtime) Header(id, tools string) error {
	s, err := rt.live(id)
	if err != nil {
		return err
	}
	a := s.agent
	reason := HeaderChange
	if !a.header {
		reason = HeaderInitial
		if a.resumed {
			reason = HeaderResume
		}
		a.header = true
	}
	s.append(session.RequestHeader{Reason: reason, Tools: tools})
	return nil
}

// Position reports Session id's running turn and step and whether the step is open (0, 0,
// false when idle).
func (rt *Runtime) Position(id string) (turn, step int, stepOpen bool) {
	if s := rt.lookup(id); s != nil && s.d != nil {
		return s.d.turn, s.d.step, s.d.stepOpen
	}
	return 0, 0, false
}

// LastTurn is the highest turn number Session id's log has started (turn numbers continue
// across resumes and restarts).
func (rt *Runtime) LastTurn(id string) int {
	if s := rt.lookup(id); s != nil {
		return s.lastTurn
	}
	return 0
}
