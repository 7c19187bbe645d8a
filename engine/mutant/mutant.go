package mutant

import (
	"errors"
	"strconv"
	"strings"
)

// ID is one mutant. The zero ID is no mutant.
type ID uint8

// The mutants. Host side first, then client side; the order is the report's order.
const (
	_ ID = iota
	WaterfallAfterPending
	UnconditionalDeadline
	ReleaseRestartsTimeout
	DeliveryIsClaim
	ClaimFrameFullTimeout
	PendingEmptyBatch
	ExpiryAbortsTurn
	NoProviderHangs
	SettleOnSplice
	UnknownOutcomeDropsQuestion
	LegacyTracked
	NoReservation
	LateAnswerOpenCall
	LaxAnswerValidation
	DiscardKeepsReservation
	AckBeforeFlush
	DisconnectIsNext
	ReplayNewEventID
	CancelToWinner
	ForkInheritsQuestions
	WriteFaultKeepsReservation
	LivenessBeforeTimeout
	IntentApproveUnchecked
	EmptyBatchForwarded
	HeaderNeedsObjects
	ReusedCallKeepsPlace
	UnreadableReplyDropped
	AskTimedUntimedWait
	SubCallWithoutAgent
	ToolErrorDropsName
	PlainRejectionAborts
	ReleaseEndsEveryClaim
	ClaimReleasedOnLocalReturn
	ClosedPanelReplies
	TakeTimeIgnored
	SweepByProjection
	FocusLostAtHandshake
	PreselectionIsEdit
	QueuedReplyAnyCall
	NodeIgnoresOutcome
	NodeByText
	UnknownOutcomeRowClosed
	ContinuedRowNewCard
	HideReleasesClaim
	NodeDropsUnreadableText
	RPCChannelFirst
	FramelessEndWaits
	SweepOnlySettled
	RemovalKeepsDraft
	PageKeyPerClient
	WaterfallSubmitAcknowledged
	ContinuedKeepsBusy
	AutofocusIgnoresCountdown
	ReplyPlacedAsTrigger
	MountSkipsPrune
	RPCAcceptKeepsPanel
	DraftCountUnchecked
	numIDs
)

// Sides.
const (
	Host   = "host"
	Client = "client"
)

// Info describes one mutant.
type Info struct {
	ID     ID
	Name   string
	Side   string   // Host or Client
	Breaks []string // requirement ids the bug breaks
	Doc    string   // what the bug does, in one line
	Source string   // where the idea comes from
}

