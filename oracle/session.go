package oracle

import (
	"bytes"
	"strconv"

	"github.com/twosettle/twosettle/engine/session"
	"github.com/twosettle/twosettle/engine/wire"
)

// sessModel is the oracle's mirror of one Session, built only from the host's Appended and
// Persisted effects: the log, its turn/step structure, the inbox, the late replies and
// the reference projection.
type sessModel struct {
	id        string
	owner     string // the owner Session when opened as a child
	childLive bool   // a child whose owner is live (CALLER-2); cleared by a restart or a close
	inherited int
	log       []session.Event
	logRec    []int // record index of each event's Appended effect (-1: inherited or replayed)
	persisted int   // last Through reported since the last restart
	persRec   int

	// structure (INV-LOG-NESTING, INV-LOG-PAIRING)
	turnOpen, stepOpen bool
	turn, lastTurn     int
	step, lastStep     int
	calls              []openCall // unresolved tool calls, in call order
	ptc                []openPTC  // unresolved PTC sub-calls

	timed  bool // the latest request/header declares the timed schema
	calls2 map[string]*callInfo

	nextTurn, nextStep []session.Message
	replies            []*reply

	fold folder

	// the host's last published view and the log length it covered
	pubView wire.QuestionsView
	pubLen  int
	pubRec  int

	// repair closers a restart expects next (INV-RESTART-PREFIX)
	closers    []session.Data
	closerTime int64
	closerRec  int
	closerAt   int
}

type openCall struct {
	callID, name string
	turn, step   int
	idx          int // log index of the tool/call
	rec          int
	wake         int64 // a sleep's due time, -1 none
	// stray: read back from a durable log (a restart) outside any open step (a call
	// written by hand): a result or the repair still settles it, but it is no call of a
	// step the host runs, whose step/end it does not hold back
	stray bool
}

type openPTC struct {
	sub, parent, name string
	ids               []string // an ask's question ids
	rec               int
	wake              int64 // a sleep's due time, -1 none
}

// sleepWake is when a call of the runtime's sleep tool ({"ms":N}) made at t completes,
// or -1 when it is no sleep (or fails at once).
func sleepWake(name, args string, t int64) int64 {
	if name != "sleep" {
		return -1
	}
	top, isObj := members([]byte(args))
	if !isObj {
		return -1
	}
	v, ok := member(top, "ms")
	if !ok || jsonKind(v) != '0' {
		return -1
	}
	n, err := strconv.ParseInt(string(bytes.TrimSpace(v)), 10, 64)
	if err != nil || n < 0 {
		return -1
	}
	return t + n
}

// callInfo is what the oracle knows of an ask_user_question call (latest call per id; an
// untracked call does not replace a tracked one, whose row it leaves alone).
type callInfo struct {
	legacy bool
	ids    []string
	rec    int
}

// Reply states.
const (
	replyQueued = iota + 1
	replyClaimed
	replyAdmitted
	replyDiscarded
	replyReleased // claimed into a turn that ended without admitting it
	replyLost     // dropped by a crash
)

type reply struct {
	msgID, callID string
	state         int
	claimedTurn   int
	claimedOpen   bool // claimed while a turn was open
	insertIdx     int  // log index of the queuing splice
	insertRec     int
	endRec        int
}

func (c *Checker) newSession(id string) *sessModel {
	s := &sessModel{id: id, lastTurn: -1 << 31, lastStep: -1 << 31, pubRec: -1, closerRec: -1}
	s.fold = c.opts.newFolder(0)
	c.sessions[id] = s
	c.sessOrder = append(c.sessOrder, s)
	return s
}

func (c *Checker) session(id string) *sessModel {
	if s := c.sessions[id]; s != nil {
		return s
	}
	return c.newSession(id)
}

// awaiting returns the reply for callID that awaits admission, if any: queued, or claimed
// into a turn that has not ended.
func (s *sessModel) awaiting(callID string) *reply {
	for _, r := range s.replies {
		if r.callID == callID && (r.state == replyQueued || r.state == replyClaimed) {
			return r
		}
	}
	return nil
}

