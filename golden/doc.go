// Package golden owns the transcript format (docs/ARCHITECTURE.md §3) and the golden files made of it.
//
// A transcript is the canonical text of one run: a header line naming the scenario and
// seed, every trace record's canonical line (trace.Record.String), the final state
// (trace.Final.Lines) and the oracle's verdict (its String, when an oracle ran). Lines
// that start with "#" are diagnostics (the expectations' outcomes, the source file,
// anything not stable across machines): comparison ignores them. `simrun run` prints a
// transcript's exact bytes and a golden file is a reviewed transcript, rewritten only by
// `simrun run --update` or `go test ./golden -update`.
//
//	# twosettle transcript: lines starting with # are diagnostics, ignored by comparison
//	scenario unclaimed-wait-expires seed=1
//	0000 t=0 host in open-session s1
//	...
//	final t=5010
//	session s1 parent= inherited=0 persisted=9 live=true root=true phase=idle
//	...
//	oracle: ok
//	# expect 31:5 at 5.1s tool-result c1: ok
//
// Compare reports the first line where two transcripts differ, with a few lines of
// context and the trace record it belongs to, never a wall of text.
//
// The library's goldens live in golden/library/<scenario>.golden and are embedded
// (Library), so an installed simrun compares them from any directory.
//
// Imports: the standard library and trace (for FromTrace). It never imports the
// simulator, the engine or the harness; the harness fills transcripts in.
package golden
