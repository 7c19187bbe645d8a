package explore

import (
	"strconv"
	"strings"

	"github.com/twosettle/twosettle/engine/session"
	"github.com/twosettle/twosettle/scenarios"
)

// features draws the seed's features (Swarm.Features) and scripts each one it switches on,
// around the calls and Sessions the episodes made. It draws after everything else, so a
// seed's other steps are what they would be without features, and a seed with none is
// the scenario it was before features existed. until is the end of the episodes (the
// faults' range; the healed phase starts there).
func (g *gen) features(until scenarios.Duration) {
	r := g.r
	drawFeatures(r, &g.sw)
	g.f.restrictFeatures(&g.sw)
	f := g.sw.Features
	if f[FeatureFork] {
		g.fork(until)
		if chance(r, 20) {
			g.fork(until) // a second fork, possibly of the first
		}
	}
	if f[FeatureSteer] {
		for n := 1 + r.IntN(2); n > 0; n-- {
			g.steer(until)
		}
	}
	if f[FeatureClose] {
		for n := 1 + r.IntN(2); n > 0; n-- {
			g.closeSession(until)
		}
	}
	if f[FeatureWriteFault] {
		g.writeFault(until)
	}
	if f[FeatureDoubleAnswer] {
		g.doubleAnswer(until)
	}
	g.s.Summary = "generated: " + g.sw.String()
}

// since is when session opens: 0 for the Sessions of the scenario's sessions: list, the
// time of its open step for a fork. A step about session comes at least 1 ms later.
func (g *gen) since(session string) scenarios.Duration {
	if t, ok := g.opened[session]; ok {
		return t + 1
	}
	return 0
}

// anytime draws a time for a step about session in [since(session), until] (since when
// the Session opens later).
func (g *gen) anytime(session string, until scenarios.Duration) scenarios.Duration {
	lo := g.since(session)
	return lo + scenarios.Duration(between(g.r, 0, max(0, (until-lo).Ms())))
}

// callsOf lists the questions session asked (calls answered by users, g.calls).
func (g *gen) callsOf(session string) []genCall {
	var out []genCall
	for _, c := range g.calls {
		if c.session == session {
			out = append(out, c)
		}
	}
	return out
}

// lateCalls lists the calls with a deadline: once it passes unanswered the question is
// continued and answerable late.
func (g *gen) lateCalls() []genCall {
	var out []genCall
	for _, c := range g.calls {
		if c.timeoutMs > 0 {
			out = append(out, c)
		}
	}
	return out
}

// logFloor is a low estimate of how many events session's log holds just before at, from
// the model steps scripted before then: the first message of an idle Session appends five
// events (queued, turn/start, claimed, step/start, user/message), any later one at least
// its queuing, a header and a tool call one each; a fork starts with what it inherited.
// Counting stops at a cancel of the Session or a crash (steps after a cancel can be
// refused; a crash can cut unpersisted events). When the estimate is still too high the
// host refuses the fork, which a failing scenario marks refused: like any refused step.
func (g *gen) logFloor(session string, at scenarios.Duration) int {
	key := sessionKey(session)
	n := g.inherited[session]
	woke := false
	for i := range g.s.Steps {
		st := &g.s.Steps[i]
		if st.At >= at {
			continue
		}
		if st.Host != nil && st.Host.Kind == scenarios.HostCrash && st.At >= g.since(session) {
			return n
		}
		if st.Model == nil || st.Session != key {
			continue
		}
		switch st.Model.Kind {
		case scenarios.ModelPrompt, scenarios.ModelSteer:
			if !woke {
				n += 5
				woke = true
			} else {
				n++
			}
		case scenarios.ModelHeader, scenarios.ModelAsk, scenarios.ModelRun, scenarios.ModelSleep, scenarios.ModelTool:
			n++
		case scenarios.ModelCancel:
			return n
		}
	}
	return n
}

