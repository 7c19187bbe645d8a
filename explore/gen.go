package explore

import (
	"cmp"
	"slices"
	"strconv"
	"strings"

	"github.com/twosettle/twosettle/scenarios"
)

// Generate returns the scenario of seed: a swarm configuration and a script over every
// actor, drawn from the seed's generation stream only, so the same seed always gives the
// same scenario (and the run's other streams are left as they are). The scenario's seed
// is seed, so running it replays the campaign's run exactly.
func Generate(seed uint64) *scenarios.Scenario { return GenerateWith(seed, GenOptions{}) }

// SeedName is the name of seed's scenario (and of its failure files).
func SeedName(seed uint64) string { return "fuzz-" + strconv.FormatUint(seed, 10) }

// GenerateFrom draws a scenario from r (a fuzzer's bytes, rapid, or any stream). The
// result always passes scenarios.Validate. Its seed is left at 0 (the default seed).
func GenerateFrom(r Rand) *scenarios.Scenario { return generateFrom(r, allFlags) }

// generateFrom draws a scenario from r that uses only what f allows (GenOptions).
func generateFrom(r Rand, f genFlags) *scenarios.Scenario {
	sw := drawSwarm(r)
	f.restrictSwarm(&sw)
	g := newGen(r, sw)
	g.f = f
	g.config()
	t := scenarios.Duration(0)
	for e := 0; e < g.sw.Episodes; e++ {
		t = g.episode(t)
		t += scenarios.Duration(between(r, 300, 6000))
	}
	g.faults(t)
	g.edges()
	g.features(t)
	g.inputs()
	g.hostRejections()
	g.clientInputs() // explore/inputs_client_drafts.go
	g.steps(t)
	g.heal(t)
	return g.finish()
}

// edges draws, after everything else (so the rest of a seed's scenario is what it would
// be without them), inputs at the edge of the decision's API: a request whose header is
// left out (its calls are untracked, PROJ-2, while the host's tool mode still decides
// their path, TOOL-1/TOOL-4), a header whose custom tools agree with the host's mode or
// contradict it (the header decides only what the projection tracks), and a direct
// blocking ask() carrying a timed wait (no host wait is behind it, so the client's claim
// stream ends with no frame and it delegates: WAIT-7, CLAIM-5).
func (g *gen) edges() {
	r := g.r
	kept := g.s.Steps[:0]
	for _, st := range g.s.Steps {
		switch {
		case st.Model != nil && st.Model.Kind == scenarios.ModelHeader:
			switch x := r.IntN(100); {
			case x < 4:
				continue // left out
			case x < 12:
				st.Model.Tools = pick(r, []string{legacyTools, timedTools})
			}
		case st.Service != nil && st.Service.Kind == scenarios.ServiceAsk && st.Service.Call != "":
			st.Service.Timed = chance(r, 15)
		}
		kept = append(kept, st)
	}
	g.s.Steps = kept
}

// gen builds one scenario. Steps are collected unordered and sorted by time at the end
// (stable: steps at one instant keep the order they were drawn in).
type gen struct {
	r  Rand
	sw Swarm
	s  *scenarios.Scenario
	f  genFlags // what the host runs (GenOptions)

	clients  []genClient
	sessions []string
	calls    []genCall
	nCalls   int
	maxEnd   scenarios.Duration // the latest time something is still expected to happen
	timeout  int64              // the configured default timeout in ms (-1 indefinite)
	autoEnd  bool
	services int
	headed   map[string]bool // Sessions that had a header
	// opened is when each Session opened by a step (a fork) opens: nothing may address it
	// before; forks counts them (f1, f2, ...).
	opened map[string]scenarios.Duration
	forks  int
	// inherited is how many events each fork copied from its parent (through + 1).
	inherited map[string]int
}

type genClient struct {
	name      string
	redials   bool // has a reconnect backoff
	latencyMs int64
}

// genCall is a question batch the model asked, for users to answer.
type genCall struct {
	card      string // the card a user addresses ("" the composer seat)
	call      string // call id for late answers by the service ("" none)
	questions []scenarios.Question
	at        scenarios.Duration
	timeoutMs int64 // -1: no deadline
	session   string
}

