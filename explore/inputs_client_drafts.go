package explore

import "github.com/twosettle/twosettle/scenarios"

// clientInputs draws, after the other input classes (and before heal, which draws
// nothing), the client input classes issue 12's client invariants judge that the episodes
// do not write: a stored draft that no longer fits its card's question set (DRAFT-2,
// INV-CLIENT-DRAFTS). Called last among the draws, it leaves the rest of a seed's scenario
// as it was.
func (g *gen) clientInputs() {
	r := g.r
	if late := modelCalls(g.lateCalls()); len(late) > 0 && len(g.clients) > 0 && g.sw.Mode == scenarios.ModeTimed && chance(r, 15) {
		g.reaskReshaped(pick(r, late))
	}
}

// reaskReshaped: a user edits a call's card after its deadline (the draft is stored under
// the call's key), the model asks the same call id again with another number of
// questions and no deadline, and the user's page reloads while that request waits: the
// new page makes the card from the replayed request, and the stored draft of the old
// question set must not attach to it (DRAFT-2). A probe follows the reload. c is a model
// call (modelCalls): a model never asks under a run_code sub-call's id (PARENT:ptc:N), and
// asking one while the sub-call is still to come or continued makes two calls of a Session
// under one id, which the decision does not define (simrun fuzz seed 542921: INV-TOOL-MODE).
func (g *gen) reaskReshaped(c genCall) {
	r := g.r
	cl := pick(r, g.clients)
	t := c.at + scenarios.Duration(c.timeoutMs+between(r, 300, 1500))
	sess := sessionKey(c.session)
	step := func(u scenarios.UserAction) {
		u.Card = c.call
		g.add(t, scenarios.Step{Client: cl.name, Session: sess, User: &u})
		t += scenarios.Duration(between(r, 10, 200))
	}
	step(scenarios.UserAction{Kind: scenarios.UserReopen}) // the continued card takes the composer seat
	g.edits(c.questions, step)
	qs := append([]scenarios.Question(nil), c.questions...)
	if len(qs) > 1 && chance(r, 50) {
		qs = qs[:len(qs)-1]
	} else {
		qs = append(qs, scenarios.Question{ID: "q9", Question: "Anything else?"})
	}
	at := t + scenarios.Duration(between(r, 300, 2000))
	g.model(at, c.session, scenarios.ModelAction{Kind: scenarios.ModelAsk, Call: c.call, Questions: qs, Timeout: "-1"})
	reload := at + scenarios.Duration(between(r, cl.latencyMs+100, cl.latencyMs+1500))
	g.user(reload, cl.name, scenarios.UserAction{Kind: scenarios.UserReload})
	g.s.Expect = append(g.s.Expect, scenarios.Expectation{At: reload + scenarios.Duration(between(r, 300, 1500)), Kind: "agent", Subject: scenarios.DefaultSession})
}
