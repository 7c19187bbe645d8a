package explore

import (
	"strconv"
	"strings"

	"github.com/twosettle/twosettle/engine/session"
	"github.com/twosettle/twosettle/scenarios"
)

// inputs draws, after everything else (so the rest of a seed's scenario is what it would
// be without them), the input classes the oracle's invariants judge but the episodes
// never write (issue 12): a header whose tools is not an array (a placeholder string,
// null, an object) or an array with a non-object entry (PROJ-2); an option label marked
// recommended, which the client preselects (CD-5); an invalid answer batch sent while a
// reply already waits (LATE-2, LATE-3); a second askTimed for the same call id (ASK-7);
// a service askTimed whose timeout is invalid, from a caller that is not live (ASK-6); a
// plan review whose approve is no option label, or with no detail (ASK-3); an aborted
// ask (ASK-1); a message with a late-reply source but another outcome, or an ordinary
// message whose text is a late reply's JSON (NODE-1); a continued call's id asked again
// and answered from its card (PROJ-3, CARD-4); a focus right after a timed
// request arrives, before its claim frame (CD-3); and probes, expectations with no
// assertion, at moments where the snapshot invariants have something to judge (cards
// held before their first frame, continued cards and rows, queued replies).
func (g *gen) inputs() {
	r := g.r
	n := len(g.s.Steps)
	for i := 0; i < n; i++ {
		st := g.s.Steps[i]
		switch {
		case st.Model != nil && st.Model.Kind == scenarios.ModelHeader && chance(r, 6):
			g.s.Steps[i].Model.Tools = pick(r, []string{`"tools"`, `null`, `{"name":"ask_user_question"}`, `[null,` + timedTools[1:], `["x",` + legacyTools[1:]})
		case st.Model != nil && st.Model.Kind == scenarios.ModelAsk && len(st.Model.Questions) > 0 && chance(r, 12):
			qs := append([]scenarios.Question(nil), st.Model.Questions...)
			for j := range qs {
				if len(qs[j].Options) > 0 && (j == 0 || chance(r, 50)) {
					opts := append([]scenarios.Option(nil), qs[j].Options...)
					opts[0].Label += pick(r, []string{" (Recommended)", " (recommended)"})
					qs[j].Options = opts
				}
			}
			g.s.Steps[i].Model.Questions = qs
		case st.Service != nil && st.Service.Kind == scenarios.ServiceAnswer && len(st.Service.Answers) > 0 && chance(r, 25):
			// a second, invalid batch while the first one's reply waits
			bad := *st.Service
			bad.ID = ""
			if chance(r, 50) {
				bad.Answers = bad.Answers[1:]
			} else {
				bad.Answers = append(append([]scenarios.AnswerItem(nil), bad.Answers...), scenarios.AnswerItem{ID: "zz", Selected: []string{}})
			}
			g.add(st.At+scenarios.Duration(between(r, 0, 40)), scenarios.Step{Session: st.Session, Service: &bad})
		case st.Service != nil && st.Service.Kind == scenarios.ServiceAskTimed && st.Service.Timeout != nil && chance(r, 15):
			dup := *st.Service
			dup.ID = ""
			g.add(st.At+scenarios.Duration(between(r, 0, st.Service.Timeout.Ms())), scenarios.Step{Service: &dup})
		}
	}
	if chance(r, 20) && g.f.direct {
		g.hostileService()
	}
	if len(g.calls) > 0 && chance(r, 20) {
		g.replyLookalike()
	}
	if late := modelCalls(g.lateCalls()); len(late) > 0 && g.sw.Mode == scenarios.ModeTimed && chance(r, 25) {
		g.reaskContinued(pick(r, late))
	}
	g.probes()
}

// modelCalls is calls without the PTC sub-calls: a model reuses its own call ids, never
// the ids the host gives a run_code call's sub-calls (PARENT:ptc:N). Two live calls of a
// Session under one id is not an input the decision defines: the projection, the host's
// waits and the oracle all key a call by (Session, call id).
func modelCalls(calls []genCall) []genCall {
	var out []genCall
	for _, c := range calls {
		if !strings.Contains(c.call, ":ptc:") {
			out = append(out, c)
		}
	}
	return out
}

