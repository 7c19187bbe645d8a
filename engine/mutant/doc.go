// Package mutant is the registry of the reference engine's deliberate bugs (docs/ARCHITECTURE.md §6,
// §9): each mutant is a named, plausible way to get the decision wrong, drawn from the
// decision's rejected alternatives or from a failure mode another system shipped, and
// switched on only by an explicit option (host.Config.Mutant, client.Config.Mutant). The
// kill matrix (package killmatrix, `simrun mutants`) runs each against the scenario library
// and a fuzz budget and reports whether the oracle kills it.
//
// # Contract
//
//   - Names are stable kebab-case words; Lookup and Parse read them. Every mutant has a
//     one-line Doc (what the bug does), a Source (where the idea comes from), the Side it
//     lives on (host or client) and the requirement ids it breaks.
//   - A Set is a value (a bit set) passed down through the engine's configs; there is no
//     global switch. An engine package tests a mutant with Set.Has at the site of the bug,
//     in a small branch marked "MUTANT", and with the empty Set every path is exactly the
//     correct engine's.
//   - The table is immutable; nothing in this package has state.
//
// # Imports
//
// The standard library only (errors, strconv, strings). Every engine package may import it; it
// imports no engine package, so the gateway can name its mutants without reaching question
// vocabulary (GW-2).
//
// # Decisions
//
//   - One option names one mutant (Parse also takes a comma-separated list, for
//     experiments; the runner uses one at a time). The host and the clients receive the
//     same name: each side acts only on its own mutants, and host.New refuses a name the
//     registry does not know.
package mutant