func newGen(r Rand, sw Swarm) *gen {
	return &gen{r: r, sw: sw, s: &scenarios.Scenario{}, f: allFlags, headed: map[string]bool{}, opened: map[string]scenarios.Duration{}, inherited: map[string]int{}}
}

var clientNames = []string{"a", "b", "c", "d"}

func (g *gen) config() {
	r, s := g.r, g.s
	s.Summary = "generated: " + g.sw.String()
	s.Mode = g.sw.Mode
	g.timeout = 120_000
	if g.sw.Timeout != 0 {
		t := g.sw.Timeout
		s.Timeout = &t
		g.timeout = t * 1000
		if t < 0 {
			g.timeout = -1
		}
	}
	switch x := r.IntN(100); {
	case x < 35:
	case x < 65:
		w := scenarios.Duration(0)
		s.WriteWindow = &w
	default:
		w := scenarios.Duration(between(r, 10, 400))
		s.WriteWindow = &w
	}
	if !g.f.writeWindow {
		w := scenarios.Duration(0) // write-through (the host's writeWindowMs -1)
		s.WriteWindow = &w
	}
	if chance(r, 20) {
		s.AutoEnd = scenarios.Never
	} else {
		s.AutoEnd = scenarios.Duration(between(r, 50, 2000))
		g.autoEnd = true
	}
	g.sessions = []string{scenarios.DefaultSession}
	if g.sw.Child || g.sw.Second {
		s.Sessions = []scenarios.Session{{Name: scenarios.DefaultSession}}
		if g.sw.Child {
			s.Sessions = append(s.Sessions, scenarios.Session{Name: "k1", Owner: scenarios.DefaultSession})
			g.sessions = append(g.sessions, "k1")
		}
		if g.sw.Second {
			s.Sessions = append(s.Sessions, scenarios.Session{Name: "s2"})
			g.sessions = append(g.sessions, "s2")
		}
	}
	for i := 0; i < g.sw.Clients; i++ {
		c := scenarios.Client{Name: clientNames[i]}
		lo := between(r, 0, 30)
		c.Latency = scenarios.Latency{Min: scenarios.Duration(lo), Max: scenarios.Duration(lo + between(r, 0, 60))}
		if chance(r, 35) {
			hlo := between(r, 0, 40)
			c.HTTP = &scenarios.Latency{Min: scenarios.Duration(hlo), Max: scenarios.Duration(hlo + between(r, 0, 120))}
		}
		if chance(r, 50) {
			c.Skew = scenarios.Duration(between(r, -3000, 3000))
		}
		if chance(r, 15) {
			c.Drift = between(r, -30000, 30000)
		}
		if chance(r, 15) {
			c.Tick = scenarios.Duration(pick(r, []int64{100, 250, 500}))
		}
		gc := genClient{name: c.Name, latencyMs: c.Latency.Max.Ms()}
		if c.HTTP != nil && c.HTTP.Max.Ms() > gc.latencyMs {
			gc.latencyMs = c.HTTP.Max.Ms()
		}
		if !chance(r, 15) {
			d := scenarios.Duration(between(r, 20, 800))
			c.Reconnect = &d
			gc.redials = true
		}
		if chance(r, 8) {
			c.Offline = true
			g.add(scenarios.Duration(between(r, 100, 3000)), scenarios.Step{Net: &scenarios.NetAction{Kind: scenarios.NetReconnect, Client: c.Name}})
		}
		s.Clients = append(s.Clients, c)
		g.clients = append(g.clients, gc)
	}
}

func (g *gen) add(at scenarios.Duration, st scenarios.Step) {
	st.At = at
	g.s.Steps = append(g.s.Steps, st)
	if at > g.maxEnd {
		g.maxEnd = at
	}
}

func (g *gen) model(at scenarios.Duration, session string, m scenarios.ModelAction) {
	if session == scenarios.DefaultSession {
		session = ""
	}
	g.add(at, scenarios.Step{Session: session, Model: &m})
}

