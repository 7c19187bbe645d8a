package harness

import (
	"strings"

	"github.com/twosettle/twosettle/engine/wire"
	"github.com/twosettle/twosettle/scenarios"
)

func init() { registerCheck(scenarios.ExpectRow, checkRow) }

// checkRow checks a row expectation: a client's ask_user_question tool row.
func checkRow(r *Result, e *scenarios.Expectation, v view, session string, plan *Plan) {
	what := whatOf(e, v)
	c, ok := clientState(v, e, plan)
	if !ok {
		r.fail(e, "%s: no client %s in the state", what, e.Client)
		return
	}
	var row *wire.RowState
	for i := range c.Rows {
		if c.Rows[i].Session == session && c.Rows[i].CallID == e.Subject {
			row = &c.Rows[i]
		}
	}
	if e.None {
		if row != nil {
			r.fail(e, "%s on %s: expected no row, found %s", what, c.Client, row.String())
		}
		return
	}
	if row == nil {
		r.fail(e, "%s on %s: there is no such row", what, c.Client)
		return
	}
	shown := row.String()
	if e.Summary != "" && row.Summary != e.Summary {
		r.fail(e, "%s on %s: summary %q, not %q (%s)", what, c.Client, row.Summary, e.Summary, shown)
	}
	if e.State != "" && row.State != e.State {
		r.fail(e, "%s on %s: state %s, not %s (%s)", what, c.Client, row.State, e.State, shown)
	}
	if e.Action != nil && row.Action != *e.Action {
		r.fail(e, "%s on %s: action %q, not %q (%s)", what, c.Client, row.Action, *e.Action, shown)
	}
	if e.Expanded != nil && row.Expanded != *e.Expanded {
		r.fail(e, "%s on %s: expanded=%v (%s)", what, c.Client, row.Expanded, shown)
	}
	if e.Lines != nil && strings.Join(row.Transcript, "\n") != strings.Join(e.Lines, "\n") {
		r.fail(e, "%s on %s: transcript %q, not %q", what, c.Client, row.Transcript, e.Lines)
	}
	if e.Contains != "" {
		found := false
		for _, l := range row.Transcript {
			found = found || strings.Contains(l, e.Contains)
		}
		if !found {
			r.fail(e, "%s on %s: no transcript line contains %q (%s)", what, c.Client, e.Contains, shown)
		}
	}
}
