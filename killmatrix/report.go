package killmatrix

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/twosettle/twosettle/engine/wire"
)

// Text is the kill matrix for people: a header, one line per mutant (name, verdict,
// seeds-to-kill, invariant, time, library), the killing seed's message, and a summary
// line. Times are wall time and vary between runs; everything else is deterministic
// unless a budget ran out.
func (m *Matrix) Text() string {
	var b strings.Builder
	w := 4
	for _, r := range m.Rows {
		w = max(w, len(r.Name))
	}
	fmt.Fprintf(&b, "%-*s  %-6s  %-21s  %13s  %-32s  %7s  %s\n", w, "mutant", "side", "verdict", "seeds-to-kill", "invariant", "time", "library")
	killed := 0
	for _, r := range m.Rows {
		stk, inv := "-", "-"
		if r.Verdict == KilledByOracle {
			killed++
			stk = strconv.FormatUint(r.SeedsToKill, 10)
			inv = r.Invariant
		} else {
			stk = ">" + strconv.FormatUint(r.SeedsRun, 10)
		}
		fmt.Fprintf(&b, "%-*s  %-6s  %-21s  %13s  %-32s  %7s  %s\n", w, r.Name, r.Side, r.Verdict, stk, inv, secs(r.FuzzTime+r.Library.Time), r.Library.summary())
		if r.Verdict == KilledByOracle {
			fmt.Fprintf(&b, "%-*s    seed %d: %s\n", w, "", r.Seed, r.Message)
		}
	}
	fmt.Fprintf(&b, "%d of %d mutants killed by the oracle (seeds %d.. , budget %s a mutant, %d workers) in %s\n",
		killed, len(m.Rows), m.Start, budgetText(m), m.Workers, secs(m.Elapsed))
	if m.Interrupted {
		b.WriteString("interrupted: the matrix is incomplete\n")
	}
	return b.String()
}

func (l Library) summary() string {
	if !l.Ran {
		return "not run"
	}
	if l.Failed == 0 {
		return "0/" + strconv.Itoa(l.Scenarios) + " scenarios caught it"
	}
	var parts []string
	for _, p := range []struct {
		n    int
		what string
	}{{l.Golden, "golden"}, {l.Expectations, "expect"}, {l.Oracle, "oracle"}, {l.Invalid, "invalid"}} {
		if p.n > 0 {
			parts = append(parts, p.what+" "+strconv.Itoa(p.n))
		}
	}
	return strconv.Itoa(l.Failed) + "/" + strconv.Itoa(l.Scenarios) + " scenarios caught it (" + strings.Join(parts, ", ") + "; first " + l.First + ")"
}

func budgetText(m *Matrix) string {
	s := strconv.FormatUint(m.Seeds, 10) + " seeds"
	if m.Budget > 0 {
		s += " or " + m.Budget.String()
	}
	return s
}

func secs(d time.Duration) string { return strconv.FormatFloat(d.Seconds(), 'f', 2, 64) + "s" }

// JSON is the kill matrix as one JSON object: {"mutants": [{"name", "side", "verdict",
// "seeds_to_kill", "invariant", "seed", "seeds_run", "baseline_skips", "budget_out",
// "library": {...}, "seconds"}], "killed", "total", "seconds"}. seeds_to_kill is 0 and
// invariant "" for a mutant the oracle did not kill.
func (m *Matrix) JSON() []byte {
	b := []byte(`{"mutants":[`)
	killed := 0
	for i, r := range m.Rows {
		if i > 0 {
			b = append(b, ',')
		}
		if r.Verdict == KilledByOracle {
			killed++
		}
		b = append(b, `{"name":`...)
		b = wire.AppendJSONString(b, r.Name)
		b = append(b, `,"side":`...)
		b = wire.AppendJSONString(b, r.Side)
		b = append(b, `,"verdict":`...)
		b = wire.AppendJSONString(b, r.Verdict)
		b = append(b, `,"seeds_to_kill":`...)
		b = strconv.AppendUint(b, r.SeedsToKill, 10)
		b = append(b, `,"invariant":`...)
		b = wire.AppendJSONString(b, r.Invariant)
		b = append(b, `,"seed":`...)
		b = strconv.AppendUint(b, r.Seed, 10)
		b = append(b, `,"message":`...)
		b = wire.AppendJSONString(b, r.Message)
		b = append(b, `,"seeds_run":`...)
		b = strconv.AppendUint(b, r.SeedsRun, 10)
		b = append(b, `,"baseline_skips":`...)
		b = strconv.AppendInt(b, int64(r.BaselineSkips), 10)
		b = append(b, `,"run_errors":`...)
		b = strconv.AppendInt(b, int64(r.RunErrors), 10)
		b = append(b, `,"budget_out":`...)
		b = strconv.AppendBool(b, r.BudgetOut)
		l := r.Library
		b = append(b, `,"library":{"ran":`...)
		b = strconv.AppendBool(b, l.Ran)
		for _, f := range []struct {
			k string
			v int
		}{{"scenarios", l.Scenarios}, {"failed", l.Failed}, {"golden", l.Golden}, {"expectations", l.Expectations}, {"oracle", l.Oracle}, {"invalid", l.Invalid}} {
			b = append(b, `,"`+f.k+`":`...)
			b = strconv.AppendInt(b, int64(f.v), 10)
		}
		b = append(b, `,"first":`...)
		b = wire.AppendJSONString(b, l.First)
		b = append(b, `},"seconds":`...)
		b = strconv.AppendFloat(b, (r.FuzzTime + l.Time).Seconds(), 'f', 3, 64)
		b = append(b, '}')
	}
	b = append(b, `],"killed":`...)
	b = strconv.AppendInt(b, int64(killed), 10)
	b = append(b, `,"total":`...)
	b = strconv.AppendInt(b, int64(len(m.Rows)), 10)
	b = append(b, `,"interrupted":`...)
	b = strconv.AppendBool(b, m.Interrupted)
	b = append(b, `,"seconds":`...)
	b = strconv.AppendFloat(b, m.Elapsed.Seconds(), 'f', 3, 64)
	return append(b, "}\n"...)
}
