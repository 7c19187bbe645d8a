package oracle

import (
	"strconv"
	"strings"
)

// Status is the outcome of a check.
type Status uint8

// Statuses.
const (
	OK        Status = iota + 1 // every applicable invariant held
	Violation                   // at least one invariant broke
	Unknown                     // a budget ran out before the trace was fully checked
)

func (s Status) String() string {
	switch s {
	case OK:
		return "ok"
	case Violation:
		return "violation"
	case Unknown:
		return "unknown"
	}
	return "status(" + strconv.Itoa(int(s)) + ")"
}

// Broken is one broken invariant: the record where it broke (FinalRecord for a check of the
// final state), a one-line reason and a minimal witness (the few records that prove it, in
// trace order, rendered with their canonical lines).
type Broken struct {
	Invariant string
	Record    int    // the trace record's Seq, or FinalRecord
	Message   string // deterministic: built only from trace content
	Witness   []int  // record Seqs, ascending
	Lines     []string
}

// FinalRecord marks a violation found in the final state (trace.Final), not at a record.
const FinalRecord = -1

// Verdict is the oracle's answer for one trace. Violations holds the first violation of
// each broken invariant, ordered by record (final-state violations last), then by name.
type Verdict struct {
	Status     Status
	Violations []Broken
	Reason     string // Unknown: which budget ran out, and where
	Records    int    // records checked
}

// OK reports whether the verdict is ok.
func (v Verdict) OK() bool { return v.Status == OK }

// First is the first violation, or nil.
func (v Verdict) First() *Broken {
	if len(v.Violations) == 0 {
		return nil
	}
	return &v.Violations[0]
}

// Has reports whether invariant name is among the violations.
func (v Verdict) Has(name string) bool {
	for _, b := range v.Violations {
		if b.Invariant == name {
			return true
		}
	}
	return false
}

// Of returns the violation of invariant name, or nil.
func (v Verdict) Of(name string) *Broken {
	for i := range v.Violations {
		if v.Violations[i].Invariant == name {
			return &v.Violations[i]
		}
	}
	return nil
}

// String is the canonical text of a verdict, the last lines of every golden transcript:
//
//	oracle: ok
//	oracle: unknown: <reason>
//	oracle: violation
//	  INV-GW-CANCEL at 0042: <message>
//	    0031 t=… host in …
//	    0042 t=… host out …
func (v Verdict) String() string {
	var b strings.Builder
	b.WriteString("oracle: ")
	b.WriteString(v.Status.String())
	if v.Status == Unknown && v.Reason != "" {
		b.WriteString(": ")
		b.WriteString(v.Reason)
	}
	for _, x := range v.Violations {
		b.WriteString("\n  ")
		b.WriteString(x.String())
	}
	return b.String()
}

// String is "INV-… at 0042: message" followed by the witness lines, indented.
func (x Broken) String() string {
	var b strings.Builder
	b.WriteString(x.Invariant)
	b.WriteString(" at ")
	if x.Record == FinalRecord {
		b.WriteString("final")
	} else {
		b.WriteString(pad4(x.Record))
	}
	b.WriteString(": ")
	b.WriteString(x.Message)
	for _, l := range x.Lines {
		b.WriteString("\n    ")
		b.WriteString(l)
	}
	return b.String()
}

func pad4(n int) string {
	s := strconv.Itoa(n)
	for len(s) < 4 {
		s = "0" + s
	}
	return s
}
