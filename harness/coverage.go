package harness

import (
	"encoding/json"
	"sort"
	"strconv"
	"strings"

	"github.com/twosettle/twosettle/oracle"
	"github.com/twosettle/twosettle/scenarios"
)

// CoverageRow is one requirement id with the scenarios and invariants that exercise it.
type CoverageRow struct {
	ID         string   `json:"id"`
	Text       string   `json:"text"`
	Scenarios  []string `json:"scenarios"`
	Invariants []string `json:"invariants"`
	// Unguarded is set when no invariant guards the id: why (oracle.Unguarded), its kind
	// (untraceable, or a gap) and the tests or scenarios that cover it instead.
	Unguarded *Unguarded `json:"unguarded,omitempty"`
}

// Unguarded says why no invariant guards an id and what covers it instead.
type Unguarded struct {
	Kind      string   `json:"kind"`
	Reason    string   `json:"reason"`
	CoveredBy []string `json:"coveredBy"`
}

// CoverageReport covers every requirement id, in docs/REQUIREMENTS.md order.
type CoverageReport struct {
	Requirements []CoverageRow `json:"requirements"`
	Uncovered    []string      `json:"uncovered"`
	// Guarded is how many ids at least one invariant guards.
	Guarded int `json:"guarded"`
}

// Coverage builds the report from scenario files (the library, by default): a scenario
// covers the ids its covers: lists; an invariant guards the ids its catalogue entry names.
// An id no scenario covers is uncovered. Files that do not decode are an error.
func Coverage(entries []Entry) (*CoverageReport, error) {
	byID := map[string][]string{}
	var bad scenarios.Errors
	for _, e := range entries {
		s, err := scenarios.Decode(e.Path, e.Data)
		if err != nil {
			if es, ok := err.(scenarios.Errors); ok {
				bad = append(bad, es...)
			} else {
				bad = append(bad, &scenarios.Error{Pos: scenarios.Pos{File: e.Path}, Msg: err.Error()})
			}
			continue
		}
		for _, id := range s.Covers {
			byID[id] = append(byID[id], s.Name)
		}
	}
	if len(bad) > 0 {
		return nil, bad
	}
	inv := map[string][]string{}
	for _, in := range oracle.Catalogue() {
		for _, id := range in.Guards {
			inv[id] = append(inv[id], in.Name)
		}
	}
	exempt := map[string]oracle.Exemption{}
	for _, e := range oracle.Unguarded() {
		exempt[e.ID] = e
	}
	rep := &CoverageReport{Uncovered: []string{}}
	for _, r := range scenarios.Requirements() {
		row := CoverageRow{ID: r.ID, Text: r.Text, Scenarios: append([]string{}, byID[r.ID]...), Invariants: append([]string{}, inv[r.ID]...)}
		sort.Strings(row.Scenarios)
		sort.Strings(row.Invariants)
		if len(row.Invariants) > 0 {
			rep.Guarded++
		} else if e, ok := exempt[r.ID]; ok {
			row.Unguarded = &Unguarded{Kind: e.Kind, Reason: e.Reason, CoveredBy: e.CoveredBy}
		}
		rep.Requirements = append(rep.Requirements, row)
		if len(row.Scenarios) == 0 {
			rep.Uncovered = append(rep.Uncovered, r.ID)
		}
	}
	return rep, nil
}

// JSON renders the report.
func (c *CoverageReport) JSON() []byte {
	b, _ := json.MarshalIndent(c, "", "  ")
	return append(b, '\n')
}

// Text renders one line per covered id, then the uncovered ids, then how many ids the
// oracle guards, last:
//
//	WAIT-1    scenarios: a, b   invariants: INV-WAIT-DEADLINE-FIXED
//	GW-4      scenarios: c   unguarded (untraceable): covered by test engine/gateway/gateway_test.go, scenario c
//	...
//	uncovered: 2 of 110 requirement ids
//	  ROW-3   A legacy row offers no question action.
//	unguarded: 7 untraceable, 13 gaps (why, and what covers them instead: simrun coverage --json)
//	90/110 ids guarded by the oracle
func (c *CoverageReport) Text() string {
	var b strings.Builder
	for _, r := range c.Requirements {
		if len(r.Scenarios) == 0 {
			continue
		}
		b.WriteString(pad(r.ID, 10))
		b.WriteString("scenarios: ")
		b.WriteString(strings.Join(r.Scenarios, ", "))
		if len(r.Invariants) > 0 {
			b.WriteString("   invariants: ")
			b.WriteString(strings.Join(r.Invariants, ", "))
		}
		if u := r.Unguarded; u != nil {
			b.WriteString("   unguarded (" + u.Kind + "): covered by " + strings.Join(u.CoveredBy, ", "))
		}
		b.WriteByte('\n')
	}
	n := len(c.Requirements)
	if len(c.Uncovered) == 0 {
		b.WriteString("every one of the " + itoa(n) + " requirement ids is covered by a scenario\n")
	} else {
		b.WriteString("uncovered: " + itoa(len(c.Uncovered)) + " of " + itoa(n) + " requirement ids\n")
		for _, r := range c.Requirements {
			if len(r.Scenarios) == 0 {
				line := "  " + pad(r.ID, 10) + r.Text
				if len(r.Invariants) > 0 {
					line += " (invariants: " + strings.Join(r.Invariants, ", ") + ")"
				}
				b.WriteString(line + "\n")
			}
		}
	}
	kinds := map[string]int{}
	for _, r := range c.Requirements {
		if r.Unguarded != nil {
			kinds[r.Unguarded.Kind]++
		}
	}
	b.WriteString("unguarded: " + itoa(kinds[oracle.Untraceable]) + " untraceable, " + itoa(kinds[oracle.Gap]) +
		" gaps (why, and what covers them instead: simrun coverage --json)\n")
	b.WriteString(itoa(c.Guarded) + "/" + itoa(n) + " ids guarded by the oracle\n")
	return b.String()
}

func pad(s string, n int) string {
	for len(s) < n {
		s += " "
	}
	return s
}

func itoa(n int) string { return strconv.Itoa(n) }
