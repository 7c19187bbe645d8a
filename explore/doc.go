// Package explore is the exploration side of the harness (docs/ARCHITECTURE.md §6, §9, §10): a swarm
// generator of random scenarios, the fuzz campaign behind `simrun fuzz`, the shrinker,
// situation coverage, and (in its tests) rapid state-machine properties and a Go native
// fuzz target over the same actions.
//
// # Use
//
//	s := explore.Generate(seed)                 // a *scenarios.Scenario, seed's own
//	r := explore.NewRunner(explore.Options{})   // one per worker; Options.Mutant picks a bug
//	out, reached := r.Run(s)                    // compile, simulate, oracle, situations
//	small, _ := explore.Shrink(r, s, out.Invariant(), explore.ShrinkBudget{})
//	sh, err := explore.ShrinkScenario(s, explore.Options{}, explore.ShrinkBudget{}) // any scenario (simrun shrink)
//	rep, _ := explore.Campaign{Seeds: 2000, OutDir: "fuzz-failures"}.Run(ctx)
//	rep, _ = explore.Campaign{Seeds: 5000, StopAtFirst: true, NoShrink: true,
//		Options: explore.Options{Mutant: "x"}}.Run(ctx) // rep.SeedsRun is seeds-to-kill
//
// # Contract
//
//   - Generation is deterministic per seed and draws only from the seed's generation
//     stream (sim.StreamGeneration), or from any Rand (fuzzer bytes, rapid). Its output is
//     a scenarios.Scenario that passes Validate and survives Encode/Decode unchanged, so
//     every generated or shrunk case is the YAML a person writes.
//   - Every fault is a scripted step (host crash at a named point, restart, disconnect,
//     partition, delay, lose, reload, clock jump, drift, client crash, cancel), drawn
//     swarm-style: each seed switches each kind on or off and draws its rate; the
//     simulator's own random faults (explore: in YAML) are not used, so the shrinker can
//     delete faults one by one and a failure file shows exactly what happened.
//   - The Session-level steps are swarm features, drawn per seed after everything else
//     (Swarm.Features, each on in 15-18% of seeds; a seed without any is the scenario it
//     was before they existed) and scripted around the calls the episodes made: a fork
//     ({open: fN, fork: S, through: N}, PROJ-11) with its own turn and an answer for a
//     parent's call, a close followed by a late answer or a prompt that resumes the
//     Session (GW-8), an inbox write fault before a late answer and its resubmission
//     (LATE-5), a steer into a running turn (some with a user-question-reply source,
//     NODE-1), and two late answers for one continued call (LATE-2). A step the engine
//     refuses legitimately (a fork through more events than the parent has, a prompt
//     whose write fails) is a refusal like any other: a failure file marks it refused:.
//   - The scenario language's other steps (inputs_steps.go) are drawn last of all, each
//     kind on in 8-15% of seeds: the guarded Continue, the tool row's toggle, unbind then
//     bind, a raw client input for a Session the host never opened, events appended by hand,
//     a late reply claimed into a chosen turn and that turn's end, a host stall, and an
//     answerer that holds every delivery (hold: true) with outcomes and claims injected for
//     it. Each has a situation (situations_steps.go), so a 2000-seed campaign shows it ran.
//   - The healed phase starts after the last activity: the generator adds no fault after
//     it, redials the clients that do not redial by themselves, and runs until every
//     deadline ahead has passed by 3 s (more than the oracle's liveness bound). The oracle
//     derives the phase from the trace (its last fault or restart), exactly as simrun run
//     and replay do for these scenarios (harness.OracleOptions, as harness.ReferenceOracle).
//   - A campaign's output is deterministic per seed whatever the number of workers:
//     failures are reported in seed order, and the seeds run are always a prefix of the
//     shard's sequence. A Report keeps counters and failures only (flat memory).
//   - Shrink takes any *scenarios.Scenario, generated or hand-written. ShrinkScenario is
//     the whole path for a scenario file (simrun shrink): it drops the expectations (they
//     describe the original run), shrinks keeping the first invariant, marks refusals,
//     names the result <name>-shrunk and checks its YAML reproduces through the harness;
//     a scenario that passes is ErrPasses. Files are written with fileio.WriteAtomic.
//   - A failure is shrunk (same first invariant), its refused steps are marked refused:
//     (simrun replay treats an unexpected refusal as invalid input), the YAML is decoded
//     back and rerun through harness.RunScenario to check it reproduces, and then YAML and
//     transcript are written atomically before the failure is reported, with its
//     timeline page beside them (WriteTimeline: the written YAML run once more, drawn by
//     package timeline).
//
// Owns: generation, the campaign, shrinking, situations. Imports harness (Compile,
// Execute, RunScenario), oracle, sim, scenarios, trace, tracemodel (situation coverage reads
// each run through the trace model, docs/ARCHITECTURE.md §3), golden, timeline and engine/wire. Runner
// runs through harness.Execute, the run sequence simrun run uses, with Options.Host (a
// harness.HostFactory; nil is the reference host): the campaign, the shrinker and the
// failure writer (which checks a case through harness.RunScenario) all use that one
// factory.
//
// Decisions where the spec is silent:
//   - Shards are 1-based ("--shard 2/8"): shard K runs the seeds whose index from Start
//     is K-1 modulo N.
//   - A run error (the simulator's guards) is a failure named RUN-ERROR; a scenario the
//     host or the simulator refuses is INVALID (a generator bug). A host lost during a
//     run (wire.PortLost: an external process that crashed, hung or broke the protocol)
//     is HOST-LOST: not shrunk (what still crashes a process says nothing about the
//     scenario), written as generated without a transcript.
//   - The generator also draws inputs at the edge of the decision's API, after the rest
//     of a seed's scenario (so the rest stays what it was): a model request with no
//     header before its first tool call (untracked, PROJ-2), a header whose tools
//     contradict the host's tool mode (the host's mode decides the path, TOOL-1/TOOL-4),
//     and a direct blocking ask() carrying a timed wait (no host wait behind it, WAIT-7).
package explore
