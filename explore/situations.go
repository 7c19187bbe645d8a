package explore

import (
	"strings"

	"github.com/twosettle/twosettle/engine/questions"
	"github.com/twosettle/twosettle/engine/session"
	"github.com/twosettle/twosettle/engine/wire"
	"github.com/twosettle/twosettle/scenarios"
	"github.com/twosettle/twosettle/trace"
	"github.com/twosettle/twosettle/tracemodel"
)

// Situation is an interesting state a run can reach: the fuzzer counts the runs that
// reached each one, so a campaign shows what its exploration actually exercised (docs/ARCHITECTURE.md
// §6), and which situations it never reached.
type Situation struct {
	Name string
	Doc  string
}

// Reached is the set of situations one run reached: bit i%64 of word i/64 is
// Situations()[i].
type Reached [2]uint64

// Has reports whether situation i was reached.
func (r Reached) Has(i int) bool { return r[i/64]&(1<<uint(i%64)) != 0 }

// Situation indexes.
const (
	sitReleasedAfterDeadline = iota
	sitClaimAfterDeadline
	sitTwoClaims
	sitHostExpiry
	sitLocalExpiry
	sitLocalExpirySettles
	sitExpiryRace
	sitTwoAnswersWithinLatency
	sitOutcomeDiscarded
	sitTakeTimeOtherExpires
	sitNoProviderHeld
	sitFocusBeforeHandshake
	sitClockJumpCountdown
	sitWaitClosedByAbort
	sitLateAccepted
	sitLateAdmitted
	sitReplyQueued
	sitBadAnswer
	sitReplyDiscardedReanswered
	sitResubmitByRPC
	sitRestartDuringClaim
	sitRestartQueuedReply
	sitReplySurvivesRestart
	sitRestartLosesUnpersisted
	sitPTCBeforeDispatch
	sitPTCAfterDispatch
	sitPTCPending
	sitToolOutcomeUnknown
	sitWaterfallReplayed
	sitDelegatedCaller
	sitCallerNotLive
	sitCrashBeforePTCDispatch
	sitCrashAfterPTCDispatch
	sitCrashBeforeAnswerAck
	sitCrashAfterAnswerAck
	sitCrashBetweenClaimAdmit
	sitCrashInsideWriteWindow
	sitCrashAfterEffect
	sitForkContinued
	sitForkAsks
	sitForkParentCallRefused
	sitLateWriteFault
	sitWriteFaultReanswered
	sitClosedResumedByAnswer
	sitClosedResumedByPrompt
	sitSteeredReplyAdmitted
	sitHeaderToolsNotArray
	sitHeaderToolsMixed
	sitRecommendedOption
	sitBadBatchWhileQueued
	sitDuplicateAskTimed
	sitBadTimeoutNotLive
	sitBadIntent
	sitAbortedAsk
	sitReplyLookalike
	sitProbeBeforeFrame
	sitProbeContinuedCard
	sitProbeQueuedReply
	sitReaskContinued
	sitForeignRejection
	sitDraftReshaped
	numCoreSituations // the steps' situations follow (situations_steps.go)
)

