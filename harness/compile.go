package harness

import (
	"encoding/json"
	"errors"
	"sort"
	"strconv"
	"strings"

	"github.com/twosettle/twosettle/engine/client"
	"github.com/twosettle/twosettle/engine/session"
	"github.com/twosettle/twosettle/engine/wire"
	"github.com/twosettle/twosettle/scenarios"
	"github.com/twosettle/twosettle/sim"
)

// Plan is a scenario compiled for one run: the simulator's configuration, the reference
// host's and clients' configurations, and how each simulator step maps back to the
// scenario.
type Plan struct {
	Seed    uint64
	Sim     sim.Config
	Host    wire.HostConfig
	Clients []client.Config // in sim.Config.Clients order
	// Origin[i] is the scenario step index of sim step i (-1: a Session opened at time 0
	// or an expectation's probe).
	Origin []int
	// Inputs[i] is the canonical text of the input sim step i delivers to a port ("" for
	// faults, network actions and probes): how a Reject record is traced to its step.
	Inputs []string
	// Probes maps each expectation time to the label of its probe.
	Probes map[scenarios.Duration]string
	// ServiceIDs are the result ids of the scenario's service steps (by step index).
	ServiceIDs []string
	// Holding names the clients declared hold: true, which Execute runs as answerers that
	// hold every delivery (holdingClient) instead of reference clients.
	Holding map[string]bool
}

// ProbeLabel is the label of the probe an expectation at time t reads.
func ProbeLabel(t scenarios.Duration) string { return "expect@" + t.String() }