func (s *sessModel) findReply(msgID string) *reply {
	for i := len(s.replies) - 1; i >= 0; i-- {
		if s.replies[i].msgID == msgID {
			return s.replies[i]
		}
	}
	return nil
}

func (s *sessModel) inboxView() wire.InboxView {
	return wire.InboxView{NextTurn: s.nextTurn, NextStep: s.nextStep}
}

// resetDerived forgets everything derived from the log (before a replay).
func (s *sessModel) resetDerived(c *Checker) {
	s.turnOpen, s.stepOpen = false, false
	s.lastTurn, s.lastStep = -1<<31, -1<<31
	s.calls, s.ptc = s.calls[:0], s.ptc[:0]
	s.timed = false
	s.calls2 = nil
	s.nextTurn, s.nextStep = nil, nil
	s.fold = c.opts.newFolder(s.inherited)
}

// appendEvent records an event the host appended (check) or replays one (restart, fork).
func (c *Checker) appendEvent(s *sessModel, e session.Event, rec int, check bool) {
	s.log = append(s.log, e)
	s.logRec = append(s.logRec, rec)
	if s.fold != nil {
		s.fold.apply(e)
		if check {
			c.foldEvents++
		}
	}
	c.structure(s, e, rec, check)
	if e.Seq >= s.inherited {
		c.inbox(s, e, rec, check)
	}
}

// scriptedEvent mirrors an event a scenario wrote by hand (wire.AppendEvent): the host's
// runtime did not write it and its live state (turns, steps, calls) did not change, so it
// enters the log mirror, the reference fold and the inbox model, and a turn/end releases
// the replies claimed in its turn as the host's reservations do (LATE-7), but the
// structure model (nesting, calls, waits) is left as the host's own events made it and
// no invariant is checked on the event itself.
func (c *Checker) scriptedEvent(s *sessModel, e session.Event, rec int) {
	s.log = append(s.log, e)
	s.logRec = append(s.logRec, rec)
	if s.fold != nil {
		s.fold.apply(e)
	}
	switch d := e.Data.(type) {
	case session.RequestHeader:
		s.timed = c.timedHeader(d.Tools)
	case session.TurnEnd:
		for _, r := range s.replies {
			if r.state == replyClaimed && (!r.claimedOpen || r.claimedTurn == d.Turn) {
				r.state, r.endRec = replyReleased, rec
			}
		}
	}
	if e.Seq >= s.inherited {
		c.inbox(s, e, rec, false)
	}
}