var situationList = [numSituations]Situation{
	sitReleasedAfterDeadline:    {"claim-released-after-deadline", "the last claim left after the wait's deadline (WAIT-5: immediate expiry)"},
	sitClaimAfterDeadline:       {"claim-after-deadline", "a claim attached past the deadline and got remainingMs 0 (WAIT-6)"},
	sitTwoClaims:                {"two-claims", "two clients held claims on one wait at once"},
	sitHostExpiry:               {"host-expiry", "an unattended wait expired on the host (WAIT-8)"},
	sitLocalExpiry:              {"local-expiry", "a client's countdown expired and it rejected with ASK_TIMED_OUT (CLAIM-7)"},
	sitLocalExpirySettles:       {"local-expiry-settles", "a client's ASK_TIMED_OUT rejection made the tool result pending"},
	sitExpiryRace:               {"local-expiry-after-host-expiry", "a client's ASK_TIMED_OUT reached the host after the host had expired the wait"},
	sitTwoAnswersWithinLatency:  {"two-clients-answer-within-latency", "two clients' outcomes for one request reached the host within one link latency"},
	sitOutcomeDiscarded:         {"outcome-lost-settlement-race", "an outcome arrived after another client had settled the request (GW-1)"},
	sitTakeTimeOtherExpires:     {"take-time-while-other-expires", "one client took time on a request while another client's countdown expired it (CD-9)"},
	sitNoProviderHeld:           {"no-provider-held", "every client passed a timed request (NO_PROVIDER) and the wait held until its deadline (ASK-10)"},
	sitFocusBeforeHandshake:     {"focus-before-handshake", "a user focused while the client's claim stream had not yet yielded its frame (CD-3)"},
	sitClockJumpCountdown:       {"clock-jump-during-countdown", "a client's clock jumped while it held a claim (CD-10)"},
	sitWaitClosedByAbort:        {"wait-closed-by-abort", "a wait closed because its turn or agent was aborted (WAIT-9)"},
	sitLateAccepted:             {"late-answer-accepted", "a late answer was queued in the inbox (LATE-4)"},
	sitLateAdmitted:             {"late-answer-admitted", "a late reply was admitted as user/message (LATE-7, PROJ-8)"},
	sitReplyQueued:              {"late-answer-reply-queued", "a late answer was refused with REPLY_QUEUED (LATE-2)"},
	sitBadAnswer:                {"late-answer-bad-answer", "a late answer was refused with BAD_ANSWER (LATE-3)"},
	sitReplyDiscardedReanswered: {"reply-discarded-then-reanswered", "a queued reply was discarded and the call was answered again (LATE-7, CARD-9)"},
	sitResubmitByRPC:            {"resubmit-by-rpc", "a client submitted through the waterfall, then the same call through the late-answer RPC (CARD-6)"},
	sitRestartDuringClaim:       {"restart-during-claim", "the host restarted while a client held a claim (AGENT-2)"},
	sitRestartQueuedReply:       {"restart-with-queued-reply", "the host restarted while a late reply waited in the inbox"},
	sitReplySurvivesRestart:     {"reply-survives-restart", "a reply queued before a restart was admitted after it (LATE-6)"},
	sitRestartLosesUnpersisted:  {"restart-loses-unpersisted", "a restart cut events that were appended but not yet durable (AGENT-6)"},
	sitPTCBeforeDispatch:        {"ptc-interrupted-before-dispatch", "a restart cut a run_code sub-call before its tool/ptc-dispatch was durable (AGENT-4)"},
	sitPTCAfterDispatch:         {"ptc-interrupted-after-dispatch", "a restart cut a run_code call after a sub-call's tool/ptc-dispatch was durable"},
	sitPTCPending:               {"ptc-sub-call-pending", "a run_code sub-call's ask ended pending (PROJ-7)"},
	sitToolOutcomeUnknown:       {"tool-outcome-unknown", "restart repair recorded TOOL_OUTCOME_UNKNOWN (AGENT-3)"},
	sitWaterfallReplayed:        {"waterfall-replayed", "a pending request was replayed to a client on a new connection (GW-5)"},
	sitDelegatedCaller:          {"delegated-caller", "an owned child asked and failed with DELEGATED_CALLER (CALLER-2)"},
	sitCallerNotLive:            {"caller-not-live", "a stale or missing agent was refused with CALLER_NOT_LIVE (CALLER-1)"},
	sitCrashBeforePTCDispatch:   {"crash-at-before-ptc-dispatch", "a crash landed at before-ptc-dispatch"},
	sitCrashAfterPTCDispatch:    {"crash-at-after-ptc-dispatch", "a crash landed at after-ptc-dispatch"},
	sitCrashBeforeAnswerAck:     {"crash-at-before-answer-ack", "a crash landed at before-answer-ack"},
	sitCrashAfterAnswerAck:      {"crash-at-after-answer-ack", "a crash landed at after-answer-ack"},
	sitCrashBetweenClaimAdmit:   {"crash-at-between-claim-admit", "a crash landed at between-claim-admit"},
	sitCrashInsideWriteWindow:   {"crash-at-inside-write-window", "a crash landed at inside-write-window"},
	sitCrashAfterEffect:         {"crash-at-after-effect", "a crash landed at after-effect"},
	sitForkContinued:            {"fork-of-continued-question", "a fork inherited a prefix in which its parent had a continued question; the fork's view leaves it out (PROJ-11)"},
	sitForkAsks:                 {"fork-asks", "a fork asked a timed question of its own (a host wait on the fork)"},
	sitForkParentCallRefused:    {"fork-answer-for-parent-call", "answer() in a fork for a call of its inherited prefix returned false: a fork cannot answer its parent's calls (PROJ-11, LATE-1)"},
	sitLateWriteFault:           {"late-answer-write-fault", "a late answer failed with the injected inbox write fault (LATE-5)"},
	sitWriteFaultReanswered:     {"write-fault-then-reanswered", "after a late answer failed with the write fault, a reply for its call was queued: the reservation was released (LATE-5)"},
	sitClosedResumedByAnswer:    {"closed-resumed-by-late-answer", "a late answer was accepted for a closed Session: resolving the remote call resumed its root (GW-8, LATE-8)"},
	sitClosedResumedByPrompt:    {"closed-resumed-by-prompt", "a prompt or steer resumed a closed Session"},
	sitSteeredReplyAdmitted:     {"steered-reply-admitted", "a reply the model steered with a user-question-reply source was admitted as user/message (NODE-1, PROJ-8)"},
	sitHeaderToolsNotArray:      {"header-tools-not-array", "a request/header whose tools is not an array (a placeholder string, null, an object) was recorded (PROJ-2)"},
	sitHeaderToolsMixed:         {"header-tools-mixed-array", "a request/header whose tools array has an entry that is not an object was recorded (PROJ-2)"},
	sitRecommendedOption:        {"recommended-option", "a client received a request whose option label is marked recommended, which it preselects (CD-5)"},
	sitBadBatchWhileQueued:      {"bad-batch-while-reply-waits", "answer() got a different, invalid batch while an accepted reply for the call waited: REPLY_QUEUED (LATE-2, LATE-3)"},
	sitDuplicateAskTimed:        {"duplicate-ask-timed", "a second askTimed for a call id with a live wait failed DUPLICATE_WAIT (ASK-7)"},
	sitBadTimeoutNotLive:        {"bad-timeout-not-live", "askTimed with an invalid timeout from a caller that is not live failed BAD_TIMEOUT (ASK-6)"},
	sitBadIntent:                {"plan-review-bad-intent", "a plan review approving no option label, or with no detail, failed BAD_INTENT (ASK-3)"},
	sitAbortedAsk:               {"aborted-ask", "an ask with an already aborted signal failed ASK_ABORTED (ASK-1)"},
	sitReplyLookalike:           {"reply-lookalike-message", "a user/message carrying a late reply's JSON without a late-reply source was recorded (NODE-1)"},
	sitProbeBeforeFrame:         {"probe-before-claim-frame", "a probe saw a client holding a claim stream that had no frame yet (CARD-2, CD-3)"},
	sitProbeContinuedCard:       {"probe-continued-card", "a probe saw a continued card (CARD-9, ROW-1)"},
	sitProbeQueuedReply:         {"probe-reservation-held", "a probe saw the host hold a reservation (LATE-6)"},
	sitReaskContinued:           {"reask-continued-call", "a call id whose result was pending was asked again (PROJ-3) and its card got a waterfall beside the RPC (CARD-4)"},
	sitForeignRejection:         {"foreign-rejection-restored", "a rejection no reference client sends (a plain error, a UserQuestionError with no code or a code of its own) settled a call (ASK-5)"},
	sitDraftReshaped:            {"draft-reshaped-after-reload", "a client edited a card, reloaded, then took a request for the call with another question count: the stored draft does not fit (DRAFT-2)"},
}

