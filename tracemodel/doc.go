// Package tracemodel folds a trace (package trace) into one model of the run over time:
// the question calls and their results, the host's waits, the claim streams on both ends,
// the waterfall requests with their deliveries and outcomes, the direct service calls and
// the clients' RPCs, the clients' connections, the messages between actors, the faults,
// restarts and probes. It is the one reading of a trace that the timeline (package
// timeline) draws and situation coverage (package explore) counts, so "which call is
// this stream's", "is this result pending", "did a crash cut void this effect" have one
// answer (docs/ARCHITECTURE.md §3).
//
//	run := tracemodel.Fold(tr)
//	for i, f := range run.Facts { … f.Call, f.Wait, f.Stream, f.Request, f.Result, f.Voided … }
//	for _, c := range run.Calls { … c.Phases, c.Marks, c.Claims … }
//
// Contract:
//   - Pure and deterministic: the model is a function of the trace only (records and
//     final state); no clock, no I/O, no randomness, no map order in any list (every list
//     is in record order). Folding the same trace twice gives equal models.
//   - Sans-IO over the wire vocabulary: it reads engine/wire and engine/session's event
//     types and trace's payloads only, never an engine's internals, so a trace recorded
//     from an external host folds the same way.
//   - Facts has one entry per record: what that record is about in the model's terms.
//     Entities are pointers shared between the lists and the facts; a record index
//     len(Records) stands for the final state.
//   - Every effect is in the model, including the effects a crash cut voided
//     (Restart{CutAfter: k} voids the effects of the Apply before it after the first k):
//     Fact.Voided says which, so a reader that follows the oracle's reading of a cut skips
//     them and one that draws the records keeps them.
//   - A tool result's text is read by wire.IsPendingResult, the one test of "is this pending" for the
//     model's readers: a JSON object whose last pending member is true (docs/PEER.md §5.2).
//   - Cost: Fold reads each record once (plus one pass over the published views); it
//     decodes a request's payload once per event id, a question endpoint's args once per
//     text, and the question texts of a tool call only when asked (Call.Questions); the
//     messages are paired only when asked (Run.Messages). A Folder reuses its memory
//     between traces: a Run's Facts are valid until that Folder's next Fold.
//   - The oracle does not read this model: it keeps its own independent models on purpose
//     (package oracle), so a mistake here cannot hide the same mistake in a run it judges.
//
// Owns: the model types and the fold. Imports: the standard library, trace, engine/wire
// and engine/session's event types; never sim, the harness, the oracle or the engine's
// host, client, agent, gateway or questions (imports_test.go).
package tracemodel