// fork opens a fork fN of a Session that exists by then, inheriting a prefix of its log
// (PROJ-11: the parent's questions never appear in the fork), most often just after one of
// the parent's questions was asked or went continued; the fork may run a turn of its own,
// and a user or the service may try to answer a parent's call in the fork (the fork
// cannot: the call is not in its projection). It returns the time of its last step.
func (g *gen) fork(until scenarios.Duration) scenarios.Duration {
	r := g.r
	parent := pick(r, g.sessions)
	at := g.anytime(parent, until)
	calls := g.callsOf(parent)
	if len(calls) > 0 && chance(r, 80) {
		c := pick(r, calls)
		if c.timeoutMs > 0 && chance(r, 70) {
			at = c.at + scenarios.Duration(c.timeoutMs+between(r, 10, 1500)) // continued by then
		} else {
			at = c.at + scenarios.Duration(between(r, 1, 400)) // open by then (or answered)
		}
		at = max(at, g.since(parent))
	}
	n := g.logFloor(parent, at)
	through := n - 1
	switch x := r.IntN(100); {
	case x < 10:
		through = -1 // nothing inherited
	case x < 35:
		through = int(between(r, -1, int64(n-1)))
	}
	g.forks++
	name := "f" + strconv.Itoa(g.forks)
	g.add(at, scenarios.Step{Host: &scenarios.HostAction{Kind: scenarios.HostOpen, Session: name, Fork: parent, Through: through}})
	g.opened[name] = at
	g.inherited[name] = through + 1
	g.sessions = append(g.sessions, name)
	end := at
	if chance(r, 70) {
		end = max(end, g.episodeOn(at+scenarios.Duration(between(r, 1, 1500)), name))
	}
	if len(calls) > 0 && chance(r, 50) {
		c := pick(r, calls)
		t := max(g.since(name), c.at+scenarios.Duration(max(c.timeoutMs, 0))) + scenarios.Duration(between(r, 0, 1500))
		if len(g.clients) == 0 || chance(r, 50) && g.f.direct {
			g.serviceAnswer(t, name, c)
		} else {
			t = g.answerOn(t, pick(r, g.clients).name, name, c.card, c.questions)
		}
		end = max(end, t)
	}
	return end
}

// steer sends a message for the next step into a running turn (AGENT-1), most often while
// one of the questions waits; some carry the source of a late reply for that call, as
// another producer or an older host would write it (NODE-1, PROJ-8: admitted, it settles
// the call with the batch in its text, or an empty batch), or an agent message's.
func (g *gen) steer(until scenarios.Duration) scenarios.Duration {
	r := g.r
	m := scenarios.ModelAction{Kind: scenarios.ModelSteer, Text: pick(r, []string{"also this", "one more thing", "stop asking"})}
	var sess string
	var at scenarios.Duration
	if len(g.calls) > 0 && chance(r, 85) {
		c := pick(r, g.calls)
		sess = c.session
		span := int64(3000)
		if c.timeoutMs > 0 {
			span = c.timeoutMs + 2000
		}
		at = c.at + scenarios.Duration(between(r, 0, span))
		switch x := r.IntN(100); {
		case !g.f.source: // a host without source gets the plain message
		case x < 40:
			m.Source = scenarios.MessageSource{Kind: session.SourceUserQuestionReply, Call: c.call, Outcome: "answered"}
			if chance(r, 60) {
				m.Text = g.replyText(c)
			}
		case x < 50:
			m.Source = scenarios.MessageSource{Kind: session.SourceAgentMessage}
		}
	} else {
		sess = pick(r, g.sessions)
		at = g.anytime(sess, until)
	}
	g.model(at, sess, m)
	return at
}

// replyText is a late reply's JSON text for call c, as answer() writes it but with
// answers drawn here (an option or a skip for each question).
func (g *gen) replyText(c genCall) string {
	var b strings.Builder
	b.WriteString(`{"kind":"answer_to_pending_question","tool":"ask_user_question","callId":"` + c.call + `","answers":[`)
	for i, a := range g.answerItems(c) {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`{"id":"` + a.ID + `","selected":[`)
		for j, l := range a.Selected {
			if j > 0 {
				b.WriteByte(',')
			}
			b.WriteString(`"` + l + `"`)
		}
		b.WriteString(`]}`)
	}
	b.WriteString(`]}`)
	return b.String()
}

// answerItems draws a batch for c's questions: an option (80%) or a skip each.
func (g *gen) answerItems(c genCall) []scenarios.AnswerItem {
	var out []scenarios.AnswerItem
	for _, q := range c.questions {
		a := scenarios.AnswerItem{ID: q.ID, Selected: []string{}}
		if len(q.Options) > 0 && chance(g.r, 80) {
			a.Selected = []string{pick(g.r, q.Options).Label}
		}
		out = append(out, a)
	}
	return out
}

// serviceAnswer is a direct late answer for call c in session (the question service's
// answer(), LATE-1..5).
func (g *gen) serviceAnswer(t scenarios.Duration, session string, c genCall) {
	sc := scenarios.ServiceCall{Kind: scenarios.ServiceAnswer, Call: c.call, Answers: g.answerItems(c)}
	g.add(t, scenarios.Step{Session: sessionKey(session), Service: &sc})
}