// Compile turns a valid scenario into a Plan at seed (0: the scenario's own seed).
func Compile(s *scenarios.Scenario, seed uint64) *Plan {
	if seed == 0 {
		seed = s.Seed
	}
	if seed == 0 {
		seed = scenarios.DefaultSeed
	}
	p := &Plan{Seed: seed, Probes: map[scenarios.Duration]string{}, ServiceIDs: scenarios.ServiceIDs(s)}
	p.Host = HostConfig(s)

	clients := append([]scenarios.Client(nil), s.Clients...)
	sort.SliceStable(clients, func(i, j int) bool { return clients[i].Name < clients[j].Name })
	for i, c := range clients {
		cc := sim.ClientConfig{
			Name:        c.Name,
			Mux:         sim.Latency{Min: span(c.Latency.Min), Max: span(c.Latency.Max)},
			Clock:       sim.Clock{Offset: span(c.Skew), DriftPPM: c.Drift},
			Offline:     c.Offline,
			ReconnectMs: -1,
		}
		cc.HTTP = cc.Mux
		if c.HTTP != nil {
			cc.HTTP = sim.Latency{Min: span(c.HTTP.Min), Max: span(c.HTTP.Max)}
		}
		if c.Reconnect != nil {
			cc.ReconnectMs = span(*c.Reconnect)
		}
		p.Sim.Clients = append(p.Sim.Clients, cc)
		p.Clients = append(p.Clients, client.Config{Name: c.Name, TickMs: c.Tick.Ms(), Seed: clientSeed(seed, i)})
		if c.Hold {
			if p.Holding == nil {
				p.Holding = map[string]bool{}
			}
			p.Holding[c.Name] = true
		}
	}

	p.Sim.Seed = seed
	p.Sim.Limit = instant(s.Limit)
	switch s.AutoEnd {
	case scenarios.Never:
		p.Sim.Model.AutoEndMs = -1
	default:
		p.Sim.Model.AutoEndMs = span(s.AutoEnd)
	}
	if x := s.Explore; x != nil {
		p.Sim.Faults = sim.FaultConfig{
			CrashPerMin: x.Faults.Crash, DisconnectPerMin: x.Faults.Disconnect, ReloadPerMin: x.Faults.Reload,
			ClockJumpPerMin: x.Faults.ClockJump, PartitionPerMin: x.Faults.Partition, LoseHTTPPerMin: x.Faults.Lose,
		}
		p.Sim.Healed = instant(x.Healed)
	}

	first := FirstSession(s)
	add := func(origin int, st sim.Step, input string) {
		p.Sim.Steps = append(p.Sim.Steps, st)
		p.Origin = append(p.Origin, origin)
		p.Inputs = append(p.Inputs, input)
	}
	sessions := s.Sessions
	if len(sessions) == 0 {
		sessions = []scenarios.Session{{Name: scenarios.DefaultSession}}
	}
	for _, x := range sessions {
		cmd := wire.OpenSession{Session: x.Name, Owner: x.Owner}
		add(-1, sim.Step{At: 0, Host: cmd, Line: x.Pos.Line}, cmd.String())
	}

	// Probes go after every step at their time.
	times := map[scenarios.Duration]bool{}
	for _, e := range s.Expect {
		if !e.End {
			times[e.At] = true
		}
	}
	var probeTimes []scenarios.Duration
	for t := range times {
		probeTimes = append(probeTimes, t)
		p.Probes[t] = ProbeLabel(t)
	}
	sort.Slice(probeTimes, func(i, j int) bool { return probeTimes[i] < probeTimes[j] })
	addProbes := func(upTo scenarios.Duration, inclusive bool) {
		for len(probeTimes) > 0 && (probeTimes[0] < upTo || inclusive && probeTimes[0] == upTo) {
			add(-1, sim.Step{At: instant(probeTimes[0]), Probe: ProbeLabel(probeTimes[0])}, "")
			probeTimes = probeTimes[1:]
		}
	}
	for i := range s.Steps {
		st := &s.Steps[i]
		addProbes(st.At, false)
		session := st.Session
		if session == "" {
			session = first
		}
		out := sim.Step{At: instant(st.At), Line: st.Pos.Line}
		input := ""
		switch {
		case st.Model != nil:
			out.Host = modelCommand(session, st.Model)
			input = out.Host.String()
		case st.Host != nil:
			h := st.Host
			switch h.Kind {
			case scenarios.HostRestart:
				out.Host = wire.Restart{CutAfter: -1}
			case scenarios.HostCrash:
				point := h.Point
				if point == "now" {
					point = sim.PointNow
				}
				out.Fault = &sim.Fault{Kind: sim.FaultCrash, Point: point, Effect: h.Effects}
			case scenarios.HostOpen:
				through := h.Through
				if h.Fork == "" {
					through = 0
				}
				out.Host = wire.OpenSession{Session: h.Session, Owner: h.Owner, ForkOf: h.Fork, ForkThrough: through}
			case scenarios.HostClose:
				out.Host = wire.CloseSession{Session: h.Session}
			case scenarios.HostFailInboxWrite:
				out.Fault = &sim.Fault{Kind: sim.FaultInboxWrite, Session: h.Session}
			case scenarios.HostStall:
				out.Fault = &sim.Fault{Kind: sim.FaultHostStall, ByMs: span(h.For)}
			case scenarios.HostClaimReply:
				out.Host = wire.ClaimReply{Session: h.Session, CallID: h.Call, Turn: h.Turn}
			case scenarios.HostAppend:
				c, _ := appendEvent(h) // a malformed event was reported by CheckEvents
				out.Host = c
			}
			if out.Host != nil {
				input = out.Host.String()
			}
		case st.Service != nil:
			out.Host = serviceCommand(session, p.ServiceIDs[i], st.Service)
			input = out.Host.String()
		case st.Inject != nil:
			x := st.Inject
			gen := x.Gen
			if gen == 0 {
				gen = 1
			}
			if x.Attach != "" {
				args := wire.AppendJSONString([]byte(`{"agentId":`), session)
				args = append(wire.AppendJSONString(append(args, `,"callId":`...), x.Attach), '}')
				out.Host = wire.StreamOpen{Client: x.Client, Gen: gen, StreamID: "inject-" + strconv.Itoa(i+1), Endpoint: wire.EndpointAttachWait, Args: args}
				input = out.Host.String()
				break
			}
			o := wire.Outcome{Kind: wire.OutcomeNext}
			switch {
			case x.HasAns:
				o = wire.Outcome{Kind: wire.OutcomeResult, Value: wire.Answer{Answers: AnswerItems(x.Answers)}.AppendJSON(nil)}
			case x.Rejected != "":
				name, code, msg, _ := scenarios.ParseRejection(x.Rejected)
				o = wire.Outcome{Kind: wire.OutcomeRejected, Error: &wire.Error{Name: name, Code: code, Message: msg}}
			}
			out.Host = wire.EventResult{Client: x.Client, Gen: gen, RPCID: "inject-" + strconv.Itoa(i+1), EventID: x.Event, Outcome: o}
			input = out.Host.String()
		case st.Net != nil:
			out.Net = &sim.NetAction{Kind: st.Net.Kind, Client: st.Net.Client, DurationMs: span(st.Net.For + st.Net.By)}
		default:
			u := st.User
			out.Client = st.Client
			switch u.Kind {
			case scenarios.UserReload:
				out.Fault = &sim.Fault{Kind: sim.FaultReload, Client: st.Client}
				out.Client = ""
			case scenarios.UserCrash:
				out.Fault = &sim.Fault{Kind: sim.FaultClientCrash, Client: st.Client}
				out.Client = ""
			case scenarios.UserClock:
				out.Fault = &sim.Fault{Kind: sim.FaultClockJump, Client: st.Client, ByMs: span(u.By)}
				out.Client = ""
			case scenarios.UserDrift:
				out.Fault = &sim.Fault{Kind: sim.FaultClockDrift, Client: st.Client, PPM: u.PPM}
				out.Client = ""
			case scenarios.UserInput:
				in, err := wire.DecodeClientInput([]byte(u.Input)) // the decoder checked it
				if err != nil {
					panic("harness: an input step the decoder let through: " + err.Error())
				}
				out.Input = in
				input = in.String()
			default:
				a := wire.UserAction{Kind: u.Kind, Session: st.Session, Card: u.Card, Question: u.Question, Label: u.Label, Text: u.Text}
				out.User = &a
				input = wire.User{Action: a}.String()
			}
		}
		add(i, out, input)
	}
	addProbes(1<<62, true)
	return p
}

