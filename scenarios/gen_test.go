package scenarios

import (
	"strconv"

	"pgregory.net/rapid"
)

// genScenario draws a random valid scenario: every action and expectation kind, with
// references that resolve, and texts chosen to stress YAML quoting.
func genScenario() *rapid.Generator[*Scenario] {
	return rapid.Custom(func(t *rapid.T) *Scenario {
		g := &gen{t: t}
		return g.scenario()
	})
}

type gen struct {
	t        *rapid.T
	clients  []string
	sessions []string
	calls    []string
	results  []string
	nService int
}

// tricky texts: YAML-significant words and characters.
var trickyTexts = []string{
	"yes", "no", "true", "null", "~", "5", "0x10", "1e3", "-1", ".inf", "- item", "key: value",
	"#hash", "[a]", "{b}", "a, b", "Ready?", "it's", `say "hi"`, " leading", "trailing ", "multi\nline",
	"tab\there", "ünïcødé", "日本語", "@at", "`tick`", "*star", "&amp", "!bang", "%pct", "|pipe", ">gt",
}

func (g *gen) text(label string) string {
	if rapid.Bool().Draw(g.t, label+"-tricky") {
		return rapid.SampledFrom(trickyTexts).Draw(g.t, label)
	}
	return rapid.StringMatching(`[A-Za-z][A-Za-z0-9 ,.?!'-]{0,20}`).Draw(g.t, label)
}

func (g *gen) line(label string) string {
	for {
		s := g.text(label)
		if s != "" && !containsNewline(s) && trimSpace(s) != "" {
			return s
		}
	}
}

func containsNewline(s string) bool {
	for _, r := range s {
		if r == '\n' {
			return true
		}
	}
	return false
}

func trimSpace(s string) string {
	i, j := 0, len(s)
	for i < j && (s[i] == ' ' || s[i] == '\t') {
		i++
	}
	for j > i && (s[j-1] == ' ' || s[j-1] == '\t') {
		j--
	}
	return s[i:j]
}

func (g *gen) ident(label string) string {
	return rapid.StringMatching(`[a-z0-9][a-z0-9_.:/-]{0,6}`).Draw(g.t, label)
}

func (g *gen) dur(label string, max int64) Duration {
	return Duration(rapid.SampledFrom([]int64{0, 1, 250, 999, 1000, 1500, 5100, 60000, 90000, 120000}).Draw(g.t, label) % (max + 1))
}

func (g *gen) signed(label string) Duration {
	return Duration(rapid.SampledFrom([]int64{-30000, -500, -1, 1, 250, 2000, 61000}).Draw(g.t, label))
}

