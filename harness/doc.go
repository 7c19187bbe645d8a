// Package harness runs scenarios: scenario → the reference host and clients → the
// simulator → the trace → the transcript → the golden comparison, the expectations and
// the oracle's verdict. cmd/simrun's commands and `go test` both call it.
//
//	entries := harness.Library("")                    // the embedded library
//	r := harness.RunEntry(entries[0], harness.DefaultOptions())
//	r.Status()       // Passed, Failed or Invalid (exit codes 0, 1, 2)
//	r.Transcript     // the exact bytes of the golden
//	r.Failures       // each failed check, at its file:line:col
//
// What it decides:
//   - Compile maps the YAML vocabulary to sim.Config: the Sessions are opened at time 0
//     before any step; the model's, the host's and the service's steps become host
//     commands; user actions become wire.UserActions, except reload, crash, clock and
//     drift, which are simulator faults; `host: crash` (with a point) is a crash fault,
//     `host: {fail-inbox-write: s1}` the inbox-write-fail fault, `host: restart` the
//     host's Restart command; a prompt's or steer's source: becomes wire.Send.Source;
//     `host: {stall: D}` is the host-stall fault, `host: {append: …}` and `host:
//     {claim-reply: …}` the wire.AppendEvent and wire.ClaimReply commands (an appended
//     event's shape is checked against the protocol first, CheckEvents); an inject with
//     attach: is a claim stream (wire.StreamOpen); a client with hold: true runs as an
//     answerer that holds every delivery (no reference client).
//     Each expectation at a time t gets a
//     probe after every step at t (other events due at t may still come after it: look
//     a little after an instant rather than at it). A client that omits reconnect never
//     redials by itself; write-window 0s is write-through, omitted is the host's default.
//   - One file per kind, as in scenarios: step_<kind>.go compiles a step kind and
//     expect_<kind>.go checks an expectation kind, each registered by the kind's name
//     (registerCompiler, registerCheck); TestEveryKindHasItsHarnessFile checks every kind
//     scenarios declares has its file here.
//   - Every Reject record is traced back to its step (same time, actor and input text;
//     every record of a delivered step input counts, so of two identical steps at one
//     instant a refusal of the second is the second's).
//     A refusal the step does not expect (refused:) makes the scenario impossible:
//     Invalid, at the step's line, like a decoding error. An expected refusal is a check.
//   - The oracle (Options.Oracle, ReferenceOracle by default) runs on every trace; its
//     verdict is the transcript's last lines, and a violation fails the run unless an
//     `oracle: violation` expectation says the scenario shows one (a finding).
//   - A golden is compared only at the scenario's own seed. A library scenario without a
//     golden fails ("missing"); another file's golden sits beside it and is optional.
//     Update writes goldens atomically, only for runs that were not invalid; a run whose
//     host was lost is compared with no golden and updates none.
//   - A host that refuses its configuration (its factory fails) produces a transcript of
//     that refusal and can only satisfy host-config expectations.
//   - Any host: Options.Host is a HostFactory (nil: ReferenceHost, the in-process
//     reference host). Execute is the one run sequence of harness and explore (factory,
//     reference clients, simulator, Close); a host lost mid-run (wire.PortLost: an
//     external process that crashed, hung or broke the protocol) stops the run, which is
//     then broken (Result.Lost), never a pass.
//   - One place for each mapping: HostConfig is the scenario's host configuration (what
//     the factory gets), OracleOptions the oracle's options every run path uses (derived
//     from the same configuration), and time.go turns the scenario's durations into
//     wire.Time and wire.Duration.
//
// CheckExpectations is the expectation checker on its own, for a trace any host and
// clients produced (RunEntry and RunScenario call the same code); WriteRunFile and ReadRunFile keep a run as a
// run file (twosettle-run/1, docs/PROTOCOL.md "Run files") to check it later.
//
// For generated scenarios (the fuzzer, the shrinker) RunScenario runs a
// scenarios.Scenario value directly; scenarios.Encode writes it as the same YAML.
//
// Imports: scenarios, golden, trace, sim, oracle, engine/host, engine/client and
// engine/wire. It is not imported by any of them.
package harness
