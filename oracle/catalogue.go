package oracle

// Invariant describes one named invariant of the catalogue.
type Invariant struct {
	Name   string
	Kind   string   // safety (holds at every record), liveness (healed phase), validation (host view vs reference)
	Guards []string // requirement ids (docs/REQUIREMENTS.md)
	Needs  string   // an optional protocol feature the invariant needs; "" = wire vocabulary only
	Doc    string   // what it asserts and why
}

// Invariant kinds.
const (
	KindSafety     = "safety"
	KindLiveness   = "liveness"
	KindValidation = "validation"
)

// Optional features.
const (
	NeedsWaitNote  = "WaitNote effects"
	NeedsHostState = "volatile host state (HostState.Waits, Reservations, Pending) with WaitNote effects"
	NeedsFold      = "the reference projection (the oracle's own fold of the host's log)"
	NeedsClients   = "client records (the simulator's reference clients)"
)

// Invariant indexes, in catalogue order.
const (
	invLogSeq = iota
	invLogNesting
	invLogPairing
	invPersistMonotonic
	invRestartPrefix
	invLogReported
	invAckAfterPersist
	invReplyNotLost
	invGWSettleOnce
	invGWCancel
	invGWFanout
	invGWReplay
	invGWGeneration
	invGWNextOnly
	invWaitClaimedNoExpiry
	invWaitDeadline
	invWaitExpiresOnTime
	invWaitClaimFrame
	invWaitLifecycle
	invPendingShape
	invAnswerFromWinner
	invTimedResultMapping
	invExpiryKeepsTurn
	invForegroundEndsWaterfall
	invToolMode
	invLegacyUntracked
	invCallerRootOnly
	invProjRefold
	invProjSettleOnAdmit
	invInboxMirror
	invLateOnlyContinued
	invOneReplyAwaiting
	invAnswerValidated
	invAcceptSteers
	invLateAnswerable
	invLiveQuestionsEnd
	invLiveNoLeak
	invClientNoManufacturedReply
	invClientClaimDiscipline
	invClientExpiry
	invReservationHeld
	invClientCards
	invClientCountdown
	invClientRows
	invClientNodes
	invServiceContract
	invTimedNeedsLiveAgent
	invToolErrorShape
	invRejectionRestored
	invClaimEndIgnored
	invClientSweep
	invClientDrafts
	invClientUnkeyedKeys
	invClientSubmit
	invClientAutofocus
	invClientConversation
	numInvariants
)

