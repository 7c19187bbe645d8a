// Package killmatrix is the mutation check of the harness (docs/ARCHITECTURE.md §6, §9; `simrun mutants`):
// for each named bug of the reference engine (engine/mutant) it runs the scenario library
// (goldens and expectations) and a fuzz budget (generated seeds, oracle only) against the
// engine with that bug switched on, and reports the kill matrix. (engine/mutant is the
// registry of those bugs; this package only measures whether the oracle kills them.)
//
//	m, err := killmatrix.Measure(ctx, killmatrix.Options{})   // every mutant, the default budget
//	m.Text()                                          // one line per mutant
//	m.JSON()                                          // {"mutants":[{"name", "verdict", "seeds_to_kill", "invariant", ...}]}
//	m.AllKilled()                                     // every mutant killed by the oracle
//
// # Verdicts
//
//   - killed-by-oracle: a generated seed (explore.Generate) run against the mutant has an
//     oracle violation, and the same seed passes the oracle on the correct engine.
//     SeedsToKill counts the seeds run up to and including that one; Invariant is the first
//     invariant the mutant violated there.
//   - killed-by-golden-only: the fuzz budget found nothing, but the library did (a golden
//     mismatch, a failed expectation, an oracle violation or a refused step in a library
//     scenario).
//   - survived: neither did.
//
// # Contract
//
//   - Deterministic: the seeds are Start, Start+1, … in order, and the verdict of a mutant
//     depends only on them (each seed's run is deterministic), not on the number of
//     workers. Only the wall-time Budget can end a mutant's fuzzing early; a mutant that
//     is not killed when the budget runs out says how many seeds it survived.
//   - Differential kills: a seed counts only if the correct engine passes the oracle on
//     it. The generator can reach inputs where the correct engine itself fails the oracle
//     (findings about the oracle or the engine, reported by simrun fuzz); a mutant that
//     fails there is not thereby distinguished from the correct engine, so the seed is
//     skipped (BaselineSkips) and fuzzing goes on. The correct engine's verdict per seed is
//     computed once and shared by every mutant.
//   - A run error (the simulator's guards) or an invalid scenario is not an oracle kill:
//     the seed is skipped too (RunErrors).
//
// # Reuse of explore
//
// It drives explore.Generate and explore.Runner (the campaign's own building blocks, with
// explore.Options.Mutant) in its own seed loop instead of explore.Campaign: a campaign
// with StopAtFirst stops at the first failing seed, which may be a seed the correct engine
// fails too, and the kill must be differential. Parallelism is across mutants (Workers),
// so each mutant's seeds run in order and seeds-to-kill is exact.
//
// Imports: engine/mutant, explore, harness, oracle, and the standard library. Nothing in
// the engine imports it.
package killmatrix
