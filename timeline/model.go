package timeline

import (
	"encoding/json"
	"sort"
	"strconv"
	"strings"

	"github.com/twosettle/twosettle/engine/session"
	"github.com/twosettle/twosettle/engine/wire"
	"github.com/twosettle/twosettle/trace"
)

// Call states, as the bars show them.
const (
	stateOpen      = "open"
	stateContinued = "continued"
	stateSettled   = "settled"
	stateRemoved   = "removed"
	stateEnded     = "ended" // a call no view tracks whose tool result was an error
)

// toolAsk is the question tool's name (the wire vocabulary's, not an engine import).
const toolAsk = "ask_user_question"

// model is what the picture shows, derived from the records and the final state only.
type model struct {
	end    int64 // the last instant drawn
	lanes  []lane
	marks  []mark
	calls  []*call
	faults []fault
	// msgs are the messages between lanes (arrows), countdowns the clients' local
	// countdowns, rel each record's relation keys (what a click lists as caused by it).
	msgs       []message
	countdowns []*countdown
	rel        [][]string
	// times is every instant the axis must show (sorted, unique), for the gap breaks.
	times []int64
}

type lane struct {
	actor string
	rows  int // stacked mark rows in use
}

type mark struct {
	rec  int // index in the records
	lane int
	row  int
	t    int64
}

// phase is one state of a call from an instant on; rec is the record that showed it.
type phase struct {
	state string
	from  int64
	rec   int
}

// point is one instant on a call's bar: a deadline, a timer, an answer, an expiry.
type point struct {
	kind string // deadline, timer, answer, expired, closed
	t    int64
	rec  int
	text string
}

// claim is one client's claim on a call's wait: its attachWait stream, from the host's
// stream-open to the end of that stream (host end/error, cancel, disconnect, restart).
type claim struct {
	client   string
	from, to int64
	fromRec  int
	toRec    int // -1: still open at the end of the run
}

type call struct {
	session, id string
	questions   []string
	first       int64
	firstRec    int
	inView      bool // some published view of its Session tracked it
	phases      []phase
	points      []point
	claims      []claim
}

func (c *call) key() string { return c.session + "/" + c.id }

func (c *call) state() string {
	if len(c.phases) == 0 {
		return ""
	}
	return c.phases[len(c.phases)-1].state
}

func (c *call) set(state string, t int64, rec int) {
	if c.state() == state {
		return
	}
	if n := len(c.phases); n > 0 && c.phases[n-1].from == t && c.phases[n-1].rec == rec {
		c.phases[n-1].state = state // one record, one state
		return
	}
	c.phases = append(c.phases, phase{state, t, rec})
}

type fault struct {
	t     int64
	rec   int
	label string
	armed bool
}

// stream is an open attachWait claim stream, by client, generation and stream id.
type streamKey struct {
	client string
	gen    int
	id     string
}

type builder struct {
	m       *model
	recs    []trace.Record
	calls   map[string]*call // by session/call
	lanes   map[string]int
	streams map[streamKey]*openClaim
	open    []streamKey         // the open streams in opening order (deterministic ends)
	events  map[string]string   // waterfall event id -> session/call
	directs map[string]*call    // direct ask id -> its call
	views   map[string][]string // session -> call ids its last view held
	inView  map[string]bool     // session/call seen in some view (pass one)
	times   map[int64]bool
	// cdStreams maps a client's attachWait stream (CLIENT|STREAM) to its call.
	cdStreams map[string]*call
	skew      map[string]int64 // each client's last clock reading minus the host's
	// focusFirst is a client's focus before any countdown started (its card, "" for the
	// seat): it pauses the countdown that starts next (CD-3)
	focusFirst map[string]string
}

type openClaim struct {
	call *call
	idx  int // index in call.claims
}

