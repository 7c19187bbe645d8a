// Package sysexplore is systematic exploration (simrun explore, docs/ARCHITECTURE.md §6):
// every order of the events due at one instant and every placement of a small world's
// user actions and faults, run on the reference engine itself (or a host over the
// protocol) and judged by the oracle.
//
// A world (Config, Load) is a scenario plus the steps to place. Search walks the
// decisions of a run depth first, replaying each run from the start with a prefix of
// choices through sim.Runner.Chooser (the engine is deterministic), bounded by depth
// (decisions that branch) or by deviations from the default run, and prunes a run at a
// state (sim.Runner.WriteState plus what is placed) that an earlier run reached with no
// fewer decisions left. A violation keeps its path (Replay runs it again) and becomes a
// scenario a person replays (Config.Reproduce: a seed search, explore's shrinker,
// explore.Write). Options.Random runs random walks over the same world instead: the
// swarm on the same footing.
//
// What the reduction does not claim: the state text is all of a port's state only as far
// as its JSON text form is; the trace so far is not part of the state (a merged state is
// judged on the first history that reached it); with a deviation bound, hashing has been
// seen to miss a few states the full search reaches (TestDedupReachesWhatTheFullSearchReaches
// documents it). There is no partial-order reduction.
package sysexplore
