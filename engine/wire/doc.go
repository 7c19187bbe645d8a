// Package wire is the protocol vocabulary of twosettle: the messages that cross host <->
// client and harness <-> host, the question domain values they carry, and the two ports
// (HostPort, ClientPort) through which the simulator, the scenario runner and the
// conformance runner drive any implementation.
//
// Contract:
//   - Every type that appears in a transcript has a String method: its one canonical text
//     form. It is stable (goldens are made of it) and deterministic.
//   - JSON that the peer implementation compares byte for byte (answer batches, requests,
//     envelopes) is written by hand-made encoders in the peer's key order, with
//     JSON.stringify's escaping (AppendJSONString), never by encoding/json's reflection.
//   - Opaque payloads (waterfall requests, stream items, RPC args and values) are raw JSON:
//     the transport (engine/gateway) never looks inside them (GW-2).
//   - The codec files (codec*.go) are the conformance protocol's JSON form of every
//     Command, Effect, Frame, Session event, HostState and HostConfig: canonical,
//     byte-stable, strict on decode (docs/PROTOCOL.md; the schemas in docs/protocol are
//     derived from its samples).
//   - What a tool result's text carries (resulttext.go) is read here once for the engine
//     and the harness: ReadPendingResult (is it pending, and its callId) and ReadAnswers
//     (the answer batch it carries); the oracle keeps its own readers.
//   - The package holds no state and no behaviour beyond encoding, decoding and
//     formatting.
//
// Imports: the standard library, engine/session (events appear in session updates) and
// engine/jsonx (the engine's one JSON reader: the codec and resulttext.go read with it).
package wire