func build(tr *trace.Trace) *model {
	b := &builder{m: &model{}, recs: tr.Records, calls: map[string]*call{}, lanes: map[string]int{},
		streams: map[streamKey]*openClaim{}, events: map[string]string{}, directs: map[string]*call{}, views: map[string][]string{},
		inView: map[string]bool{}, times: map[int64]bool{0: true}, cdStreams: map[string]*call{}, skew: map[string]int64{}, focusFirst: map[string]string{}}
	b.lanesFor(tr)
	b.scanViews(tr)
	for i := range tr.Records {
		b.record(i, tr.Records[i])
	}
	end := tr.Final.Time
	for _, r := range tr.Records {
		end = max(end, r.Time)
	}
	b.m.end = end
	b.times[end] = true
	// the final state is the last view of every Session
	for _, s := range tr.Final.Host.Sessions {
		b.view(len(tr.Records), end, s.ID, s.Questions)
	}
	for _, k := range b.open {
		if oc := b.streams[k]; oc != nil {
			oc.call.claims[oc.idx].to = end
		}
	}
	for _, cd := range b.m.countdowns {
		if s := cd.cur(); s != nil {
			s.to = end
		}
		for _, s := range cd.segs {
			if s.state == cdRunning {
				b.times[min(s.due, end)] = true
			}
		}
	}
	b.m.msgs = messages(tr.Records)
	b.m.rel = relations(tr.Records, b)
	for _, c := range b.m.calls {
		for _, p := range c.points {
			b.times[p.t] = true
		}
	}
	for t := range b.times {
		b.m.times = append(b.m.times, t)
	}
	sort.Slice(b.m.times, func(i, j int) bool { return b.m.times[i] < b.m.times[j] })
	return b.m
}

// lanesFor orders the lanes: the host, the clients (the final state's order, then any
// other client actor as it appears), the model, the network, the simulator.
func (b *builder) lanesFor(tr *trace.Trace) {
	add := func(a string) {
		if _, ok := b.lanes[a]; !ok {
			b.lanes[a] = len(b.m.lanes)
			b.m.lanes = append(b.m.lanes, lane{actor: a})
		}
	}
	seen := map[string]bool{}
	for _, r := range tr.Records {
		seen[r.Actor] = true
	}
	if seen[trace.ActorHost] || len(tr.Final.Host.Sessions) > 0 {
		add(trace.ActorHost)
	}
	for _, c := range tr.Final.Clients {
		add(c.Client)
	}
	for _, r := range tr.Records {
		if trace.IsClient(r.Actor) {
			add(r.Actor)
		}
	}
	for _, a := range []string{trace.ActorModel, trace.ActorNet, trace.ActorSim, trace.ActorUser} {
		if seen[a] {
			add(a)
		}
	}
}

// scanViews is pass one: which calls some published view tracks (a failed tool result
// of such a call is left to the views; of another call, it ends the bar).
func (b *builder) scanViews(tr *trace.Trace) {
	mark := func(s string, v wire.QuestionsView) {
		for _, r := range v.Active {
			b.inView[s+"/"+r.CallID] = true
		}
		for _, r := range v.Settled {
			b.inView[s+"/"+r.CallID] = true
		}
	}
	for _, r := range tr.Records {
		switch p := r.Payload.(type) {
		case wire.SendFrame:
			if u, ok := p.Frame.(wire.SessionUpdate); ok && r.Actor == trace.ActorHost {
				mark(u.Session, u.Questions)
			}
		case trace.Snapshot:
			for _, s := range p.Host.Sessions {
				mark(s.ID, s.Questions)
			}
		}
	}
	for _, s := range tr.Final.Host.Sessions {
		mark(s.ID, s.Questions)
	}
}

func (b *builder) call(session, id string, t int64, rec int) *call {
	k := session + "/" + id
	c := b.calls[k]
	if c == nil {
		c = &call{session: session, id: id, first: t, firstRec: rec, inView: b.inView[k]}
		b.calls[k] = c
		b.m.calls = append(b.m.calls, c)
	}
	return c
}

func (b *builder) known(session, id string) *call { return b.calls[session+"/"+id] }