func (c *Checker) structure(s *sessModel, e session.Event, rec int, check bool) {
	fail := func(inv int, msg string, wit ...int) {
		if check {
			c.fail(inv, rec, s.id+": "+msg, wit...)
		}
	}
	switch d := e.Data.(type) {
	case session.RequestHeader:
		s.timed = c.timedHeader(d.Tools)
		if h, ok := c.ap.cmd.(wire.Header); check && c.ap.on && ok && h.Session == s.id && h.Tools == "" {
			// the host's own schema: its tool mode (TOOL-1, TOOL-2)
			if s.timed {
				c.learnHostMode(hostTimed)
			} else {
				c.learnHostMode(hostLegacy)
			}
		}
	case session.TurnStart:
		if s.turnOpen {
			fail(invLogNesting, "turn/start "+strconv.Itoa(d.Turn)+" while turn "+strconv.Itoa(s.turn)+" is open")
		} else if d.Turn <= s.lastTurn {
			fail(invLogNesting, "turn/start "+strconv.Itoa(d.Turn)+" does not rise above turn "+strconv.Itoa(s.lastTurn))
		}
		s.turnOpen, s.turn, s.lastTurn = true, d.Turn, d.Turn
		s.stepOpen, s.lastStep = false, -1<<31
		if check {
			c.agentRuns(s.id) // a turn runs only on a live agent (INV-TIMED-NEEDS-LIVE-AGENT)
		}
	case session.TurnEnd:
		switch {
		case !s.turnOpen:
			fail(invLogNesting, "turn/end "+strconv.Itoa(d.Turn)+" with no turn open")
		case d.Turn != s.turn:
			fail(invLogNesting, "turn/end "+strconv.Itoa(d.Turn)+" closes turn "+strconv.Itoa(s.turn))
		case s.stepOpen:
			fail(invLogNesting, "turn/end "+strconv.Itoa(d.Turn)+" while step "+strconv.Itoa(s.step)+" is open")
		}
		if check && d.Reason.Kind == session.EndAborted {
			c.turnAborted(s, rec)
		}
		// a durable log read back (a restart): another turn's end, written by hand,
		// leaves the open turn open, as the cold load's repair reads it
		// (docs/PEER-RUNTIME.md §5.5: the last open turn)
		if check || !s.turnOpen || d.Turn == s.turn {
			s.turnOpen, s.stepOpen = false, false
		}
		for _, r := range s.replies {
			if r.state == replyClaimed && (!r.claimedOpen || r.claimedTurn == d.Turn) {
				r.state, r.endRec = replyReleased, rec // LATE-7: the turn ended without admitting it
			}
		}
	case session.StepStart:
		switch {
		case !s.turnOpen:
			fail(invLogNesting, "step/start with no turn open")
		case d.Turn != s.turn:
			fail(invLogNesting, "step/start of turn "+strconv.Itoa(d.Turn)+" inside turn "+strconv.Itoa(s.turn))
		case s.stepOpen:
			fail(invLogNesting, "step/start "+strconv.Itoa(d.Step)+" while step "+strconv.Itoa(s.step)+" is open")
		case d.Step <= s.lastStep:
			fail(invLogNesting, "step/start "+strconv.Itoa(d.Step)+" does not rise above step "+strconv.Itoa(s.lastStep))
		}
		s.stepOpen, s.step, s.lastStep = true, d.Step, d.Step
	case session.StepEnd:
		switch {
		case !s.stepOpen:
			fail(invLogNesting, "step/end with no step open")
		case d.Turn != s.turn || d.Step != s.step:
			fail(invLogNesting, "step/end "+strconv.Itoa(d.Turn)+"/"+strconv.Itoa(d.Step)+" closes step "+strconv.Itoa(s.turn)+"/"+strconv.Itoa(s.step))
		}
		for _, oc := range s.calls {
			if oc.turn == d.Turn && oc.step == d.Step && !oc.stray {
				fail(invLogPairing, "step/end while call "+oc.callID+" of the step has no result", oc.rec)
				break
			}
		}
		s.stepOpen = false
	case session.ToolCall:
		if !s.stepOpen || d.Turn != s.turn || d.Step != s.step {
			fail(invLogNesting, "tool/call "+d.CallID+" outside its open step")
		}
		stray := !check && (!s.stepOpen || d.Turn != s.turn || d.Step != s.step)
		for _, oc := range s.calls {
			if oc.callID == d.CallID {
				fail(invLogPairing, "tool/call "+d.CallID+" while an earlier call with that id has no result", oc.rec)
				break
			}
		}
		s.calls = append(s.calls, openCall{callID: d.CallID, name: d.Name, turn: d.Turn, step: d.Step, idx: len(s.log) - 1, rec: rec,
			wake: sleepWake(d.Name, d.Arguments, e.Time), stray: stray})
		if d.Name == askToolName {
			args := c.askArgs(d.Arguments)
			if s.calls2 == nil {
				s.calls2 = map[string]*callInfo{}
			}
			// an untracked call (PROJ-2), or one whose arguments the projection cannot read
			// (PROJ-3), reusing a tracked call's id leaves that call's row as it is
			if old := s.calls2[d.CallID]; old == nil || old.legacy || (s.timed && args.ok && !args.empty) {
				s.calls2[d.CallID] = &callInfo{legacy: !s.timed, ids: args.ids, rec: rec}
			}
			if check {
				c.askCall(s, d.CallID, args, rec)
			}
		}
	case session.ToolResult:
		i := -1
		for j, oc := range s.calls {
			if oc.callID == d.CallID {
				i = j
				break
			}
		}
		if i < 0 {
			fail(invLogPairing, "tool/result "+d.CallID+" with no unresolved tool/call")
			break
		}
		oc := s.calls[i]
		if oc.turn != d.Turn || oc.step != d.Step {
			fail(invLogPairing, "tool/result "+d.CallID+" in "+strconv.Itoa(d.Turn)+"/"+strconv.Itoa(d.Step)+
				" for a call made in "+strconv.Itoa(oc.turn)+"/"+strconv.Itoa(oc.step), oc.rec)
		}
		if d.Err.Code != session.ToolOutcomeUnknown {
			for _, p := range s.ptc {
				if p.parent == d.CallID {
					fail(invLogPairing, "tool/result of "+d.CallID+" while its sub-call "+p.sub+" has not settled", p.rec)
					break
				}
			}
		}
		s.calls = append(s.calls[:i], s.calls[i+1:]...)
		// run_code's result ends its sub-calls: one the repair cut off is never settled
		// (AGENT-4), and a later call may reuse the parent's id
		kept := s.ptc[:0]
		for _, p := range s.ptc {
			if p.parent != d.CallID {
				kept = append(kept, p)
			}
		}
		s.ptc = kept
		if check && oc.name == askToolName {
			c.toolResult(s, d, rec)
		}
	case session.PTCDispatchStart:
		open := false
		for _, oc := range s.calls {
			if oc.callID == d.Parent {
				open = true
			}
		}
		if !open {
			fail(invLogPairing, "tool/ptc-dispatch-start "+d.SubCallID+" outside an unresolved parent call "+d.Parent)
		}
		for _, p := range s.ptc {
			if p.sub == d.SubCallID {
				fail(invLogPairing, "tool/ptc-dispatch-start "+d.SubCallID+" started twice", p.rec)
			}
		}
		p := openPTC{sub: d.SubCallID, parent: d.Parent, name: d.Name, rec: rec, wake: sleepWake(d.Name, d.Arguments, e.Time)}
		if d.Name == askToolName {
			args := c.askArgs(d.Arguments)
			p.ids = args.ids
			if check {
				c.ptcAsk(s, d.SubCallID, args, rec, e.Time)
			}
		}
		s.ptc = append(s.ptc, p)
	case session.PTCDispatch:
		i := -1
		for j, p := range s.ptc {
			if p.sub == d.SubCallID {
				i = j
			}
		}
		if i < 0 {
			fail(invLogPairing, "tool/ptc-dispatch "+d.SubCallID+" with no unresolved tool/ptc-dispatch-start")
			break
		}
		p := s.ptc[i]
		s.ptc = append(s.ptc[:i], s.ptc[i+1:]...)
		if d.Name == askToolName && isPending(d.Text) && !d.IsError && len(p.ids) > 0 {
			// the sub-call enters the projection (PROJ-7); a later sub-call reusing its id
			// that does not enter leaves its row alone
			if s.calls2 == nil {
				s.calls2 = map[string]*callInfo{}
			}
			s.calls2[d.SubCallID] = &callInfo{ids: p.ids, rec: p.rec}
		}
		if check && d.Name == askToolName {
			c.ptcResult(s, d, rec)
		}
	case session.UserMessage:
		if !s.stepOpen {
			fail(invLogNesting, "user/message "+d.Message.ID+" admitted outside an open step")
		}
	}
}

