// Package conform is the conformance runner: it drives a host in any language, a
// process speaking the twosettle-conform/1 protocol on its stdin and stdout
// (docs/PROTOCOL.md), through the scenario library and the swarm fuzzer, and judges it
// as the reference engine is judged: the scenarios' expectations, the invariant oracle,
// and the reference engine's transcript of the same scenario and seed.
//
// Contract:
//   - The runner owns time and every id it can (Sessions, clients, calls, RPC and stream
//     ids); a run against a host is as deterministic and replayable as the host is. What
//     a host mints (waterfall event ids, inbox message ids) and the words of its refusals
//     are its own: Comparable normalises exactly those, nothing else.
//   - A host is a Process in its own process group, held to a per-message timeout and a
//     maximum line size; any protocol failure (a crash, a hang, malformed or out-of-turn
//     output, a reply to the wrong request) loses it: the run is reported broken, with the
//     host's exit status and the tail of its stderr, never as a pass. Every process is
//     killed and reaped at the end, on a failure and on Ctrl-C.
//   - A Pool gives each concurrent run its own process and is a harness.HostFactory, so
//     everything that runs scenarios (harness, explore, simrun, conform) runs them against
//     a host process unchanged.
//   - Features: a scenario that needs a feature the host does not declare is not
//     applicable to it (Needs); an invariant that needs introspection is not checked for a
//     host without it (NotChecked). The report says so per requirement id. The fuzzer
//     generates only what a host's features allow (FuzzGen: explore.GenOptions) and says
//     what it left out and which situations that rules out (fuzz_features.go).
//   - Serve is `conform refhost`: the reference host served over the protocol, the
//     example adapter; it serves every profile.
//   - Profiles (profile.go): the hello names the part of the decision a run judges, and a
//     host that does not list it is refused before any run; a report lists exactly the ids
//     the profile judged (Report.Judged). The projection profile (projection*.go) streams
//     Session logs (the library's, fuzz seeds', seeded edge logs') to a fold host event by
//     event, compares each view with the reference fold (engine/questions), and shrinks and
//     writes a log that differs. The wait profile (wait*.go) compares each reply of a host
//     with engine/questions.Wait driven by the same step (waitModel) on virtual time,
//     instant by instant (wait_judge.go): times, remainingMs, reasons, timers and each
//     entity's own events exactly, the events of different entities at one instant as a
//     set (the decision does not order them); each failure names the ids its comparison
//     judges, and only those are failed.
//   - Real-time mode (realtime*.go) paces virtual time on a clock.Clock for a host on its
//     own timers and judges its times within a stated tolerance; such a report is marked
//     not replayable (Report.Realtime). The wait profile checks each event against the
//     wait model (realtime.go), with the same freedom inside an instant. The whole host runs behind realtimeHost
//     (realtime_host.go), a wire.HostPort with a shadow reference host that says when to
//     tick and what each time should be; the host's times within the tolerance are
//     snapped to the shadow's (realtime_snap.go), and generated scenarios are screened for
//     real time (realtime_run.go). timersHost (realtime_timers.go) is the reference host
//     on its own timers, conform refhost --real-timers. Only in this mode does the runner
//     read a real clock for a verdict, and its tests use the library's mock clock.
//   - Clients (docs/PROTOCOL.md "Clients"): the same Process and Pool run an answer UI
//     speaking the client vocabulary. Pool.ClientFactory is a harness.ClientFactory;
//     RunClientScenario runs a scenario with the reference host and the process as every
//     client and compares through ComparableClient (the ids a client mints renamed, what
//     a UI words its own way compared as present or absent); a lost client is a broken
//     run, never a pass. ServeClient is `conform refclient`, the example client adapter.
//
// Imports: the standard library, engine/host (Serve only), engine/client (ServeClient
// only), engine/questions and engine/mutant (the projection's and the wait's reference,
// and the served mutants), engine/signal, engine/wire, engine/session, harness, explore,
// oracle, scenarios, sessionlog, sim, golden, trace and github.com/benbjohnson/clock
// (real-time mode).
package conform