var catalogue = [numInvariants]Invariant{
	invLogSeq: {
		Name: "INV-LOG-SEQ", Kind: KindSafety, Guards: []string{"AGENT-6", "PROJ-12"},
		Doc: "Every Session's appended events carry consecutive seqs from the current log length (0 for a new " +
			"Session, the inherited count for a fork, the durable prefix after a restart); event times never run " +
			"ahead of the host clock nor backwards. The whole log model of the oracle rests on it.",
	},
	invLogNesting: {
		Name: "INV-LOG-NESTING", Kind: KindSafety, Guards: []string{"AGENT-1", "AGENT-3"},
		Doc: "Turns and steps nest (docs/PEER-RUNTIME.md §7.5 logging): turn/start only with no turn open and with a rising " +
			"turn number (numbering continues across resumes); step/start only inside the open turn, with a rising step; " +
			"step/end and turn/end close what is open (no step open at turn/end); tool/call and user/message " +
			"(admission) only inside an open step of the same turn. Repair closers must nest too.",
	},
	invLogPairing: {
		Name: "INV-LOG-PAIRING", Kind: KindSafety, Guards: []string{"AGENT-3", "AGENT-4", "PROJ-4", "PROJ-7"},
		Doc: "Every tool/result pairs with exactly one earlier unresolved tool/call of the same call id in the same turn " +
			"and step; a step ends only when each of its calls has its result; tool/ptc-dispatch pairs with its " +
			"tool/ptc-dispatch-start by sub-call id inside an unresolved run_code, and run_code's own result comes after " +
			"every started sub-call settled (unless it is the TOOL_OUTCOME_UNKNOWN repair).",
	},
	invPersistMonotonic: {
		Name: "INV-PERSIST-MONOTONIC", Kind: KindSafety, Guards: []string{"AGENT-6"},
		Doc: "A Session's persisted prefix (Persisted effects) never shrinks except by a crash, and never exceeds the " +
			"events appended: durability is a prefix that only grows while the host lives.",
	},
	invRestartPrefix: {
		Name: "INV-RESTART-PREFIX", Kind: KindSafety, Guards: []string{"AGENT-2", "AGENT-3", "AGENT-6"},
		Doc: "After a restart every Session's log is its durable prefix at the crash (what the Persisted effects " +
			"delivered before the cut reported) and the first events appended to it are exactly the repair closers of " +
			"that prefix (session.InterruptedTurnClosers: TOOL_OUTCOME_UNKNOWN for each cut-off call, step/end, " +
			"turn/end interrupted), at the last durable event's time, before anything else; they must be appended " +
			"before the trace ends.",
	},
	invLogReported: {
		Name: "INV-LOG-REPORTED", Kind: KindValidation, Guards: []string{"AGENT-6", "PROJ-12"},
		Doc: "Every log the host shows, in SessionUpdate frames and in its final state, is the log its Appended effects " +
			"describe (after crash truncation), with the same inherited count and a persisted count at least the last " +
			"one reported: a host cannot change history behind its own reports.",
	},
	invAckAfterPersist: {
		Name: "INV-ACK-AFTER-PERSIST", Kind: KindSafety, Guards: []string{"AGENT-6", "LATE-4"},
		Doc: "A late-answer RPC reply that says true is sent only after the reply's inbox splice is persisted (a " +
			"Persisted effect covering it comes before the Reply effect): telling the client its answer was accepted " +
			"while a crash could still lose it is a lost answer. A write-behind host violates it.",
	},
	invReplyNotLost: {
		Name: "INV-REPLY-NOT-LOST", Kind: KindLiveness, Guards: []string{"AGENT-6", "LATE-9"},
		Doc: "An accepted late reply (answer() returned true) is never silently lost: a crash may not drop its inbox " +
			"splice, and by the end of a healed run it is admitted, still durably queued, explicitly discarded, or was " +
			"claimed into a turn that ended (the accepted limitation), and its splice is durable within the bound.",
	},
	invGWSettleOnce: {
		Name: "INV-GW-SETTLE-ONCE", Kind: KindSafety, Guards: []string{"GW-1"},
		Doc: "A forwarded waterfall request finishes once: after its finish (a winning result or rejection, every " +
			"delivery passing with next, or its signal aborting) no Waterfall frame for it is sent again (no replay) and " +
			"no further Cancel; outcomes that arrive later are discarded.",
	},
	invGWCancel: {
		Name: "INV-GW-CANCEL", Kind: KindSafety, Guards: []string{"GW-1", "GW-3"},
		Doc: "When a request finishes, every client generation that still holds its delivery gets exactly one Cancel, " +
			"in the same Apply; the winner never gets one; no Cancel goes to a generation that does not hold the " +
			"delivery (never delivered, passed with next, disconnected).",
	},
	invGWFanout: {
		Name: "INV-GW-FANOUT", Kind: KindSafety, Guards: []string{"GW-5"},
		Doc: "A new pending request is delivered to every connected generation at once (in the Apply that forwards it), " +
			"under one event id, at most once per generation; a generation never gets it later except as a replay on " +
			"connect.",
	},
	invGWReplay: {
		Name: "INV-GW-REPLAY", Kind: KindSafety, Guards: []string{"GW-5", "GW-6"},
		Doc: "A new connection generation receives Ready first, then every request still pending (with its original " +
			"event id, in the order the requests were forwarded), before any other frame. A disconnect does not finish " +
			"a request, so it is replayed.",
	},
	invGWGeneration: {
		Name: "INV-GW-GENERATION", Kind: KindSafety, Guards: []string{"GW-7", "GW-5"},
		Doc: "Frames go only to a client's live generation: Ready once, as the first frame after a connect, with a " +
			"rising generation; nothing after a disconnect or a restart until the next Ready; stream frames only for a " +
			"stream the client opened on that generation and that has not ended.",
	},
	invGWNextOnly: {
		Name: "INV-GW-NEXT-ONLY", Kind: KindSafety, Guards: []string{"GW-6", "ASK-4", "ASK-10"},
		Doc: "NO_PROVIDER reaches a scoped ask only after every client its request was delivered to passed with next; " +
			"a disconnect (or no client at all) leaves the request pending instead. Under askTimed NO_PROVIDER never " +
			"surfaces: it holds on the bounded wait (pending at the deadline).",
	},
	invWaitClaimedNoExpiry: {
		Name: "INV-WAIT-CLAIMED-NO-EXPIRY", Kind: KindSafety, Guards: []string{"WAIT-2", "WAIT-5"},
		Doc: "The host never expires a timed wait while a client holds a claim on it: at the Apply where the host " +
			"expires the wait (pending without a winning ASK_TIMED_OUT), no claim that was held before the command " +
			"(and not released by it) remained. With WaitNote effects it also checks that no expiry and no armed timer " +
			"is reported while the host's own claim count is positive.",
	},
	invWaitDeadline: {
		Name: "INV-WAIT-DEADLINE", Kind: KindSafety, Guards: []string{"WAIT-1", "TOOL-2"},
		Doc: "The deadline is fixed at creation, at the tool call's time plus its timeout (the default when left out), " +
			"and never moves: the host never expires a wait before it; with WaitNote effects, created carries that " +
			"deadline and every armed timer fires at max(now, deadline).",
	},
	invWaitExpiresOnTime: {
		Name: "INV-WAIT-EXPIRES-ON-TIME", Kind: KindSafety, Guards: []string{"WAIT-3", "WAIT-5", "ASK-10"},
		Doc: "Delivery alone is not a claim: an open timed wait expires at the first instant at or after its deadline " +
			"when no claim is held (at the deadline, or when the last claim leaves after it). Under an exact runner no " +
			"command is applied after that instant while the wait is still open, and the trace does not end past it " +
			"with the wait open.",
	},
	invWaitClaimFrame: {
		Name: "INV-WAIT-CLAIM-FRAME", Kind: KindSafety, Guards: []string{"WAIT-4", "WAIT-6", "WAIT-7"},
		Doc: "An attachWait stream yields at most one item, {\"remainingMs\":max(0, deadline − now)}, and only for a " +
			"live timed wait: none for a closed, unknown, blocking or legacy call, and none at or after the deadline " +
			"unless another claim is held (then remainingMs is 0).",
	},
	invWaitLifecycle: {
		Name: "INV-WAIT-LIFECYCLE", Kind: KindSafety, Guards: []string{"WAIT-10", "WAIT-9", "ASK-11", "ASK-7"},
		Needs: NeedsWaitNote,
		Doc: "As the host reports its waits: a wait is created once while live, its claim count moves by one per " +
			"claim and release and never goes negative, it closes exactly once and reports nothing after, and it is " +
			"closed by the end of the Apply that records its call's result (foreground completion releases the timer, " +
			"the claims and the registry entry).",
	},
	invPendingShape: {
		Name: "INV-PENDING-SHAPE", Kind: KindSafety, Guards: []string{"TOOL-7"},
		Doc: "A pending result is exactly {\"pending\":true,\"callId\":<its call id>,\"message\":<the instruction>} " +
			"(compact, in that key order, not an error) whose message says no batch arrived before the timeout, that it " +
			"is pending and not a skipped answer, not permission, and names answer_to_pending_question; it never carries " +
			"answers. The service-level askTimed value is exactly {\"pending\":true,\"callId\":…}.",
	},
	invAnswerFromWinner: {
		Name: "INV-ANSWER-FROM-WINNER", Kind: KindSafety, Guards: []string{"GW-1", "ASK-12", "TOOL-8"},
		Doc: "An answer tool result carries exactly the batch of the request's winning result outcome, as compact " +
			"{\"answers\":[{\"id\",\"selected\",\"custom\"?}]}; there is no answer without a winning result (a loser's or a " +
			"late outcome never becomes the result), and a winning result becomes the tool result.",
	},
	invTimedResultMapping: {
		Name: "INV-TIMED-RESULT-MAPPING", Kind: KindSafety, Guards: []string{"ASK-9", "CLAIM-7", "WAIT-9"},
		Doc: "askTimed maps only ASK_TIMED_OUT to pending: a winning ASK_TIMED_OUT rejection (client countdown) yields " +
			"pending, any other winning rejection propagates with its code, and a parent (turn) abort before any winner " +
			"yields ASK_ABORTED, never pending.",
	},
	invExpiryKeepsTurn: {
		Name: "INV-EXPIRY-KEEPS-TURN", Kind: KindSafety, Guards: []string{"WAIT-8", "ASK-9"},
		Doc: "Unattended expiry aborts only the wait's private signal: a timed wait that ends with no winner, no parent " +
			"abort and no restart yields pending (not ASK_ABORTED or another failure), and a turn ends aborted only in " +
			"the Apply of a turn cancel or a session close.",
	},
	invForegroundEndsWaterfall: {
		Name: "INV-FOREGROUND-ENDS-WATERFALL", Kind: KindSafety, Guards: []string{"GW-1", "ASK-11", "CLAIM-3"},
		Doc: "Two settlements, one path each: once a forwarded call has its result, its waterfall request is finished " +
			"(by the end of that Apply every holder but the winner was cancelled), never delivered or replayed again and " +
			"not left pending in the gateway, and every claim stream on its wait was ended by the host.",
	},
	invToolMode: {
		Name: "INV-TOOL-MODE", Kind: KindSafety, Guards: []string{"TOOL-1", "TOOL-3", "TOOL-4", "TOOL-5"},
		Doc: "ask_user_question takes the path the host's tool mode and the call's arguments select (the request/header " +
			"decides only what the projection tracks): the legacy tool forwards a blocking request with no wait and never " +
			"returns pending; under the timed tool -1 forwards wait {callId} without timed, a positive timeout forwards " +
			"wait {callId, timed:true}, and an invalid timeout, unreadable questions or a repeated question id fail the " +
			"call with an error result before any client sees a question or a wait exists.",
	},
	invLegacyUntracked: {
		Name: "INV-LEGACY-UNTRACKED", Kind: KindSafety, Guards: []string{"TOOL-1", "PROJ-2", "LATE-1"},
		Doc: "A call made while the latest request/header is legacy is never tracked: it never appears in any view the " +
			"host publishes (active or settled), and no late reply is ever accepted or queued for it.",
	},
	invCallerRootOnly: {
		Name: "INV-CALLER-ROOT-ONLY", Kind: KindSafety, Guards: []string{"CALLER-1", "CALLER-2", "CALLER-4"},
		Doc: "Only the exact live runtime root asks: a direct service call made with a stale instance, or by a child " +
			"owned by a live agent, never succeeds and never reaches a client; an ask_user_question call of a child " +
			"fails and forwards nothing.",
	},
	invProjRefold: {
		Name: "INV-PROJ-REFOLD", Kind: KindValidation, Guards: []string{"PROJ-12", "PROJ-1", "PROJ-11", "PROJ-3", "PROJ-4", "PROJ-5", "PROJ-6", "PROJ-7", "PROJ-10"},
		Needs: NeedsFold,
		Doc: "Trace validation: every view the host publishes (SessionUpdate frames, the final state) equals the " +
			"reference projection folded over the Session's log up to that point (inherited events ignored), also " +
			"after a restart; the first disagreement is reported with the events since the last agreeing view.",
	},
	invProjSettleOnAdmit: {
		Name: "INV-PROJ-SETTLE-ON-ADMIT", Kind: KindSafety, Guards: []string{"PROJ-8", "PROJ-9", "PROJ-5"},
		Doc: "In the views the host publishes a question becomes settled only when the log since the previous view " +
			"records its settlement: the admission of a user/message whose source is that call's user-question-reply, " +
			"or its own answer tool/result. Queuing the reply (an inbox splice) never settles.",
	},
	invInboxMirror: {
		Name: "INV-INBOX-MIRROR", Kind: KindValidation, Guards: []string{"AGENT-1", "LATE-6", "LATE-9"},
		Doc: "Every inbox splice is valid against the inbox the log folds to (start and removal in range, message ids " +
			"unique across both lists while pending, a known target), and every inbox view the host publishes equals " +
			"that fold (inherited splices ignored).",
	},
	invLateOnlyContinued: {
		Name: "INV-LATE-ONLY-CONTINUED", Kind: KindSafety, Guards: []string{"LATE-1"}, Needs: NeedsFold,
		Doc: "A late reply is queued (answer() accepted) only for a call the reference projection shows as active and " +
			"continued at that point: never for an unknown, open, settled or legacy call. A reply the model steers with a " +
			"recorded user-question-reply source (another producer's input, NODE-1) is not answer()'s and is not checked.",
	},
	invOneReplyAwaiting: {
		Name: "INV-ONE-REPLY-AWAITING", Kind: KindSafety, Guards: []string{"LATE-2", "LATE-6"},
		Doc: "At most one reply per call awaits admission: no reply is queued for a call while another is queued, or " +
			"claimed into a turn that has not ended without admitting it; this holds across restarts, where the durable " +
			"inbox stands in for the lost reservation. It binds the replies answer() queues; one the model steers with a " +
			"recorded source (NODE-1) is taken as it is, but it awaits admission like any other.",
	},
	invAnswerValidated: {
		Name: "INV-ANSWER-VALIDATED", Kind: KindSafety, Guards: []string{"LATE-3", "LATE-2", "LATE-1"},
		Doc: "An accepted batch names each question id of the call exactly once; BAD_ANSWER is returned only for a batch " +
			"that does not, and only after the earlier checks passed (a non-continued call returns false, an awaiting " +
			"reply gives REPLY_QUEUED first).",
	},
	invAcceptSteers: {
		Name: "INV-ACCEPT-STEERS", Kind: KindSafety, Guards: []string{"LATE-4", "LATE-5", "PROJ-9"},
		Doc: "answer() returns true exactly when it queued one next-step message with source {user-question-reply, callId, " +
			"answered} and the compact text {\"kind\":\"answer_to_pending_question\",\"tool\":\"ask_user_question\"," +
			"\"callId\",\"questions\",\"answers\"} carrying the caller's batch; false or a failure queues nothing.",
	},
	invLateAnswerable: {
		Name: "INV-LATE-ANSWERABLE", Kind: KindSafety, Guards: []string{"LATE-7", "LATE-1", "LATE-2", "AGENT-3", "PROJ-4"},
		Needs: NeedsFold,
		Doc: "A continued question stays answerable: answer() returns false only when the reference projection does not " +
			"show the call continued, and REPLY_QUEUED only while a reply awaits admission (a discarded reply, or one " +
			"claimed into a turn that ended, releases the call).",
	},
	invLiveQuestionsEnd: {
		Name: "INV-LIVE-QUESTIONS-END", Kind: KindLiveness, Guards: []string{"ASK-10", "WAIT-3", "WAIT-5", "AGENT-5"},
		Doc: "In the healed phase every timed question ends: once the bound has passed after its expiry instant (its " +
			"deadline, or the last claim's release after it) and after the last fault, it is settled, continued or " +
			"removed; none is left open with no claim held.",
	},
	invLiveNoLeak: {
		Name: "INV-LIVE-NO-LEAK", Kind: KindLiveness, Guards: []string{"ASK-11", "LATE-7", "AGENT-2", "GW-1"},
		Needs: NeedsHostState,
		Doc: "Nothing volatile leaks: at the end every wait the host holds belongs to a call still waiting, with the " +
			"claim count the wire shows and a timer armed at its deadline exactly when unclaimed; every reservation " +
			"belongs to a reply that awaits admission; every pending gateway request belongs to a call still waiting, " +
			"delivered to the clients that hold it.",
	},
	invClientNoManufacturedReply: {
		Name: "INV-CLIENT-NO-MANUFACTURED-REPLY", Kind: KindSafety, Guards: []string{"AGENT-5", "CARD-11", "CARD-10"},
		Needs: NeedsClients,
		Doc: "A client sends an answer (a waterfall result or a late-answer call) only in response to its user's submit, " +
			"at most one per submit, and rejects with ASK_CANCELLED only for an unkeyed blocking request: hiding or " +
			"closing a keyed panel records nothing and manufactures no reply.",
	},
	invClientClaimDiscipline: {
		Name: "INV-CLIENT-CLAIM-DISCIPLINE", Kind: KindSafety, Guards: []string{"CLAIM-1", "CLAIM-2", "CLAIM-4", "CLAIM-5"},
		Needs: NeedsClients,
		Doc: "A client opens attachWait for a timed request before it answers or rejects it; it keeps that claim until " +
			"the host has its outcome (no cancel of the claim between sending a result and the result's reply, nor in " +
			"the same input just before it); it releases the claim before delegating with next; and a claim stream that " +
			"ends with no frame (no host wait) makes it delegate the request with next in that input.",
	},
	invClientExpiry: {
		Name: "INV-CLIENT-EXPIRY", Kind: KindSafety, Guards: []string{"CLAIM-7", "CD-1", "CD-4", "CD-6"},
		Needs: NeedsClients,
		Doc: "A client's local countdown rejects with ASK_TIMED_OUT only after it received the claim frame and its own " +
			"clock reached the frame's arrival time plus remainingMs (pauses only add), and never for a card its user " +
			"edited or took time on (the freeze is for good on that client).",
	},
	invReservationHeld: {
		Name: "INV-RESERVATION-HELD", Kind: KindSafety, Guards: []string{"LATE-6", "LATE-7", "LATE-4"},
		Needs: NeedsHostState,
		Doc: "The converse of INV-LIVE-NO-LEAK's reservation rule, at every probe and at the end: a reply answer() queued " +
			"holds its Session's reservation for its call, under its message id, until its turn settles (admitted, " +
			"discarded, or claimed into a turn that ended without it); a reply restored after a restart is exempt until " +
			"it is claimed again.",
	},
	invClientCards: {
		Name: "INV-CLIENT-CARDS", Kind: KindSafety, Guards: []string{"CARD-1", "CARD-2", "CARD-4", "CARD-9", "CARD-12"},
		Needs: NeedsClients,
		Doc: "At every probe and at the end, a page lists one card per (Session, call id); a question request it still " +
			"holds keeps its call's card through the claim's first frame, listed or not in the projection; a continued " +
			"card whose reply waits in the page's inbox view is not listed unless a live request holds it; a card with a " +
			"waterfall submits through it, not through the late-answer RPC.",
	},
	invClientCountdown: {
		Name: "INV-CLIENT-COUNTDOWN", Kind: KindSafety, Guards: []string{"CD-2", "CD-3", "CD-5", "CD-7", "CD-9"},
		Needs: NeedsClients,
		Doc: "At every probe and at the end, a focused card's countdown does not run (focus pauses it, also a focus made " +
			"before the claim handshake); a card shows editing only after its user edited it on this client and waiting " +
			"only after a Take time on this client (a recommended preselection, paging and focus are not edits; Take " +
			"time holds only its own client); hiding a keyed card's panel releases no claim.",
	},
	invClientRows: {
		Name: "INV-CLIENT-ROWS", Kind: KindSafety, Guards: []string{"ROW-1", "ROW-2", "ROW-3"},
		Needs: NeedsClients,
		Doc: "At every probe and at the end, a legacy call's tool row offers no action, and a row whose call the page's " +
			"projection lists active with no reply of it queued in the page's inbox offers Answer (also once a queued " +
			"reply was discarded).",
	},
	invClientNodes: {
		Name: "INV-CLIENT-NODES", Kind: KindSafety, Guards: []string{"NODE-1", "NODE-2", "NODE-3"},
		Needs: NeedsClients,
		Doc: "At every probe and at the end, a page draws one late-reply node for each user/message of the log it " +
			"received whose source is a late reply (user-question-reply, a call id, outcome answered), and none for " +
			"anything else (the same JSON pasted into an ordinary message, another outcome); a node it cannot read keeps " +
			"the raw text.",
	},
	invServiceContract: {
		Name: "INV-SERVICE-CONTRACT", Kind: KindSafety, Guards: []string{"ASK-1", "ASK-2", "ASK-3", "ASK-6", "ASK-8", "CALLER-3"},
		Doc: "The question service's own refusals on its direct API: askTimed with a timeout that is not an integer " +
			"number of ms in 1..2147483647 fails BAD_TIMEOUT before liveness and dispatch; ask with an already aborted " +
			"signal fails ASK_ABORTED and with no question EMPTY_QUESTIONS, before any answerer (askTimed too, once its " +
			"timeout is valid, its caller the live root and its call id free); a live root's ask whose intent approves no " +
			"option label of its question, or has no detail, fails BAD_INTENT; the Session's live root (a runtime root, " +
			"or a disposed owner's child back as a root) is never refused CALLER_NOT_LIVE or DELEGATED_CALLER; askTimed " +
			"forwards its request with wait {callId, timed: true}.",
	},
	invTimedNeedsLiveAgent: {
		Name: "INV-TIMED-NEEDS-LIVE-AGENT", Kind: KindSafety, Guards: []string{"TOOL-6"},
		Doc: "The timed path needs a live agent, and only the lack of one fails a call for that reason: the oracle " +
			"models which Session has a live agent from the trace (an accepted open or fork, a turn the host starts, a " +
			"direct call the host runs for the live agent enter it; a session close and a restart dispose it). A tool " +
			"call or run_code sub-call made while its Session's agent is live never fails \"timed questions require a " +
			"live agent\"; one made while it is not never returns pending; a direct askTimed with no agent or a stale " +
			"instance fails with an error, never a value.",
	},
	invToolErrorShape: {
		Name: "INV-TOOL-ERROR-SHAPE", Kind: KindSafety, Guards: []string{"TOOL-9", "TOOL-3", "TOOL-5", "CALLER-2"},
		Doc: "Every failure of ask_user_question (a tool result or a run_code sub-call's dispatch) that the tool or the " +
			"service made reaches the model as an error whose text is \"Error: \" and the message, keeping {name, code} " +
			"for a service error (name UserQuestionError, a code) and neither for the tool's own validation failures; " +
			"where the cause is known the exact text of docs/PEER.md §10 is required: an invalid timeout, a repeated " +
			"question id (plain, no code), a child owned by a live agent (UserQuestionError/DELEGATED_CALLER). The " +
			"runtime's own results (TOOL_ABORTED, TOOL_ABORTED_BEFORE_DISPATCH, TOOL_OUTCOME_UNKNOWN) are not the tool's.",
	},
	invRejectionRestored: {
		Name: "INV-REJECTION-RESTORED", Kind: KindSafety, Guards: []string{"ASK-5", "TOOL-9"},
		Doc: "A winning client rejection is restored as the service says: {name: UserQuestionError, code, message} is " +
			"that domain error (the tool result keeps {UserQuestionError, code} and the text \"Error: <message>\", a " +
			"direct call fails with exactly that error), also when the call's signal aborted with it; a rejection of " +
			"another shape becomes ASK_ABORTED when the call's signal had aborted, and otherwise propagates unchanged " +
			"(a plain tool error with its message and no {name, code}). Under askTimed only ASK_TIMED_OUT is mapped " +
			"further (to pending, INV-TIMED-RESULT-MAPPING).",
	},
	invClaimEndIgnored: {
		Name: "INV-CLAIM-END-IGNORED", Kind: KindSafety, Guards: []string{"CLAIM-6", "CLAIM-3", "WAIT-4"},
		Doc: "The host ends a claim stream that yielded its frame only when the claim's wait ends (its call's result, " +
			"host expiry, a turn abort, an unload) or its client no longer holds the request: by the end of that Apply " +
			"the request is finished at that client, so the rejection the client's listener sends when its claim " +
			"stream ends before it answered (\"the foreground question wait ended\") finds nothing to settle and is " +
			"ignored. A client's own cancel, a disconnect and a restart end streams by command and are not the host's. " +
			"The host's half of CLAIM-6: the client's listener ending is covered by engine/client's CLAIM-6 tests.",
	},
}