// inbox folds agent/inbox/spliced events and tracks late replies.
func (c *Checker) inbox(s *sessModel, e session.Event, rec int, check bool) {
	switch d := e.Data.(type) {
	case session.InboxSpliced:
		var list *[]session.Message
		switch d.Target {
		case session.NextTurn:
			list = &s.nextTurn
		case session.NextStep:
			list = &s.nextStep
		default:
			if check {
				c.fail(invInboxMirror, rec, s.id+": splice of unknown inbox target "+strconv.Quote(d.Target))
			}
			return
		}
		l := *list
		if d.Start < 0 || d.Removed < 0 || d.Start+d.Removed > len(l) {
			if check {
				c.fail(invInboxMirror, rec, s.id+": splice start="+strconv.Itoa(d.Start)+" removed="+strconv.Itoa(d.Removed)+
					" out of range of "+d.Target+" (len "+strconv.Itoa(len(l))+")")
			}
			return
		}
		for _, m := range l[d.Start : d.Start+d.Removed] {
			r := s.findReply(m.ID)
			if r == nil || (r.state != replyQueued) {
				continue
			}
			if d.Outcome == session.OutcomeCanceled {
				r.state, r.endRec = replyDiscarded, rec
			} else {
				r.state, r.claimedTurn, r.claimedOpen = replyClaimed, s.turn, s.turnOpen
			}
		}
		for _, m := range d.Inserted {
			if inList(s.nextTurn, m.ID) || inList(s.nextStep, m.ID) {
				if !(d.Removed > 0 && inList(l[d.Start:d.Start+d.Removed], m.ID)) && check {
					c.fail(invInboxMirror, rec, s.id+": message id "+m.ID+" queued twice while pending")
				}
			}
		}
		nl := make([]session.Message, 0, len(l)-d.Removed+len(d.Inserted))
		nl = append(nl, l[:d.Start]...)
		nl = append(nl, d.Inserted...)
		nl = append(nl, l[d.Start+d.Removed:]...)
		*list = nl
		for _, m := range d.Inserted {
			if m.Source.Kind != session.SourceUserQuestionReply {
				continue
			}
			if check {
				c.replyQueued(s, m, len(s.log)-1, rec)
			}
			s.replies = append(s.replies, &reply{msgID: m.ID, callID: m.Source.CallID, state: replyQueued,
				insertIdx: len(s.log) - 1, insertRec: rec, endRec: -1})
		}
	case session.UserMessage:
		if d.Message.Source.Kind == session.SourceUserQuestionReply {
			if r := s.findReply(d.Message.ID); r != nil && (r.state == replyClaimed || r.state == replyQueued) {
				r.state, r.endRec = replyAdmitted, rec
			}
		}
	}
}