var crashSituation = map[string]int{
	"before-ptc-dispatch": sitCrashBeforePTCDispatch, "after-ptc-dispatch": sitCrashAfterPTCDispatch,
	"before-answer-ack": sitCrashBeforeAnswerAck, "after-answer-ack": sitCrashAfterAnswerAck,
	"between-claim-admit": sitCrashBetweenClaimAdmit, "inside-write-window": sitCrashInsideWriteWindow,
	"after-effect": sitCrashAfterEffect,
}

// Situations lists every situation the fuzzer counts, in report order.
func Situations() []Situation { return append([]Situation(nil), situationList[:]...) }

// Names lists the situations r reached, in report order.
func (r Reached) Names() []string {
	var out []string
	for i := 0; i < numSituations; i++ {
		if r.Has(i) {
			out = append(out, situationList[i].Name)
		}
	}
	return out
}

// situations scans one trace for the situations it reaches. It reads the trace through
// its model (package tracemodel): which call, wait, claim stream, request, RPC or direct
// call a record is about, whether a result is pending, and which effects a crash cut
// voided (the scan follows the oracle's reading of a cut: the effects of an Apply beyond
// Restart{CutAfter: k} never happened). What is the scan's own is kept here: the log
// mirror and its inbox, and each situation's bookkeeping. Its maps are reused between
// runs (one per worker).
//
// A new situation: a constant and a situationList entry, and its detection in a pass
// over x.run (see scanInputs), called from scan.
type situations struct {
	hit    Reached
	folder tracemodel.Folder
	run    *tracemodel.Run

	waits   map[*tracemodel.Call]*sitWait // the current wait of each call
	events  map[*tracemodel.Request]*sitEvent
	logs    map[string]*sitLog
	clients map[string]*sitClient
	clientN int

	answered    map[string]bool // calls with an accepted late answer, by "session/call"
	discarded   map[string]bool // calls whose queued reply was discarded
	survivors   map[string]bool // reply message ids queued at a restart
	latency     int64
	applyPend   bool // the current host Apply recorded a pending result
	applyLocalE bool // the current host Apply is a client's ASK_TIMED_OUT for a live event
	applySend   bool // the current host Apply is a model message (wire.Send)

	closed      map[string]bool // Sessions closed and not resumed since
	rpcAnswers  map[*tracemodel.RPC]bool
	dirAnswers  map[*tracemodel.Direct]bool // answer() calls in flight
	writeFailed map[string]bool             // "session/call" whose late answer failed with the write fault
	steered     map[string]bool             // reply message ids the model steered (not answer()'s)
}