func (g *gen) user(at scenarios.Duration, client string, u scenarios.UserAction) {
	g.add(at, scenarios.Step{Client: client, User: &u})
}

func (g *gen) newCall() string {
	g.nCalls++
	return "c" + strconv.Itoa(g.nCalls)
}

// episode drives one model turn from t0 on a Session it draws and returns when its
// activity ends.
func (g *gen) episode(t0 scenarios.Duration) scenarios.Duration {
	session := scenarios.DefaultSession
	if len(g.sessions) > 1 && chance(g.r, 25) {
		session = pick(g.r, g.sessions[1:])
	}
	return g.episodeOn(t0, session)
}

// episodeOn drives one model turn of session from t0 and returns when its activity ends.
func (g *gen) episodeOn(t0 scenarios.Duration, session string) scenarios.Duration {
	r := g.r
	if chance(r, 10) {
		g.model(t0, session, scenarios.ModelAction{Kind: scenarios.ModelSteer, Text: "also this"})
	} else {
		g.model(t0, session, scenarios.ModelAction{Kind: scenarios.ModelPrompt, Text: pick(r, []string{"go", "next", "continue"})})
	}
	t := t0 + scenarios.Duration(between(r, 0, 30))
	// A model request carries a header first (the host records the tool schemas it
	// offers); later requests may leave it out (no change). Custom tools here agree with
	// the host's mode (legacy); edges later leaves some headers out and makes some
	// contradict it.
	if !g.headed[session] || !chance(r, 10) {
		g.headed[session] = true
		h := scenarios.ModelAction{Kind: scenarios.ModelHeader}
		if g.sw.Mode == scenarios.ModeLegacy && chance(r, 10) {
			h.Tools = legacyTools
		}
		g.model(t, session, h)
	}
	end := t
	n := pick(r, []int{1, 1, 1, 2, 2, 3})
	for i := 0; i < n; i++ {
		t += scenarios.Duration(between(r, 0, 40))
		if e := g.call(t, session); e > end {
			end = e
		}
	}
	if !g.autoEnd || chance(r, 25) {
		at := t + scenarios.Duration(between(r, 50, 3000))
		if chance(r, 25) {
			g.model(at, session, scenarios.ModelAction{Kind: scenarios.ModelEndStep})
			at += scenarios.Duration(between(r, 100, 3000))
		}
		g.model(at, session, scenarios.ModelAction{Kind: scenarios.ModelEndTurn})
		if at > end {
			end = at
		}
	}
	if chance(r, 10) {
		at := t + scenarios.Duration(between(r, 50, 4000))
		g.model(at, session, scenarios.ModelAction{Kind: scenarios.ModelCancel, KeepInbox: chance(r, 50)})
	}
	if chance(r, 4) {
		g.add(end+scenarios.Duration(between(r, 0, 2000)), scenarios.Step{Host: &scenarios.HostAction{Kind: scenarios.HostClose, Session: session}})
	}
	if g.sw.Service && chance(r, 50) {
		if e := g.service(t0 + scenarios.Duration(between(r, 0, 5000))); e > end {
			end = e
		}
	}
	return end
}

// legacyTools is a header whose ask_user_question has no timeout parameter: the
// projection then treats the calls after it as legacy (PROJ-2).
const legacyTools = `[{"name":"ask_user_question","parameters":{"type":"object","properties":{"questions":{"type":"array"}},"required":["questions"]}}]`

// timedTools is a header whose ask_user_question has a timeout parameter: the projection
// tracks the calls after it (PROJ-2), whatever the host's tool mode.
const timedTools = `[{"name":"ask_user_question","parameters":{"type":"object","properties":{"questions":{"type":"array"},"timeout":{"type":"integer"}},"required":["questions"]}}]`