// reaskContinued asks a call id again after its question went continued (PROJ-3: the
// reused id moves to the end as open), and a user answers the new request from the card
// that already had the late-answer RPC (CARD-4: the waterfall is used).
func (g *gen) reaskContinued(c genCall) {
	r := g.r
	at := c.at + scenarios.Duration(c.timeoutMs+between(r, 200, 3000))
	m := scenarios.ModelAction{Kind: scenarios.ModelAsk, Call: c.call, Questions: c.questions, Timeout: "-1"}
	g.model(at, c.session, m)
	if len(g.clients) > 0 {
		cl := pick(r, g.clients)
		g.answerOn(at+scenarios.Duration(between(r, cl.latencyMs+50, cl.latencyMs+1500)), cl.name, sessionKey(c.session), c.call, c.questions)
	}
}

// hostileService makes one direct call the service must refuse on its own terms.
func (g *gen) hostileService() {
	r := g.r
	g.services++
	t := scenarios.Duration(between(r, 0, 20000))
	c := scenarios.ServiceCall{Questions: g.questions()}
	switch r.IntN(4) {
	case 0: // ASK-6: an invalid timeout, before liveness
		c.Kind, c.Call = scenarios.ServiceAskTimed, "d"+strconv.Itoa(g.services)+"w"
		to := scenarios.Duration(0)
		c.Timeout = &to
		c.Agent = pick(r, []string{"", scenarios.AgentStale, scenarios.AgentNone})
	case 1: // ASK-3: a plan review approving no option label, or with no detail
		c.Kind = scenarios.ServiceAsk
		q := scenarios.Question{ID: "p", Question: "Plan?", Options: []scenarios.Option{{Label: "Approve"}, {Label: "Revise"}}, PlanReview: "Approve", Detail: "the plan"}
		if chance(r, 50) {
			q.PlanReview = "Ship it"
		} else {
			q.Detail = ""
		}
		c.Questions = []scenarios.Question{q}
	case 2: // ASK-1: an already aborted signal
		c.Kind, c.Aborted = scenarios.ServiceAsk, true
	default: // ASK-2: no question
		c.Kind, c.Questions = scenarios.ServiceAsk, nil
		c.Body = `{"questions":[]}`
	}
	g.add(t, scenarios.Step{Service: &c})
}

// replyLookalike is a message that looks like a late reply but is not one (NODE-1): a
// late-reply source with another outcome, or an ordinary message carrying a reply's JSON.
func (g *gen) replyLookalike() {
	r := g.r
	c := pick(r, g.calls)
	at := c.at + scenarios.Duration(between(r, 0, 4000))
	m := scenarios.ModelAction{Kind: scenarios.ModelSteer, Text: g.replyText(c)}
	if chance(r, 50) && g.f.source {
		m.Source = scenarios.MessageSource{Kind: session.SourceUserQuestionReply, Call: c.call, Outcome: pick(r, []string{"skipped", "cancelled"})}
	}
	g.model(at, c.session, m)
}

// probes adds expectations with no assertion: each makes the run take a snapshot of every
// actor at its time, which the oracle's snapshot invariants (INV-CLIENT-CARDS, -COUNTDOWN,
// -ROWS, -NODES, INV-RESERVATION-HELD) judge. They sit just after a timed request can
// have arrived (before its claim frame), after its deadline (continued cards and rows),
// and after late answers (queued replies). A focus right after a request (CD-3) comes
// with some of them.
func (g *gen) probes() {
	r := g.r
	seen := map[scenarios.Duration]bool{}
	probe := func(at scenarios.Duration) {
		if at > 0 && !seen[at] && len(seen) < 12 {
			seen[at] = true
			g.s.Expect = append(g.s.Expect, scenarios.Expectation{At: at, Kind: "agent", Subject: scenarios.DefaultSession})
		}
	}
	for _, c := range g.calls {
		if !chance(r, 50) {
			continue
		}
		probe(c.at + scenarios.Duration(between(r, 1, 60)))
		if c.timeoutMs > 0 {
			probe(c.at + scenarios.Duration(c.timeoutMs+between(r, 50, 1500)))
		}
		if c.card != "" && c.timeoutMs > 0 && len(g.clients) > 0 && chance(r, 15) {
			cl := pick(r, g.clients)
			at := c.at + scenarios.Duration(between(r, 1, cl.latencyMs+5))
			g.add(at, scenarios.Step{Client: cl.name, Session: sessionKey(c.session), User: &scenarios.UserAction{Kind: scenarios.UserFocus, Card: c.card}})
			probe(at + scenarios.Duration(between(r, 1, 200)))
		}
	}
	for _, st := range g.s.Steps {
		if st.Service != nil && st.Service.Kind == scenarios.ServiceAnswer && chance(r, 50) {
			probe(st.At + scenarios.Duration(between(r, 1, 400)))
		}
	}
}
