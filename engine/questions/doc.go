// Package questions is the question feature of the reference host: the model-facing tool
// ask_user_question (tool-ask-user), the host's foreground wait (TimedQuestionWait), the
// UserQuestionService (ask, askTimed, attachWait, answer, unload), the per-Session reply
// reservations, and the userQuestions projection (docs/PEER.md §1–§5).
//
// What it owns:
//   - Tool: schemas (legacy and timed), mode selection, timeout validation, service path
//     selection and the byte-exact result texts (pending, answers, "Error: <message>").
//   - Wait: the private signal, the fixed deadline, the claims and the one timer.
//   - Service: the check order of every path and the moment each error code is raised
//     (docs/PEER.md §4.7), the wait registry (agent instance × call id), the waterfall chain (host
//     listeners, then the terminal NO_PROVIDER), late answers and reservations.
//   - Projection and Fold: the userQuestions view as a pure, incremental fold over
//     engine/session events.
//
// Contract (sans-IO, deterministic):
//   - No clock: time is an int64 of virtual milliseconds passed in; timers are values
//     (NextDeadline, Fire). Asynchrony is callbacks: an ask completes by calling its done
//     function, now or when a later call (a listener settling, a wait closing) settles it.
//   - The service knows the agent runtime only through the Runtime and Agent interfaces
//     of this package, and the transport only through Listener: it imports neither
//     engine/agent nor engine/gateway. The host adapts them.
//   - JSON from the model or a client is read by the engine's one reader, engine/jsonx
//     (JavaScript semantics: last duplicate key wins at its first position), re-encoded as
//     JSON.stringify writes it (json.go) and written with engine/wire's encoders, never by
//     encoding/json's reflection. The projection's hot probes scan without building
//     values: is a header timed (scan.go, a jsonx.Scanner), is a result pending and a
//     batch inside a reply (wire.ReadPendingResult, wire.ReadAnswers: the answers every
//     reader of the engine and the harness shares); a Memo shared by a host's projections
//     and tool reads a repeated text once.
//
// Imports: the standard library, engine/session, engine/wire, engine/jsonx and
// engine/signal only. It
// may not import engine/agent, engine/gateway, engine/host or engine/client.
//
// Where the spec is silent, this package decides:
//   - Close notes: a wait's last note is always "closed"; an unattended expiry is
//     "expired" then "closed reason=ASK_TIMED_OUT"; foreground completion is closed with
//     the peer's ASK_ABORTED reason but its note says "completed", and unload says
//     "unload", so the oracle can tell the three apart.
//   - Close order: ending a wait first releases its claims (their streams end), then
//     aborts the private signal (the gateway cancels the request, and the ask completes),
//     then runs the done callbacks. The peer's claim ends and completions are promise
//     continuations; here they are synchronous, in that order.
//   - A timer armed after the deadline has passed is due at the time it was armed: the
//     host fires every due timer before it returns, so the wait expires in the same host
//     step as the release of its last claim (the peer: "on the next 0 ms tick").
//   - askTimed with no agent fails with CALLER_NOT_LIVE (the peer would throw a
//     TypeError reading agent.id).
//   - answer() with a batch that is not an object with an answers array fails with
//     BAD_ANSWER (the peer would throw a TypeError).
//   - The tool reads its arguments itself: arguments that are not a JSON object, or
//     questions of the wrong shape, fail with a plain error "invalid arguments for
//     ask_user_question: …" before any answerer (the peer's tool framework validates the
//     schema first; its message is not specified). A timeout that is not a number (a
//     string) fails with the timeout error, as TOOL-3 requires.
//   - An answerer's value that is not an answer batch fails the call with a plain error
//     (the peer would throw a TypeError while copying it).
//   - Reservations are keyed by Session id, not by Session object, so they survive a
//     close and resume of the Session's root within one host run; a host restart loses
//     them (they are in memory only, as in the peer).
//   - Question ids are checked for uniqueness in timed mode only, as in the peer: the
//     legacy tool keeps the peer's legacy behaviour.
//   - A repeated settlement of a reused call id appends a second settled row (the peer's
//     "append"); the view's SettledFor returns the first.
//   - JSON is read as JSON.parse reads it, with two documented exceptions
//     (docs/PEER.md §11): nesting deeper than jsonx.MaxDepth is unreadable, and an
//     unpaired surrogate escape reads as U+FFFD. An empty options list stays present and
//     empty, as in the peer.
//
// Where the reference engine follows the decision against the peer (docs/PEER.md §8): none in
// this package. It follows the peer's implemented behaviour throughout, because on each of
// these points the decision is silent or agrees (each is a subsection of docs/PEER.md §8):
// agent/inbox/spliced is not a projection input (§8.1), the deadline is absolute (§8.4),
// the projection settles any active entry on a reply and does not check outcome (§8.5,
// §8.17), pending detection is loose (§8.6), answer() checks ids only (§8.7), REPLY_QUEUED
// consults the live inbox (§8.8), timed -1 calls send wait {callId} and are tracked
// (§8.10), a late claim can hold a NO_PROVIDER wait (§8.12), a reused call id resets its
// entry (§8.18), forks ignore inherited events (§8.19), and an answer that settles after
// the wait aborted is still the result (§8.20).
//
// # Mutants
//
// The branches marked MUTANT are the deliberate bugs of engine/mutant (docs/ARCHITECTURE.md §6), switched
// on only by Config.Mutants, ToolConfig.Mutants, WaitConfig.Mutants and
// Projection.SetMutants. With the zero set every path is the correct engine's; each mutant
// of this package is shown flipping its rule in mutant_test.go.
package questions
