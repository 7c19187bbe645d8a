// Package session is the durable Session log of the reference engine.
//
// It owns the event types the decision and the peer runtime (docs/PEER-RUNTIME.md §5) need,
// their canonical one-line text form, append with a monotonic seq, the split between a
// persisted prefix and an unpersisted suffix (AGENT-6), crash truncation, fork inheritance
// (PROJ-11) and the cold-load repair that closes an interrupted turn (AGENT-3).
//
// Contract:
//   - Seq starts at 0 and rises by one per appended event within a Session (an empty log
//     is addressed as through-seq -1, as in the peer).
//   - Events are values; once appended they are never mutated. Slices returned by the log
//     alias its storage and must be treated as read-only.
//   - Persisted() counts events that are durable. Crash() drops every event past that
//     count; nothing else in this package knows about time or I/O.
//   - A forked Session starts with a copy of its parent's prefix; Inherited() is the
//     number of copied events, and projections ignore seq < Inherited() (PROJ-11).
//   - Repair (InterruptedTurnClosers) is a pure function of the events; committing its
//     result is the caller's job (the agent runtime does it on cold load).
//
// Decisions where the peer is silent or differs (documented divergences):
//   - The peer keeps tool-call blocks in assistant/message and repairs calls that never
//     started with TOOL_NOT_STARTED. The reference model has no assistant/message: a tool
//     call starts when it is recorded, so repair only ever yields TOOL_OUTCOME_UNKNOWN.
//   - Inbox claims and discards are not separate event types: as in the peer they are
//     agent/inbox/spliced events (a claim is a pure deletion with no outcome, a discard has
//     outcome "canceled"). Their canonical text names them queued / claimed / discarded.
//   - A message or a tool result has at most one text block; HasText=false models "no
//     text block".
//
// This package imports only the standard library.
package session