// call makes one model tool call at t and returns when its consequences end.
func (g *gen) call(t scenarios.Duration, session string) scenarios.Duration {
	r := g.r
	id := g.newCall()
	if g.nCalls > 2 && chance(r, 3) {
		id = "c" + strconv.Itoa(1+r.IntN(g.nCalls-1)) // a reused call id (PROJ-3)
		g.nCalls--
	}
	switch x := g.f.callKind(r.IntN(100)); {
	case x < 60:
		m := scenarios.ModelAction{Kind: scenarios.ModelAsk, Call: id}
		m.Questions = g.questions()
		m.Timeout = g.timeoutArg()
		g.model(t, session, m)
		return g.answer(t, session, id, m.Questions, g.effective(m.Timeout))
	case x < 76:
		m := scenarios.ModelAction{Kind: scenarios.ModelRun, Call: id}
		end, at := t, t
		for i, n := 0, 1+r.IntN(3); i < n; i++ {
			switch y := r.IntN(100); {
			case y < 55:
				c := scenarios.SubCall{Kind: scenarios.SubAsk, Questions: g.questions(), Timeout: g.timeoutArg()}
				m.Calls = append(m.Calls, c)
				to := g.effective(c.Timeout)
				if e := g.answer(at, session, scenarios.SubCallID(id, i+1), c.Questions, to); e > end {
					end = e
				}
				if to > 0 {
					at += scenarios.Duration(to / 2)
				}
			case y < 80:
				d := scenarios.Duration(between(r, 50, 1500))
				m.Calls = append(m.Calls, scenarios.SubCall{Kind: scenarios.SubSleep, For: d})
				at += d
			default:
				m.Calls = append(m.Calls, scenarios.SubCall{Kind: scenarios.SubTool, Name: "lookup"})
			}
		}
		g.model(t, session, m)
		if at > end {
			end = at
		}
		return end
	case x < 86:
		d := scenarios.Duration(between(r, 50, 3000))
		g.model(t, session, scenarios.ModelAction{Kind: scenarios.ModelSleep, Call: id, For: d})
		return t + d
	case x < 93:
		g.model(t, session, scenarios.ModelAction{Kind: scenarios.ModelTool, Call: id, Name: pick(r, []string{"lookup", "search"})})
		return t
	default:
		m := scenarios.ModelAction{Kind: scenarios.ModelAsk, Call: id}
		switch r.IntN(3) {
		case 0: // a repeated question id (TOOL-5)
			q := g.questions()
			m.Questions = append(q, q[0])
		case 1:
			m.Args = `{"questions":[]}`
		default:
			m.Args = pick(r, []string{`{"questions":"x"}`, `{`, `{"questions":[{"id":"q1"}]}`})
		}
		g.model(t, session, m)
		return t
	}
}

var optionLabels = []string{"yes", "no", "later", "npm", "bun"}

func (g *gen) questions() []scenarios.Question {
	r := g.r
	n := pick(r, []int{1, 1, 1, 2, 2, 3})
	qs := make([]scenarios.Question, n)
	for i := range qs {
		q := scenarios.Question{ID: "q" + strconv.Itoa(i+1), Question: "Question " + strconv.Itoa(i+1) + "?"}
		if chance(r, 85) {
			k := 2 + r.IntN(2)
			off := r.IntN(len(optionLabels))
			for j := 0; j < k; j++ {
				q.Options = append(q.Options, scenarios.Option{Label: optionLabels[(off+j)%len(optionLabels)]})
			}
			q.Multi = chance(r, 15)
		}
		if chance(r, 10) {
			q.Header = "H" + strconv.Itoa(i+1)
		}
		qs[i] = q
	}
	return qs
}

// timeoutArg draws the model's timeout argument ("" leaves it out).
func (g *gen) timeoutArg() string {
	r := g.r
	if g.sw.Mode == scenarios.ModeLegacy && !chance(r, 10) {
		return ""
	}
	switch x := r.IntN(100); {
	case x < 25:
		return ""
	case x < 75:
		return strconv.Itoa(1 + r.IntN(6))
	case x < 85:
		return "-1"
	case x < 92:
		return strconv.Itoa(7 + r.IntN(14))
	default:
		return pick(r, []string{"0", "-2", "1.5", "2147484"})
	}
}