type sitWait struct {
	deadline int64
	claims   int
	expired  bool
}

type sitEvent struct {
	delivered  uint64 // client bits the host delivered it to
	passed     uint64 // client bits that answered next
	gens       map[string]int
	settled    bool
	lastResult int64
	lastFrom   string
	heldBy     uint64 // clients that took time while holding it
	live       uint64 // clients holding the delivery (client side)
	noProvider bool
}

type sitLog struct {
	events    []session.Event
	persisted int
	inherited int             // a fork's inherited events (0: not a fork)
	forked    bool            // the Session is a fork
	parents   map[string]bool // call ids of the inherited prefix's tool calls and sub-calls
	nextStep  []session.Message
	nextTurn  []session.Message
}

type sitClient struct {
	bit       uint64
	submitted map[*tracemodel.Call]bool // calls submitted through the waterfall
}

func (x *situations) set(i int) { x.hit[i/64] |= 1 << uint(i%64) }

func (x *situations) reset(s *scenarios.Scenario) {
	x.hit = Reached{}
	if x.waits == nil {
		x.waits, x.events, x.logs, x.clients = map[*tracemodel.Call]*sitWait{}, map[*tracemodel.Request]*sitEvent{}, map[string]*sitLog{}, map[string]*sitClient{}
		x.answered, x.discarded, x.survivors = map[string]bool{}, map[string]bool{}, map[string]bool{}
		x.closed, x.writeFailed, x.steered = map[string]bool{}, map[string]bool{}, map[string]bool{}
		x.rpcAnswers, x.dirAnswers = map[*tracemodel.RPC]bool{}, map[*tracemodel.Direct]bool{}
	}
	clear(x.closed)
	clear(x.rpcAnswers)
	clear(x.dirAnswers)
	clear(x.writeFailed)
	clear(x.steered)
	clear(x.waits)
	clear(x.events)
	clear(x.answered)
	clear(x.discarded)
	clear(x.survivors)
	for _, l := range x.logs {
		l.events, l.persisted, l.nextStep, l.nextTurn = l.events[:0], 0, l.nextStep[:0], l.nextTurn[:0]
		l.inherited, l.forked = 0, false
		clear(l.parents)
	}
	clear(x.clients)
	x.clientN = 0
	x.latency = 1
	for _, c := range s.Clients {
		l := c.Latency.Max.Ms()
		if c.HTTP != nil && c.HTTP.Max.Ms() > l {
			l = c.HTTP.Max.Ms()
		}
		if l > x.latency {
			x.latency = l
		}
	}
}

