package harness

import (
	"strings"

	"github.com/twosettle/twosettle/engine/wire"
	"github.com/twosettle/twosettle/scenarios"
)

func init() { registerCheck(scenarios.ExpectNode, checkNode) }

// checkNode checks a node expectation: a client's late-reply conversation nodes of a
// call (the last one).
func checkNode(r *Result, e *scenarios.Expectation, v view, session string, plan *Plan) {
	what := whatOf(e, v)
	c, ok := clientState(v, e, plan)
	if !ok {
		r.fail(e, "%s: no client %s in the state", what, e.Client)
		return
	}
	var nodes []wire.NodeState
	for _, n := range c.Nodes {
		if n.Session == session && n.CallID == e.Subject {
			nodes = append(nodes, n)
		}
	}
	switch {
	case e.None:
		if len(nodes) > 0 {
			r.fail(e, "%s on %s: expected no node, found %s", what, c.Client, nodes[0].String())
		}
		return
	case e.Count != nil && len(nodes) != *e.Count:
		r.fail(e, "%s on %s: %d nodes, not %d", what, c.Client, len(nodes), *e.Count)
		return
	case len(nodes) == 0:
		r.fail(e, "%s on %s: there is no node for the call", what, c.Client)
		return
	}
	n := nodes[len(nodes)-1]
	if e.Lines != nil && strings.Join(n.Lines, "\n") != strings.Join(e.Lines, "\n") {
		r.fail(e, "%s on %s: lines %q, not %q", what, c.Client, n.Lines, e.Lines)
	}
	if e.Raw != nil && (len(n.Lines) != 0 || n.Text != *e.Raw) {
		r.fail(e, "%s on %s: expected the raw text %q, got %s", what, c.Client, *e.Raw, n.String())
	}
	if e.ViewQuestions != nil {
		if got, want := questionsJSON(n.Questions), questionsJSON(serviceQuestions(e.ViewQuestions)); got != want {
			r.fail(e, "%s on %s: the reply records the questions %s, not %s", what, c.Client, got, want)
		}
	}
	if e.Message != "" && n.MessageID != e.Message {
		r.fail(e, "%s on %s: message %s, not %s", what, c.Client, n.MessageID, e.Message)
	}
	if e.Outcome != "" && n.Outcome != e.Outcome {
		r.fail(e, "%s on %s: outcome %q, not %q", what, c.Client, n.Outcome, e.Outcome)
	}
	if e.Time != nil && n.Time != e.Time.Ms() {
		r.fail(e, "%s on %s: time %s, not %s", what, c.Client, msText(n.Time), e.Time)
	}
}
