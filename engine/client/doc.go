// Package client is the client side of the reference engine: one answer UI (a browser tab)
// and its user, as a pure deterministic state machine behind wire.ClientPort. It owns what
// the decision gives to ui-user-questions, ui-chat and the question tool row: the answer
// listener and its claim, the cards, the local countdown, the drafts, the tool row and the
// late-reply node. It imports only engine/wire, engine/session, engine/jsonx (its JSON
// reader), engine/mutant and the standard library
// (never engine/host: the two meet only through engine/wire). Time is the client's own clock
// (Apply's now), randomness comes only from Config.Seed.
//
// # The state machine, for a UI engineer
//
// Connection. A client dials (wire.Dial) and the host answers Ready{Gen}: a generation
// starts, the pending requests are replayed, and a SessionUpdate{Reset} per Session
// follows. A failed $events/result fails the generation: its undecided deliveries abort,
// and once every outcome it sent has its reply its claims are cancelled and the client
// dials again (see CLAIM-2 below). LinkDown ends the generation: every delivery aborts without an outcome, every
// claim stream is gone, and the client dials again. Reload keeps only the draft store; the
// page (cards, sessions, deliveries, streams, RPCs) starts over and dials.
//
// Listener (docs/PEER.md §6.4). Each Waterfall delivery is one listener with three phases. (1) The
// card for (Session, call id) is ensured at once (a request without a call id gets a fresh
// unkeyed card, key question:<32 hex of this page load>:<n>) and published. (2) A timed
// request (wait {callId, timed:true}) opens the claim stream userQuestions/attachWait
// {agentId, callId} before anything is attached (CLAIM-1); until its first item the card
// has no channel and cannot be submitted. The first item {"remainingMs":N} attaches the
// waterfall channel with the client deadline now+N (CD-1). A stream that ends with no item
// means no host wait: the listener sends next and the card stays (CLAIM-5). An untimed
// request attaches its channel at once, with no countdown. (3) The listener ends with one
// outcome sent as SendResult: result {"answers":[…]} when the user submits, rejected
// ASK_TIMED_OUT on local expiry (CLAIM-7), rejected ASK_CANCELLED when an unkeyed card is
// closed, next on delegation (the claim is cancelled first, CLAIM-4), or a plain Error "the
// foreground question wait ended" when the claim stream ends first (CLAIM-6). After the
// outcome the claim is kept open until the host ends it (CLAIM-2, CLAIM-3); a claim that
// never got its first frame is released at once. A Cancel frame aborts the delivery: no
// outcome is sent, the claim is cancelled, and the card only loses its channel (CARD-10).
// An unkeyed card ends with its listener (CARD-11); a keyed card stays until
// reconciliation removes it.
//
// Countdown (docs/PEER.md §6.2). A card runs a local deadline only while a timed waterfall is
// attached and the card is neither focused, edited nor held. Ticks come every TickMs from
// the moment the deadline was set, and the first tick at or after the deadline expires the
// card (a 2 000 ms countdown set at 0 fires at 2 000 with the default 1 000 ms tick, never
// at 1 999). Focus on a pristine surface freezes the remainder and blur restarts it from
// the blur time; a focus before the claim frame freezes the deadline as soon as it comes,
// and a blur before it arms nothing (CD-2, CD-3). The first edit or Take time freezes the
// countdown for good; the disposition is saved with the draft and restored after a reload
// (CD-4). Hidden cards keep counting (CD-7). NextDeadline reports the expiring tick only:
// the ticks before it merely repaint, and State computes the countdown from the clock.
//
// Channels and submission (docs/PEER.md §6.5, §6.6). A card's channel is its attached waterfall,
// else the late-answer RPC when the projection lists it continued, else none (submission
// refused). A waterfall submission has no acknowledgement: the card stays busy with its
// draft until reconciliation; if the question turns continued meanwhile, busy clears with
// the resubmit hint and the kept draft goes by RPC (CARD-5, CARD-6). An RPC submission
// sends userQuestions/answer {agentId, callId, answer}; true hides the panel (the question
// is not settled by it, CARD-7), false or an error re-arms with a message.
//
// Reconciliation (docs/PEER.md §6.5). Each SessionUpdate replaces the Session's projection and
// inbox views and reconciles: a continued row creates its card (with the RPC channel) unless
// its reply waits in the inbox; an open row only updates an existing card; then every
// keyed card whose call is not listed, with no listener running and no waterfall attached,
// is removed and its draft cleared (CARD-8, CARD-9). A discarded reply therefore brings the
// card back on the next update.
//
// Composer seat. A Session's composer renders one published card: the highest precedence
// (plan review 2, others 1), the latest published among equals. Panel actions (focus, type,
// choose, skip, pager, Take time, submit, close) need the card to hold the seat; the tool
// row's action republishes it. A card that leaves the seat unmounts (its focus pause is
// released); one that takes it mounts: the Session's drafts are pruned to its live cards
// and the optionless text field may autofocus (CD-8).
//
// Rows, nodes, conversation (docs/PEER.md §6.9, §7). They are computed from the Session's log,
// projection and inbox when State is taken: rows follow the state table of docs/PEER.md §7.3
// and the queued override of docs/PEER.md §7.4; a node is a user/message whose source is a late reply, parsed
// leniently with its raw text kept; the conversation lays out triggers, turn disclosures,
// process groups and replies (see conversation).
//
// # Decisions where the spec is silent, and divergences from the peer
//
//   - CLAIM-6: when the claim stream ends before the user answered, the client sends the
//     peer's plain Error "the foreground question wait ended" (no code). The host has
//     normally settled the request already and ignores it; sending it keeps the traffic
//     identical to the peer's, so a conformance run sees what a real browser sends. A second
//     item on a claim stream ends the claim the same way (the peer's claim-ended task
//     resolves on any next item), and the client then cancels the stream.
//   - CLAIM-8: a claim stream that fails (StreamError) before the outcome rejects the
//     question with {name: "RemoteError", code, message}: the accepted limitation.
//   - A delivery this client cannot answer is handed on with next at once: another event
//     name, an empty agent id, a payload that is not a question request or has no
//     questions, or a torn-down questions UI. A repeated event id in one generation, an
//     empty event id, or a waterfall before Ready is ignored. A claim item that is not
//     {"remainingMs": number} claims the wait with no local countdown (the peer computes a
//     NaN deadline that never fires); a negative remainder counts as 0.
//   - JSON is read with the engine's one reader, engine/jsonx (JSON.parse semantics: a
//     repeated key keeps its last value; an empty options list stays present), through
//     one reused jsonx.Reader, not encoding/json; a result text's pending test and its
//     answers are wire.ReadPendingResult and wire.ReadAnswers, as everywhere else: a
//     request payload with a wrongly typed field is not a question request and is handed
//     on. Two documented exceptions to JSON.parse, shared by every reader of the project
//     (docs/PEER.md §11): nesting deeper than jsonx.MaxDepth is unreadable, and an
//     unpaired surrogate escape reads as U+FFFD.
//   - CLAIM-2 across a failed generation. A failed $events/result reply of the live
//     generation fails the generation, as the peer's pump does (docs/PEER-RUNTIME.md §1.4): a
//     failure means the host may not have that outcome (the request or its reply was lost)
//     or no longer knows the generation, and results are never retried, so the client must
//     reconnect for the pending requests to be replayed. Every delivery whose outcome is not
//     decided aborts at once (no outcome is sent, its claim is cancelled) and later
//     waterfalls of the generation are ignored (the next generation gets them as replays).
//     Divergence from the peer, whose claim signals follow the delivery signals and so drop
//     every claim with the generation: an outcome already sent in the generation whose
//     reply has not come may still reach the host, and the decision keeps its claim until
//     it is delivered, or an overdue host timer (woken by the claim's loss, or by the link
//     closing) could beat it. So the generation ends, every claim it still holds is
//     cancelled and the client dials (closing the link) only when the last result sent in
//     it has its reply, ok or failed. The failed outcome's own claim is kept with them: it
//     cannot be delivered any more, and the replay in the next generation claims again.
//     This relies on every HTTP request getting a reply (a failure envelope at worst), as
//     the RPC bullet below does.
//   - A delivery that reaches a card whose earlier waterfall answer is unconfirmed (a
//     replay to a new generation: that answer did not settle the request) re-arms the card
//     with the hint "The answer did not arrive; submit it again." The peer would stay busy.
//   - A user action addressing a question other than the current one first navigates to it
//     (navigation, not an edit). A plan-review panel takes submit (or choosing the approve
//     label) as Approve and close as Request changes.
//   - Stored drafts are restored when a card is created, not when its composer first
//     renders, so a frozen disposition holds on a hidden card after a reload (the peer
//     applies it on mount). Pruning on mount waits until the Session's projection has
//     arrived in this page load, so drafts of cards the first update will recreate survive;
//     a card mounted before it (a replayed request after a reload) prunes once that
//     projection is reconciled, whether or not the seat moves (DRAFT-3).
//     A stored draft that does not fit its card is dropped from the store.
//   - The draft is persisted on every progress change, navigation included.
//   - Malformed projection rows (no call id, no questions, an unknown state) and inbox
//     entries that are not replies with a call id are ignored. A SessionUpdate whose events
//     leave a gap in the log stops appending until the next Reset.
//   - Teardown (wire.ActTeardown) delegates every listener, cancels every claim still
//     held, removes every card (clearing its draft) and answers later deliveries with next
//     until a reload; rows stay (the tool row is another plugin) and their Answer pill only
//     toggles the disclosure. A claim whose outcome was sent and has no reply yet is
//     cancelled when that reply comes, not at the teardown (CLAIM-2; the peer's effect
//     disposer drops it at once).
//   - A queued reply's "View answers" toggles the row's disclosure; an Answer pill with no
//     card to reveal toggles it too.
//   - The row's best-effort answered count (docs/PEER.md §7.3 row 5, between the exact count and
//     the generic summary; the spec does not define it): when a successful result's text
//     is a JSON object whose "answers" is a non-empty array whose items are not all valid,
//     the summary is "N/M answered" over its M items, N of them objects with a non-empty
//     "selected" array or a non-empty string "custom"; the transcript stays the raw IN/OUT.
//   - The guarded Continue (wire.ActContinue: the primary button, or Enter in the text
//     field) is refused with the spec's "Please select an option or enter a custom
//     answer." while the current question is unanswered (the peer disables the button and
//     shows the message; a refused input leaves the state unchanged), moves to the next
//     question otherwise and submits on the last (refused with no channel there).
//   - The tool row's own toggle (wire.ActToggleRow) opens and closes its disclosure only;
//     the pill (wire.ActReopen) is the row's action.
//   - Unbinding a Session (wire.ActUnbind) keeps everything it shows but stops following
//     its projection: no card is created or swept from it until wire.ActBind, which
//     reconciles the latest views at once. Deliveries still create cards (the listener is
//     the page's, not the Session's). A reload binds every Session again.
//   - Rows exist for top-level ask_user_question calls only; a PTC sub-call's continued
//     question gets its card from the projection but has no row of its own.
//   - An RPC whose reply never comes leaves its card busy until a reload (the peer's fetch
//     would eventually fail): a transport that loses an HTTP exchange should deliver a
//     failure envelope.
//
// The canonical texts of everything State shows are in engine/wire/state.go.
//
// # Mutants
//
// The branches marked MUTANT are the deliberate bugs of engine/mutant (docs/ARCHITECTURE.md §6), switched
// on only by Config.Mutant. With the zero set every path is the correct engine's; each
// mutant of this package is shown flipping its rule in mutant_test.go.
package client