// FirstSession is the Session a step that names none is about.
func FirstSession(s *scenarios.Scenario) string {
	if len(s.Sessions) > 0 {
		return s.Sessions[0].Name
	}
	return scenarios.DefaultSession
}

func clientSeed(seed uint64, i int) uint64 {
	x := seed + uint64(i+1)*0x9E3779B97F4A7C15
	x ^= x >> 31
	x *= 0xBF58476D1CE4E5B9
	return x ^ x>>29
}

func modelCommand(session string, m *scenarios.ModelAction) wire.Command {
	switch m.Kind {
	case scenarios.ModelHeader:
		return wire.Header{Session: session, Tools: m.Tools}
	case scenarios.ModelAsk:
		args := m.Args
		if args == "" {
			args = string(askArgs(m.Questions, m.Timeout))
		}
		return wire.ToolCall{Session: session, CallID: m.Call, Name: scenarios.ToolAsk, Args: args}
	case scenarios.ModelRun:
		args := m.Args
		if args == "" {
			args = string(runArgs(m.Calls))
		}
		return wire.ToolCall{Session: session, CallID: m.Call, Name: scenarios.ToolRun, Args: args}
	case scenarios.ModelSleep:
		return wire.ToolCall{Session: session, CallID: m.Call, Name: scenarios.ToolSleep, Args: `{"ms":` + strconv.FormatInt(m.For.Ms(), 10) + `}`}
	case scenarios.ModelTool:
		args := m.Args
		if args == "" {
			args = "{}"
		}
		return wire.ToolCall{Session: session, CallID: m.Call, Name: m.Name, Args: args}
	case scenarios.ModelEndStep:
		return wire.EndStep{Session: session}
	case scenarios.ModelEndTurn:
		return wire.EndStep{Session: session, Final: true}
	case scenarios.ModelCancel:
		return wire.CancelTurn{Session: session, KeepInbox: m.KeepInbox}
	case scenarios.ModelPrompt:
		return wire.Send{Session: session, Target: "next-turn", Text: m.Text, Source: messageSource(m.Source)}
	case scenarios.ModelSteer:
		return wire.Send{Session: session, Target: "next-step", Text: m.Text, Source: messageSource(m.Source)}
	}
	return wire.Tick{}
}