// effective is the timeout in ms a call with that argument waits (-1: no deadline; 0: it
// fails at once).
func (g *gen) effective(arg string) int64 {
	if g.sw.Mode == scenarios.ModeLegacy {
		return -1
	}
	if arg == "" {
		return g.timeout
	}
	n, err := strconv.ParseInt(arg, 10, 64)
	switch {
	case err != nil || n == 0 || n < -1 || n > 2147483:
		return 0
	case n == -1:
		return -1
	}
	return n * 1000
}

// answer schedules what the users do about a question batch asked at t.
func (g *gen) answer(t scenarios.Duration, session, call string, qs []scenarios.Question, timeoutMs int64) scenarios.Duration {
	r := g.r
	end := t
	if timeoutMs > 0 && t+scenarios.Duration(timeoutMs) > end {
		end = t + scenarios.Duration(timeoutMs)
	}
	if timeoutMs == 0 {
		return end
	}
	keyed := g.sw.Mode == scenarios.ModeTimed
	gc := genCall{call: call, questions: qs, at: t, timeoutMs: timeoutMs, session: session}
	if keyed {
		gc.card = call
	}
	g.calls = append(g.calls, gc)
	for _, c := range g.clients {
		if !chance(r, g.sw.AnswerPct) {
			continue
		}
		card := ""
		if keyed && chance(r, 80) {
			card = call
		} else if !keyed && chance(r, 20) {
			card = "#1"
		}
		var start scenarios.Duration
		switch {
		case timeoutMs < 0:
			start = t + scenarios.Duration(between(r, c.latencyMs, c.latencyMs+4000))
		case chance(r, g.sw.LatePct):
			start = t + scenarios.Duration(timeoutMs+between(r, 50, 4000))
		case chance(r, 25): // close to the deadline
			start = t + scenarios.Duration(max(0, timeoutMs-between(r, 0, 400)))
		default:
			start = t + scenarios.Duration(between(r, c.latencyMs, c.latencyMs+timeoutMs))
		}
		if e := g.answerOn(start, c.name, sessionKey(session), card, qs); e > end {
			end = e
		}
	}
	return end
}

// answerOn is one user answering a card from start: focus, edits, submit and the panel
// actions around them. It returns the time of its last step.
func (g *gen) answerOn(start scenarios.Duration, client, session, card string, qs []scenarios.Question) scenarios.Duration {
	r := g.r
	t := start
	step := func(u scenarios.UserAction) {
		u.Card = card
		g.add(t, scenarios.Step{Client: client, Session: session, User: &u})
		t += scenarios.Duration(between(r, 0, 300))
	}
	if card != "" && !strings.HasPrefix(card, "#") && chance(r, 50) {
		step(scenarios.UserAction{Kind: scenarios.UserReopen}) // bring the card to the composer seat
	}
	if chance(r, 25) {
		step(scenarios.UserAction{Kind: scenarios.UserFocus})
	}
	if chance(r, 15) {
		step(scenarios.UserAction{Kind: scenarios.UserTakeTime})
	}
	if chance(r, 10) {
		step(scenarios.UserAction{Kind: scenarios.UserHide})
		if chance(r, 70) {
			step(scenarios.UserAction{Kind: scenarios.UserReopen})
		}
	}
	if chance(r, 8) {
		step(scenarios.UserAction{Kind: scenarios.UserBlur})
	}
	g.edits(qs, step)
	if chance(r, 6) {
		step(scenarios.UserAction{Kind: pick(r, []string{scenarios.UserNext, scenarios.UserPrev})})
	}
	switch x := r.IntN(100); {
	case x < 85:
		step(scenarios.UserAction{Kind: scenarios.UserSubmit})
		if chance(r, 12) {
			t += scenarios.Duration(between(r, 0, 1500))
			step(scenarios.UserAction{Kind: scenarios.UserDiscard})
			if chance(r, 70) {
				t += scenarios.Duration(between(r, 0, 1500))
				g.edits(qs, step)
				step(scenarios.UserAction{Kind: scenarios.UserSubmit})
			}
		}
	case x < 91:
		step(scenarios.UserAction{Kind: scenarios.UserClose})
	case x < 95:
		step(scenarios.UserAction{Kind: scenarios.UserDelegate})
	default:
		u := scenarios.UserAction{Kind: pick(r, []string{scenarios.UserWindowBlur, scenarios.UserWindowFocus})}
		g.add(t, scenarios.Step{Client: client, User: &u})
	}
	if chance(r, 2) {
		u := scenarios.UserAction{Kind: scenarios.UserTeardown}
		g.add(t, scenarios.Step{Client: client, User: &u})
	}
	return t
}

