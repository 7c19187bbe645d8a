package tracemodel

import (
	"encoding/json"

	"github.com/twosettle/twosettle/engine/session"
	"github.com/twosettle/twosettle/engine/wire"
	"github.com/twosettle/twosettle/trace"
)

// ToolName is the question tool's name (the wire vocabulary's, not an engine import).
const ToolName = "ask_user_question"

// Run is the model of one trace. Every list is in record order.
type Run struct {
	Trace   *trace.Trace
	Records []trace.Record // Trace.Records
	// End is the last instant of the run: the final state's time or the last record's,
	// whichever is later.
	End int64
	// Facts has one entry per record: what it is about.
	Facts    []Fact
	Calls    []*Call
	Waits    []*Wait
	Streams  []*Stream       // claim streams, as the host saw them
	Client   []*ClientStream // claim streams, as their clients saw them
	Requests []*Request
	Directs  []*Direct
	RPCs     []*RPC
	Conns    []*Conn
	Faults   []Fault
	Restarts []Restart
	Probes   []int // the probe records (a Snapshot payload)

	msgs    []Message
	msgDone bool
	byEvent map[string]*Request
}

// Request is the waterfall request with event id (nil when the run has none).
func (r *Run) Request(id string) *Request {
	if r.byEvent == nil {
		r.byEvent = make(map[string]*Request, len(r.Requests))
		for _, q := range r.Requests {
			r.byEvent[q.EventID] = q
		}
	}
	return r.byEvent[id]
}

// Fact is what one record is about in the model: the entities it names (nil where it
// names none) and, for a tool result, a sub-call's dispatch result or a direct result,
// how that result came out.
type Fact struct {
	// Voided: a host effect a crash cut voided (the Apply's effects after the first k of
	// the next host input Restart{CutAfter: k}).
	Voided       bool
	Call         *Call
	Wait         *Wait
	Stream       *Stream
	ClientStream *ClientStream
	Request      *Request
	Direct       *Direct
	RPC          *RPC
	Conn         *Conn
	Result       Result // Kind 0: the record carries no result
}

// Messages pairs every message of the run (computed on first use).
func (r *Run) Messages() []Message {
	if !r.msgDone {
		r.msgs, r.msgDone = messages(r.Records), true
	}
	return r.msgs
}

// Fold builds the model of tr.
func Fold(tr *trace.Trace) *Run {
	var f Folder
	return f.Fold(tr)
}

// Folder folds traces one after another, reusing its memory (one per worker; not safe
// for concurrent use). A Run's Facts are valid until the Folder's next Fold; the rest of
// the Run is its own.
type Folder struct {
	calls    map[pair]*Call // by session, call id
	waits    map[pair]*Wait // the current wait of each call
	streams  map[streamKey]*Stream
	open     []*Stream              // open claim streams in opening order
	cstreams map[pair]*ClientStream // by client, stream id
	requests map[string]*Request
	directs  map[string]*Direct
	rpcs     map[pair]*RPC // by client, rpc id
	conns    map[string]*Conn
	views    map[string][]string // session -> call ids its last view held
	inView   map[pair]bool
	args     map[string]pair // agentCall's readings, by args text
	scratch  []string
	facts    []Fact
	run      *Run
}

// pair is a two-string key: (session, call id), (client, stream id), (client, rpc id).
type pair struct{ a, b string }

type streamKey struct {
	client string
	gen    int
	id     string
}