func (x *situations) client(name string) *sitClient {
	c := x.clients[name]
	if c == nil {
		c = &sitClient{bit: 1 << uint(x.clientN%64), submitted: map[*tracemodel.Call]bool{}}
		x.clientN++
		x.clients[name] = c
	}
	return c
}

func (x *situations) log(s string) *sitLog {
	l := x.logs[s]
	if l == nil {
		l = &sitLog{}
		x.logs[s] = l
	}
	return l
}

func (x *situations) event(q *tracemodel.Request) *sitEvent {
	e := x.events[q]
	if e == nil {
		e = &sitEvent{gens: map[string]int{}}
		x.events[q] = e
	}
	return e
}

// scan reads one trace.
func (x *situations) scan(tr *trace.Trace, s *scenarios.Scenario) Reached {
	x.reset(s)
	x.run = x.folder.Fold(tr)
	run := x.run
	for i := range run.Records {
		r, f := &run.Records[i], &run.Facts[i]
		switch r.Kind {
		case trace.In:
			if r.Actor == trace.ActorHost {
				x.applyPend, x.applyLocalE, x.applySend = false, false, false
				if cmd, ok := r.Payload.(wire.Command); ok {
					x.hostIn(i, r, f, cmd)
				}
			} else if in, ok := r.Payload.(wire.ClientInput); ok {
				x.clientIn(i, r, f, in)
			}
		case trace.Out:
			if r.Actor == trace.ActorHost {
				if f.Voided {
					continue
				}
				if e, ok := r.Payload.(wire.Effect); ok {
					x.hostOut(r, f, e)
				}
			} else if e, ok := r.Payload.(wire.ClientEffect); ok {
				x.clientOut(r, f, e)
			}
		case trace.Fault:
			if inj, ok := r.Payload.(trace.Injected); ok {
				x.fault(i, inj)
			}
		}
	}
	x.scanInputs(run)
	x.scanHost(tr)
	x.scanClient(run) // situations_client.go
	x.scanSteps(tr, s)
	x.run = nil
	return x.hit
}

func (x *situations) hostIn(i int, r *trace.Record, f *tracemodel.Fact, cmd wire.Command) {
	switch c := cmd.(type) {
	case wire.Restart:
		x.restart()
	case wire.OpenSession:
		if c.ForkOf != "" {
			x.fork(c)
		}
	case wire.CloseSession:
		x.closed[c.Session] = true
	case wire.Send:
		x.applySend = true
		if x.closed[c.Session] {
			x.set(sitClosedResumedByPrompt)
			delete(x.closed, c.Session)
		}
	case wire.Call:
		if c.Endpoint == wire.EndpointAnswer && f.RPC != nil {
			x.rpcAnswers[f.RPC] = true
		}
	case wire.Direct:
		if c.Op == wire.OpAnswer && f.Direct != nil {
			x.dirAnswers[f.Direct] = true
		}
	case wire.EventResult:
		ev := x.event(f.Request)
		switch c.Outcome.Kind {
		case wire.OutcomeNext:
			ev.passed |= x.client(c.Client).bit
			if ev.delivered != 0 && ev.passed&ev.delivered == ev.delivered && !ev.settled {
				ev.noProvider = true
			}
		default:
			if ev.settled {
				x.set(sitOutcomeDiscarded)
				if ev.lastFrom != c.Client && r.Time-ev.lastResult <= x.latency {
					x.set(sitTwoAnswersWithinLatency)
				}
			}
			if c.Outcome.Kind == wire.OutcomeRejected && c.Outcome.Error != nil && c.Outcome.Error.Code == wire.AskTimedOut {
				if w := x.waits[f.Request.Call]; w != nil && w.expired {
					x.set(sitExpiryRace)
				}
				if !ev.settled {
					x.applyLocalE = true
				}
			}
			if !ev.settled {
				ev.settled, ev.lastResult, ev.lastFrom = true, r.Time, c.Client
			}
		}
	}
}

func (x *situations) restart() {
	for _, w := range x.waits {
		if w.claims > 0 {
			x.set(sitRestartDuringClaim)
		}
	}
	clear(x.waits)
	for _, l := range x.logs {
		for _, m := range l.nextStep {
			x.queuedAtRestart(m)
		}
		for _, m := range l.nextTurn {
			x.queuedAtRestart(m)
		}
		if len(l.events) > l.persisted {
			x.set(sitRestartLosesUnpersisted)
		}
		x.ptcAtRestart(l)
		l.events = l.events[:l.persisted]
		l.refold()
	}
	for _, e := range x.events {
		e.live = 0
	}
}

