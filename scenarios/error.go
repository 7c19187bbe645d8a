package scenarios

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// Error is one problem in a scenario, at a position, with a hint that says what to write
// instead. Its text is "file:line:col: message (hint: ...)".
type Error struct {
	Pos  Pos
	Msg  string
	Hint string
}

func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(e.Pos.String())
	if b.Len() > 0 {
		b.WriteString(": ")
	}
	b.WriteString(e.Msg)
	if e.Hint != "" {
		b.WriteString(" (hint: ")
		b.WriteString(e.Hint)
		b.WriteByte(')')
	}
	return b.String()
}

// String is "file:line:col", "line:col" without a file, or "" for no position.
func (p Pos) String() string {
	switch {
	case p.Line == 0 && p.File == "":
		return ""
	case p.Line == 0:
		return p.File
	case p.File == "":
		return strconv.Itoa(p.Line) + ":" + strconv.Itoa(p.Col)
	}
	return p.File + ":" + strconv.Itoa(p.Line) + ":" + strconv.Itoa(p.Col)
}

// Errors is every problem found in one scenario, in file order.
type Errors []*Error

func (es Errors) Error() string {
	lines := make([]string, len(es))
	for i, e := range es {
		lines[i] = e.Error()
	}
	return strings.Join(lines, "\n")
}

// moreErrorsTail ends the last entry of a list cut at maxErrors, which counts the errors
// left out; it stays last whatever its position.
var moreErrorsTail = fmt.Sprintf("not listed: only the first %d are (fix these, then check again)", maxErrors)

// capped adds e to a list of at most maxErrors; past it, the entry *more (added once)
// counts the errors left out in *dropped.
func capped(es Errors, more **Error, dropped *int, file string, e *Error) Errors {
	if len(es) < maxErrors {
		return append(es, e)
	}
	if *more == nil {
		*more = &Error{Pos: Pos{File: file}}
		es = append(es, *more)
	}
	*dropped++
	(*more).Msg = fmt.Sprintf("%d more errors %s", *dropped, moreErrorsTail)
	return es
}

// sorted returns the errors in file order (stable for equal positions), the count of
// those left out (capped) last.
func (es Errors) sorted() Errors {
	sort.SliceStable(es, func(i, j int) bool {
		a, b := es[i].Pos, es[j].Pos
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		return a.Col < b.Col
	})
	for i, e := range es {
		if strings.HasSuffix(e.Msg, moreErrorsTail) && i != len(es)-1 {
			copy(es[i:], es[i+1:])
			es[len(es)-1] = e
			break
		}
	}
	return es
}

// err returns nil for no errors (so that a nil Errors is a nil error).
func (es Errors) err() error {
	if len(es) == 0 {
		return nil
	}
	return es.sorted()
}

// closest returns the candidate nearest to s by edit distance (a transposition counts as
// one edit), if it is near enough to be a plausible typo.
func closest(s string, candidates []string) (string, bool) {
	best, bestD := "", 1<<30
	for _, c := range candidates {
		d := editDistance(strings.ToLower(s), strings.ToLower(c))
		if d < bestD {
			best, bestD = c, d
		}
	}
	limit := 1
	switch n := len([]rune(s)); {
	case n > 8:
		limit = 3
	case n > 4:
		limit = 2
	}
	return best, best != "" && bestD <= limit
}

// oneOf is the hint for a value that must be one of candidates.
func oneOf(s string, candidates []string) string {
	if c, ok := closest(s, candidates); ok {
		return "did you mean " + strconv.Quote(c) + "? write one of " + strings.Join(candidates, ", ")
	}
	return "write one of " + strings.Join(candidates, ", ")
}

// editDistance is the optimal string alignment distance between a and b.
func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	if len(ra) > 64 || len(rb) > 64 {
		if a == b {
			return 0
		}
		return 1 << 20
	}
	d := make([][]int, len(ra)+1)
	for i := range d {
		d[i] = make([]int, len(rb)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(ra); i++ {
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(ra)][len(rb)]
}