func (b *builder) record(i int, r trace.Record) {
	b.times[r.Time] = true
	if li, ok := b.lanes[r.Actor]; ok {
		b.m.marks = append(b.m.marks, mark{rec: i, lane: li, t: r.Time})
	}
	switch p := r.Payload.(type) {
	case trace.Injected:
		b.m.faults = append(b.m.faults, fault{t: r.Time, rec: i, label: faultLabel(p), armed: p.Armed})
	case trace.Snapshot:
		for _, s := range p.Host.Sessions {
			b.view(i, r.Time, s.ID, s.Questions)
		}
		b.probeCountdowns(i, r, p.Clients)
	}
	if trace.IsClient(r.Actor) {
		b.clientRecord(i, r)
	}
	if r.Actor != trace.ActorHost {
		return
	}
	switch p := r.Payload.(type) {
	case wire.Restart:
		if !b.crashAt(i, r.Time) {
			b.m.faults = append(b.m.faults, fault{t: r.Time, rec: i, label: "restart"})
		}
		b.endStreams(i, r.Time, func(streamKey) bool { return true })
	case wire.Connect:
		b.endStreams(i, r.Time, func(k streamKey) bool { return k.client == p.Client })
	case wire.Disconnect:
		b.endStreams(i, r.Time, func(k streamKey) bool { return k.client == p.Client })
	case wire.StreamOpen:
		if p.Endpoint != wire.EndpointAttachWait {
			return
		}
		agent, callID := agentCall(p.Args)
		if callID == "" {
			return
		}
		c := b.call(agent, callID, r.Time, i)
		k := streamKey{p.Client, p.Gen, p.StreamID}
		c.claims = append(c.claims, claim{client: p.Client, from: r.Time, fromRec: i, toRec: -1})
		b.streams[k] = &openClaim{c, len(c.claims) - 1}
		b.open = append(b.open, k)
	case wire.StreamCancel:
		k := streamKey{p.Client, p.Gen, p.StreamID}
		b.endStreams(i, r.Time, func(x streamKey) bool { return x == k })
	case wire.SendFrame:
		switch f := p.Frame.(type) {
		case wire.StreamEnd:
			k := streamKey{p.Client, p.Gen, f.StreamID}
			b.endStreams(i, r.Time, func(x streamKey) bool { return x == k })
		case wire.StreamError:
			k := streamKey{p.Client, p.Gen, f.StreamID}
			b.endStreams(i, r.Time, func(x streamKey) bool { return x == k })
		case wire.SessionUpdate:
			b.view(i, r.Time, f.Session, f.Questions)
		case wire.Waterfall:
			if f.Event != wire.EventQuestionsRequest {
				return
			}
			req, err := wire.ParseQuestionRequest(f.Request)
			if err != nil || req.Wait == nil || req.Wait.CallID == "" {
				return
			}
			c := b.call(f.AgentID, req.Wait.CallID, r.Time, i)
			b.events[f.EventID] = c.key()
			if len(c.questions) == 0 {
				c.questions = questionTexts(req.Questions)
			}
		}
	case wire.Call:
		if p.Endpoint == wire.EndpointAnswer {
			agent, callID := agentCall(p.Args)
			if c := b.known(agent, callID); c != nil {
				c.points = append(c.points, point{kind: "answer", t: r.Time, rec: i, text: "answer from " + p.Client})
			}
		}
	case wire.EventResult:
		if k, ok := b.events[p.EventID]; ok && p.Outcome.Kind == wire.OutcomeResult {
			c := b.calls[k]
			c.points = append(c.points, point{kind: "answer", t: r.Time, rec: i, text: "answer from " + p.Client})
		}
	case wire.Direct:
		b.direct(i, r, p)
	case wire.DirectResult:
		// a service ask's result ends its bar unless a view tracks the call
		c := b.directs[p.ID]
		switch {
		case c == nil || c.inView:
		case p.Err != nil:
			c.set(stateEnded, r.Time, i)
		case wire.IsPendingResult(string(p.Value)):
			c.set(stateContinued, r.Time, i)
		default:
			c.set(stateSettled, r.Time, i)
		}
	case wire.WaitNote:
		c := b.call(p.Session, p.CallID, r.Time, i)
		switch p.Kind {
		case wire.WaitCreated:
			c.points = append(c.points, point{kind: "deadline", t: p.Deadline, rec: i, text: "wait deadline"})
			if !c.inView && c.state() == "" {
				c.set(stateOpen, r.Time, i)
			}
		case wire.WaitArmed:
			if !hasPoint(c, "deadline", p.At) {
				c.points = append(c.points, point{kind: "timer", t: p.At, rec: i, text: "timer armed"})
			}
		case wire.WaitExpired:
			c.points = append(c.points, point{kind: "expired", t: r.Time, rec: i, text: "wait expired"})
		case wire.WaitClosed:
			c.points = append(c.points, point{kind: "closed", t: r.Time, rec: i, text: "wait closed (" + p.Reason + ")"})
		}
	case wire.Appended:
		b.appended(i, r.Time, p.Session, p.Event)
	}
}