func (x *situations) queuedAtRestart(m session.Message) {
	if m.Source.Kind == session.SourceUserQuestionReply {
		x.set(sitRestartQueuedReply)
		x.survivors[m.ID] = true
	}
}

// ptcAtRestart looks for run_code calls a restart cuts: a sub-call started with no
// durable tool/ptc-dispatch, or a durable tool/ptc-dispatch whose run_code result is not.
func (x *situations) ptcAtRestart(l *sitLog) {
	for i, e := range l.events {
		if i < l.inherited {
			continue // the parent's
		}
		switch d := e.Data.(type) {
		case session.PTCDispatchStart:
			if !durable(l, func(o session.Data) bool {
				p, ok := o.(session.PTCDispatch)
				return ok && p.SubCallID == d.SubCallID
			}) && !resultBefore(l, i, d.Parent) {
				x.set(sitPTCBeforeDispatch)
			}
		case session.PTCDispatch:
			if i < l.persisted && !durable(l, func(o session.Data) bool {
				p, ok := o.(session.ToolResult)
				return ok && p.CallID == d.Parent
			}) {
				x.set(sitPTCAfterDispatch)
			}
		}
	}
}

func durable(l *sitLog, match func(session.Data) bool) bool {
	for _, e := range l.events[:l.persisted] {
		if match(e.Data) {
			return true
		}
	}
	return false
}

// resultBefore reports whether the run_code call parent already has a durable result
// after event i (the sub-call belongs to an earlier, finished run of a reused call id).
func resultBefore(l *sitLog, i int, parent string) bool {
	if i >= l.persisted {
		return false
	}
	for _, e := range l.events[i:l.persisted] {
		if p, ok := e.Data.(session.ToolResult); ok && p.CallID == parent {
			return true
		}
	}
	return false
}

// refold rebuilds the inbox from the log (after a restart kept only its durable prefix).
func (l *sitLog) refold() {
	l.nextStep, l.nextTurn = l.nextStep[:0], l.nextTurn[:0]
	for _, e := range l.events[min(l.inherited, len(l.events)):] { // a fork's inbox starts empty
		if d, ok := e.Data.(session.InboxSpliced); ok {
			l.splice(d)
		}
	}
}

// splice applies an inbox mutation and returns the messages it removed.
func (l *sitLog) splice(d session.InboxSpliced) []session.Message {
	list := &l.nextTurn
	if d.Target == session.NextStep {
		list = &l.nextStep
	}
	start := min(d.Start, len(*list))
	end := min(start+d.Removed, len(*list))
	removed := append([]session.Message(nil), (*list)[start:end]...)
	rest := append(append([]session.Message(nil), d.Inserted...), (*list)[end:]...)
	*list = append((*list)[:start], rest...)
	return removed
}