func (g *gen) scenario() *Scenario {
	s := &Scenario{
		Name:    rapid.StringMatching(`[a-z0-9]{1,6}(-[a-z0-9]{1,6}){0,2}`).Draw(g.t, "name"),
		Summary: g.line("summary"),
	}
	ids := RequirementIDs()
	for _, i := range rapid.SliceOfNDistinct(rapid.IntRange(0, len(ids)-1), 0, 4, rapid.ID[int]).Draw(g.t, "covers") {
		s.Covers = append(s.Covers, ids[i])
	}
	if rapid.Bool().Draw(g.t, "seed?") {
		s.Seed = rapid.Uint64Range(1, 1<<62).Draw(g.t, "seed")
	}
	s.Mode = rapid.SampledFrom([]string{"", ModeLegacy, ModeTimed}).Draw(g.t, "mode")
	if rapid.Bool().Draw(g.t, "timeout?") {
		t := rapid.Int64Range(-2, 2147484).Draw(g.t, "timeout")
		s.Timeout = &t
	}
	if rapid.Bool().Draw(g.t, "window?") {
		w := g.dur("write-window", 1000)
		s.WriteWindow = &w
	}
	s.AutoEnd = rapid.SampledFrom([]Duration{0, Never, 1, 100, 5000}).Draw(g.t, "auto-end")

	g.sessions = []string{DefaultSession}
	switch rapid.IntRange(0, 2).Draw(g.t, "sessions") {
	case 1:
		s.Sessions = []Session{{Name: "main"}}
		g.sessions = []string{"main"}
	case 2:
		s.Sessions = []Session{{Name: "s1"}, {Name: "child", Owner: "s1"}}
		g.sessions = []string{"s1", "child"}
	}
	for i, name := range rapid.SliceOfNDistinct(rapid.SampledFrom([]string{"a", "b", "c", "phone"}), 0, 3, rapid.ID[string]).Draw(g.t, "clients") {
		c := Client{Name: name}
		if rapid.Bool().Draw(g.t, "latency?") {
			lo := g.dur("lo", 1000)
			c.Latency = Latency{lo, lo + g.dur("spread", 1000)}
		}
		if rapid.Bool().Draw(g.t, "http?") {
			l := Latency{g.dur("http", 1000), 0}
			l.Max = l.Min
			c.HTTP = &l
		}
		if rapid.Bool().Draw(g.t, "skew?") {
			c.Skew = g.signed("skew")
		}
		c.Drift = rapid.SampledFrom([]int64{0, -200, 500, 1000000}).Draw(g.t, "drift")
		c.Tick = g.dur("tick", 1000)
		c.Offline = i == 1 && rapid.Bool().Draw(g.t, "offline")
		c.Hold = rapid.Bool().Draw(g.t, "hold")
		if rapid.Bool().Draw(g.t, "reconnect?") {
			r := g.dur("reconnect", 5000)
			c.Reconnect = &r
		}
		s.Clients = append(s.Clients, c)
		g.clients = append(g.clients, name)
	}
	n := rapid.IntRange(0, 12).Draw(g.t, "steps")
	var at Duration
	for i := 0; i < n; i++ {
		at += g.dur("gap", 5000)
		st := g.step(at)
		s.Steps = append(s.Steps, st)
	}
	if rapid.Bool().Draw(g.t, "limit?") {
		s.Limit = at + g.dur("slack", 60000)
	}
	m := rapid.IntRange(0, 8).Draw(g.t, "expects")
	for i := 0; i < m; i++ {
		if e, ok := g.expectation(s.Limit); ok {
			s.Expect = append(s.Expect, e)
		}
	}
	if msg, _ := refusedTimeout(s); msg != "" {
		// A timeout the host refuses is valid only where the refusal is expected (TOOL-3).
		s.Expect = append(s.Expect, Expectation{End: true, Kind: ExpectHostConfig, Subject: "refused"})
	}
	if rapid.Bool().Draw(g.t, "explore?") {
		rate := func(l string) float64 { return rapid.SampledFrom([]float64{0, 0.5, 1, 2, 12.25}).Draw(g.t, l) }
		s.Explore = &Explore{
			Seeds: rapid.IntRange(0, 1000).Draw(g.t, "seeds"), Jitter: g.dur("jitter", 1000), Healed: g.dur("healed", 120000),
			Faults: Faults{rate("crash"), rate("disconnect"), rate("reload"), rate("clock-jump"), rate("partition"), rate("lose")},
		}
	}
	return s
}

func (g *gen) session() string {
	if rapid.Bool().Draw(g.t, "session?") {
		return ""
	}
	return rapid.SampledFrom(g.sessions).Draw(g.t, "session")
}

func (g *gen) questions(service bool) []Question {
	n := rapid.IntRange(0, 3).Draw(g.t, "questions")
	qs := make([]Question, n)
	for i := range qs {
		q := Question{ID: g.line("qid"), Question: g.text("question")}
		if q.Question == "" {
			q.Question = "q"
		}
		if rapid.Bool().Draw(g.t, "header?") {
			q.Header = g.text("header")
		}
		for j := rapid.IntRange(0, 3).Draw(g.t, "options"); j > 0; j-- {
			o := Option{Label: g.line("label")}
			if rapid.Bool().Draw(g.t, "description?") {
				o.Description = g.line("description")
			}
			q.Options = append(q.Options, o)
		}
		q.Multi = rapid.Bool().Draw(g.t, "multi")
		if service && rapid.Bool().Draw(g.t, "detail?") {
			q.Detail = g.line("detail")
			q.PlanReview = g.line("approve")
		}
		qs[i] = q
	}
	return qs
}

var rawTimeouts = []string{"", "5", "-1", "0", "-2", "1.5", "2147483", "2147484", "1e3"}

func (g *gen) rawArgs(label string) string {
	return rapid.SampledFrom([]string{`{"questions":[]}`, `not json`, `{"questions":[{"id":"q","question":"?"}],"timeout":"5"}`, `{}`, "x: y"}).Draw(g.t, label)
}

