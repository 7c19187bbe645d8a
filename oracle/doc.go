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
//     the reference projection (engine/questions) and compare every view the host
//     published (trace validation).
//   - External hosts: the oracle relies only on the wire vocabulary (commands, effects,
//     frames, client records) and the final HostState. Invariants that need an optional
//     protocol feature say so in Invariant.Needs: WaitNote effects (INV-WAIT-LIFECYCLE, and
//     extra checks in the WAIT invariants), the volatile host state (INV-LIVE-NO-LEAK), the
//     reference projection (INV-PROJ-REFOLD, INV-LATE-ONLY-CONTINUED, INV-LATE-ANSWERABLE),
//     client records (INV-CLIENT-*). Without the feature those checks do not apply.
//   - A crash cut inside an Apply (Restart{CutAfter: k} as the next host In) voids that
//     Apply's effects after the first k, if the trace recorded them.
//   - Fast: one pass, small maps, JSON decoded only for the few values that need it (tool
//     arguments, request payloads, RPC args); a Checker reuses its memory between traces.
//
// Owns: the catalogue, the checker, the verdict and its text. Imports: the standard
// library, trace, engine/wire, engine/session and engine/questions (the reference
// projection and tool name only). It never imports sim (imports_test.go enforces it).
//
// Decisions where the spec is silent:
//   - Time: the runner is assumed exact (the simulator applies every deadline a host
//     declares at its instant), so a wait still open at a command after its expiry instant
//     is a violation; Options.LazyTimers relaxes that to "by the end of that Apply".
//   - The winner of a request is the first result or rejection from a generation that
//     still holds its delivery, unless the host cancels that very delivery in the same
//     Apply (its timers fired first).
//   - Without WaitNote effects, a wait's end is taken as visible only when something would
//     show it (a delivered request's cancels, or the call being the earliest unresolved
//     call of its step); otherwise the timing invariants skip it rather than guess.
//   - A default timeout is known only through Options.DefaultTimeoutMs, a WaitNote or the
//     first claim frame.
//   - Client invariants attribute a user action naming the composer seat (Card "") to the
//     one live timed request the client holds, and skip it when there are several.
package oracle