// edits answers each question of a batch: an option, a custom text or a skip.
func (g *gen) edits(qs []scenarios.Question, step func(scenarios.UserAction)) {
	r := g.r
	for i, q := range qs {
		qid := ""
		if i > 0 || len(qs) > 1 || chance(r, 50) {
			qid = q.ID
		}
		switch x := r.IntN(100); {
		case x < 70 && len(q.Options) > 0:
			step(scenarios.UserAction{Kind: scenarios.UserChoose, Question: qid, Label: pick(r, q.Options).Label})
			if q.Multi && chance(r, 50) {
				step(scenarios.UserAction{Kind: scenarios.UserChoose, Question: qid, Label: pick(r, q.Options).Label})
			}
		case x < 88:
			step(scenarios.UserAction{Kind: scenarios.UserType, Question: qid, Text: pick(r, []string{"later", "my own", "x"})})
		default:
			step(scenarios.UserAction{Kind: scenarios.UserSkip, Question: qid})
		}
	}
}

// service makes one direct call to the question service at t.
func (g *gen) service(t scenarios.Duration) scenarios.Duration {
	r := g.r
	g.services++
	c := scenarios.ServiceCall{}
	switch x := r.IntN(100); {
	case x < 50 && len(g.calls) > 0:
		gc := pick(r, g.calls)
		if gc.timeoutMs > 0 {
			t = gc.at + scenarios.Duration(gc.timeoutMs+between(r, 0, 3000))
		}
		t = max(t, g.since(gc.session)) // not before a fork opens
		c.Kind, c.Call = scenarios.ServiceAnswer, gc.call
		for _, q := range gc.questions {
			a := scenarios.AnswerItem{ID: q.ID, Selected: []string{}}
			if len(q.Options) > 0 && chance(r, 80) {
				a.Selected = []string{pick(r, q.Options).Label}
			}
			c.Answers = append(c.Answers, a)
		}
		if chance(r, 10) && len(c.Answers) > 0 {
			c.Answers = c.Answers[1:] // names a question too few: BAD_ANSWER
		}
		g.add(t, scenarios.Step{Session: sessionKey(gc.session), Service: &c})
	case x < 80:
		c.Kind = scenarios.ServiceAskTimed
		c.Questions = g.questions()
		c.Call = "d" + strconv.Itoa(g.services) + "w"
		to := scenarios.Duration(between(r, 300, 4000))
		c.Timeout = &to
		g.add(t, scenarios.Step{Service: &c})
		t += to
	default:
		c.Kind = scenarios.ServiceAsk
		c.Questions = g.questions()
		// A blocking ask tied to a call id (wait {callId}); edges later gives some of them
		// timed: true.
		if chance(r, 60) {
			c.Call = "d" + strconv.Itoa(g.services) + "w"
		}
		g.add(t, scenarios.Step{Service: &c})
	}
	if r.IntN(100) < 10 {
		c.Agent = pick(r, []string{scenarios.AgentStale, scenarios.AgentNone})
	}
	return t
}

func sessionKey(s string) string {
	if s == scenarios.DefaultSession {
		return ""
	}
	return s
}

// faults scripts the swarm's faults at uniform times in [0, until): each kind on with
// its rate per simulated minute.
func (g *gen) faults(until scenarios.Duration) {
	r := g.r
	for k, rate := range g.sw.Rates {
		if rate == 0 {
			continue
		}
		mean := int64(rate) * until.Ms() // expected count * 60000
		n := int(mean / 60000)
		if between(r, 0, 59999) < mean%60000 {
			n++
		}
		for i := 0; i < n; i++ {
			g.fault(k, scenarios.Duration(between(r, 0, until.Ms())))
		}
	}
}