func (g *gen) call() string {
	if len(g.calls) > 0 && rapid.IntRange(0, 3).Draw(g.t, "reuse") == 0 {
		return rapid.SampledFrom(g.calls).Draw(g.t, "call")
	}
	c := "c" + strconv.Itoa(len(g.calls)+1)
	g.calls = append(g.calls, c)
	return c
}

func (g *gen) answers() []AnswerItem {
	var out []AnswerItem
	seen := map[string]bool{}
	for n := rapid.IntRange(0, 3).Draw(g.t, "answers"); n > 0; n-- {
		id := g.line("aid")
		if seen[id] {
			continue
		}
		seen[id] = true
		a := AnswerItem{ID: id}
		for k := rapid.IntRange(0, 2).Draw(g.t, "selected"); k > 0; k-- {
			a.Selected = append(a.Selected, g.line("sel"))
		}
		if rapid.Bool().Draw(g.t, "custom?") {
			c := g.text("custom")
			a.Custom = &c
		}
		out = append(out, a)
	}
	return out
}

func (g *gen) step(at Duration) Step {
	st := Step{At: at}
	actors := []string{ActorModel, ActorHost, ActorService}
	if len(g.clients) > 0 {
		actors = append(actors, ActorNet, "user", ActorInject)
	}
	switch rapid.SampledFrom(actors).Draw(g.t, "actor") {
	case ActorModel:
		st.Session = g.session()
		m := &ModelAction{Kind: rapid.SampledFrom([]string{ModelHeader, ModelAsk, ModelRun, ModelSleep, ModelTool, ModelEndStep, ModelEndTurn, ModelCancel, ModelPrompt, ModelSteer}).Draw(g.t, "model")}
		switch m.Kind {
		case ModelHeader:
			if rapid.Bool().Draw(g.t, "tools?") {
				m.Tools = g.rawArgs("tools")
			}
		case ModelAsk:
			m.Call = g.call()
			if rapid.IntRange(0, 4).Draw(g.t, "raw?") == 0 {
				m.Args = g.rawArgs("args")
			} else {
				m.Questions = g.questions(false)
				m.Timeout = rapid.SampledFrom(rawTimeouts).Draw(g.t, "timeout")
			}
		case ModelRun:
			m.Call = g.call()
			if rapid.IntRange(0, 4).Draw(g.t, "raw?") == 0 {
				m.Args = g.rawArgs("args")
			} else {
				for n := rapid.IntRange(0, 3).Draw(g.t, "subcalls"); n > 0; n-- {
					sc := SubCall{Kind: rapid.SampledFrom([]string{SubAsk, SubSleep, SubTool}).Draw(g.t, "sub")}
					switch sc.Kind {
					case SubAsk:
						if rapid.IntRange(0, 3).Draw(g.t, "subraw?") == 0 {
							sc.Args = `{"questions":[]}`
						} else {
							sc.Questions = g.questions(false)
							sc.Timeout = rapid.SampledFrom(rawTimeouts).Draw(g.t, "timeout")
						}
					case SubSleep:
						sc.For = g.dur("for", 5000)
					case SubTool:
						sc.Name = "lookup"
						sc.Args = rapid.SampledFrom([]string{"", "{}", `{"q":1}`}).Draw(g.t, "subargs")
					}
					m.Calls = append(m.Calls, sc)
				}
			}
		case ModelSleep:
			m.Call = g.call()
			m.For = g.dur("for", 60000)
		case ModelTool:
			m.Call = g.call()
			m.Name = rapid.SampledFrom([]string{"lookup", "read_file"}).Draw(g.t, "tool")
			m.Args = rapid.SampledFrom([]string{"", "{}", "anything"}).Draw(g.t, "args")
		case ModelCancel:
			m.KeepInbox = rapid.Bool().Draw(g.t, "keep")
		case ModelPrompt, ModelSteer:
			m.Text = g.text("message")
			if rapid.IntRange(0, 3).Draw(g.t, "sourced") == 0 {
				m.Source = MessageSource{Kind: rapid.SampledFrom([]string{"user-question-reply", "relay", "user"}).Draw(g.t, "source"),
					Call: rapid.SampledFrom([]string{"", "c1", "c2:ptc:1"}).Draw(g.t, "source call"), Outcome: rapid.SampledFrom([]string{"", "answered"}).Draw(g.t, "outcome")}
			}
		}
		st.Model = m
	case ActorHost:
		h := &HostAction{Kind: rapid.SampledFrom([]string{HostRestart, HostCrash, HostOpen, HostClose, HostFailInboxWrite, HostAppend, HostClaimReply, HostStall}).Draw(g.t, "host")}
		switch h.Kind {
		case HostCrash:
			h.Point = rapid.SampledFrom(CrashPoints).Draw(g.t, "point")
			if h.Point == "after-effect" {
				h.Effects = rapid.IntRange(0, 5).Draw(g.t, "effects")
			}
		case HostOpen:
			h.Session = "x" + strconv.Itoa(len(g.sessions))
			h.Through = -1
			switch rapid.IntRange(0, 2).Draw(g.t, "open") {
			case 1:
				h.Owner = rapid.SampledFrom(g.sessions).Draw(g.t, "owner")
			case 2:
				h.Fork = rapid.SampledFrom(g.sessions).Draw(g.t, "fork")
				h.Through = rapid.IntRange(-1, 20).Draw(g.t, "through")
			}
			g.sessions = append(g.sessions, h.Session)
		case HostClose, HostFailInboxWrite:
			h.Session = rapid.SampledFrom(g.sessions).Draw(g.t, "close")
		case HostStall:
			h.For = Duration(rapid.Int64Range(1, 10000).Draw(g.t, "stall"))
		case HostClaimReply:
			h.Session = rapid.SampledFrom(g.sessions).Draw(g.t, "claim-reply")
			h.Call, h.Turn = rapid.SampledFrom([]string{"c1", "c2:ptc:1"}).Draw(g.t, "claimed call"), rapid.IntRange(1, 5).Draw(g.t, "turn")
		case HostAppend:
			h.Session = rapid.SampledFrom(g.sessions).Draw(g.t, "append")
			h.Event = rapid.SampledFrom([]string{`{"type":"turn/end","turn":1,"reason":{"kind":"completed"}}`,
				`{"type":"tool/result","turn":1,"step":1,"callId":"c1","text":"{\"pending\":tru"}`, `{ "type" : "step/start", "turn": 2, "step": 1 }`}).Draw(g.t, "event")
		}
		st.Host = h
	case ActorService:
		st.Session = g.session()
		g.nService++
		c := &ServiceCall{Kind: rapid.SampledFrom([]string{ServiceAsk, ServiceAskTimed, ServiceAnswer}).Draw(g.t, "service")}
		if rapid.Bool().Draw(g.t, "id?") {
			c.ID = "r" + strconv.Itoa(g.nService)
		}
		id := c.ID
		if id == "" {
			id = "d" + strconv.Itoa(g.nService)
		}
		g.results = append(g.results, id)
		c.Agent = rapid.SampledFrom([]string{"", AgentLive, AgentStale, AgentNone}).Draw(g.t, "agent")
		raw := rapid.IntRange(0, 4).Draw(g.t, "raw?") == 0
		switch c.Kind {
		case ServiceAsk:
			if raw {
				c.Body = `{"questions":[]}`
				break
			}
			c.Questions = g.questions(true)
			if rapid.Bool().Draw(g.t, "wait?") {
				c.Call = g.call()
				c.Timed = rapid.Bool().Draw(g.t, "timed")
			}
			c.Aborted = rapid.Bool().Draw(g.t, "aborted")
		case ServiceAskTimed:
			if raw {
				c.Body = `{"questions":[],"callId":"c9","timeoutMs":1.5}`
				g.calls = append(g.calls, "c9")
				break
			}
			c.Questions = g.questions(true)
			if rapid.Bool().Draw(g.t, "call?") {
				c.Call = g.call()
			} else {
				g.calls = append(g.calls, id)
			}
			if rapid.Bool().Draw(g.t, "timeout?") {
				t := g.signed("timeout")
				c.Timeout = &t
			}
			c.Aborted = rapid.Bool().Draw(g.t, "aborted")
		case ServiceAnswer:
			if raw {
				c.Body = `{"callId":"c1","answer":{"answers":[{"id":"q","selected":[]},{"id":"q","selected":[]}]}}`
				break
			}
			c.Call = rapid.SampledFrom([]string{"c1", "zz"}).Draw(g.t, "answer-call")
			c.Answers = g.answers()
		}
		st.Service = c
	case ActorInject:
		x := &Inject{Client: rapid.SampledFrom(g.clients).Draw(g.t, "client"), Event: "e1", Gen: rapid.IntRange(0, 3).Draw(g.t, "gen")}
		switch rapid.IntRange(0, 3).Draw(g.t, "outcome") {
		case 3:
			x.Event, x.Attach = "", rapid.SampledFrom([]string{"c1", "c2:ptc:1"}).Draw(g.t, "attach")
		case 0:
			x.Next = true
		case 1:
			x.Answers, x.HasAns = g.answers(), true
		default:
			x.Rejected = rapid.SampledFrom([]string{"Error: the claim stream failed", "UserQuestionError/ASK_TIMED_OUT: late"}).Draw(g.t, "rejected")
		}
		st.Inject = x
	case ActorNet:
		a := &NetAction{Kind: rapid.SampledFrom([]string{NetDisconnect, NetReconnect, NetPartition, NetDelay, NetLose}).Draw(g.t, "net"), Client: rapid.SampledFrom(g.clients).Draw(g.t, "client")}
		switch a.Kind {
		case NetPartition:
			a.For = 1 + g.dur("for", 5000)
		case NetDelay:
			a.By = 1 + g.dur("by", 5000)
		}
		st.Net = a
	default:
		st.Session = g.session()
		st.Client = rapid.SampledFrom(g.clients).Draw(g.t, "client")
		u := &UserAction{Kind: rapid.SampledFrom(append(append([]string{UserChoose, UserType, UserClock, UserDrift, UserInput}, userCardVerbs...), userWords...)).Draw(g.t, "user")}
		card := func() string {
			opts := []string{"", "#1", "#12"}
			opts = append(opts, g.calls...)
			return rapid.SampledFrom(opts).Draw(g.t, "card")
		}
		switch u.Kind {
		case UserChoose:
			u.Label = g.line("label")
			u.Card = card()
			if rapid.Bool().Draw(g.t, "q?") {
				u.Question = g.line("q")
			}
		case UserType:
			u.Text = g.text("typed")
			u.Card = card()
			if rapid.Bool().Draw(g.t, "q?") {
				u.Question = g.line("q")
			}
		case UserClock:
			u.By = g.signed("by")
		case UserDrift:
			u.PPM = rapid.SampledFrom([]int64{0, 20000, -500}).Draw(g.t, "ppm")
		case UserInput:
			u.Input = rapid.SampledFrom([]string{`{"kind":"tick"}`, `{"kind":"link-down"}`,
				`{"kind":"from-host","frame":{"kind":"stream-item","streamId":"a-s1","value":{"remainingMs":5}}}`,
				`{"kind":"from-http","rpcId":"a-r1","envelope":{"ok":false,"error":{"code":"X","message":"it's: odd"}}}`}).Draw(g.t, "input")
		case UserWindowBlur, UserWindowFocus, UserTeardown, UserReload, UserCrash, UserUnbind, UserBind:
		default:
			u.Card = card()
			if u.Kind == UserSkip && rapid.Bool().Draw(g.t, "q?") {
				u.Question = g.line("q")
			}
		}
		st.User = u
	}
	if Refusable(&st) && rapid.IntRange(0, 5).Draw(g.t, "refused?") == 0 {
		st.Refused = g.line("refused")
	}
	return st
}

