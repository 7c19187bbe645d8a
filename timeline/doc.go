// Package timeline draws a run as a self-contained HTML page for a scenario designer
// (docs/ARCHITECTURE.md §8, simrun timeline): the virtual time axis, one lane per actor
// with a mark for every trace record, an arrow for every message between lanes, one bar
// per question call with its lifecycle, its wait deadline, the clients' claims and local
// countdowns, the faults as vertical rules, and the oracle's verdict in the header with
// the violated invariant's record highlighted. RenderAgainst draws two runs on one axis
// with the first record where they part marked in both.
//
//	page := timeline.Render(timeline.Input{Scenario: name, Seed: seed, Trace: tr, Verdict: text})
//	page, differ := timeline.RenderAgainst(a, b)
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
//   - Self-contained: inline SVG, CSS and one inline script, no network, no font or image
//     reference. The page is well-formed XML as well as HTML (the tests parse it with
//     encoding/xml), every string that came from a scenario or a host is escaped, and the
//     script writes text only with textContent. Without the script the page is the same
//     picture with working links.
//   - Deterministic: the same input gives byte-identical output (no map order, no clock).
//
// The calls, claims, marks, messages, faults and restarts drawn are the trace model's
// (package tracemodel, docs/ARCHITECTURE.md §3): the picture adds only what is its own (the
// lanes, the time axis and its breaks, the clients' local countdowns, the captions).
//
// Messages (tracemodel's Message): a send record (a host's send-frame or reply, a client's
// $events/result, RPC, claim-stream open or cancel, dial) is paired first in first out
// with the receive record of the same message (its client and frame text, rpc id or
// stream id), or with the network's drop record that lost it. A delivered message is an
// arrow from the sender's mark to the receiver's; a lost one ends in a cross on the way;
// a lost HTTP message continues as the network's failure to the client; one still in
// flight at the end of the run is dotted; one much slower than its client's usual
// latency on its transport (twice the median and 100 ms more) is thick and labelled
// "delayed".
//
// Countdowns (countdown.go): a client's local countdown on a call starts when the claim
// stream's item frame ({"remainingMs":N}) arrives, at the client's clock plus N (CD-1);
// a focus pauses it (CD-2), an edit freezes it and Take time holds it for good (CD-4),
// the client's own ASK_TIMED_OUT result is a local expiry (CD-6); a probe's snapshot of
// the client's cards wins over that inference where one was taken. Each client lane
// shows its clock skew (its records' clock reading minus the host's), and a skewed
// client's lane its clock's readings under the axis's ticks (clock.go).
//
// The time axis (axis.go) breaks long idle gaps, and inside one instant it has a
// sequence sub-axis: records of one virtual instant stand side by side in sequence
// order, so same-instant ordering reads left to right and message arrows point forward;
// a call's bar, its claims and its countdowns start and end at their records' own slots.
// Zoomed in far enough, a busy instant shows a bracket under the axis with its time and
// its number of records (subaxis.go), so the records inside it still say when they are.
// The script (script.go) zooms and pans that axis (ctrl + wheel, drag, shift + wheel,
// + - 0 and the arrow keys) and on a click lists a record, its message's other end, the
// later records of the same call, stream, event or request (relations.go) and the
// earlier ones that led to it.
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
// Imports: the standard library, trace, tracemodel, engine/wire and engine/session (the
// record vocabulary). Never sim, the harness or the engine's host and client (imports_test.go).
package timeline
