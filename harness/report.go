package harness

import (
	"encoding/json"
	"strconv"
	"strings"
)

// Summary counts results. Invalid results count as failed in the totals; they decide the
// exit code (2) on their own.
type Summary struct {
	Passed, Failed, Invalid int
}

// Summarize counts the results.
func Summarize(rs []*Result) Summary {
	var s Summary
	for _, r := range rs {
		switch r.Status() {
		case Passed:
			s.Passed++
		case Failed:
			s.Failed++
		default:
			s.Invalid++
		}
	}
	return s
}

// Line is the closing line: "N passed, N failed".
func (s Summary) Line() string {
	return strconv.Itoa(s.Passed) + " passed, " + strconv.Itoa(s.Failed+s.Invalid) + " failed"
}

// ExitCode is 0 when every run passed, 2 when some scenario was invalid, else 1.
func (s Summary) ExitCode() int {
	switch {
	case s.Invalid > 0:
		return 2
	case s.Failed > 0:
		return 1
	}
	return 0
}

// Line is the one line a run prints for a result:
//
//	ok      unclaimed-wait-expires (3 expectations, golden match)
//	FAIL    some-scenario: scenarios/library/x.yaml:12:5: card c1 at 2s on a: ...
//	INVALID scenarios/library/y.yaml:3:1: unknown key ...
func (r *Result) Line() string {
	switch r.Status() {
	case Passed:
		return "ok      " + r.Name() + " (" + strconv.Itoa(r.Expectations) + " expectations, " + r.goldenWord() + ")"
	case Failed:
		first := ""
		if len(r.Failures) > 0 {
			first = r.Failures[0].String()
		} else {
			first = r.Golden.String()
		}
		more := ""
		if n := len(r.Failures); n > 1 || (n == 1 && r.Golden.Failed()) {
			more = " (and more, see below)"
		}
		return "FAIL    " + r.Name() + ": " + firstLine(first) + more
	}
	return "INVALID " + firstLine(r.Invalid.Error())
}

func (r *Result) goldenWord() string {
	if r.Golden.State == "" {
		return "no golden"
	}
	return "golden " + r.Golden.State
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// Details are the lines printed under a failed or invalid result: every failure and the
// golden divergence, indented.
func (r *Result) Details() []string {
	var out []string
	add := func(s string) {
		for _, l := range strings.Split(s, "\n") {
			out = append(out, "        "+l)
		}
	}
	if r.Invalid != nil {
		lines := strings.Split(r.Invalid.Error(), "\n")
		for _, l := range lines[1:] {
			add(l)
		}
		return out
	}
	for i, f := range r.Failures {
		text := f.String()
		if i == 0 {
			// Its first line is on the result's line already.
			j := strings.IndexByte(text, '\n')
			if j < 0 {
				continue
			}
			text = text[j+1:]
		}
		add(text)
	}
	if r.Golden.Failed() && len(r.Failures) > 0 || r.Golden.State == "mismatch" {
		add(r.Golden.String())
	}
	return out
}

// JSONResult is one result in `simrun run --json`.
type JSONResult struct {
	Name         string   `json:"name"`
	File         string   `json:"file"`
	Status       string   `json:"status"`
	Seed         uint64   `json:"seed"`
	Expectations int      `json:"expectations"`
	Failures     []string `json:"failures"`
	Golden       string   `json:"golden"`
	GoldenDiff   string   `json:"goldenDiff,omitempty"`
	Verdict      string   `json:"verdict,omitempty"`
	Error        string   `json:"error,omitempty"`
}

// JSONReport is the whole of `simrun run --json`.
type JSONReport struct {
	Results []JSONResult `json:"results"`
	Passed  int          `json:"passed"`
	Failed  int          `json:"failed"`
	Invalid int          `json:"invalid"`
}

// JSON renders results as one JSON object.
func JSON(rs []*Result) []byte {
	rep := JSONReport{Results: []JSONResult{}}
	for _, r := range rs {
		j := JSONResult{Name: r.Name(), File: r.Entry.Path, Seed: r.Seed, Expectations: r.Expectations, Failures: []string{}, Golden: r.Golden.State}
		switch r.Status() {
		case Passed:
			j.Status = "passed"
		case Failed:
			j.Status = "failed"
		default:
			j.Status = "invalid"
			j.Error = r.Invalid.Error()
		}
		for _, f := range r.Failures {
			j.Failures = append(j.Failures, f.String())
		}
		if r.Golden.Mismatch != nil {
			j.GoldenDiff = r.Golden.Mismatch.String()
		} else if r.Golden.Err != nil {
			j.GoldenDiff = r.Golden.Err.Error()
		}
		if r.Verdict != nil {
			j.Verdict = r.Verdict.Text
		}
		rep.Results = append(rep.Results, j)
	}
	s := Summarize(rs)
	rep.Passed, rep.Failed, rep.Invalid = s.Passed, s.Failed, s.Invalid
	b, _ := json.MarshalIndent(rep, "", "  ")
	return append(b, '\n')
}