func hasPoint(c *call, kind string, t int64) bool {
	for _, p := range c.points {
		if p.kind == kind && p.t == t {
			return true
		}
	}
	return false
}

// crashAt reports whether a crash fault was recorded at t just before record i.
func (b *builder) crashAt(i int, t int64) bool {
	for j := i - 1; j >= 0 && b.recs[j].Time == t; j-- {
		if f, ok := b.recs[j].Payload.(trace.Injected); ok && f.Kind == "crash" && !f.Armed {
			return true
		}
	}
	return false
}

func (b *builder) endStreams(i int, t int64, match func(streamKey) bool) {
	for _, k := range b.open {
		oc := b.streams[k]
		if oc == nil || !match(k) {
			continue
		}
		cl := &oc.call.claims[oc.idx]
		cl.to, cl.toRec = t, i
		delete(b.streams, k)
	}
}

func (b *builder) direct(i int, r trace.Record, p wire.Direct) {
	var body struct {
		Questions []wire.Question `json:"questions"`
		CallID    string          `json:"callId"`
		Wait      *wire.Wait      `json:"wait"`
	}
	if json.Unmarshal(p.Body, &body) != nil {
		return
	}
	switch p.Op {
	case wire.OpAsk, wire.OpAskTimed:
		id := body.CallID
		if body.Wait != nil && body.Wait.CallID != "" {
			id = body.Wait.CallID
		}
		if id == "" {
			return
		}
		c := b.call(p.Session, id, r.Time, i)
		b.directs[p.ID] = c
		if len(c.questions) == 0 {
			c.questions = questionTexts(body.Questions)
		}
		if !c.inView && c.state() == "" {
			c.set(stateOpen, r.Time, i)
		}
	case wire.OpAnswer:
		if c := b.known(p.Session, body.CallID); c != nil {
			c.points = append(c.points, point{kind: "answer", t: r.Time, rec: i, text: "answer from the service (" + p.ID + ")"})
		}
	}
}

// asked opens the call a tool call or a run_code sub-call of ask_user_question starts.
func (b *builder) asked(i int, t int64, s, name, callID, args string) {
	if name != toolAsk {
		return
	}
	c := b.call(s, callID, t, i)
	c.questions = argQuestions(args)
	if c.state() == "" {
		c.set(stateOpen, t, i)
	}
}

// appended reads the log events that name a question call: its tool call (or run_code
// sub-call), its tool result and an admitted late reply.
func (b *builder) appended(i int, t int64, s string, e session.Event) {
	switch d := e.Data.(type) {
	case session.ToolCall:
		b.asked(i, t, s, d.Name, d.CallID, d.Arguments)
	case session.PTCDispatchStart:
		b.asked(i, t, s, d.Name, d.SubCallID, d.Arguments)
	case session.ToolResult:
		c := b.known(s, d.CallID)
		if c == nil {
			return
		}
		switch {
		case wire.IsPendingResult(d.Text):
			c.set(stateContinued, t, i)
		case d.IsError && c.inView:
			// what the projection does with a failed call, its next view says
		case d.IsError:
			c.set(stateEnded, t, i)
		default:
			c.set(stateSettled, t, i)
		}
	case session.UserMessage:
		src := d.Message.Source
		if !src.IsQuestionReply() {
			return
		}
		if c := b.known(s, src.CallID); c != nil {
			c.set(stateSettled, t, i)
		}
	}
}