func (x *situations) hostOut(r *trace.Record, fact *tracemodel.Fact, e wire.Effect) {
	switch f := e.(type) {
	case wire.WaitNote:
		call := fact.Call
		w := x.waits[call]
		if w == nil {
			w = &sitWait{}
			x.waits[call] = w
		}
		switch f.Kind {
		case wire.WaitCreated:
			*w = sitWait{deadline: f.Deadline}
			if l := x.logs[f.Session]; l != nil && l.forked {
				x.set(sitForkAsks)
			}
		case wire.WaitClaimed:
			w.claims = f.Claims
			if f.Remaining == 0 {
				x.set(sitClaimAfterDeadline)
			}
			if f.Claims >= 2 {
				x.set(sitTwoClaims)
			}
		case wire.WaitReleased:
			w.claims = f.Claims
			if f.Claims == 0 && r.Time > w.deadline {
				x.set(sitReleasedAfterDeadline)
			}
		case wire.WaitExpired:
			w.expired = true
			x.set(sitHostExpiry)
			for q, ev := range x.events {
				if q.Call == call && ev.noProvider {
					x.set(sitNoProviderHeld)
				}
			}
		case wire.WaitClosed:
			if f.Reason != "completed" && f.Reason != "unload" {
				x.set(sitWaitClosedByAbort)
			}
			w.claims = 0
		}
	case wire.SendFrame:
		if _, ok := f.Frame.(wire.Waterfall); ok {
			ev := x.event(fact.Request)
			ev.delivered |= x.client(f.Client).bit
			if g, seen := ev.gens[f.Client]; seen && g != f.Gen {
				x.set(sitWaterfallReplayed)
			}
			ev.gens[f.Client] = f.Gen
		}
	case wire.Appended:
		l := x.log(f.Session)
		if f.Event.Seq < len(l.events) && f.Event.Seq < l.inherited {
			break // a re-report of an inherited event
		}
		l.events = append(l.events, f.Event)
		x.appended(f.Session, l, f.Event, fact.Result)
	case wire.Persisted:
		l := x.log(f.Session)
		if f.Through > l.persisted && f.Through <= len(l.events) {
			l.persisted = f.Through
		}
	case wire.Reply:
		if !f.Envelope.OK && f.Envelope.Error != nil {
			x.code(f.Envelope.Error.Code)
		}
		if rpc := fact.RPC; rpc != nil && x.rpcAnswers[rpc] {
			delete(x.rpcAnswers, rpc)
			msg := ""
			if f.Envelope.Error != nil {
				msg = f.Envelope.Error.Message
			}
			x.answerResult(rpc.Agent+"/"+rpc.CallID, f.Envelope.OK, f.Envelope.Value, msg)
		}
	case wire.DirectResult:
		if f.Err != nil {
			x.code(f.Err.Code)
		}
		if d := fact.Direct; d != nil && x.dirAnswers[d] {
			delete(x.dirAnswers, d)
			msg := ""
			if f.Err != nil {
				msg = f.Err.Message
			}
			x.answerResult(d.Cmd.Session+"/"+d.CallID, f.Err == nil, f.Value, msg)
		}
	}
}

func (x *situations) code(code string) {
	switch code {
	case wire.ReplyQueued:
		x.set(sitReplyQueued)
	case wire.BadAnswer:
		x.set(sitBadAnswer)
	case wire.DelegatedCaller:
		x.set(sitDelegatedCaller)
	case wire.CallerNotLive:
		x.set(sitCallerNotLive)
	}
}

func (x *situations) appended(sess string, l *sitLog, e session.Event, res tracemodel.Result) {
	switch d := e.Data.(type) {
	case session.InboxSpliced:
		removed := l.splice(d)
		if d.Outcome == session.OutcomeCanceled {
			for _, m := range removed {
				if m.Source.Kind == session.SourceUserQuestionReply {
					x.discarded[sess+"/"+m.Source.CallID] = true
				}
			}
		}
		for _, m := range d.Inserted {
			if m.Source.Kind == session.SourceUserQuestionReply && x.applySend {
				x.steered[m.ID] = true // the model's, not a late answer
				continue
			}
			if m.Source.Kind == session.SourceUserQuestionReply {
				x.set(sitLateAccepted)
				key := sess + "/" + m.Source.CallID
				if x.writeFailed[key] {
					x.set(sitWriteFaultReanswered)
				}
				if x.closed[sess] {
					x.set(sitClosedResumedByAnswer)
					delete(x.closed, sess)
				}
				if x.discarded[key] {
					x.set(sitReplyDiscardedReanswered)
				}
				x.answered[key] = true
			}
		}
	case session.UserMessage:
		if d.Message.Source.Kind == session.SourceUserQuestionReply {
			x.set(sitLateAdmitted)
			if x.survivors[d.Message.ID] {
				x.set(sitReplySurvivesRestart)
			}
			if x.steered[d.Message.ID] {
				x.set(sitSteeredReplyAdmitted)
			}
		}
	case session.ToolResult:
		if d.IsError {
			x.code(d.Err.Code)
			if d.Err.Code == session.ToolOutcomeUnknown {
				x.set(sitToolOutcomeUnknown)
			}
		} else if res.Kind == tracemodel.Pending {
			x.applyPending()
		}
	case session.PTCDispatch:
		if d.IsError {
			x.code(d.Err.Code)
		} else if res.Kind == tracemodel.Pending {
			x.set(sitPTCPending)
			x.applyPending()
		}
	}
}

