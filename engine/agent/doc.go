// Package agent is the agent runtime of the reference host (docs/PEER-RUNTIME.md §4–§6):
// Sessions and their durable logs, live agent instances (roots and owned children), the
// turn/step driver, the two-list inbox (send, claim, admit, discard), the persistence
// policy (persisted prefix, write-behind window, flush points), cold load with crash
// repair, and PTC run_code. It is sans-IO and deterministic: virtual time comes from
// Fire(now), effects go to Config.Emit (or Drain), notifications to Hooks, and host tools
// plug in through Runner. It knows nothing of any particular host tool; ask_user_question
// is the host's, through Runner.
//
// # Usage
//
//	rt := agent.New(agent.Config{WriteWindow: agent.DefaultWriteWindow, Emit: emit, Runner: runner})
//	rt.Subscribe(agent.Hooks{Appended: ..., Claimed: ..., Discarded: ..., Loaded: ...})
//	rt.Fire(now)                                        // first, at every new time
//	a, _ := rt.Open("s1", "")                           // a live root
//	rt.Send("s1", session.Message{Source: session.Source{Kind: session.SourceUser}, Text: "hi"}, session.NextTurn)
//	c, _ := rt.ToolCall("s1", "c1", "sleep", `{"ms":50}`) // c.Complete(r) is the runner's job for its tools
//	rt.EndStep("s1", true)
//	a, _ = rt.Resolve("s1")                             // live agent, resuming a closed Session (GW-8)
//	rt.Restart(nil)                                     // host crash + cold load
//
// # The driver (docs/PEER-RUNTIME.md §4.4)
//
// A turn starts when an idle live agent is woken (Send, a resume whose inbox holds
// messages, or the end of a completed turn while the inbox holds messages): turn/start.
// Each step begins with a pre-step: the claim (first step: the whole next-step list plus
// the first next-turn message; later steps: the whole next-step list), each list one
// pure-deletion splice, then a Claimed notification per message, then a durable flush,
// then step/start and a user/message per claimed message (admission, AGENT-1), then a
// second flush (the checkpoint before the model request). A first step with nothing to
// claim ends the turn completed with no step. The model then makes tool calls
// (ToolCall: tool/call, flush, body) and ends the step (EndStep). The step ends (step/end)
// once the model ended it and every tool call has its tool/result committed, in call
// order. Another step follows unless the model ended the turn and next-step is empty;
// then turn/end completed, and a new turn starts at once if the inbox holds anything.
// Turn numbers continue from the log (across resumes and restarts); steps count from 1 in
// each turn.
//
// CancelTurn (reason user) clears the inbox first unless keepInbox, then aborts the
// turn's signal: tool calls see it and still commit their results; the open step ends and
// the turn ends aborted:user once they have. After an aborted turn the agent stays idle,
// unless a Send arrived while it was aborting (it went to next-turn and latched a wake).
// Close aborts with reason disposed, settles whatever did not react to the abort with
// TOOL_ABORTED, flushes, and leaves the instance stale; owned agents are closed first.
//
// # Registry
//
// An *Agent is an identity: Live(a) holds while it is the registry entry for its id.
// Open enters a root or a child owned by another Session's live agent; Resolve returns the
// live agent or resumes a new root instance (CALLER-3); Instances keeps every instance
// reachable and StaleInstance returns one that is not live (CALLER-1).
//
// # Persistence (docs/PEER-RUNTIME.md §5.3, AGENT-6)
//
// Each Session's log is a persisted prefix and an in-memory suffix. With a write window W
// (DefaultWriteWindow 200 ms), the window opens when the log goes from clean to dirty and
// closes at now+W, persisting everything appended by then; W = 0 is write-through.
// Mandatory flushes: the pre-step, before the model request (after admission), before a
// top-level tool body, cold-load repair, Close, and Flush(id), which the host calls before
// acknowledging a late answer. PTC sub-call records get no flush of their own. Every
// persist emits wire.Persisted{Session, Through: durable count}. The windows and sleeps
// are the runtime's timers: NextDeadline and Fire.
//
// # Tools
//
// run_code (top level only) is the runtime's PTC: args {"calls":[{"name","arguments"}…]};
// the sub-calls run one after the other (the program awaits each), each with sub-call id
// <parent>:ptc:<n>, tool/ptc-dispatch-start before its body and tool/ptc-dispatch with its
// result after it settles, with no flush (AGENT-4: a crash inside the window loses the
// record, and nothing can reconstruct it). The run's signal follows run_code's; once it
// aborts, the sub-call in flight still settles and logs, the queued ones are abandoned
// and log nothing. run_code's own result is compact JSON
// {"results":[{"subCallId","name","isError","error"?,"text"?}…],"abandoned"?:N}, failed
// (AbortError) when the run was aborted. Every other tool is offered to the Runner first
// (sub-calls included; Call tells its id, args, signal, agent instance and parent), then
// to the built-ins: sleep {"ms":N} completes N virtual ms later ("slept N ms", AbortError
// on abort) and any other name completes at once with text "ok".
//
// # Imports
//
// The standard library, engine/session, engine/signal and engine/wire only (no gateway,
// no question package).
//
// # Decisions where the peer is silent or differs
//
//   - Open question Q1, auto-wake after restart (docs/PEER-RUNTIME.md §8.1): a Session whose restored inbox holds
//     messages is resumed and woken into a new turn at cold load; more generally every
//     resume (Resolve of a closed Session too) wakes when the inbox holds messages.
//   - A flush before the model request follows the pre-step flush, so a step's admitted
//     user/messages are durable before the model sees them (docs/PEER-RUNTIME.md §5.3
//     lists it among the checkpoints).
//   - clear() writes one canceled splice per non-empty list (next-step first), not one per
//     message; the fold is the same.
//   - Message ids the runtime mints are msg-1, msg-2, … (the counter survives Restart, like
//     UUIDs would), and so are instance numbers.
//   - Close settles calls that do not complete on abort with TOOL_ABORTED so the instance
//     is stale at once; the peer drains them before detaching.
//   - Every closed or cold Session resumes as a root; the peer's subagent fence
//     (session/agent-busy for an agent owned by a live one) is left to the caller.
//   - A fork cut inside an open turn gets the interrupted-turn closers after the seed.
//   - PTC sub-calls run strictly one after the other (maxParallelSubCalls = 1).
package agent
