package harness

import (
	"strings"

	"github.com/twosettle/twosettle/engine/wire"
	"github.com/twosettle/twosettle/scenarios"
)

func init() { registerCheck(scenarios.ExpectDraft, checkDraft) }

// checkDraft checks a draft expectation: a client's stored draft for a card.
func checkDraft(r *Result, e *scenarios.Expectation, v view, session string, plan *Plan) {
	what := whatOf(e, v)
	c, ok := clientState(v, e, plan)
	if !ok {
		r.fail(e, "%s: no client %s in the state", what, e.Client)
		return
	}
	var d *wire.DraftState
	for i := range c.Drafts {
		if cardKeyMatches(c.Drafts[i].Key, session, e.Subject) {
			d = &c.Drafts[i]
		}
	}
	switch {
	case e.None && d != nil:
		r.fail(e, "%s on %s: expected no draft, found %s", what, c.Client, d.JSON)
	case !e.None && d == nil:
		r.fail(e, "%s on %s: there is no stored draft", what, c.Client)
	case d != nil && e.Contains != "" && !strings.Contains(d.JSON, e.Contains):
		r.fail(e, "%s on %s: the draft %s does not contain %q", what, c.Client, d.JSON, e.Contains)
	}
}
