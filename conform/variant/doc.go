// Package variant builds correct-but-different hosts: wire.HostPort wrappers around any
// host (the reference host in the tests) that each make one legal choice the decision
// leaves free (docs/PROTOCOL.md, "What a host may choose freely", and the protocol's
// optional features), and nothing else:
//
//   - ids-uuid, ids-numbers: the host mints other waterfall event ids and inbox message
//     ids (uuid-shaped, or plain numbers), translated consistently both ways;
//   - reorder: effects of one Apply that the decision does not order are emitted in
//     another deterministic order (per client, per Session and per stream order kept);
//   - persist-late: a persisted effect is reported after the frames and replies that
//     follow it, never after a reply that acknowledges a durable fact (AGENT-6);
//   - write-through: every event is durable at once; the host does not declare
//     write-window;
//   - no-introspection: no wait notes and no volatile state; introspection not declared;
//   - minimal: no optional feature at all (write-through, no introspection);
//   - refusal-words: every command refusal worded differently;
//   - json-style: over the protocol only, replies written with other key order and
//     whitespace (Restyle); in-process it changes nothing.
//
// A Variant has a name, a function from the wrapped host's declared features to its own,
// and a factory wrapper; a List composes them (the first wraps innermost). The evidence
// that the conformance runner judges the decision and not the reference engine's bytes
// (docs/PROTOCOL.md "How a run is judged") is conform/variants_test.go: every variant
// must pass the library and a fuzz budget, and every variant around a caught mutant must
// still fail them.
//
// Wrappers that change the effect list of an Apply (reorder, persist-late,
// no-introspection) keep the global order of persisted effects and translate a
// Restart{CutAfter: k} to the inner host's effect positions, so that a crash after the
// variant's first k effects keeps exactly what the persisted effects among them reported.
//
// The package imports the wire vocabulary only (no simulator): it is usable around any
// HostPort, in-process or behind the protocol.
package variant
