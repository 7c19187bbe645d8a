package golden

import (
	"strconv"
	"strings"
)

// Context is how many lines around a divergence a Mismatch shows.
const Context = 3

// Mismatch is where a transcript first departs from its golden.
type Mismatch struct {
	// Line is the 1-based line in the golden file (counting comment lines) where they
	// diverge; Section is header, records, final or verdict.
	Line    int
	Section string
	// Record is the seq of the divergent record ("" outside the records).
	Record string
	// Want and Got are the divergent lines ("" when one side has ended).
	Want, Got string
	// Before are the identical lines just before; WantAfter and GotAfter the next lines
	// of each side.
	Before              []string
	WantAfter, GotAfter []string
	// WantLines and GotLines count the compared (non-comment) lines of each side.
	WantLines, GotLines int
}

type numbered struct {
	n    int
	text string
}

func significant(data []byte) []numbered {
	var out []numbered
	lines := strings.Split(string(data), "\n")
	if len(lines) > 0 && lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	for i, l := range lines {
		if strings.HasPrefix(l, "#") {
			continue
		}
		out = append(out, numbered{i + 1, strings.TrimRight(l, "\r")})
	}
	return out
}

// Equal reports whether two transcripts agree on every line that is not a comment.
func Equal(want, got []byte) bool { return Compare(want, got) == nil }

// Compare returns nil when the transcripts agree (ignoring comment lines), else the
// first divergence.
func Compare(want, got []byte) *Mismatch {
	w, g := significant(want), significant(got)
	i := 0
	for i < len(w) && i < len(g) && w[i].text == g[i].text {
		i++
	}
	if i == len(w) && i == len(g) {
		return nil
	}
	m := &Mismatch{WantLines: len(w), GotLines: len(g)}
	for j := max(0, i-Context); j < i; j++ {
		m.Before = append(m.Before, w[j].text)
	}
	if i < len(w) {
		m.Want, m.Line = w[i].text, w[i].n
		for j := i + 1; j < len(w) && j <= i+Context; j++ {
			m.WantAfter = append(m.WantAfter, w[j].text)
		}
	} else if len(w) > 0 {
		m.Line = w[len(w)-1].n + 1
	} else {
		m.Line = 1
	}
	if i < len(g) {
		m.Got = g[i].text
		for j := i + 1; j < len(g) && j <= i+Context; j++ {
			m.GotAfter = append(m.GotAfter, g[j].text)
		}
	}
	// The section is the one the golden is in at that point (or the run's, if the golden ended).
	m.Section = sectionAt(w, i)
	if i >= len(w) {
		m.Section = sectionAt(g, i)
	}
	if m.Section == "records" {
		line := m.Want
		if line == "" {
			line = m.Got
		}
		if sp := strings.IndexByte(line, ' '); sp > 0 {
			m.Record = line[:sp]
		}
	}
	return m
}

func sectionAt(ls []numbered, i int) string {
	s := "header"
	for j := 0; j <= i && j < len(ls); j++ {
		l := ls[j].text
		switch {
		case j == 0:
			s = "header"
		case strings.HasPrefix(l, "final t="):
			s = "final"
		case strings.HasPrefix(l, VerdictPrefix):
			s = "verdict"
		case s == "header" && recordRe.MatchString(l):
			s = "records"
		}
	}
	return s
}

// String is the report of the divergence:
//
//	the run departs from the golden at line 42 (record 0039):
//	    0037 t=… (same)
//	    0038 t=…
//	  - 0039 t=5000 host out … (golden)
//	  + 0039 t=5000 host out … (this run)
//	  next in the golden: …
//	  next in this run: …
func (m *Mismatch) String() string {
	var b strings.Builder
	b.WriteString("the run departs from the golden at line ")
	b.WriteString(strconv.Itoa(m.Line))
	switch {
	case m.Record != "":
		b.WriteString(" (record " + m.Record + ")")
	default:
		b.WriteString(" (" + m.Section + ")")
	}
	b.WriteString(":\n")
	for _, l := range m.Before {
		b.WriteString("    ")
		b.WriteString(l)
		b.WriteByte('\n')
	}
	if m.Want != "" {
		b.WriteString("  - " + m.Want + "\n")
	} else {
		b.WriteString("  - (the golden ends here; the run has " + strconv.Itoa(m.GotLines-m.WantLines) + " more lines)\n")
	}
	if m.Got != "" {
		b.WriteString("  + " + m.Got + "\n")
	} else {
		b.WriteString("  + (the run ends here; the golden has " + strconv.Itoa(m.WantLines-m.GotLines) + " more lines)\n")
	}
	for _, side := range []struct {
		name  string
		lines []string
	}{{"next in the golden", m.WantAfter}, {"next in this run", m.GotAfter}} {
		if len(side.lines) == 0 {
			continue
		}
		b.WriteString("  " + side.name + ":\n")
		for _, l := range side.lines {
			b.WriteString("    ")
			b.WriteString(l)
			b.WriteByte('\n')
		}
	}
	return strings.TrimRight(b.String(), "\n")
}
