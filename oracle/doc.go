// Package oracle is the invariant oracle: a catalogue of named invariants (INV-…), each
// documented and tied to the requirement ids it guards (Catalogue), and a checker that
// runs them all over one trace plus its final state (Check) and returns a Verdict: ok,
// violation (the invariant, the record where it broke, a minimal witness) or unknown (a
// budget ran out). Verdict.String is the canonical text that ends every golden transcript.
//
// Contract:
//   - Pure: a verdict is a function of the trace and the options only; no clock, no I/O,
//     no randomness, deterministic text.
//   - Safety invariants are checked at every record, in one pass over the records (a host
//     Apply is its In record plus the host Out records up to the next host In); liveness
//     invariants are checked on the final state, in the healed phase (after the last fault
//     or restart, plus Options.BoundMs); validation invariants re-fold the host's log with
//     the oracle's own projection (Fold) and compare every view the host published (trace
//     validation).
//   - Independent: the oracle's models (the projection fold in fold.go, the crash-repair
//     expectation in repair.go, and the inbox, reservations, claims and countdowns of the
//     checker) are written from the requirements (docs/REQUIREMENTS.md), not taken from
//     the engine, so a bug in the engine's model is not also in its judge.
//     differential_test.go runs the oracle's fold and repair against the engine's over the
//     library and fuzz seeds: a disagreement is a finding. It reads JSON with its own
//     readers too (encoding/json, parse.go): not engine/jsonx and not the engine's
//     answer to "is this result pending, what answers does it carry"
//     (wire.ReadPendingResult, wire.ReadAnswers), which the engine, the harness, the
//     timeline and situation coverage share; imports_test.go enforces it.
//   - Not the trace model: the timeline and situation coverage read a trace through one
//     shared model (package tracemodel: calls, waits, claims, requests, connections,
//     pending results, crash-cut voiding). The oracle deliberately does not: it keeps its
//     own models of the same things, written from the requirements, and imports_test.go
//     keeps it from reaching tracemodel. A misreading of the trace in that model (a claim
//     that ends too late, a result wrongly taken for pending) would then skew a picture or
//     a coverage count, but never also blind the judge that must catch the engine doing
//     the same; and a change to the model for a picture's sake cannot change a verdict.
//   - External hosts: the oracle relies only on the wire vocabulary (commands, effects,
//     frames, client records) and the final HostState. Invariants that need an optional
//     protocol feature say so in Invariant.Needs: WaitNote effects (INV-WAIT-LIFECYCLE, and
//     extra checks in the WAIT invariants), the volatile host state (INV-LIVE-NO-LEAK), the
//     reference projection (INV-PROJ-REFOLD, INV-LATE-ONLY-CONTINUED, INV-LATE-ANSWERABLE),
//     client records (INV-CLIENT-*). Without the feature those checks do not apply.
//   - An event a scenario wrote by hand (the Appended effect of a wire.AppendEvent
//     command) is the scenario's, not the host's: it enters the log mirror, the reference
//     fold and the inbox model (a turn/end releases the replies claimed in its turn), but
//     no invariant is checked on it and the turn/step/call model is left as it was.
//     After a restart the durable log, such events included, is read back as the cold
//     load reads it: only a turn's own turn/end closes it (the repair closes the last open
//     turn, docs/PEER-RUNTIME.md §5.5), and a call outside any open step is no step's call.
//   - Snapshot invariants (INV-CLIENT-CARDS, -COUNTDOWN, -ROWS, -NODES, -SWEEP, -DRAFTS,
//     -UNKEYED-KEYS, -SUBMIT, -AUTOFOCUS, -CONVERSATION, INV-RESERVATION-HELD) read what the
//     actors show: every probe's snapshot (an expectation's, or one with no assertion) and
//     the final state, against what the oracle's models say each page received and each
//     user did by then (clientpage.go: what the oracle knows of a client's current page
//     load). Each client invariant's checks are in its own file, inv_client_*.go; client.go
//     keeps the model.
//   - A crash cut inside an Apply (Restart{CutAfter: k} as the next host In) voids that
//     Apply's effects after the first k, if the trace recorded them.
//   - Fast: one pass, small maps, JSON decoded only for the few values that need it (tool
//     arguments, request payloads, RPC args); a Checker reuses its memory between traces.
//
// Owns: the catalogue, the checker, the verdict and its text. Imports: the standard
// library, trace, engine/wire and engine/session's event types; no other engine package
// and no engine/session function (imports_test.go enforces it), and never sim.
//
// Decisions where the spec is silent:
//   - Time: the runner is assumed exact (the simulator applies every deadline a host
//     declares at its instant), so a wait still open at a command after its expiry instant
//     is a violation; Options.LazyTimers relaxes that to "by the end of that Apply", and so
//     does a host-stall fault in the trace from its record on (the runner held the host's
//     timers back).
//   - The winner of a request is the first result or rejection from a generation that
//     still holds its delivery, unless the host cancels that very delivery in the same
//     Apply (its timers fired first).
//   - Without WaitNote effects, a wait's end is taken as visible only when something would
//     show it (a delivered request's cancels, or the call being the earliest unresolved
//     call of its step); otherwise the timing invariants skip it rather than guess.
//   - A default timeout is known only through Options.DefaultTimeoutMs, a WaitNote or the
//     first claim frame.
//   - A user action naming a call id without its Session is attributed only when the
//     page's requests for that id (the live ones first) are one Session's, or, with no
//     request left (a link-down, a reload), when the cards the page may hold for that id
//     are one Session's.
//   - Client invariants attribute a user action naming the composer seat (Card "") only
//     when every card the page may hold in the Session(s) addressed is one call's: the
//     call-keyed cards of the requests and projection rows the client received (until a
//     reconciliation sweeps them: no row, no live request, CARD-8), a settled call's
//     reopened review panel, and the unkeyed card of each live request. The seat shows the
//     latest published card, which the trace does not show, so with several it is skipped.
//     A freeze (CD-4) goes with the card's draft: a sweep (CARD-8, CARD-9), a teardown
//     of a page that may hold the card (CARD-12; a page just reloaded holds none yet, so
//     the stored draft stays for the next page) or a reload whose restored draft may not
//     fit the card's questions (DRAFT-2) ends it; an expiry in the Apply of the edit itself came first (due ticks run before
//     an input). A countdown expires at the earliest at the frame's arrival plus
//     remainingMs on the client's clock, less what clock-jump faults set that clock back
//     meanwhile (a paused remainder resumes from the clock as it reads then, CD-10).
//   - A call-keyed card holds one waterfall channel, the one its last listener attached (a
//     request with no claim at once, a timed one at its claim's first frame); when that
//     request ends the card has none, even while an earlier request of the same call still
//     lives on the page (docs/PEER.md §6.2: a card detaches only its current channel), so a
//     continued card then answers through the late-answer RPC (CARD-4).
//   - A disconnect (or a connect replacing a live generation) at the instant a wait
//     expires or a sleep ends takes effect after the cancels, stream ends and requests the
//     host sends that generation: the host fires due timers before the command.
//   - Likewise a $events/result naming a request the client's generation does not hold
//     yet is applied after that request's fan-out, when a timer is due at the command and
//     the fan-out reached that generation (a sleep, one a host stall held back included,
//     ends and the run_code's next sub-call forwards its request first); otherwise the
//     request is unknown to the host, or not the client's, and the result is discarded
//     (GW-1).
//   - The tool path (TOOL-1, TOOL-4) is the host's tool mode, not the request/header: the
//     header decides only what the projection tracks (PROJ-2). The mode is read from the
//     host's own header (a Header command without tools) or from how the host runs a call
//     (a request with or without a wait, a timed wait, pending); a call made before either
//     is judged once the mode is known. A call of a child owned by a live agent fails
//     before any answerer and has no wait (CALLER-2); a call whose arguments the tool
//     cannot read (the tool's reader: every question an object with string id and
//     question, optional fields of their types) or with no question has none either.
//   - Host waits are keyed by (Session, call id) and owned by the call that created them: a
//     refused duplicate (ASK-7) or a direct blocking ask() for the same call id never
//     replaces the live wait. A direct ask() has no host wait whatever its request's wait
//     says (only askTimed makes one): a claim stream for it ends with no frame (WAIT-7).
//   - A request first seen as a replay on connect was forwarded while no client was
//     connected; an unkeyed one is the earliest waiting call forwarded with no wait (replays
//     keep forwarding order). When a call of unknown mode could be it, the calls are marked
//     ambiguous and the checks that need the link skip them.
//   - A turn cancel aborts its Session's calls and their requests (GW-3, WAIT-9); a session
//     close also those of the live children it disposes, and the direct calls of its agent
//     (their gateway context is released). A direct call's pre-aborted signal is its
//     parent (ASK-1, ASK-9).
//   - A Restart between commands (no cut) lets the timers due at its instant fire first:
//     the Apply's effects up to the first append of the restarted host (one that goes back
//     into the log, is at another time, or is no timer's: anything but a tool/result other
//     than the repair or a run_code sub-call's dispatch) belong to the host that crashed.
package oracle