// view applies one published projection view of Session s: each tracked call takes the
// view's state, and a call the Session's previous view held that this one has neither
// active nor settled was removed.
func (b *builder) view(i int, t int64, s string, v wire.QuestionsView) {
	var now []string
	for _, r := range v.Active {
		c := b.call(s, r.CallID, t, i)
		if len(c.questions) == 0 {
			c.questions = questionTexts(r.Questions)
		}
		st := stateOpen
		if r.State == wire.StateContinued {
			st = stateContinued
		}
		c.set(st, t, i)
		now = append(now, r.CallID)
	}
	for _, r := range v.Settled {
		b.call(s, r.CallID, t, i).set(stateSettled, t, i)
		now = append(now, r.CallID)
	}
	for _, id := range b.views[s] {
		if !contains(now, id) {
			if c := b.known(s, id); c != nil && c.state() != stateSettled {
				c.set(stateRemoved, t, i)
			}
		}
	}
	b.views[s] = now
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

func agentCall(args json.RawMessage) (agent, callID string) {
	var a struct {
		AgentID string `json:"agentId"`
		CallID  string `json:"callId"`
	}
	if json.Unmarshal(args, &a) != nil {
		return "", ""
	}
	return a.AgentID, a.CallID
}

func argQuestions(raw string) []string {
	var a struct {
		Questions []wire.Question `json:"questions"`
	}
	if json.Unmarshal([]byte(raw), &a) != nil {
		return nil
	}
	return questionTexts(a.Questions)
}

func questionTexts(qs []wire.Question) []string {
	var out []string
	for _, q := range qs {
		out = append(out, q.Question)
	}
	return out
}

// faultLabel is the short label of a fault rule: its kind and target.
func faultLabel(f trace.Injected) string {
	s := f.Kind
	if f.Target != "" {
		s += " " + f.Target
	}
	if f.Point != "" {
		s += " @" + f.Point
	}
	if f.Armed {
		s = "arm " + s
	}
	return s
}

// verdict is the oracle's verdict as its canonical text gives it.
type verdict struct {
	status     string // ok, violation, unknown, "" (none ran)
	reason     string
	violations []violation
}

type violation struct {
	invariant string
	rec       int // record Seq; -1 for the final state
	message   string
	witness   []int
	lines     []string
}

// parseVerdict reads oracle.Verdict's canonical text (the transcript's last lines):
//
//	oracle: violation
//	  INV-GW-CANCEL at 0042: message
//	    0031 t=… witness line
func parseVerdict(text string) verdict {
	var v verdict
	lines := strings.Split(strings.TrimRight(text, "\n"), "\n")
	if len(lines) == 0 || !strings.HasPrefix(lines[0], "oracle: ") {
		return v
	}
	head := strings.TrimPrefix(lines[0], "oracle: ")
	v.status, v.reason, _ = strings.Cut(head, ": ")
	for _, l := range lines[1:] {
		switch {
		case strings.HasPrefix(l, "    ") && len(v.violations) > 0:
			w := &v.violations[len(v.violations)-1]
			line := strings.TrimPrefix(l, "    ")
			w.lines = append(w.lines, line)
			if n, err := strconv.Atoi(strings.SplitN(line, " ", 2)[0]); err == nil {
				w.witness = append(w.witness, n)
			}
		case strings.HasPrefix(l, "  "):
			inv, rest, _ := strings.Cut(strings.TrimPrefix(l, "  "), " at ")
			at, msg, _ := strings.Cut(rest, ": ")
			x := violation{invariant: inv, message: msg, rec: -1}
			if n, err := strconv.Atoi(at); err == nil {
				x.rec = n
			}
			v.violations = append(v.violations, x)
		}
	}
	return v
}
