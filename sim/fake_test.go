package sim

// Small fake host and client that pin the simulator's own semantics (they are not the
// reference engine): a gateway that delivers one waterfall per "ask" tool call to every
// connected client, settles once with cancels to the others, replays on connect, expires
// at a deadline; a write-behind log with a Persisted effect; Restart{CutAfter} durability
// and repair; and a client that answers after a delay on its own clock.

import (
	"encoding/json"
	"errors"
	"sort"
	"strconv"

	"github.com/twosettle/twosettle/engine/session"
	"github.com/twosettle/twosettle/engine/wire"
)

type fakeHost struct {
	window int64 // write-behind window (0: persist at the end of every Apply)

	gens    map[string]int // connected client -> generation
	genN    int
	pending []*fakeEvent
	evN     int
	sess    map[string]*fakeSess
	flushAt int64 // -1 none
	streams map[string]int

	lastEffs []wire.Effect
	preApply map[string]int // persisted counts before the last Apply
	out      []wire.Effect
	restarts int
}

type fakeEvent struct {
	id, session, call string
	deadline          int64
	deliveries        []string
	req               json.RawMessage
}

type fakeSess struct {
	log        *session.Log
	turn, step int
	inTurn     bool
	stepOpen   bool
	tools      map[string]int64 // running call -> deadline (-1 none)
	order      []string
	endPending bool
	final      bool
}

func newFakeHost(window int64) *fakeHost {
	return &fakeHost{window: window, gens: map[string]int{}, sess: map[string]*fakeSess{}, flushAt: -1,
		preApply: map[string]int{}, streams: map[string]int{}}
}

func (h *fakeHost) emit(e wire.Effect) { h.out = append(h.out, e) }

func (h *fakeHost) s(id string) *fakeSess {
	s := h.sess[id]
	if s == nil {
		s = &fakeSess{log: session.New(id), tools: map[string]int64{}}
		h.sess[id] = s
	}
	return s
}

func (h *fakeHost) append(now int64, id string, d session.Data) {
	e := h.s(id).log.Append(now, d)
	h.emit(wire.Appended{Session: id, Event: e})
}