func init() {
	// The client-side invariants issue 12 added for the last client gap ids, each in its
	// own file (oracle/inv_client_*.go).
	catalogue[invClientSweep] = Invariant{
		Name: "INV-CLIENT-SWEEP", Kind: KindSafety, Guards: []string{"CARD-8"},
		Needs: NeedsClients,
		Doc: "At every probe and at the end, a call-keyed question card the page lists is justified by the last update of " +
			"its Session the page reconciled: the projection lists the call answerable (open, or continued with no reply " +
			"of it queued), a live request held it then, or a request for it arrived since; otherwise that update removed it.",
	}
	catalogue[invClientDrafts] = Invariant{
		Name: "INV-CLIENT-DRAFTS", Kind: KindSafety, Guards: []string{"DRAFT-2", "DRAFT-3", "CARD-8"},
		Needs: NeedsClients,
		Doc: "At every probe and at the end, a listed card's stored draft fits its question set; a card that closed on " +
			"this page load left no draft; and once a Session's composer is mounted on a reconciled page every stored " +
			"draft of that Session belongs to a card the page lists.",
	}
	catalogue[invClientUnkeyedKeys] = Invariant{
		Name: "INV-CLIENT-UNKEYED-KEYS", Kind: KindSafety, Guards: []string{"CARD-3"},
		Needs: NeedsClients,
		Doc: "An unkeyed card's key is never one an earlier page load of the same client showed, as a card or as a " +
			"stored draft: the key's random part is drawn once per page load, so no old draft attaches to it.",
	}
	catalogue[invClientSubmit] = Invariant{
		Name: "INV-CLIENT-SUBMIT", Kind: KindSafety, Guards: []string{"CARD-5", "CARD-6", "CARD-7"},
		Needs: NeedsClients,
		Doc: "After a waterfall submission the card stays busy with its complete draft until the page reconciles it away " +
			"or a request for the call arrives again; if the call turns continued meanwhile the card re-arms (not busy, " +
			"the resubmit hint, the kept draft) until its user acts, and a resubmit by RPC as its user's next action sends " +
			"that kept batch; after the host accepts a late answer the panel is " +
			"closed until something republishes the card.",
	}
	catalogue[invClientAutofocus] = Invariant{
		Name: "INV-CLIENT-AUTOFOCUS", Kind: KindSafety, Guards: []string{"CD-8"},
		Needs: NeedsClients,
		Doc: "At every probe and at the end, a card that has the page's focus without a user focus action of this page " +
			"load was autofocused: it has an optionless question, and (keyed) it had a ready channel with no countdown on " +
			"this page load (an untimed request, a frame with no remainingMs, a continued row).",
	}
	catalogue[invClientConversation] = Invariant{
		Name: "INV-CLIENT-CONVERSATION", Kind: KindSafety, Guards: []string{"NODE-4"},
		Needs: NeedsClients,
		Doc: "At every probe and at the end, a late reply in a page's chat is process content: inside a process group of " +
			"its own turn at the group's depth plus one, after its turn's disclosure with the group directly under it " +
			"(also when the reply opens the turn), and hidden exactly when its turn or its group is folded.",
	}
}

// Catalogue returns every invariant, in catalogue order.
func Catalogue() []Invariant {
	out := make([]Invariant, numInvariants)
	copy(out, catalogue[:])
	return out
}

// Lookup returns the invariant called name.
func Lookup(name string) (Invariant, bool) {
	for _, inv := range catalogue {
		if inv.Name == name {
			return inv, true
		}
	}
	return Invariant{}, false
}