// closeSession disposes a Session's live agent (its log stays), most often after one of
// its questions went continued; then a late answer (GW-8, the remote call resumes the
// root first) or a prompt (a turn of its own) resumes it, or nothing does.
func (g *gen) closeSession(until scenarios.Duration) scenarios.Duration {
	r := g.r
	late := g.lateCalls()
	if len(late) == 0 || !chance(r, 80) {
		sess := pick(r, g.sessions)
		at := g.anytime(sess, until)
		g.add(at, scenarios.Step{Host: &scenarios.HostAction{Kind: scenarios.HostClose, Session: sess}})
		if chance(r, 50) {
			return g.episodeOn(at+scenarios.Duration(between(r, 50, 2000)), sess)
		}
		return at
	}
	c := pick(r, late)
	at := c.at + scenarios.Duration(c.timeoutMs+between(r, 50, 2000))
	g.add(at, scenarios.Step{Host: &scenarios.HostAction{Kind: scenarios.HostClose, Session: c.session}})
	t := at + scenarios.Duration(between(r, 50, 2000))
	switch x := r.IntN(100); {
	case x < 40 && len(g.clients) > 0:
		t = g.answerOn(t, pick(r, g.clients).name, sessionKey(c.session), c.card, c.questions)
	case x < 55 && g.f.direct:
		g.serviceAnswer(t, c.session, c)
	case x < 85:
		t = g.episodeOn(t, c.session)
	}
	return max(at, t)
}

// writeFault arms a storage fault on a Session's next inbox write, most often just before
// a late answer for one of its continued questions: the answer fails with the write error
// and releases its reservation (LATE-5), so a resubmission that follows is taken. Without
// such a call it comes before a prompt or a steer, whose write then fails (the step is
// refused).
func (g *gen) writeFault(until scenarios.Duration) scenarios.Duration {
	r := g.r
	late := g.lateCalls()
	if len(late) == 0 || !chance(r, 85) {
		sess := pick(r, g.sessions)
		at := g.anytime(sess, until)
		g.add(at, scenarios.Step{Host: &scenarios.HostAction{Kind: scenarios.HostFailInboxWrite, Session: sess}})
		if chance(r, 60) {
			at += scenarios.Duration(between(r, 1, 1000))
			g.model(at, sess, scenarios.ModelAction{Kind: pick(r, []string{scenarios.ModelPrompt, scenarios.ModelSteer}), Text: "go on"})
		}
		return at
	}
	c := pick(r, late)
	at := c.at + scenarios.Duration(c.timeoutMs+between(r, 20, 2500))
	g.add(at, scenarios.Step{Host: &scenarios.HostAction{Kind: scenarios.HostFailInboxWrite, Session: c.session}})
	t := at + scenarios.Duration(between(r, 10, 1500))
	if len(g.clients) == 0 || chance(r, 30) && g.f.direct {
		g.serviceAnswer(t, c.session, c)
		if chance(r, 70) {
			t += scenarios.Duration(between(r, 100, 2000))
			g.serviceAnswer(t, c.session, c)
		}
		return t
	}
	cl := pick(r, g.clients).name
	t = g.answerOn(t, cl, sessionKey(c.session), c.card, c.questions)
	if chance(r, 70) {
		t += scenarios.Duration(between(r, 200, 2000))
		g.add(t, scenarios.Step{Client: cl, Session: sessionKey(c.session), User: &scenarios.UserAction{Kind: scenarios.UserSubmit, Card: c.card}})
	}
	return t
}

// doubleAnswer answers one continued question twice in quick succession (two users, a
// user and the service, or the service twice): while the first reply awaits admission the
// second must get REPLY_QUEUED (LATE-2), and false once the first is admitted (LATE-1).
// Without a continued call it does nothing.
func (g *gen) doubleAnswer(until scenarios.Duration) scenarios.Duration {
	r := g.r
	late := g.lateCalls()
	if len(late) == 0 {
		return until
	}
	c := pick(r, late)
	t := c.at + scenarios.Duration(c.timeoutMs+between(r, 20, 1500))
	for i := 0; i < 2; i++ {
		if len(g.clients) == 0 || chance(r, 40) && g.f.direct {
			g.serviceAnswer(t, c.session, c)
		} else {
			t = g.answerOn(t, pick(r, g.clients).name, sessionKey(c.session), c.card, c.questions)
		}
		t += scenarios.Duration(between(r, 0, 400))
	}
	return t
}