func (x *situations) applyPending() {
	if x.applyLocalE && !x.applyPend {
		x.set(sitLocalExpirySettles)
	}
	x.applyPend = true
}

func (x *situations) clientIn(i int, r *trace.Record, f *tracemodel.Fact, in wire.ClientInput) {
	c := x.client(r.Actor)
	switch v := in.(type) {
	case wire.FromHost:
		switch v.Frame.(type) {
		case wire.Waterfall:
			x.event(f.Request).live |= c.bit
		case wire.Cancel:
			if f.Request != nil {
				x.event(f.Request).live &^= c.bit
			}
		}
	case wire.LinkDown, wire.Reload:
		for _, e := range x.events {
			e.live &^= c.bit
		}
	case wire.User:
		switch v.Action.Kind {
		case wire.ActFocus:
			if x.streams(r.Actor, i, (*tracemodel.ClientStream).Waiting) {
				x.set(sitFocusBeforeHandshake)
			}
		case wire.ActTakeTime:
			for _, e := range x.events {
				if e.live&c.bit != 0 && !e.settled {
					e.heldBy |= c.bit
				}
			}
		}
	}
}

// streams reports whether one of client's claim streams is in the state is at record i.
func (x *situations) streams(client string, i int, is func(*tracemodel.ClientStream, int) bool) bool {
	for _, s := range x.run.Client {
		if s.Client == client && is(s, i) {
			return true
		}
	}
	return false
}

func (x *situations) clientOut(r *trace.Record, f *tracemodel.Fact, e wire.ClientEffect) {
	c := x.client(r.Actor)
	switch v := e.(type) {
	case wire.SendResult:
		ev := x.event(f.Request)
		ev.live &^= c.bit
		if v.Outcome.Kind == wire.OutcomeRejected && v.Outcome.Error != nil && v.Outcome.Error.Code == wire.AskTimedOut {
			x.set(sitLocalExpiry)
			if ev.heldBy&^c.bit != 0 {
				x.set(sitTakeTimeOtherExpires)
			}
		}
		if v.Outcome.Kind == wire.OutcomeResult && f.Request.Call != nil {
			c.submitted[f.Request.Call] = true
		}
	case wire.SendCall:
		if v.Endpoint == wire.EndpointAnswer && f.Call != nil && c.submitted[f.Call] {
			x.set(sitResubmitByRPC)
		}
	}
}

func (x *situations) fault(i int, f trace.Injected) {
	switch f.Kind {
	case "crash":
		if !f.Armed && f.Point != "" {
			if i, ok := crashSituation[f.Point]; ok {
				x.set(i)
			}
		}
	case "clock-jump":
		if x.streams(f.Target, i, (*tracemodel.ClientStream).Claimed) {
			x.set(sitClockJumpCountdown)
		}
	}
}

// fork starts the log of a fork with its parent's events through ForkThrough (PROJ-11):
// inherited, durable, with an empty inbox.
func (x *situations) fork(c wire.OpenSession) {
	p := x.log(c.ForkOf)
	n := c.ForkThrough + 1
	if n < 0 || n > len(p.events) {
		return
	}
	l := x.log(c.Session)
	l.events = append(l.events[:0], p.events[:n]...)
	l.persisted, l.inherited, l.forked = n, n, true
	l.refold()
	if l.parents == nil {
		l.parents = map[string]bool{}
	}
	clear(l.parents)
	for _, e := range p.events[:n] {
		switch d := e.Data.(type) {
		case session.ToolCall:
			l.parents[d.CallID] = true
		case session.PTCDispatch:
			l.parents[d.SubCallID] = true
		}
	}
	for _, row := range questions.Fold(p.events[:n], p.inherited).Active {
		if row.State == wire.StateContinued {
			x.set(sitForkContinued)
			break
		}
	}
}

// answerResult is the outcome of an answer() for target ("session/call"): ok with its
// value, or failed with message.
func (x *situations) answerResult(target string, ok bool, value []byte, message string) {
	if !ok && strings.Contains(message, "inbox write failed") {
		x.set(sitLateWriteFault)
		x.writeFailed[target] = true
	}
	if ok && string(value) == "false" {
		sess, call, _ := strings.Cut(target, "/")
		if l := x.logs[sess]; l != nil && l.forked && l.parents[call] {
			x.set(sitForkParentCallRefused)
		}
	}
}