var table = [numIDs]Info{
	WaterfallAfterPending: {
		Name: "waterfall-after-pending", Side: Host, Breaks: []string{"GW-1", "ASK-8", "ASK-11"},
		Doc: "askTimed forwards the request with the turn's signal and returns pending from the wait's expiry alone, " +
			"so the waterfall stays alive (delivered, replayed, answerable) after the tool result was pending",
		Source: "the decision's rejected alternative \"Keep the waterfall alive after returning pending\"",
	},
	UnconditionalDeadline: {
		Name: "unconditional-deadline", Side: Host, Breaks: []string{"WAIT-2"},
		Doc: "the host's timer stays armed while a client holds a claim: the wait expires at its deadline whatever the " +
			"clients are doing (editing, Take time)",
		Source: "the decision's rejected alternative \"Unconditional Host deadline\"",
	},
	ReleaseRestartsTimeout: {
		Name: "release-restarts-timeout", Side: Host, Breaks: []string{"WAIT-1", "WAIT-5"},
		Doc: "losing the last claim re-arms the timer with the full timeout from now instead of the original deadline",
		Source: "leases and idle timers that reset their TTL on every release (setTimeout(expire, timeoutMs) re-run on the " +
			"last release)",
	},
	DeliveryIsClaim: {
		Name: "delivery-is-claim", Side: Host, Breaks: []string{"WAIT-3"},
		Doc: "forwarding a timed request to a connected client counts as a claim: the timer is disarmed until the wait " +
			"ends, although no client pulled the claim stream's frame",
		Source: "the decision: \"Delivery to a transport queue is not a claim\"; queues that start a visibility lease on " +
			"delivery rather than on pickup",
	},
	ClaimFrameFullTimeout: {
		Name: "claim-frame-full-timeout", Side: Host, Breaks: []string{"WAIT-4", "WAIT-1"},
		Doc: "the claim frame's remainingMs is the wait's whole timeout, not deadline − now, so every claim (a reload, a " +
			"second tab) starts a fresh countdown",
		Source: "countdowns that send the configured duration instead of the time left (the decision: \"one " +
			"Host-computed remainingMs frame\")",
	},
	PendingEmptyBatch: {
		Name: "pending-empty-batch", Side: Host, Breaks: []string{"TOOL-7"},
		Doc: "the pending tool result also carries an empty answer batch, \"answers\":[], which reads as a skipped answer",
		Source: "the decision: \"A pending result is neither a skipped answer nor permission\"; tools that report a timeout " +
			"as an empty selection",
	},
	ExpiryAbortsTurn: {
		Name: "expiry-aborts-turn", Side: Host, Breaks: []string{"WAIT-8"},
		Doc: "an unattended expiry cancels the calling turn as well as the wait's private signal",
		Source: "timeouts wired to the caller's cancellation (a shared AbortController or context) instead of a private " +
			"signal; the decision: \"Unattended Host expiry aborts only the private wait signal\"",
	},
	NoProviderHangs: {
		Name: "no-provider-hangs", Side: Host, Breaks: []string{"ASK-10", "ASK-11"},
		Doc: "NO_PROVIDER under askTimed is swallowed without holding on the wait: the ask never completes, not even at " +
			"the deadline",
		Source: "the decision: \"NO_PROVIDER waits on the same bounded wait lifetime, not a permanently unresolved " +
			"promise\"",
	},
	SettleOnSplice: {
		Name: "settle-on-splice", Side: Host, Breaks: []string{"PROJ-9", "PROJ-8"},
		Doc: "the projection settles a question when its reply is queued (the inbox splice), before any step admits it",
		Source: "the decision's rejected alternative of a dedicated late-reply event (queuing recorded as the answer); " +
			"docs/PEER.md §8.1 (the splice is not a projection input)",
	},
	UnknownOutcomeDropsQuestion: {
		Name: "unknown-outcome-drops-question", Side: Host, Breaks: []string{"PROJ-4", "AGENT-3"},
		Doc: "a tool/result failed with TOOL_OUTCOME_UNKNOWN (restart repair) removes the question instead of making it " +
			"continued, so it can no longer be answered",
		Source: "crash repair that treats an interrupted call like any other failure (the decision: \"continued for " +
			"pending or TOOL_OUTCOME_UNKNOWN\")",
	},
	LegacyTracked: {
		Name: "legacy-tracked", Side: Host, Breaks: []string{"PROJ-2", "TOOL-1"},
		Doc:    "the projection tracks every ask_user_question call, whatever the latest request/header says",
		Source: "the decision: \"legacy calls are not tracked\"; recognising the tool by name instead of by its timed schema",
	},
	NoReservation: {
		Name: "no-reservation", Side: Host, Breaks: []string{"LATE-2", "LATE-6"},
		Doc: "answer() does not check for a reply already awaiting admission: a second late reply is accepted while the " +
			"first is queued",
		Source: "the double-submit race of forms without an idempotency key; the decision's per-Session reservation",
	},
	LateAnswerOpenCall: {
		Name: "late-answer-open-call", Side: Host, Breaks: []string{"LATE-1"},
		Doc: "answer() accepts a late reply for a call that is still open (its foreground wait is running), opening a " +
			"second answer path beside the waterfall",
		Source: "the decision: \"A continued question accepts answer\"; the rejected alternative's two competing answer " +
			"paths",
	},
	LaxAnswerValidation: {
		Name: "lax-answer-validation", Side: Host, Breaks: []string{"LATE-3"},
		Doc: "answer() checks only that every id it names is a question of the call, so a batch missing a question is " +
			"accepted",
		Source: "validation that checks membership but not coverage (the decision: \"BAD_ANSWER unless the batch names each " +
			"question exactly once\")",
	},
	DiscardKeepsReservation: {
		Name: "discard-keeps-reservation", Side: Host, Breaks: []string{"LATE-7", "CARD-9"},
		Doc: "discarding a queued reply removes it from the inbox but keeps its reservation, so the question answers " +
			"REPLY_QUEUED forever",
		Source: "a lock released on success only (the decision: \"discard ... releases the reservation for another " +
			"answer\")",
	},
	AckBeforeFlush: {
		Name: "ack-before-flush", Side: Host, Breaks: []string{"AGENT-6", "LATE-4"},
		Doc: "the late-answer RPC reports true before the reply is persisted: a crash inside the write-behind window loses " +
			"an accepted reply",
		Source: "the peer's shipped behaviour (docs/PEER-RUNTIME.md §8.11: answer() acknowledges a steer batched for ~200 ms)",
	},
	DisconnectIsNext: {
		Name: "disconnect-is-next", Side: Host, Breaks: []string{"GW-6"},
		Doc: "a client that disconnects counts as having passed: when the last delivery goes, the request settles next " +
			"(NO_PROVIDER) instead of waiting for a reconnect",
		Source: "transports that treat a dropped consumer as a nack (the decision's GW-6: \"A disconnect is not a next()\")",
	},
	ReplayNewEventID: {
		Name: "replay-new-event-id", Side: Host, Breaks: []string{"GW-5"},
		Doc: "a pending request replayed to a (re)connecting client gets a freshly minted event id, so that client's " +
			"outcome names an event the gateway does not know",
		Source: "at-least-once redelivery that re-mints message ids (consumers then cannot deduplicate or ack)",
	},
	CancelToWinner: {
		Name: "cancel-to-winner", Side: Host, Breaks: []string{"GW-1"},
		Doc:    "when a request settles, the cancel goes to every client that held it, the winner included",
		Source: "broadcast cancellation that forgets to exclude the settling consumer",
	},
	ForkInheritsQuestions: {
		Name: "fork-inherits-questions", Side: Host, Breaks: []string{"PROJ-11"},
		Doc: "a fork's projection folds the events it inherited from its parent like its own, so the parent's " +
			"questions (open, continued, settled) and its timed header reappear in the fork",
		Source: "a projection rebuilt from a copied log without the fork's boundary (docs/PEER.md §5.1: events with seq < " +
			"inheritedEventCount are ignored, \"a parent's questions never enter a fork\")",
	},
	WriteFaultKeepsReservation: {
		Name: "inbox-write-fault-keeps-reservation", Side: Host, Breaks: []string{"LATE-5", "LATE-2"},
		Doc: "a late answer whose steer fails (a storage write error) propagates the failure but keeps its reservation, " +
			"so the question answers REPLY_QUEUED until a restart although no reply awaits admission",
		Source: "a lock released on the success path only, not when the guarded write throws (the decision: \"If steering " +
			"fails the reservation is released and the failure propagates\")",
	},
	ClaimReleasedOnLocalReturn: {
		Name: "claim-released-on-local-return", Side: Client, Breaks: []string{"CLAIM-2"},
		Doc: "the client cancels its claim stream as soon as it sends its answer, before the host has the outcome, so an " +
			"overdue host timer can beat the answer",
		Source: "the decision: \"Returning an answer locally is not delivery: releasing the claim then could let an overdue " +
			"Host timer beat that answer\"",
	},
	ClosedPanelReplies: {
		Name: "closed-panel-replies", Side: Client, Breaks: []string{"AGENT-5", "CARD-11"},
		Doc: "closing a keyed question panel sends a dismissal: every question skipped, through the waterfall or the " +
			"late-answer RPC",
		Source: "the decision's rejected alternative \"a manufactured dismissal message on panel close\"",
	},
	LivenessBeforeTimeout: {
		Name: "liveness-before-timeout", Side: Host, Breaks: []string{"ASK-6"},
		Doc: "askTimed checks that its caller is the live root before it validates the timeout, so a caller that is not " +
			"live with an invalid timeout gets CALLER_NOT_LIVE instead of BAD_TIMEOUT",
		Source: "the usual guard order (authorise, then validate) applied where the spec validates first (issue 12)",
	},
	IntentApproveUnchecked: {
		Name: "intent-approve-unchecked", Side: Host, Breaks: []string{"ASK-3"},
		Doc: "a plan review's intent is checked for its detail only: an approve that is none of the question's option " +
			"labels goes through",
		Source: "a validation that checks presence and forgets membership (issue 12)",
	},
	EmptyBatchForwarded: {
		Name: "empty-batch-forwarded", Side: Host, Breaks: []string{"ASK-2"},
		Doc:    "ask() forwards an empty question batch to the clients instead of failing EMPTY_QUESTIONS",
		Source: "validation left to the UI (issue 12)",
	},
	HeaderNeedsObjects: {
		Name: "header-needs-objects", Side: Host, Breaks: []string{"PROJ-2"},
		Doc: "the projection reads a request/header's tools as an array of objects: one entry that is not an object " +
			"(null, a string) makes the whole header untimed, so its timed calls go untracked",
		Source: "decoding tools into a typed list and treating a decode error as no tools (the oracle's own reader had " +
			"this bug until issue 12)",
	},
	ReusedCallKeepsPlace: {
		Name: "reused-call-keeps-place", Side: Host, Breaks: []string{"PROJ-3", "PROJ-7"},
		Doc: "a reused call id (or a repeated PTC dispatch) updates its active row in place instead of moving it to the " +
			"end as open",
		Source: "an upsert by key where the spec asks for remove-then-append (issue 12)",
	},
	UnreadableReplyDropped: {
		Name: "unreadable-reply-dropped", Side: Host, Breaks: []string{"PROJ-8"},
		Doc: "an admitted reply whose text is not a usable batch removes its question with no settled record, instead of " +
			"settling it with an empty batch",
		Source: "treating an unparsable payload as no payload (PROJ-6's rule applied to PROJ-8) (issue 12)",
	},
	SweepByProjection: {
		Name: "sweep-by-projection", Side: Client, Breaks: []string{"CARD-2", "CARD-8"},
		Doc: "reconciliation removes every call-keyed card its projection does not list, even while a forwarded request " +
			"still holds it (before the projection lists the call, a legacy or direct call it never lists)",
		Source: "trusting the projection as the only source of cards (issue 12)",
	},
	FocusLostAtHandshake: {
		Name: "focus-lost-at-handshake", Side: Client, Breaks: []string{"CD-3"},
		Doc: "a focus made before the claim handshake is forgotten when the frame arrives: the countdown starts running " +
			"while the user is in the answer surface",
		Source: "starting the timer on the frame without consulting the focus state (issue 12)",
	},
	PreselectionIsEdit: {
		Name: "preselection-is-edit", Side: Client, Breaks: []string{"CD-5"},
		Doc:    "a card whose first option is marked recommended starts as edited: the preselection freezes the countdown",
		Source: "a selection change handler that also fires for the initial selection (issue 12)",
	},
	QueuedReplyAnyCall: {
		Name: "queued-reply-any-call", Side: Client, Breaks: []string{"CARD-9"},
		Doc:    "a continued card is hidden while any late reply waits in the inbox, not only its own",
		Source: "a lookup that forgets to compare the call id (issue 12)",
	},
	NodeIgnoresOutcome: {
		Name: "node-ignores-outcome", Side: Client, Breaks: []string{"NODE-1"},
		Doc:    "a message whose source kind is user-question-reply is drawn as a late-reply node whatever its outcome",
		Source: "identifying a reply by its source kind alone (issue 12)",
	},
	NodeByText: {
		Name: "node-by-text", Side: Client, Breaks: []string{"NODE-1"},
		Doc: "an ordinary message whose text is a late reply's JSON (kind answer_to_pending_question, a callId) is drawn " +
			"as a late-reply node",
		Source: "identifying a reply by parsing its payload instead of by its source (issue 12)",
	},
	UnknownOutcomeRowClosed: {
		Name: "unknown-outcome-row-closed", Side: Client, Breaks: []string{"ROW-1"},
		Doc: "a tool row whose result failed TOOL_OUTCOME_UNKNOWN shows a plain failure with no Answer action, though the " +
			"projection lists the question continued",
		Source: "treating every failed result alike in the row's state table (issue 12)",
	},
	ContinuedRowNewCard: {
		Name: "continued-row-new-card", Side: Client, Breaks: []string{"CARD-1"},
		Doc: "a continued projection row makes a new card for its call instead of taking over the card its request made, " +
			"so the page lists two cards for one call",
		Source: "creating the late-answer card without looking up the existing one (issue 12)",
	},
	HideReleasesClaim: {
		Name: "hide-releases-claim", Side: Client, Breaks: []string{"CD-7"},
		Doc: "hiding a keyed card's panel cancels its claim stream: the host's timer governs again while the card waits " +
			"hidden",
		Source: "releasing a resource when its view goes away (issue 12)",
	},
	NodeDropsUnreadableText: {
		Name: "node-drops-unreadable-text", Side: Client, Breaks: []string{"NODE-2"},
		Doc: "a late-reply node whose payload cannot be read as questions and answers shows nothing instead of its raw " +
			"text",
		Source: "rendering only what parsed (issue 12)",
	},
	AskTimedUntimedWait: {
		Name: "ask-timed-untimed-wait", Side: Host, Breaks: []string{"ASK-8"},
		Doc: "askTimed forwards its request with wait {callId} but without timed: true, so clients treat it as a blocking " +
			"request: no claim, no countdown, and the host's timer alone decides",
		Source: "building the wait from the call id alone, as the blocking tool path does (issue 12)",
	},
	SubCallWithoutAgent: {
		Name: "sub-call-without-agent", Side: Host, Breaks: []string{"TOOL-6"},
		Doc: "the host runs a run_code sub-call of ask_user_question with no agent (only top-level calls get theirs), " +
			"so a timed sub-call fails \"timed questions require a live agent\" while its Session's root is live",
		Source: "treating the PTC program as the caller instead of the agent that runs it (issue 12)",
	},
	ToolErrorDropsName: {
		Name: "tool-error-drops-name", Side: Host, Breaks: []string{"TOOL-9"},
		Doc: "a service failure reaches the model as a tool error that keeps its code but not its name " +
			"(error {code} instead of {name: UserQuestionError, code})",
		Source: "copying only the field the model's prompt mentions when mapping an error to a tool result (issue 12)",
	},
	PlainRejectionAborts: {
		Name: "plain-rejection-aborts", Side: Host, Breaks: []string{"ASK-5"},
		Doc: "a client rejection that is not a UserQuestionError becomes ASK_ABORTED whether or not the ask's signal " +
			"aborted, instead of propagating unchanged",
		Source: "reading every rejection that is not the service's own as the transport's abort (issue 12)",
	},
	ReleaseEndsEveryClaim: {
		Name: "release-ends-every-claim", Side: Host, Breaks: []string{"CLAIM-6", "WAIT-4"},
		Doc: "releasing one claim (a client's cancel, delegation or disconnect) ends every claim stream of the wait " +
			"while the wait stays open, so the other clients' listeners end and their rejection settles the request",
		Source: "reusing the wait's close loop over its claims for a single release (issue 12)",
	},
	RPCChannelFirst: {
		Name: "rpc-channel-first", Side: Client, Breaks: []string{"CARD-4"},
		Doc: "a card that once had the late-answer RPC (its call was continued) keeps submitting through it, even when a " +
			"new request for the call (a reused call id) attaches a waterfall",
		Source: "a channel chosen once and cached on the card (issue 12)",
	},
	FramelessEndWaits: {
		Name: "frameless-end-waits", Side: Client, Breaks: []string{"CLAIM-5"},
		Doc: "a claim stream that ends with no frame (no host wait behind the request) leaves the client waiting instead " +
			"of delegating with next",
		Source: "treating a stream's end as nothing more than the end of updates (issue 12)",
	},
	SweepOnlySettled: {
		Name: "sweep-only-settled", Side: Client, Breaks: []string{"CARD-8"},
		Doc: "reconciliation removes a call-keyed card only when the projection lists its call settled, so a card whose " +
			"call leaves the active list any other way (a legacy call the projection never tracks, a reused call id) stays",
		Source: "sweeping on the settle event instead of on absence from the active list (issue 12)",
	},
	RemovalKeepsDraft: {
		Name: "removal-keeps-draft", Side: Client, Breaks: []string{"CARD-8", "DRAFT-3"},
		Doc:    "removing a card closes and unpublishes it but leaves its draft in the draft store",
		Source: "a teardown that forgets the card's persisted side (issue 12)",
	},
	PageKeyPerClient: {
		Name: "page-key-per-client", Side: Client, Breaks: []string{"CARD-3"},
		Doc: "the random part of unkeyed card keys is drawn once per client instead of once per page load, so after a " +
			"reload a new blocking request's card gets an old card's key and its stored draft",
		Source: "a random id cached in a module-level variable that outlives the page it names (issue 12)",
	},
	WaterfallSubmitAcknowledged: {
		Name: "waterfall-submit-acknowledged", Side: Client, Breaks: []string{"CARD-5"},
		Doc: "a waterfall submission clears the card's busy state as soon as the answer is handed to the listener, as if " +
			"returning it locally were its delivery",
		Source: "the decision: a waterfall answer has no acknowledgement; UIs that un-spin a button when the local promise " +
			"resolves (issue 12)",
	},
	ContinuedKeepsBusy: {
		Name: "continued-keeps-busy", Side: Client, Breaks: []string{"CARD-6"},
		Doc: "a card whose waterfall submission is in flight when its question turns continued stays busy with no resubmit " +
			"hint, so the kept draft cannot be sent by the late-answer RPC",
		Source: "a state change handler that updates the channel but not the composer's busy flag (issue 12)",
	},
	AutofocusIgnoresCountdown: {
		Name: "autofocus-ignores-countdown", Side: Client, Breaks: []string{"CD-8"},
		Doc: "the optionless text field autofocuses as soon as a channel is ready, also while a countdown runs: the " +
			"focus pause stops the countdown without the user touching the card",
		Source: "an autofocus guard that checks the channel and forgets the countdown (issue 12)",
	},
	ReplyPlacedAsTrigger: {
		Name: "reply-placed-as-trigger", Side: Client, Breaks: []string{"NODE-4"},
		Doc: "a late reply that opens a turn is laid out like the turn's trigger message: its group sits at top level, " +
			"before the turn's disclosure, outside whole-turn folding",
		Source: "placing every user message that starts a turn as its trigger, the reply included (issue 12)",
	},
	MountSkipsPrune: {
		Name: "mount-skips-prune", Side: Client, Breaks: []string{"DRAFT-3"},
		Doc: "mounting a Session's composer does not prune its drafts to the live card keys, so the drafts of cards that " +
			"did not come back after a reload stay in storage for good",
		Source: "a cleanup left to the close path alone (issue 12)",
	},
	RPCAcceptKeepsPanel: {
		Name: "rpc-accept-keeps-panel", Side: Client, Breaks: []string{"CARD-7"},
		Doc:    "an accepted late-answer RPC clears the busy state but leaves the panel open",
		Source: "treating the accepted reply like a failed one minus the message (issue 12)",
	},
	DraftCountUnchecked: {
		Name: "draft-count-unchecked", Side: Client, Breaks: []string{"DRAFT-2"},
		Doc: "a stored draft is restored if its index is in range and its entries are well typed, whatever their number: a " +
			"draft of another question set attaches to the card (missing entries blank, extra ones dropped)",
		Source: "validating each stored entry but not the list's length against the card (issue 12)",
	},
	TakeTimeIgnored: {
		Name: "take-time-ignored", Side: Client, Breaks: []string{"CD-4", "CD-6"},
		Doc: "Take time records its disposition but does not freeze the local countdown, which still expires the card",
		Source: "a UI flag saved but never consulted by the timer (the decision: \"First edit or Take time freezes the " +
			"countdown\")",
	},
}