func (h *fakeHost) sortedSessions() []string {
	ids := make([]string, 0, len(h.sess))
	for id := range h.sess {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	return ids
}

func (h *fakeHost) persistAll() {
	for _, id := range h.sortedSessions() {
		if l := h.sess[id].log; l.Persist() {
			h.emit(wire.Persisted{Session: id, Through: l.Persisted()})
		}
	}
}

func (h *fakeHost) dirty() bool {
	for _, s := range h.sess {
		if s.log.Dirty() {
			return true
		}
	}
	return false
}

func (h *fakeHost) send(client string, f wire.Frame) {
	if g, ok := h.gens[client]; ok {
		h.emit(wire.SendFrame{Client: client, Gen: g, Frame: f})
	}
}

func (h *fakeHost) connectedSorted() []string {
	cs := make([]string, 0, len(h.gens))
	for c := range h.gens {
		cs = append(cs, c)
	}
	sort.Strings(cs)
	return cs
}

func (h *fakeHost) fire(now int64) {
	for _, id := range h.sortedSessions() {
		s := h.sess[id]
		for _, call := range append([]string(nil), s.order...) {
			if dl, ok := s.tools[call]; ok && dl >= 0 && dl <= now {
				h.settle(now, id, call, "pending", true)
			}
		}
	}
	if h.flushAt >= 0 && h.flushAt <= now {
		h.flushAt = -1
		h.persistAll()
	}
}

// settle ends a running tool call with a result; for an ask, the waterfall is finished
// and every remaining delivery gets a cancel.
func (h *fakeHost) settle(now int64, id, call, text string, _ bool) {
	s := h.sess[id]
	delete(s.tools, call)
	for i, o := range s.order {
		if o == call {
			s.order = append(s.order[:i], s.order[i+1:]...)
			break
		}
	}
	for i, ev := range h.pending {
		if ev.session == id && ev.call == call {
			h.pending = append(h.pending[:i], h.pending[i+1:]...)
			for _, c := range ev.deliveries {
				h.send(c, wire.Cancel{EventID: ev.id})
			}
			break
		}
	}
	h.append(now, id, session.ToolResult{Turn: s.turn, Step: s.step, CallID: call, Text: text})
	if len(s.tools) == 0 && s.endPending {
		h.endStep(now, id)
	}
}

func (h *fakeHost) endStep(now int64, id string) {
	s := h.sess[id]
	s.endPending = false
	h.append(now, id, session.StepEnd{Turn: s.turn, Step: s.step})
	s.stepOpen = false
	if s.final {
		h.append(now, id, session.TurnEnd{Turn: s.turn, Reason: session.TurnEndReason{Kind: session.EndCompleted}})
		s.inTurn = false
		return
	}
	s.step++
	h.append(now, id, session.StepStart{Turn: s.turn, Step: s.step})
	s.stepOpen = true
}

func (h *fakeHost) Apply(at wire.Time, cmd wire.Command) ([]wire.Effect, error) {
	now := at.Ms()
	h.out = h.out[:0]
	if r, ok := cmd.(wire.Restart); ok {
		h.restart(now, r.CutAfter)
		h.lastEffs = nil
		return h.out, nil
	}
	clear(h.preApply)
	for id, s := range h.sess {
		h.preApply[id] = s.log.Persisted()
	}
	h.fire(now)
	if err := h.apply(now, cmd); err != nil {
		h.out = h.out[:0]
		return nil, err
	}
	if h.dirty() {
		if h.window == 0 {
			h.persistAll()
		} else if h.flushAt < 0 {
			h.flushAt = now + h.window
		}
	}
	h.lastEffs = append(h.lastEffs[:0], h.out...)
	return h.out, nil
}

func (h *fakeHost) apply(now int64, cmd wire.Command) error {
	switch c := cmd.(type) {
	case wire.Tick:
	case wire.Connect:
		h.genN++
		h.gens[c.Client] = h.genN
		h.send(c.Client, wire.Ready{Gen: h.genN})
		for _, ev := range h.pending {
			ev.deliveries = append(ev.deliveries, c.Client)
			h.send(c.Client, wire.Waterfall{EventID: ev.id, Event: wire.EventQuestionsRequest, AgentID: ev.session, Request: ev.req})
		}
	case wire.Disconnect:
		if _, ok := h.gens[c.Client]; !ok {
			return errors.New("disconnect of a client that is not connected")
		}
		delete(h.gens, c.Client)
		for _, ev := range h.pending {
			for i, d := range ev.deliveries {
				if d == c.Client {
					ev.deliveries = append(ev.deliveries[:i], ev.deliveries[i+1:]...)
					break
				}
			}
		}
	case wire.Send:
		s := h.s(c.Session)
		if s.inTurn {
			return nil
		}
		s.turn++
		s.step = 1
		s.inTurn, s.stepOpen, s.final = true, true, false
		h.append(now, c.Session, session.TurnStart{Turn: s.turn})
		h.append(now, c.Session, session.StepStart{Turn: s.turn, Step: s.step})
	case wire.Header:
		h.append(now, c.Session, session.RequestHeader{Reason: "initial", Tools: "[]"})
	case wire.ToolCall:
		s := h.sess[c.Session]
		if s == nil || !s.stepOpen {
			return errors.New("no open step in " + c.Session)
		}
		h.append(now, c.Session, session.ToolCall{Turn: s.turn, Step: s.step, CallID: c.CallID, Name: c.Name, Arguments: c.Args})
		var a struct {
			Ms    int64             `json:"ms"`
			Calls []json.RawMessage `json:"calls"`
		}
		_ = json.Unmarshal([]byte(c.Args), &a)
		switch c.Name {
		case "ask", "sleep":
			dl := int64(-1)
			if a.Ms > 0 {
				dl = now + a.Ms
			}
			s.tools[c.CallID] = dl
			s.order = append(s.order, c.CallID)
			if c.Name == "ask" {
				h.evN++
				ev := &fakeEvent{id: "e" + strconv.Itoa(h.evN), session: c.Session, call: c.CallID, deadline: dl,
					req: json.RawMessage(`{"callId":` + strconv.Quote(c.CallID) + `}`)}
				h.pending = append(h.pending, ev)
				for _, cl := range h.connectedSorted() {
					ev.deliveries = append(ev.deliveries, cl)
					h.send(cl, wire.Waterfall{EventID: ev.id, Event: wire.EventQuestionsRequest, AgentID: c.Session, Request: ev.req})
				}
			}
		case "run_code":
			for i := range a.Calls {
				sub := c.CallID + ":ptc:" + strconv.Itoa(i+1)
				h.append(now, c.Session, session.PTCDispatchStart{Root: c.CallID, Parent: c.CallID, SubCallID: sub, Name: "x", Arguments: "{}"})
				h.append(now, c.Session, session.PTCDispatch{Root: c.CallID, Parent: c.CallID, SubCallID: sub, Name: "x", Arguments: "{}", Text: "ok"})
			}
			h.append(now, c.Session, session.ToolResult{Turn: s.turn, Step: s.step, CallID: c.CallID, Text: "done"})
		default:
			h.append(now, c.Session, session.ToolResult{Turn: s.turn, Step: s.step, CallID: c.CallID, Text: "ok"})
		}
	case wire.EndStep:
		s := h.sess[c.Session]
		if s == nil || !s.stepOpen {
			return errors.New("no open step in " + c.Session)
		}
		s.final = c.Final
		if len(s.tools) > 0 {
			s.endPending = true
			return nil
		}
		h.endStep(now, c.Session)
	case wire.CancelTurn:
		s := h.sess[c.Session]
		if s == nil || !s.inTurn {
			return errors.New("no running turn in " + c.Session)
		}
		for _, call := range append([]string(nil), s.order...) {
			s.endPending = false
			h.settle(now, c.Session, call, "aborted", false)
		}
		if s.stepOpen {
			h.append(now, c.Session, session.StepEnd{Turn: s.turn, Step: s.step})
		}
		h.append(now, c.Session, session.TurnEnd{Turn: s.turn, Reason: session.TurnEndReason{Kind: session.EndAborted, Detail: "user"}})
		s.inTurn, s.stepOpen = false, false
	case wire.EventResult:
		if g, ok := h.gens[c.Client]; !ok || g != c.Gen {
			h.emit(wire.Reply{Client: c.Client, Gen: c.Gen, RPCID: c.RPCID, Envelope: wire.Failure(wire.GatewayInternal, "no active event stream")})
			return nil
		}
		for i, ev := range h.pending {
			if ev.id != c.EventID {
				continue
			}
			held := -1
			for j, d := range ev.deliveries {
				if d == c.Client {
					held = j
				}
			}
			if held < 0 {
				return nil
			}
			ev.deliveries = append(ev.deliveries[:held], ev.deliveries[held+1:]...)
			if c.Outcome.Kind == wire.OutcomeNext {
				return nil
			}
			_ = i
			h.settle(now, ev.session, ev.call, "answer by "+c.Client+" "+string(c.Outcome.Value), false)
			return nil
		}
	case wire.Call:
		switch c.Endpoint {
		case wire.EndpointAnswer:
			var a struct {
				AgentID string `json:"agentId"`
			}
			_ = json.Unmarshal(c.Args, &a)
			h.append(now, a.AgentID, session.InboxSpliced{Target: session.NextStep, Inserted: []session.Message{{ID: c.RPCID, Source: session.Source{Kind: session.SourceUserQuestionReply, CallID: "x", Outcome: "answered"}, Text: "late"}}})
			h.emit(wire.Reply{Client: c.Client, Gen: c.Gen, RPCID: c.RPCID, Envelope: wire.OKValue(json.RawMessage("true"))})
		default:
			h.emit(wire.Reply{Client: c.Client, Gen: c.Gen, RPCID: c.RPCID, Envelope: wire.OKValue(c.Args)})
		}
	case wire.StreamOpen:
		h.streams[c.Client+"/"+c.StreamID] = c.Gen
		h.send(c.Client, wire.StreamItem{StreamID: c.StreamID, Value: json.RawMessage(`{"remainingMs":1}`)})
	case wire.StreamCancel:
		delete(h.streams, c.Client+"/"+c.StreamID)
	default:
		return errors.New("fake host: unsupported command " + cmd.String())
	}
	return nil
}

func (h *fakeHost) restart(now int64, cutAfter int) {
	h.restarts++
	durable := map[string]int{}
	for id, s := range h.sess {
		durable[id] = s.log.Persisted()
	}
	if cutAfter >= 0 {
		for id := range h.sess {
			if n, ok := h.preApply[id]; ok {
				durable[id] = n
			} else {
				durable[id] = 0
			}
		}
		for i, e := range h.lastEffs {
			if i >= cutAfter {
				break
			}
			if p, ok := e.(wire.Persisted); ok && p.Through > durable[p.Session] {
				durable[p.Session] = p.Through
			}
		}
	}
	h.gens = map[string]int{}
	h.pending = nil
	h.flushAt = -1
	h.streams = map[string]int{}
	for _, id := range h.sortedSessions() {
		s := h.sess[id]
		s.log.CrashAt(durable[id])
		*s = fakeSess{log: s.log, tools: map[string]int64{}}
		for _, e := range s.log.Events() {
			if t, ok := e.Data.(session.TurnStart); ok {
				s.turn = t.Turn
			}
		}
		for _, d := range session.InterruptedTurnClosers(s.log.Events()) {
			h.append(session.RepairTime(s.log.Events()), id, d)
		}
		if s.log.Persist() {
			h.emit(wire.Persisted{Session: id, Through: s.log.Persisted()})
		}
	}
}

func (h *fakeHost) NextDeadline() (wire.Time, bool) {
	at, ok := h.flushAt, h.flushAt >= 0
	for _, s := range h.sess {
		for _, dl := range s.tools {
			if dl >= 0 && (!ok || dl < at) {
				at, ok = dl, true
			}
		}
	}
	return wire.Time(at), ok
}

func (h *fakeHost) State() wire.HostState {
	var st wire.HostState
	for _, id := range h.sortedSessions() {
		s := h.sess[id]
		phase := "idle"
		if s.inTurn {
			phase = "running"
		}
		st.Sessions = append(st.Sessions, wire.SessionState{ID: id, Persisted: s.log.Persisted(), Log: s.log.Events(), Live: true, Root: true, Phase: phase})
	}
	for _, c := range h.connectedSorted() {
		st.Clients = append(st.Clients, wire.ConnState{Client: c, Gen: h.gens[c]})
	}
	for _, ev := range h.pending {
		d := append([]string(nil), ev.deliveries...)
		sort.Strings(d)
		st.Pending = append(st.Pending, wire.PendingEvent{EventID: ev.id, AgentID: ev.session, Deliveries: d})
	}
	return st
}

// fakeClient answers every waterfall answerAfter ms (its own clock) after it arrives
// (never if < 0), redials on LinkDown and on an HTTP failure.
type fakeClient struct {
	name        string
	answerAfter int64

	gen       int
	connected bool
	due       map[string]int64 // event id -> answer time (client clock), -1: wait for the user
	order     []string
	rpcN      int
	drafts    int
	out       []wire.ClientEffect
	replies   []string
	frames    []string
	streams   bool
}

func newFakeClient(name string, answerAfter int64) *fakeClient {
	return &fakeClient{name: name, answerAfter: answerAfter, due: map[string]int64{}}
}

func (c *fakeClient) result(ev string) {
	c.rpcN++
	c.out = append(c.out, wire.SendResult{Gen: c.gen, RPCID: c.name + "-r" + strconv.Itoa(c.rpcN), EventID: ev,
		Outcome: wire.Outcome{Kind: wire.OutcomeResult, Value: json.RawMessage(`"` + c.name + `"`)}})
	delete(c.due, ev)
	for i, o := range c.order {
		if o == ev {
			c.order = append(c.order[:i], c.order[i+1:]...)
			break
		}
	}
}

func (c *fakeClient) Apply(at wire.Time, in wire.ClientInput) ([]wire.ClientEffect, error) {
	now := at.Ms()
	c.out = c.out[:0]
	for _, ev := range append([]string(nil), c.order...) {
		if at := c.due[ev]; at >= 0 && at <= now {
			c.result(ev)
		}
	}
	switch in := in.(type) {
	case wire.ClientTick:
	case wire.FromHost:
		c.frames = append(c.frames, in.Frame.String())
		switch f := in.Frame.(type) {
		case wire.Ready:
			c.gen, c.connected = f.Gen, true
		case wire.Waterfall:
			at := int64(-1)
			if c.answerAfter >= 0 {
				at = now + c.answerAfter
			}
			c.due[f.EventID] = at
			c.order = append(c.order, f.EventID)
			if c.streams {
				c.out = append(c.out, wire.OpenStream{Gen: c.gen, StreamID: "s-" + f.EventID, Endpoint: wire.EndpointAttachWait, Args: json.RawMessage(`{}`)})
			}
			if at >= 0 && at <= now {
				c.result(f.EventID)
			}
		case wire.Cancel:
			delete(c.due, f.EventID)
			for i, o := range c.order {
				if o == f.EventID {
					c.order = append(c.order[:i], c.order[i+1:]...)
					break
				}
			}
		}
	case wire.FromHTTP:
		c.replies = append(c.replies, in.RPCID+" "+in.Envelope.String())
		if !in.Envelope.OK {
			if c.streams && c.connected {
				for _, ev := range c.order {
					c.out = append(c.out, wire.CancelStream{Gen: c.gen, StreamID: "s-" + ev})
				}
			}
			c.connected = false
			clear(c.due)
			c.order = c.order[:0]
			c.out = append(c.out, wire.Dial{})
		}
	case wire.LinkDown:
		c.connected = false
		clear(c.due)
		c.order = c.order[:0]
		c.out = append(c.out, wire.Dial{})
	case wire.Reload:
		c.connected, c.gen, c.rpcN = false, 0, 0
		clear(c.due)
		c.order = c.order[:0]
		c.out = append(c.out, wire.Dial{})
	case wire.User:
		switch in.Action.Kind {
		case wire.ActSubmit:
			ev := in.Action.Card
			if ev == "" && len(c.order) > 0 {
				ev = c.order[0]
			}
			if _, ok := c.due[ev]; !ok {
				return nil, errors.New("no card to submit")
			}
			c.result(ev)
		case wire.ActType:
			c.drafts++
		case wire.ActReopen:
			c.rpcN++
			c.out = append(c.out, wire.SendCall{Gen: c.gen, RPCID: c.name + "-r" + strconv.Itoa(c.rpcN), Endpoint: wire.EndpointAnswer, Args: json.RawMessage(`{"agentId":"` + in.Action.Session + `"}`)})
		default:
			return nil, errors.New("fake client: unsupported action " + in.Action.Kind)
		}
	}
	return c.out, nil
}

func (c *fakeClient) NextDeadline() (wire.Time, bool) {
	var at int64
	ok := false
	for _, ev := range c.order {
		if d := c.due[ev]; d >= 0 && (!ok || d < at) {
			at, ok = d, true
		}
	}
	return wire.Time(at), ok
}

func (c *fakeClient) StateAt(wire.Time) wire.ClientState { return c.State() }

func (c *fakeClient) State() wire.ClientState {
	st := wire.ClientState{Client: c.name, Gen: c.gen, Connected: c.connected}
	for _, ev := range c.order {
		st.Cards = append(st.Cards, wire.CardState{Key: ev, State: wire.StateOpen, WaitState: wire.WaitStateCounting, Channel: wire.ChannelWaterfall})
	}
	for i := 0; i < c.drafts; i++ {
		st.Drafts = append(st.Drafts, wire.DraftState{Key: "d" + strconv.Itoa(i), JSON: "{}"})
	}
	return st
}

// fakePorts builds a fake host and clients for the named clients.
func fakePorts(window int64, answerAfter map[string]int64, names ...string) (*fakeHost, map[string]wire.ClientPort, map[string]*fakeClient) {
	h := newFakeHost(window)
	ports := map[string]wire.ClientPort{}
	fcs := map[string]*fakeClient{}
	for _, n := range names {
		a, ok := answerAfter[n]
		if !ok {
			a = -1
		}
		c := newFakeClient(n, a)
		ports[n] = c
		fcs[n] = c
	}
	return h, ports, fcs
}