func (g *gen) expectation(limit Duration) (Expectation, bool) {
	e := Expectation{}
	if rapid.Bool().Draw(g.t, "end?") {
		e.End = true
	} else {
		e.At = g.dur("at", 120000)
		if limit > 0 && e.At > limit {
			e.At = limit
		}
	}
	kinds := []string{ExpectView, ExpectInbox, ExpectEvent, ExpectRecord, ExpectAgent}
	if len(g.calls) > 0 {
		kinds = append(kinds, ExpectToolResult, ExpectHostWait, ExpectReservation)
		if len(g.clients) > 0 {
			kinds = append(kinds, ExpectCard, ExpectRow, ExpectNode, ExpectDraft)
		}
	}
	if len(g.results) > 0 {
		kinds = append(kinds, ExpectResult)
	}
	if len(g.clients) > 0 {
		kinds = append(kinds, ExpectReply, ExpectLink, ExpectConversation)
	}
	if e.End {
		kinds = append(kinds, ExpectHostConfig, ExpectOracle)
	}
	e.Kind = rapid.SampledFrom(kinds).Draw(g.t, "kind")
	ptr := func(v int) *int { return &v }
	bptr := func(l string) *bool { b := rapid.Bool().Draw(g.t, l); return &b }
	dptr := func(l string) *Duration { d := g.dur(l, 120000); return &d }
	maybe := func(l string) bool { return rapid.Bool().Draw(g.t, l) }
	sess := func() {
		if maybe("session?") {
			e.Session = rapid.SampledFrom(g.sessions).Draw(g.t, "session")
		}
	}
	client := func() {
		if len(g.clients) != 1 || maybe("client?") {
			e.Client = rapid.SampledFrom(g.clients).Draw(g.t, "client")
		}
	}
	switch e.Kind {
	case ExpectToolResult, ExpectResult:
		if e.Kind == ExpectToolResult {
			e.Subject = rapid.SampledFrom(g.calls).Draw(g.t, "call")
			sess()
		} else {
			e.Subject = rapid.SampledFrom(g.results).Draw(g.t, "result")
		}
		switch rapid.IntRange(0, 5).Draw(g.t, "outcome") {
		case 0:
			e.Pending = true
		case 1:
			e.Answers, e.HasAns = g.answers(), true
		case 2:
			e.Error = rapid.SampledFrom([]string{"any", "ASK_ABORTED", "BAD_TIMEOUT"}).Draw(g.t, "error")
		case 3:
			if e.Kind == ExpectToolResult {
				e.Text = g.line("text")
			} else {
				e.Value = rapid.SampledFrom([]string{"true", "false", `{"pending":true,"callId":"c1"}`}).Draw(g.t, "value")
			}
		case 4:
			e.None = true
		}
		if !e.None && maybe("contains?") {
			e.Contains = g.line("contains")
		}
		if maybe("time?") {
			e.Time = dptr("time")
		}
	case ExpectReply:
		e.Subject = rapid.SampledFrom(g.clients).Draw(g.t, "client")
		if maybe("error?") {
			e.Error = "REPLY_QUEUED"
		} else if maybe("value?") {
			e.Value = "true"
		}
		if maybe("count?") {
			e.Count = ptr(rapid.IntRange(0, 3).Draw(g.t, "count"))
		}
	case ExpectView:
		e.Subject = "active=[c1:continued] settled=[]"
		sess()
		if maybe("questions?") {
			e.ViewCall, e.ViewQuestions = "c1", g.questions(false)
		}
	case ExpectInbox:
		e.Subject = "next-step=[] next-turn=[]"
		sess()
	case ExpectEvent, ExpectRecord:
		e.Subject = g.line("prefix")
		if e.Kind == ExpectEvent {
			sess()
		}
		if maybe("count?") {
			e.Count = ptr(rapid.IntRange(0, 3).Draw(g.t, "count"))
		}
		if maybe("time?") {
			e.Time = dptr("time")
		}
	case ExpectHostWait:
		e.Subject = rapid.SampledFrom(g.calls).Draw(g.t, "call")
		sess()
		if maybe("none") {
			e.None = true
			break
		}
		if maybe("claims?") {
			e.Claims = ptr(rapid.IntRange(0, 3).Draw(g.t, "claims"))
		}
		if maybe("deadline?") {
			e.Deadline = dptr("deadline")
		}
		if maybe("timer?") {
			e.Timer = rapid.SampledFrom([]string{"none", "5s", "1.5s"}).Draw(g.t, "timer")
		}
	case ExpectReservation:
		e.Subject = rapid.SampledFrom(g.calls).Draw(g.t, "call")
		sess()
		if maybe("none") {
			e.None = true
		} else if maybe("claimed?") {
			e.Claimed = bptr("claimed")
		}
	case ExpectAgent:
		e.Subject = rapid.SampledFrom(g.sessions).Draw(g.t, "agent")
		if maybe("live?") {
			e.Live = bptr("live")
		}
		if maybe("root?") {
			e.Root = bptr("root")
		}
		if maybe("phase?") {
			e.Phase = rapid.SampledFrom(phases).Draw(g.t, "phase")
		}
	case ExpectCard:
		e.Subject = rapid.SampledFrom(append([]string{"#1"}, g.calls...)).Draw(g.t, "card")
		client()
		sess()
		if maybe("none") {
			e.None = true
			break
		}
		if maybe("state?") {
			e.State = rapid.SampledFrom(cardStates).Draw(g.t, "state")
		}
		if maybe("wait?") {
			e.Wait = rapid.SampledFrom(waitStates).Draw(g.t, "wait")
		}
		if maybe("countdown?") {
			e.Countdown = rapid.SampledFrom([]string{"none", "3s running", "2.5s paused", "0s paused"}).Draw(g.t, "countdown")
		}
		if maybe("channel?") {
			e.Channel = rapid.SampledFrom(channels).Draw(g.t, "channel")
		}
		if maybe("flags?") {
			e.Shown, e.Closed, e.Busy = bptr("shown"), bptr("closed"), bptr("busy")
		}
		if maybe("hint?") {
			e.Hint = g.line("hint")
		}
		if maybe("seat?") {
			e.Seat = bptr("seat")
			e.Focus = bptr("focus")
			e.CardKind = rapid.SampledFrom(cardKinds).Draw(g.t, "card-kind")
			e.Draft = "{q=-}"
		}
		if maybe("questions?") {
			e.ViewQuestions = g.questions(false)
		}
	case ExpectRow:
		e.Subject = rapid.SampledFrom(g.calls).Draw(g.t, "call")
		client()
		sess()
		if maybe("none") {
			e.None = true
			break
		}
		if maybe("summary?") {
			e.Summary = g.line("summary")
		}
		if maybe("state?") {
			e.State = rapid.SampledFrom(rowStates).Draw(g.t, "state")
		}
		if maybe("action?") {
			a := rapid.SampledFrom([]string{"", "Answer", "View answers"}).Draw(g.t, "action")
			e.Action = &a
		}
		if maybe("expanded?") {
			e.Expanded = bptr("expanded")
		}
		if maybe("lines?") {
			e.Lines = []string{}
			for n := rapid.IntRange(0, 2).Draw(g.t, "lines"); n > 0; n-- {
				e.Lines = append(e.Lines, g.line("line"))
			}
		}
		if maybe("contains?") {
			e.Contains = g.line("contains")
		}
	case ExpectNode:
		e.Subject = rapid.SampledFrom(g.calls).Draw(g.t, "call")
		client()
		sess()
		if maybe("none") {
			e.None = true
			break
		}
		if maybe("raw?") {
			r := g.line("raw")
			e.Raw = &r
		} else if maybe("lines?") {
			e.Lines = []string{g.line("line")}
		}
		if maybe("reply fields?") {
			e.ViewQuestions = g.questions(false)
			e.Message = g.line("message")
			e.Outcome = "answered"
			e.Time = dptr("time")
		}
		if maybe("count?") {
			e.Count = ptr(rapid.IntRange(0, 2).Draw(g.t, "count"))
		}
	case ExpectDraft:
		e.Subject = rapid.SampledFrom(append([]string{"#2"}, g.calls...)).Draw(g.t, "card")
		client()
		sess()
		if maybe("none") {
			e.None = true
		} else if maybe("contains?") {
			e.Contains = g.line("contains")
		}
	case ExpectOracle:
		e.Subject = rapid.SampledFrom([]string{"ok", "violation", "unknown"}).Draw(g.t, "verdict")
		if maybe("contains?") {
			e.Contains = g.line("contains")
		}
	case ExpectHostConfig:
		e.Subject = rapid.SampledFrom([]string{"accepted", "refused"}).Draw(g.t, "config")
		if maybe("contains?") {
			e.Contains = g.line("contains")
		}
	case ExpectConversation:
		e.Subject = rapid.SampledFrom(g.clients).Draw(g.t, "client")
		sess()
		if maybe("lines?") {
			e.Lines = []string{g.line("entry")}
		} else if maybe("contains?") {
			e.Contains = g.line("contains")
		}
	case ExpectLink:
		e.Subject = rapid.SampledFrom(g.clients).Draw(g.t, "client")
		if maybe("connected?") {
			e.Connected = bptr("connected")
		}
		if maybe("gen?") {
			e.Gen = ptr(rapid.IntRange(0, 4).Draw(g.t, "gen"))
		}
	}
	return e, true
}