// All lists every mutant in report order.
func All() []Info {
	out := make([]Info, 0, numIDs-1)
	for id := ID(1); id < numIDs; id++ {
		in := table[id]
		in.ID = id
		in.Breaks = append([]string(nil), in.Breaks...)
		out = append(out, in)
	}
	return out
}

// Lookup returns the mutant called name.
func Lookup(name string) (Info, bool) {
	for id := ID(1); id < numIDs; id++ {
		if table[id].Name == name {
			in := table[id]
			in.ID = id
			in.Breaks = append([]string(nil), in.Breaks...)
			return in, true
		}
	}
	return Info{}, false
}

// String is the mutant's name ("" for none, "mutant(N)" for an id out of range).
func (id ID) String() string {
	if id == 0 {
		return ""
	}
	if id >= numIDs {
		return "mutant(" + strconv.Itoa(int(id)) + ")"
	}
	return table[id].Name
}

// Set is a set of mutants. The zero Set is the correct engine.
type Set uint64

// Of is the set of ids.
func Of(ids ...ID) Set {
	var s Set
	for _, id := range ids {
		if id > 0 && id < numIDs {
			s |= 1 << id
		}
	}
	return s
}

// Has reports whether id is switched on.
func (s Set) Has(id ID) bool { return s&(1<<id) != 0 }

// Empty reports whether no mutant is on.
func (s Set) Empty() bool { return s == 0 }

// String is the names, comma-separated, in report order ("" for none).
func (s Set) String() string {
	var names []string
	for id := ID(1); id < numIDs; id++ {
		if s.Has(id) {
			names = append(names, table[id].Name)
		}
	}
	return strings.Join(names, ",")
}

// Parse reads an option: "" is the correct engine, otherwise a mutant name or a
// comma-separated list of names. An unknown name is an error that lists the known ones.
func Parse(option string) (Set, error) {
	var s Set
	if strings.TrimSpace(option) == "" {
		return 0, nil
	}
	for _, name := range strings.Split(option, ",") {
		name = strings.TrimSpace(name)
		in, ok := Lookup(name)
		if !ok {
			return 0, errors.New("unknown mutant " + strconv.Quote(name) + " (known: " + Names() + ")")
		}
		s |= 1 << in.ID
	}
	return s, nil
}

// Names is every mutant's name, comma-separated, in report order.
func Names() string {
	names := make([]string, 0, numIDs-1)
	for id := ID(1); id < numIDs; id++ {
		names = append(names, table[id].Name)
	}
	return strings.Join(names, ", ")
}
