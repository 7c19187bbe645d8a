package conform

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/twosettle/twosettle/explore"
	"github.com/twosettle/twosettle/oracle"
)

// FuzzGen is what a fuzz campaign judging a process in role (RoleHost or RoleClient) with
// features generates and checks: the generator options (a host gets only the scenarios its
// features allow: explore.GenOptionsFor) and the invariants left unchecked (NotChecked).
// A client runs with the reference host, which has every feature: its campaign is the
// whole one.
func FuzzGen(role string, features []string) (explore.GenOptions, []string) {
	if role == RoleClient {
		return explore.GenOptions{}, nil
	}
	return explore.GenOptionsFor(features), NotChecked(features)
}

// JudgedRequirements are the oracle's invariants a fuzz run checks (the catalogue less
// skip) and the requirement ids they guard, sorted.
func JudgedRequirements(skip []string) (invariants []string, ids []string) {
	for _, inv := range oracle.Catalogue() {
		if slices.Contains(skip, inv.Name) {
			continue
		}
		invariants = append(invariants, inv.Name)
		for _, g := range inv.Guards {
			if !slices.Contains(ids, g) {
				ids = append(ids, g)
			}
		}
	}
	slices.Sort(ids)
	return invariants, ids
}

// fuzzCoverage is what a fuzz campaign judged, for its text and JSON reports.
type fuzzCoverage struct {
	GeneratorOff []string            `json:"generator_off"`
	Invariants   int                 `json:"invariants_judged"`
	Requirements []string            `json:"requirements_judged"`
	NotChecked   []string            `json:"not_checked"`
	Situations   map[string]uint64   `json:"situations"`
	Reached      int                 `json:"situations_reached"`
	Reachable    int                 `json:"situations_reachable"`
	CannotReach  map[string][]string `json:"cannot_reach"`
	Unreached    []string            `json:"unreached"`
}

func newFuzzCoverage(rep *explore.Report, skip []string) fuzzCoverage {
	invs, ids := JudgedRequirements(skip)
	c := fuzzCoverage{GeneratorOff: rep.Gen.Off(), Invariants: len(invs), Requirements: ids, NotChecked: skip,
		Situations: map[string]uint64{}, Reached: rep.Reached(), Reachable: rep.Gen.Reachable(),
		CannotReach: map[string][]string{}, Unreached: rep.Unreached()}
	for _, s := range rep.SituationCounts() {
		c.Situations[s.Name] = s.Runs
	}
	for _, n := range rep.CannotReach() {
		c.CannotReach[n.Name] = n.Lacks
	}
	if c.GeneratorOff == nil {
		c.GeneratorOff = []string{}
	}
	if c.NotChecked == nil {
		c.NotChecked = []string{}
	}
	if c.Unreached == nil {
		c.Unreached = []string{}
	}
	return c
}

// write is the text report's account: what the generator left out and why, how many
// invariants and requirement ids each run judged, and the situations reached, those a
// missing feature rules out and those the campaign could reach and did not.
func (c fuzzCoverage) write(w io.Writer, role string) {
	switch {
	case len(c.GeneratorOff) > 0:
		fmt.Fprintf(w, "generator: %s\n", strings.Join(c.GeneratorOff, ", "))
	case role == RoleClient:
		fmt.Fprintln(w, "generator: every option (the client runs with the reference host, which has every feature)")
	default:
		fmt.Fprintln(w, "generator: every option")
	}
	fmt.Fprintf(w, "judged: %d invariants guarding %d requirement ids on every run", c.Invariants, len(c.Requirements))
	if len(c.NotChecked) > 0 {
		fmt.Fprintf(w, " (%d not checked: the host lacks %s)", len(c.NotChecked), FeatureIntrospection)
	}
	fmt.Fprintln(w)
	fmt.Fprintf(w, "situations reached: %d of %d reachable", c.Reached, c.Reachable)
	if n := len(c.CannotReach); n > 0 {
		fmt.Fprintf(w, " (%d more need a feature the host lacks)", n)
	}
	fmt.Fprintln(w)
	if len(c.CannotReach) > 0 {
		fmt.Fprintln(w, "not reachable without a missing feature:")
		names := make([]string, 0, len(c.CannotReach))
		for n := range c.CannotReach {
			names = append(names, n)
		}
		slices.Sort(names)
		for _, n := range names {
			fmt.Fprintf(w, "  %-36s (host lacks %s)\n", n, strings.Join(c.CannotReach[n], ", "))
		}
	}
	if len(c.Unreached) > 0 {
		fmt.Fprintf(w, "reachable, never reached: %s\n", strings.Join(c.Unreached, ", "))
	}
}