// messageSource is a scenario's message source as the host records it (zero: the user's).
func messageSource(m scenarios.MessageSource) session.Source {
	return session.Source{Kind: m.Kind, CallID: m.Call, Outcome: m.Outcome}
}

// askArgs writes the model's ask_user_question arguments: {"questions":[...],"timeout":N}
// in the model's vocabulary (multi_select).
func askArgs(qs []scenarios.Question, timeout string) []byte {
	b := []byte(`{"questions":[`)
	for i, q := range qs {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"id":`...)
		b = wire.AppendJSONString(b, q.ID)
		b = append(b, `,"question":`...)
		b = wire.AppendJSONString(b, q.Question)
		if q.Header != "" {
			b = append(b, `,"header":`...)
			b = wire.AppendJSONString(b, q.Header)
		}
		if len(q.Options) > 0 {
			b = append(b, `,"options":[`...)
			for j, o := range q.Options {
				if j > 0 {
					b = append(b, ',')
				}
				b = append(b, `{"label":`...)
				b = wire.AppendJSONString(b, o.Label)
				if o.Description != "" {
					b = append(b, `,"description":`...)
					b = wire.AppendJSONString(b, o.Description)
				}
				b = append(b, '}')
			}
			b = append(b, ']')
		}
		if q.Multi {
			b = append(b, `,"multi_select":true`...)
		}
		b = append(b, '}')
	}
	b = append(b, ']')
	if timeout != "" {
		b = append(b, `,"timeout":`...)
		b = append(b, timeout...)
	}
	return append(b, '}')
}

func runArgs(calls []scenarios.SubCall) []byte {
	b := []byte(`{"calls":[`)
	for i, c := range calls {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"name":`...)
		switch c.Kind {
		case scenarios.SubAsk:
			b = wire.AppendJSONString(b, scenarios.ToolAsk)
			b = append(b, `,"arguments":`...)
			if c.Args != "" {
				b = append(b, c.Args...)
			} else {
				b = append(b, askArgs(c.Questions, c.Timeout)...)
			}
		case scenarios.SubSleep:
			b = wire.AppendJSONString(b, scenarios.ToolSleep)
			b = append(b, `,"arguments":{"ms":`...)
			b = strconv.AppendInt(b, c.For.Ms(), 10)
			b = append(b, '}')
		default:
			b = wire.AppendJSONString(b, c.Name)
			b = append(b, `,"arguments":`...)
			if c.Args != "" {
				b = append(b, c.Args...)
			} else {
				b = append(b, "{}"...)
			}
		}
		b = append(b, '}')
	}
	return append(b, "]}"...)
}

// serviceQuestions converts questions to the service vocabulary (wire.Question).
func serviceQuestions(qs []scenarios.Question) []wire.Question {
	out := make([]wire.Question, len(qs))
	for i, q := range qs {
		w := wire.Question{ID: q.ID, Question: q.Question}
		if q.Header != "" {
			h := q.Header
			w.Header = &h
		}
		if q.Detail != "" {
			d := q.Detail
			w.Detail = &d
		}
		for _, o := range q.Options {
			opt := wire.Option{Label: o.Label}
			if o.Description != "" {
				d := o.Description
				opt.Description = &d
			}
			w.Options = append(w.Options, opt)
		}
		if q.Multi {
			t := true
			w.MultiSelect = &t
		}
		if q.PlanReview != "" {
			w.Intent = &wire.Intent{Kind: wire.IntentPlanReview, Approve: q.PlanReview}
		}
		out[i] = w
	}
	return out
}

// AnswerItems converts a scenario batch to the wire's.
func AnswerItems(as []scenarios.AnswerItem) []wire.AnswerItem {
	out := make([]wire.AnswerItem, len(as))
	for i, a := range as {
		sel := a.Selected
		if sel == nil {
			sel = []string{}
		}
		out[i] = wire.AnswerItem{ID: a.ID, Selected: sel, Custom: a.Custom}
	}
	return out
}

func serviceCommand(session, id string, c *scenarios.ServiceCall) wire.Command {
	d := wire.Direct{ID: id, Session: session, Agent: c.Agent}
	if d.Agent == "" {
		d.Agent = wire.AgentLive
	}
	switch c.Kind {
	case scenarios.ServiceAsk:
		d.Op = wire.OpAsk
	case scenarios.ServiceAskTimed:
		d.Op = wire.OpAskTimed
	default:
		d.Op = wire.OpAnswer
	}
	if c.Body != "" {
		d.Body = json.RawMessage(c.Body)
		return d
	}
	var b []byte
	switch c.Kind {
	case scenarios.ServiceAsk:
		b = append(b, `{"questions":`...)
		b = wire.AppendQuestionsJSON(b, serviceQuestions(c.Questions))
		if c.Call != "" {
			b = append(b, `,"wait":{"callId":`...)
			b = wire.AppendJSONString(b, c.Call)
			if c.Timed {
				b = append(b, `,"timed":true`...)
			}
			b = append(b, '}')
		}
	case scenarios.ServiceAskTimed:
		b = append(b, `{"questions":`...)
		b = wire.AppendQuestionsJSON(b, serviceQuestions(c.Questions))
		b = append(b, `,"callId":`...)
		b = wire.AppendJSONString(b, scenarios.AskTimedCall(c, id))
		timeout := int64(120000)
		if c.Timeout != nil {
			timeout = c.Timeout.Ms()
		}
		b = append(b, `,"timeoutMs":`...)
		b = strconv.AppendInt(b, timeout, 10)
	default:
		b = append(b, `{"callId":`...)
		b = wire.AppendJSONString(b, c.Call)
		b = append(b, `,"answer":`...)
		b = wire.Answer{Answers: AnswerItems(c.Answers)}.AppendJSON(b)
	}
	if c.Aborted {
		b = append(b, `,"aborted":true`...)
	}
	d.Body = append(b, '}')
	return d
}

// appendEvent is the command of a host append step: its event in the protocol's form
// with seq and time 0 (the host's).
func appendEvent(h *scenarios.HostAction) (wire.AppendEvent, error) {
	c := wire.AppendEvent{Session: h.Session}
	raw := strings.TrimSpace(h.Event)
	if !strings.HasPrefix(raw, "{") {
		return c, errors.New("event must be a JSON object")
	}
	body := strings.TrimSpace(raw[1:])
	sep := ","
	if strings.HasPrefix(body, "}") {
		sep = ""
	}
	e, err := wire.DecodeEvent([]byte(`{"seq":0,"time":0` + sep + body))
	if err != nil {
		return c, err
	}
	c.Event = e
	return c, nil
}

// CheckEvents checks the event of every host append step against the protocol's event
// form (docs/protocol/event.schema.json, the codec's rules): what the scenario decoder,
// which knows no protocol, leaves to the run. Each problem is at its step's line.
func CheckEvents(s *scenarios.Scenario) error {
	var bad scenarios.Errors
	for i := range s.Steps {
		st := &s.Steps[i]
		if st.Host == nil || st.Host.Kind != scenarios.HostAppend {
			continue
		}
		if _, err := appendEvent(st.Host); err != nil {
			bad = append(bad, &scenarios.Error{Pos: st.Pos, Msg: "the appended event is not a Session event: " + err.Error(),
				Hint: "write the event as docs/protocol/event.schema.json gives it, without seq and time"})
		}
	}
	if len(bad) > 0 {
		return bad
	}
	return nil
}
