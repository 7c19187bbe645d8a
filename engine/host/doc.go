// Package host is the reference host: one host composed of the Session logs and agents
// (engine/agent), the Remote transport (engine/gateway) and the question feature
// (engine/questions), behind wire.HostPort (docs/ARCHITECTURE.md §1).
//
// # What it owns
//
//   - The composition: one effect stream (the runtime's Appended and Persisted, the
//     gateway's frames and replies, the waits' notes, Direct results) in the order things
//     happen; one clock (Apply's now); one timer loop over the runtime's timers (write
//     windows, sleeps) and the waits'.
//   - The host's tool: ask_user_question runs through the runtime's Runner (top-level calls
//     and run_code sub-calls alike); the host records its schemas (and run_code's and
//     sleep's) in request/header when the model names no tools.
//   - The forwarding listener: a scoped user-questions/request goes to the gateway with
//     the request's signal and the agent instance's context (released when the instance
//     stops being live); an unscoped one passes on to NO_PROVIDER.
//   - The Remote endpoints: userQuestions/answer {agentId, callId, answer},
//     inbox/discard {agentId, messageId} and the stream userQuestions/attachWait {agentId,
//     callId}. Args must match exactly, else gateway/arguments-invalid; an unknown Session
//     is gateway/lookup-not-found; the Session is resolved to its live agent, resuming a
//     closed one first (GW-8, LATE-8), except for discard (see below).
//   - Session updates: after each command, one wire.SessionUpdate per connected client per
//     Session whose log changed (the projection and the inbox change only with it), a
//     Reset with the whole log for a client generation seen for the first time.
//   - The userQuestions projection of every Session, folded incrementally on every append
//     and refolded from the log on every load (PROJ-12).
//   - Restart: everything volatile goes (waits, claims, timers, reservations, live agents,
//     every connection, pending event and stream); each Session keeps its persisted prefix
//     (with Restart.CutAfter = k, what the Persisted effects among the previous Apply's
//     first k effects reported) and is loaded cold with repair (AGENT-2, AGENT-3).
//
// # Contract
//
//   - Timers due at or before a command's now fire first, each at its own due time (at one
//     time: the runtime's, then the waits'); after the command, timers it made due fire
//     too, so a wait whose last claim left after its deadline expires in the same Apply
//     (WAIT-5). A Restart with CutAfter >= 0 fires nothing before the crash.
//   - A command that is malformed or impossible returns an error and changes nothing; the
//     effects returned with it are those of timers that came due before it.
//   - Every accepted late answer is made durable (Flush) before its Reply or DirectResult
//     reports true (AGENT-6), whatever the write window. An accepted discard is flushed
//     before its reply too.
//   - Callbacks from before a restart (tool completions, Direct results, wait notes,
//     gateway settlements) are dropped by epoch.
//
// # Imports
//
// The standard library and engine/agent, engine/gateway, engine/jsonx, engine/questions,
// engine/session, engine/signal and engine/wire. It may not import engine/client (they meet only through
// engine/wire), and nothing outside engine/.
//
// # Decisions where the spec is silent
//
//   - Service errors on the wire keep their domain code: userQuestions/answer and
//     attachWait fail with {code: REPLY_QUEUED|BAD_ANSWER|CALLER_NOT_LIVE|DELEGATED_CALLER,
//     message}, not gateway/internal (docs/PEER-RUNTIME.md §8.4: the peer most likely
//     loses the code).
//   - The Remote lookup resolves an owned child to its live instance; the service then
//     fails with DELEGATED_CALLER (the peer's lookup fence would answer session/agent-busy
//     before the service runs). CALLER-4 is thereby visible on the wire.
//   - Model commands on a closed or cold Session (no live agent, e.g. after a restart): a
//     Send (a prompt or a steer) resumes the Session's root first, as the peer's prompt
//     route does (docs/PEER-RUNTIME.md §3.2: prompt resumes "when its method allows it"), and the
//     message then wakes it into a new turn whose first step admits it. Header, ToolCall
//     and EndStep act inside a running turn, which a cold Session has not (its interrupted
//     turn was closed by repair), so they stay refused ("no live agent"), and so does
//     CancelTurn (the peer's session.cancel never resumes). Like the Remote lookup, the
//     resume makes any Session a root, an owned child included; the peer's subagent fence
//     (session/agent-busy) is not applied.
//   - wire.Send.Source, when its kind is set, is recorded on the message as it is: the
//     harness's way to admit input from another producer or from history (a
//     user-question-reply whose text is not what answer() writes settles with an empty
//     batch, PROJ-8). A call id or an outcome without a kind is refused. Such a message is
//     claimed and admitted like any other; a reply's claim re-creates its reservation
//     (LATE-6), as for a restored reply.
//   - inbox/discard does not resume a closed Session: a resume wakes the agent, which
//     would claim the message before it could be discarded. The runtime edits a cold inbox
//     directly.
//   - Restart.CutAfter = k: a Session created inside the cut Apply keeps what its creation
//     made durable (its inherited prefix for a fork, nothing for a new Session).
//   - Config.WriteWindowMs: 0 is the peer's 200 ms, -1 is write-through.
//   - Direct: agent "live" for a Session with no live agent is a command error; an ask's
//     signal is a fresh one (aborted at once with "aborted": true) that nothing else aborts;
//     askTimed without timeoutMs is BAD_TIMEOUT.
//   - The host does not recover panics: its property test drives random commands and must
//     never see one.
//
// # Where the reference engine follows the decision against the peer (docs/PEER.md §8)
//
//   - AGENT-6 / docs/PEER-RUNTIME.md §8.11: the peer's answer() acknowledges a steer that
//     is only in memory (a crash inside the 200 ms window loses an accepted reply); the reference
//     host flushes the reply before it reports success, because the decision's durable
//     reply ("the inbox message is the durable queued reply") must not be lost once the
//     client was told.
//   - Every other point of docs/PEER.md §8 follows the peer, because the decision is silent
//     there or agrees with the implemented code (see engine/questions' package doc for the
//     list): agent/inbox/spliced is not a projection input (§8.1, as the implemented note
//     says), the deadline is absolute (§8.4), the extra codes BAD_TIMEOUT, DUPLICATE_WAIT and
//     EMPTY_QUESTIONS exist (§8.2), answer() checks ids only (§8.7), REPLY_QUEUED also
//     consults the inbox (§8.8), timed -1 calls are keyed and tracked (§8.10).
//
// # Mutants
//
// The branches marked MUTANT are the deliberate bugs of engine/mutant (docs/ARCHITECTURE.md §6), switched
// on only by Config.Mutant (which the host also hands to the gateway, the question service,
// the tool and every projection). With the zero set every path is the correct engine's;
// each mutant of this package is shown flipping its rule in mutant_test.go.
package host
