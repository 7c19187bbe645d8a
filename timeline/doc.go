// Package timeline draws one run as a self-contained HTML page for a scenario designer
// (docs/ARCHITECTURE.md §8, simrun timeline): the virtual time axis, one lane per actor with a mark for
// every trace record, one bar per question call with its lifecycle, its wait deadline and
// the clients' claims, the faults as vertical rules, and the oracle's verdict in the
// header with the violated invariant's record highlighted.
//
//	page := timeline.Render(timeline.Input{Scenario: name, Seed: seed, Trace: tr, Verdict: text})
//
// Contract:
//   - Everything drawn is derived from the trace's records and final state and from the
//     verdict's canonical text (oracle.Verdict.String, the transcript's last lines): the
//     wire vocabulary and the trace payloads only, never the engine's internals, so a
//     trace recorded from an external host draws the same way. A host that does not
//     report WaitNote effects gets bars without deadlines; one without attachWait claim
//     streams, bars without claims.
//   - Every mark's tooltip (an SVG title) is its record's canonical line, and every mark
//     links to that line in the full record list under the picture, so the picture
//     explains itself in the transcript's own words.
//   - Self-contained: inline SVG and CSS, no script, no network, no font or image
//     reference. The page is well-formed XML as well as HTML (the tests parse it with
//     encoding/xml), and every string that came from a scenario or a host is escaped.
//   - Deterministic: the same input gives byte-identical output (no map order, no clock).
//
// The lifecycle of a call (session/call id) comes from its log events and from the
// projection views the host published (SessionUpdate frames, probes, the final state),
// at the first record that shows each change: open (its tool call, or a view), continued
// (a pending tool result, or a view), settled (an answered result, an admitted late
// reply, or a view) or removed (a view no longer holds it). A failed tool result ends the
// bar of a call no view tracks (an untracked call, a run without clients: "ended"); a
// direct service ask (askTimed, or ask with a wait) ends at its direct-result the same
// way. A request without a call id (a plain service ask) has no bar: its records are in
// the host's and the clients' lanes. A claim is a
// client's attachWait stream, from the host's stream-open to its end (end or error frame,
// cancel, disconnect, a new generation, a restart). Long idle gaps of the time axis are
// drawn as labelled breaks.
//
// Imports: the standard library, trace, engine/wire and engine/session (the record
// vocabulary). Never sim, the harness or the engine's host and client (imports_test.go).
package timeline
