package harness

import (
	"strings"

	"github.com/twosettle/twosettle/scenarios"
)

func init() { registerCheck(scenarios.ExpectConversation, checkConversation) }

// checkConversation checks a conversation expectation: a client's conversation layout
// of a Session.
func checkConversation(r *Result, e *scenarios.Expectation, v view, session string, plan *Plan) {
	what := whatOf(e, v)
	c, ok := namedClient(v, e.Subject)
	if !ok {
		r.fail(e, "%s: no such client in the state", what)
		return
	}
	var lines []string
	for _, x := range c.Conversation {
		if x.Session == session {
			lines = append(lines, x.String())
		}
	}
	if e.Lines != nil && strings.Join(lines, "\n") != strings.Join(e.Lines, "\n") {
		r.fail(e, "%s: the conversation of %s is\n  %s", what, session, strings.Join(lines, "\n  "))
	}
	if e.Contains != "" && !strings.Contains(strings.Join(lines, "\n"), e.Contains) {
		r.fail(e, "%s: no entry contains %q:\n  %s", what, e.Contains, strings.Join(lines, "\n  "))
	}
}