func inList(l []session.Message, id string) bool {
	for _, m := range l {
		if m.ID == id {
			return true
		}
	}
	return false
}

// viewAt is the reference projection of s's log through length n (nil when off).
func (c *Checker) viewAt(s *sessModel, n int) (wire.QuestionsView, bool) {
	if s.fold == nil {
		return wire.QuestionsView{}, false
	}
	if n == len(s.log) {
		return s.fold.view(), true
	}
	c.foldEvents += n
	if c.opts.Fold != nil {
		return c.opts.Fold(s.log[:n], s.inherited), true
	}
	return Fold(s.log[:n], s.inherited), true
}

// inboxAt folds the inbox of s's log through length n.
func inboxAt(s *sessModel, n int) wire.InboxView {
	if n == len(s.log) {
		return s.inboxView()
	}
	var nt, ns []session.Message
	for _, e := range s.log[:n] {
		d, ok := e.Data.(session.InboxSpliced)
		if !ok || e.Seq < s.inherited {
			continue
		}
		l := &nt
		if d.Target == session.NextStep {
			l = &ns
		} else if d.Target != session.NextTurn {
			continue
		}
		if d.Start < 0 || d.Start+d.Removed > len(*l) {
			continue
		}
		nl := append(append(append([]session.Message{}, (*l)[:d.Start]...), d.Inserted...), (*l)[d.Start+d.Removed:]...)
		*l = nl
	}
	return wire.InboxView{NextTurn: nt, NextStep: ns}
}