// Fold builds the model of tr.
func (f *Folder) Fold(tr *trace.Trace) *Run {
	if f.calls == nil {
		f.calls, f.waits, f.streams, f.cstreams = map[pair]*Call{}, map[pair]*Wait{}, map[streamKey]*Stream{}, map[pair]*ClientStream{}
		f.requests, f.directs, f.rpcs, f.conns = map[string]*Request{}, map[string]*Direct{}, map[pair]*RPC{}, map[string]*Conn{}
		f.views, f.inView, f.args = map[string][]string{}, map[pair]bool{}, map[string]pair{}
	}
	if len(f.args) > 4096 {
		clear(f.args)
	}
	clear(f.calls)
	clear(f.waits)
	clear(f.streams)
	clear(f.cstreams)
	clear(f.requests)
	clear(f.directs)
	clear(f.rpcs)
	clear(f.conns)
	for k, v := range f.views {
		f.views[k] = v[:0]
	}
	clear(f.inView)
	f.open = f.open[:0]
	if cap(f.facts) < len(tr.Records) {
		f.facts = make([]Fact, len(tr.Records))
	}
	f.facts = f.facts[:len(tr.Records)]
	clear(f.facts)
	run := &Run{Trace: tr, Records: tr.Records, Facts: f.facts}
	f.run = run
	f.scanViews(tr)
	f.voids()
	end := tr.Final.Time
	for i := range tr.Records {
		end = max(end, tr.Records[i].Time)
	}
	run.End = end
	for i := range tr.Records {
		f.record(i, &tr.Records[i])
	}
	// the final state is the last view of every Session
	for _, s := range tr.Final.Host.Sessions {
		f.view(len(tr.Records), end, s.ID, s.Questions)
	}
	for _, s := range f.open {
		if s.End < 0 {
			s.EndAt = end
		}
	}
	f.run = nil
	return run
}