func (g *gen) fault(kind int, at scenarios.Duration) {
	r := g.r
	c := pick(r, g.clients)
	net := func(kind string, d scenarios.Duration) {
		a := &scenarios.NetAction{Kind: kind, Client: c.name}
		if kind == scenarios.NetPartition {
			a.For = d
		} else {
			a.By = d
		}
		g.add(at, scenarios.Step{Net: a})
	}
	switch kind {
	case FaultCrash:
		h := &scenarios.HostAction{Kind: scenarios.HostCrash, Point: pick(r, g.sw.Points)}
		if h.Point == "after-effect" {
			h.Effects = r.IntN(6)
		}
		g.add(at, scenarios.Step{Host: h})
	case FaultRestart:
		g.add(at, scenarios.Step{Host: &scenarios.HostAction{Kind: scenarios.HostRestart}})
	case FaultDisconnect:
		net(scenarios.NetDisconnect, 0)
		if !c.redials || chance(r, 30) {
			g.add(at+scenarios.Duration(between(r, 50, 3000)), scenarios.Step{Net: &scenarios.NetAction{Kind: scenarios.NetReconnect, Client: c.name}})
		}
	case FaultPartition:
		d := scenarios.Duration(between(r, 50, 4000))
		net(scenarios.NetPartition, d)
		if !c.redials {
			g.add(at+d+scenarios.Duration(between(r, 0, 1000)), scenarios.Step{Net: &scenarios.NetAction{Kind: scenarios.NetReconnect, Client: c.name}})
		}
	case FaultDelay:
		net(scenarios.NetDelay, scenarios.Duration(between(r, 20, 2000)))
	case FaultLose:
		net(scenarios.NetLose, 0)
	case FaultReload:
		g.user(at, c.name, scenarios.UserAction{Kind: scenarios.UserReload})
	case FaultClockJump:
		by := between(r, 100, 10000)
		if chance(r, 50) {
			by = -by
		}
		g.user(at, c.name, scenarios.UserAction{Kind: scenarios.UserClock, By: scenarios.Duration(by)})
	case FaultDrift:
		g.user(at, c.name, scenarios.UserAction{Kind: scenarios.UserDrift, PPM: between(r, -50000, 50000)})
	case FaultClientCrash:
		g.user(at, c.name, scenarios.UserAction{Kind: scenarios.UserCrash})
	case FaultCancel:
		g.model(at, pick(r, g.sessions), scenarios.ModelAction{Kind: scenarios.ModelCancel, KeepInbox: chance(r, 50)})
	}
}

// heal starts the healed phase at h: every client that does not redial by itself dials
// once, then nothing but timers, the network and the model's automatic step ends happen,
// for long enough that every deadline still ahead has passed by more than the oracle's
// liveness bound.
func (g *gen) heal(h scenarios.Duration) {
	for _, c := range g.clients {
		if !c.redials {
			g.add(h, scenarios.Step{Net: &scenarios.NetAction{Kind: scenarios.NetReconnect, Client: c.name}})
		}
	}
	tail := scenarios.Duration(5000)
	for _, c := range g.calls {
		if c.timeoutMs > 0 {
			if e := c.at + scenarios.Duration(c.timeoutMs) + 3000; e > h+tail {
				tail = e - h
			}
		}
	}
	limit := h + tail
	if g.maxEnd+3000 > limit {
		limit = g.maxEnd + 3000
	}
	g.s.Limit = limit
}

func (g *gen) finish() *scenarios.Scenario {
	s := g.s
	// A stable sort's result is fixed by the order it sorts by; the generic one is faster
	// than sort.SliceStable's reflection.
	slices.SortStableFunc(s.Steps, func(a, b scenarios.Step) int { return cmp.Compare(a.At, b.At) })
	s.Name = "fuzz"
	return s
}