// scanViews is pass one: which calls some published view tracks.
func (f *Folder) scanViews(tr *trace.Trace) {
	mark := func(s string, v wire.QuestionsView) {
		for _, r := range v.Active {
			f.inView[pair{s, r.CallID}] = true
		}
		for _, r := range v.Settled {
			f.inView[pair{s, r.CallID}] = true
		}
	}
	for i := range tr.Records {
		r := &tr.Records[i]
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

// voids marks the host effects a crash cut voided: those of an Apply beyond k when the
// next host input is Restart{CutAfter: k}.
func (f *Folder) voids() {
	recs := f.run.Records
	for i := range recs {
		r := &recs[i]
		if r.Actor != trace.ActorHost || r.Kind != trace.In {
			continue
		}
		rs, ok := r.Payload.(wire.Restart)
		if !ok || rs.CutAfter < 0 {
			continue
		}
		// the Apply it cuts: the host's previous input (In or Reject) and its effects
		start := -1
		for j := i - 1; j >= 0; j-- {
			if recs[j].Actor == trace.ActorHost && (recs[j].Kind == trace.In || recs[j].Kind == trace.Reject) {
				start = j
				break
			}
		}
		if start < 0 || recs[start].Kind != trace.In {
			continue
		}
		n := 0
		for j := start + 1; j < i; j++ {
			if recs[j].Actor == trace.ActorHost && recs[j].Kind == trace.Out {
				n++
				if n > rs.CutAfter {
					f.run.Facts[j].Voided = true
				}
			}
		}
	}
}

func (f *Folder) call(s, id string, t int64, rec int) *Call {
	k := pair{s, id}
	c := f.calls[k]
	if c == nil {
		c = &Call{Session: s, ID: id, At: t, Rec: rec, InView: f.inView[k]}
		f.calls[k] = c
		f.run.Calls = append(f.run.Calls, c)
	}
	return c
}

func (f *Folder) known(s, id string) *Call { return f.calls[pair{s, id}] }

func (f *Folder) request(id string) *Request {
	q := f.requests[id]
	if q == nil {
		q = &Request{EventID: id}
		f.requests[id] = q
		f.run.Requests = append(f.run.Requests, q)
	}
	return q
}

func (f *Folder) record(i int, r *trace.Record) {
	fact := &f.run.Facts[i]
	switch p := r.Payload.(type) {
	case trace.Injected:
		f.run.Faults = append(f.run.Faults, Fault{Rec: i, Injected: p})
		if p.Kind == "client-crash" && !p.Armed {
			f.endClientStreams(i, p.Target) // the client is gone
		}
	case trace.Snapshot:
		f.run.Probes = append(f.run.Probes, i)
		for _, s := range p.Host.Sessions {
			f.view(i, r.Time, s.ID, s.Questions)
		}
	}
	if trace.IsClient(r.Actor) {
		f.clientRecord(i, r, fact)
		return
	}
	if r.Actor != trace.ActorHost {
		return
	}
	if client, gen, ok := generation(r.Payload); ok {
		if c := f.conns[client]; c != nil && c.End < 0 && c.Gen == 0 {
			c.Gen = gen
		}
	}
	switch p := r.Payload.(type) {
	case wire.Restart:
		f.run.Restarts = append(f.run.Restarts, Restart{Rec: i, Crash: f.crashAt(i, r.Time), CutAfter: p.CutAfter})
		f.endStreams(i, r.Time, Restarted, func(*Stream) bool { return true })
		for _, c := range f.conns {
			if c.End < 0 {
				c.End = i
			}
		}
		clear(f.waits)
	case wire.Connect:
		f.endStreams(i, r.Time, Disconnected, func(s *Stream) bool { return s.Client == p.Client })
		if c := f.conns[p.Client]; c != nil && c.End < 0 {
			c.End = i
		}
		c := &Conn{Client: p.Client, Rec: i, End: -1}
		f.conns[p.Client] = c
		f.run.Conns = append(f.run.Conns, c)
		fact.Conn = c
	case wire.Disconnect:
		f.endStreams(i, r.Time, Disconnected, func(s *Stream) bool { return s.Client == p.Client })
		if c := f.conns[p.Client]; c != nil && c.End < 0 {
			c.End = i
			fact.Conn = c
		}
	case wire.StreamOpen:
		if p.Endpoint != wire.EndpointAttachWait {
			return
		}
		agent, callID := f.agentCall(p.Args)
		if callID == "" {
			return
		}
		c := f.call(agent, callID, r.Time, i)
		s := &Stream{Client: p.Client, Gen: p.Gen, ID: p.StreamID, Call: c, Open: i, OpenAt: r.Time, End: -1}
		c.Claims = append(c.Claims, s)
		f.streams[streamKey{p.Client, p.Gen, p.StreamID}] = s
		f.open = append(f.open, s)
		f.run.Streams = append(f.run.Streams, s)
		fact.Stream, fact.Call = s, c
	case wire.StreamCancel:
		fact.Stream = f.endStream(i, r.Time, streamKey{p.Client, p.Gen, p.StreamID}, CancelledBy)
	case wire.SendFrame:
		f.hostFrame(i, r, p, fact)
	case wire.Call:
		rpc := &RPC{Client: p.Client, RPCID: p.RPCID, Endpoint: p.Endpoint, Gen: p.Gen, Rec: i, Reply: -1}
		rpc.Agent, rpc.CallID = f.agentCall(p.Args)
		rpc.Call = f.known(rpc.Agent, rpc.CallID)
		f.rpcs[pair{p.Client, p.RPCID}] = rpc
		f.run.RPCs = append(f.run.RPCs, rpc)
		fact.RPC, fact.Call = rpc, rpc.Call
		if p.Endpoint == wire.EndpointAnswer && rpc.Call != nil {
			rpc.Call.Marks = append(rpc.Call.Marks, Mark{Kind: Answer, At: r.Time, Rec: i, Client: p.Client})
		}
	case wire.Reply:
		if rpc := f.rpcs[pair{p.Client, p.RPCID}]; rpc != nil {
			if rpc.Reply < 0 {
				rpc.Reply, rpc.Envelope = i, p.Envelope
			}
			fact.RPC, fact.Call = rpc, rpc.Call
		}
	case wire.EventResult:
		q := f.request(p.EventID)
		q.Outcomes = append(q.Outcomes, i)
		fact.Request, fact.Call = q, q.Call
		if q.Call != nil && p.Outcome.Kind == wire.OutcomeResult {
			q.Call.Marks = append(q.Call.Marks, Mark{Kind: Answer, At: r.Time, Rec: i, Client: p.Client})
		}
	case wire.Direct:
		f.direct(i, r, p, fact)
	case wire.DirectResult:
		d := f.directs[p.ID]
		res := Result{Kind: Answered}
		if p.Err != nil {
			res = Result{Kind: Failed, Code: p.Err.Code}
		} else if wire.IsPendingResult(string(p.Value)) {
			res = Result{Kind: Pending}
		}
		fact.Result = res
		if d == nil {
			return
		}
		fact.Direct = d
		if d.Result < 0 {
			d.Result, d.Err, d.Value = i, p.Err, p.Value
		}
		c := d.Call
		if c == nil || d.Cmd.Op == wire.OpAnswer {
			return
		}
		fact.Call = c
		c.Results = append(c.Results, res)
		// a service ask's result ends its call unless a view tracks it
		if c.InView {
			return
		}
		switch res.Kind {
		case Failed:
			c.set(Ended, r.Time, i)
		case Pending:
			c.set(Continued, r.Time, i)
		default:
			c.set(Settled, r.Time, i)
		}
	case wire.WaitNote:
		f.waitNote(i, r, p, fact)
	case wire.Appended:
		f.appended(i, r.Time, p.Session, p.Event, fact)
	}
}

// generation is the client and generation a host record names.
func generation(p trace.Payload) (client string, gen int, ok bool) {
	switch x := p.(type) {
	case wire.SendFrame:
		return x.Client, x.Gen, true
	case wire.Reply:
		return x.Client, x.Gen, true
	case wire.StreamOpen:
		return x.Client, x.Gen, true
	case wire.StreamCancel:
		return x.Client, x.Gen, true
	case wire.EventResult:
		return x.Client, x.Gen, true
	}
	return "", 0, false
}

// crashAt reports whether a crash fault was recorded at t just before record i.
func (f *Folder) crashAt(i int, t int64) bool {
	recs := f.run.Records
	for j := i - 1; j >= 0 && recs[j].Time == t; j-- {
		if x, ok := recs[j].Payload.(trace.Injected); ok && x.Kind == "crash" && !x.Armed {
			return true
		}
	}
	return false
}

func (f *Folder) endStreams(i int, t int64, why StreamEnd, match func(*Stream) bool) {
	for _, s := range f.open {
		if s.End >= 0 || !match(s) {
			continue
		}
		if f.streams[streamKey{s.Client, s.Gen, s.ID}] != s {
			continue
		}
		s.End, s.EndAt, s.Why = i, t, why
		delete(f.streams, streamKey{s.Client, s.Gen, s.ID})
	}
}

func (f *Folder) endStream(i int, t int64, k streamKey, why StreamEnd) *Stream {
	s := f.streams[k]
	if s == nil {
		return nil
	}
	f.endStreams(i, t, why, func(x *Stream) bool { return x == s })
	return s
}

func (f *Folder) hostFrame(i int, r *trace.Record, p wire.SendFrame, fact *Fact) {
	switch fr := p.Frame.(type) {
	case wire.StreamEnd:
		fact.Stream = f.endStream(i, r.Time, streamKey{p.Client, p.Gen, fr.StreamID}, EndFrame)
	case wire.StreamError:
		fact.Stream = f.endStream(i, r.Time, streamKey{p.Client, p.Gen, fr.StreamID}, ErrorFrame)
	case wire.StreamItem:
		fact.Stream = f.streams[streamKey{p.Client, p.Gen, fr.StreamID}]
	case wire.SessionUpdate:
		f.view(i, r.Time, fr.Session, fr.Questions)
	case wire.Cancel:
		fact.Request = f.requests[fr.EventID]
	case wire.Waterfall:
		q := f.request(fr.EventID)
		if q.Agent == "" {
			q.Agent = fr.AgentID
		}
		q.Deliveries = append(q.Deliveries, Delivery{Client: p.Client, Gen: p.Gen, Rec: i})
		fact.Request = q
		if fr.Event != wire.EventQuestionsRequest {
			return
		}
		q.readPayload(fr)
		if q.waitCall == "" {
			return
		}
		c := f.call(fr.AgentID, q.waitCall, r.Time, i)
		q.Call, fact.Call = c, c
		c.carries(q.questions)
	}
}

func (f *Folder) direct(i int, r *trace.Record, p wire.Direct, fact *Fact) {
	d := &Direct{Cmd: p, Rec: i, Result: -1}
	f.directs[p.ID] = d
	f.run.Directs = append(f.run.Directs, d)
	fact.Direct = d
	var body struct {
		Questions []wire.Question `json:"questions"`
		CallID    string          `json:"callId"`
		Wait      *wire.Wait      `json:"wait"`
	}
	if json.Unmarshal(p.Body, &body) != nil {
		return
	}
	d.CallID = body.CallID
	switch p.Op {
	case wire.OpAsk, wire.OpAskTimed:
		if body.Wait != nil && body.Wait.CallID != "" {
			d.CallID = body.Wait.CallID
		}
		if d.CallID == "" {
			return
		}
		c := f.call(p.Session, d.CallID, r.Time, i)
		if c.Kind == Unasked {
			c.Kind = Service
		}
		d.Call, fact.Call = c, c
		c.carries(body.Questions)
		if !c.InView && c.State() == 0 {
			c.set(Open, r.Time, i)
		}
	case wire.OpAnswer:
		if c := f.known(p.Session, body.CallID); c != nil {
			d.Call, fact.Call = c, c
			c.Marks = append(c.Marks, Mark{Kind: Answer, At: r.Time, Rec: i, Direct: p.ID})
		}
	}
}

func (f *Folder) waitNote(i int, r *trace.Record, p wire.WaitNote, fact *Fact) {
	c := f.call(p.Session, p.CallID, r.Time, i)
	k := pair{p.Session, p.CallID}
	w := f.waits[k]
	if w == nil || p.Kind == wire.WaitCreated {
		w = &Wait{Session: p.Session, CallID: p.CallID, Call: c, Rec: i}
		f.waits[k] = w
		f.run.Waits = append(f.run.Waits, w)
	}
	w.Notes = append(w.Notes, i)
	fact.Wait, fact.Call = w, c
	switch p.Kind {
	case wire.WaitCreated:
		w.Deadline = p.Deadline
		c.Marks = append(c.Marks, Mark{Kind: Deadline, At: p.Deadline, Rec: i})
		if !c.InView && c.State() == 0 {
			c.set(Open, r.Time, i)
		}
	case wire.WaitArmed:
		if !c.HasMark(Deadline, p.At) {
			c.Marks = append(c.Marks, Mark{Kind: Timer, At: p.At, Rec: i})
		}
	case wire.WaitExpired:
		c.Marks = append(c.Marks, Mark{Kind: Expired, At: r.Time, Rec: i})
	case wire.WaitClosed:
		c.Marks = append(c.Marks, Mark{Kind: Closed, At: r.Time, Rec: i, Reason: p.Reason})
	}
}

// asked opens the call a tool call or a run_code sub-call of ask_user_question starts.
func (f *Folder) asked(i int, t int64, s, name, callID, args string, kind CallKind, fact *Fact) {
	if name != ToolName {
		return
	}
	c := f.call(s, callID, t, i)
	c.Kind = kind
	c.asked(args)
	fact.Call = c
	if c.State() == 0 {
		c.set(Open, t, i)
	}
}

// appended reads the log events that name a question call: its tool call (or run_code
// sub-call), its tool result (or sub-call dispatch result) and an admitted late reply.
func (f *Folder) appended(i int, t int64, s string, e session.Event, fact *Fact) {
	switch d := e.Data.(type) {
	case session.ToolCall:
		f.asked(i, t, s, d.Name, d.CallID, d.Arguments, Tool, fact)
	case session.PTCDispatchStart:
		f.asked(i, t, s, d.Name, d.SubCallID, d.Arguments, SubCall, fact)
	case session.PTCDispatch:
		fact.Result = ReadResult(d.Text, d.IsError, d.Err.Code)
		if c := f.known(s, d.SubCallID); c != nil {
			fact.Call = c
			c.Results = append(c.Results, fact.Result)
		}
	case session.ToolResult:
		fact.Result = ReadResult(d.Text, d.IsError, d.Err.Code)
		c := f.known(s, d.CallID)
		if c == nil {
			return
		}
		fact.Call = c
		c.Results = append(c.Results, fact.Result)
		switch {
		case fact.Result.Kind == Pending:
			c.set(Continued, t, i)
		case fact.Result.Kind == Failed && c.InView:
			// what the projection does with a failed call, its next view says
		case fact.Result.Kind == Failed:
			c.set(Ended, t, i)
		default:
			c.set(Settled, t, i)
		}
	case session.UserMessage:
		src := d.Message.Source
		if !src.IsQuestionReply() {
			return
		}
		if c := f.known(s, src.CallID); c != nil {
			fact.Call = c
			c.set(Settled, t, i)
		}
	}
}

// view applies one published projection view of Session s: each tracked call takes the
// view's state, and a call the Session's previous view held that this one has neither
// active nor settled was removed.
func (f *Folder) view(i int, t int64, s string, v wire.QuestionsView) {
	now := f.scratch[:0]
	for _, r := range v.Active {
		c := f.call(s, r.CallID, t, i)
		c.carries(r.Questions)
		st := Open
		if r.State == wire.StateContinued {
			st = Continued
		}
		c.set(st, t, i)
		now = append(now, r.CallID)
	}
	for _, r := range v.Settled {
		f.call(s, r.CallID, t, i).set(Settled, t, i)
		now = append(now, r.CallID)
	}
	for _, id := range f.views[s] {
		if !contains(now, id) {
			if c := f.known(s, id); c != nil && c.State() != Settled {
				c.set(Removed, t, i)
			}
		}
	}
	f.scratch = now
	f.views[s] = append(f.views[s][:0], now...)
}

// clientRecord reads a client's records: its claim streams and its requests' results.
func (f *Folder) clientRecord(i int, r *trace.Record, fact *Fact) {
	switch r.Kind {
	case trace.Out:
		switch e := r.Payload.(type) {
		case wire.OpenStream:
			if e.Endpoint != wire.EndpointAttachWait {
				return
			}
			cs := &ClientStream{Client: r.Actor, ID: e.StreamID, Gen: e.Gen, Open: i, Frame: -1, End: -1}
			if agent, callID := f.agentCall(e.Args); callID != "" {
				cs.Call = f.call(agent, callID, r.Time, i)
			}
			f.cstreams[pair{r.Actor, e.StreamID}] = cs
			f.run.Client = append(f.run.Client, cs)
			fact.ClientStream, fact.Call = cs, cs.Call
		case wire.SendResult:
			q := f.request(e.EventID)
			fact.Request, fact.Call = q, q.Call
		case wire.SendCall:
			a, c := f.agentCall(e.Args)
			fact.Call = f.known(a, c)
		}
	case trace.In:
		switch e := r.Payload.(type) {
		case wire.FromHost:
			switch fr := e.Frame.(type) {
			case wire.StreamItem:
				if cs := f.cstreams[pair{r.Actor, fr.StreamID}]; cs != nil {
					fact.ClientStream, fact.Call = cs, cs.Call
					if cs.Frame < 0 && cs.End < 0 {
						cs.Frame = i
					}
				}
			case wire.StreamEnd:
				fact.ClientStream = f.endClientStream(i, r.Actor, fr.StreamID)
			case wire.StreamError:
				fact.ClientStream = f.endClientStream(i, r.Actor, fr.StreamID)
			case wire.Waterfall:
				q := f.request(fr.EventID)
				fact.Request, fact.Call = q, q.Call
				q.readPayload(fr) // a frame a raw input step delivers was sent by no host
			case wire.Cancel:
				if q := f.requests[fr.EventID]; q != nil {
					fact.Request, fact.Call = q, q.Call
				}
			}
		case wire.LinkDown, wire.Reload:
			f.endClientStreams(i, r.Actor)
		}
	}
}

// endClientStreams ends every open claim stream of client at record i.
func (f *Folder) endClientStreams(i int, client string) {
	for _, cs := range f.run.Client {
		if cs.Client == client && cs.End < 0 {
			cs.End = i
		}
	}
}

func (f *Folder) endClientStream(i int, client, id string) *ClientStream {
	cs := f.cstreams[pair{client, id}]
	if cs != nil && cs.End < 0 {
		cs.End = i
	}
	return cs
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// AgentCall reads agentId and callId from a question endpoint's args (attachWait,
// answer): "" for each that is missing or when the args are not a JSON object.
func AgentCall(args json.RawMessage) (agent, callID string) { return agentCall(args) }

// agentCall is AgentCall, remembered by args text (claims and answers repeat their args).
func (f *Folder) agentCall(args json.RawMessage) (agent, callID string) {
	if v, ok := f.args[string(args)]; ok {
		return v.a, v.b
	}
	agent, callID = agentCall(args)
	f.args[string(args)] = pair{agent, callID}
	return agent, callID
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
