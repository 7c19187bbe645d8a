package judge

import (
	"sort"
	"strconv"
	"strings"

	"github.com/twosettle/twosettle/engine/session"
	"github.com/twosettle/twosettle/engine/wire"
	"github.com/twosettle/twosettle/trace"
)

// Item is one observable thing on one stream: what was seen, and when (virtual ms).
type Item struct {
	T    int64
	Text string
	// Kind says what the item is (a frame kind, an event type, "reply", "state", …): the
	// requirement ids a difference in it judges are the kind's (Requirements).
	Kind string
	// Record is the trace record the item was read from (-1: the final state).
	Record int
}

// Observation is a run's observable behaviour: named streams, each in causal order.
type Observation struct {
	Streams map[string][]Item
}

// Options say what of a run is observable for one comparison.
type Options struct {
	// Runtime compares the reference runtime's own bookkeeping too (the host declares
	// the reference-runtime feature): every Session event and every Session-update
	// frame, event seqs, turn and step numbers and phases.
	Runtime bool
}

// Names returns the stream names, sorted.
func (o Observation) Names() []string {
	names := make([]string, 0, len(o.Streams))
	for n := range o.Streams {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// Text renders the observation, stream by stream, one item a line: what conform -v shows
// as the run "as compared".
func (o Observation) Text() string {
	var b strings.Builder
	for _, n := range o.Names() {
		b.WriteString("== ")
		b.WriteString(n)
		b.WriteByte('\n')
		for _, it := range o.Streams[n] {
			b.WriteString(it.line())
			b.WriteByte('\n')
		}
	}
	return b.String()
}

func (it Item) line() string {
	if it.Record < 0 {
		return "end " + it.Text
	}
	return "t=" + strconv.FormatInt(it.T, 10) + " " + it.Text
}

// Stream names.
const (
	streamRefused = "refused"
	streamState   = "state"
)

func framesTo(client string) string  { return "frames to " + client }
func repliesTo(client string) string { return "replies to " + client }
func sessionLog(s string) string     { return "session " + s }
func directTo(id string) string      { return "direct " + id }
func clientDoes(c string) string     { return "client " + c }

// observer folds records into an Observation.
type observer struct {
	opts Options
	obs  Observation
	ids  *Names
	// last is what the last Session-update frame to (client, Session) showed, so an
	// update that shows nothing new is not observed.
	last map[[2]string]string
}

// Observe reads tr into its observable behaviour (see the package doc).
func Observe(tr *trace.Trace, opts Options) Observation {
	o := &observer{opts: opts, obs: Observation{Streams: map[string][]Item{}}, ids: NewNames(), last: map[[2]string]string{}}
	for i := range tr.Records {
		o.record(&tr.Records[i])
	}
	o.state("final", -1, tr.Final.Time, tr.Final.Host, tr.Final.Clients)
	return o.obs
}

func (o *observer) add(stream string, it Item) {
	o.obs.Streams[stream] = append(o.obs.Streams[stream], it)
}

func (o *observer) record(r *trace.Record) {
	switch {
	case r.Actor == trace.ActorHost:
		switch r.Kind {
		case trace.Out:
			o.effect(r)
		case trace.Reject:
			if rj, ok := r.Payload.(trace.Rejected); ok && rj.Input != nil {
				o.add(streamRefused, Item{T: r.Time, Text: "refused " + o.ids.command(rj.Input), Kind: "refused", Record: r.Seq})
			}
		}
	case r.Kind == trace.Probe:
		if snap, ok := r.Payload.(trace.Snapshot); ok {
			o.state(snap.Label, r.Seq, r.Time, snap.Host, snap.Clients)
		}
	case trace.IsClient(r.Actor):
		switch r.Kind {
		case trace.Out:
			o.add(clientDoes(r.Actor), Item{T: r.Time, Text: o.ids.text(r.Payload), Kind: "client", Record: r.Seq})
		case trace.Reject:
			if rj, ok := r.Payload.(trace.Rejected); ok && rj.Input != nil {
				o.add(clientDoes(r.Actor), Item{T: r.Time, Text: "refused " + o.ids.text(rj.Input), Kind: "client", Record: r.Seq})
			}
		}
	}
}

func (o *observer) effect(r *trace.Record) {
	switch e := r.Payload.(type) {
	case wire.SendFrame:
		text, kind, ok := o.frame(e)
		if ok {
			o.add(framesTo(e.Client), Item{T: r.Time, Text: "gen=" + strconv.Itoa(e.Gen) + " " + text, Kind: kind, Record: r.Seq})
		}
	case wire.Reply:
		o.add(repliesTo(e.Client), Item{T: r.Time, Text: "gen=" + strconv.Itoa(e.Gen) + " rpc=" + e.RPCID + " " + o.ids.json(e.Envelope.String()), Kind: "reply", Record: r.Seq})
	case wire.Appended:
		if text, ok := o.event(e.Event); ok {
			o.add(sessionLog(e.Session), Item{T: e.Event.Time, Text: text, Kind: e.Event.Type(), Record: r.Seq})
		}
	case wire.DirectResult:
		o.add(directTo(e.ID), Item{T: r.Time, Text: o.ids.json(e.String()), Kind: "direct", Record: r.Seq})
	case wire.Persisted, wire.WaitNote:
		// durability and the wait machinery: the oracle's, not the comparison's
	}
}

// frame renders a frame as a client sees it; ok false for a Session update that shows
// nothing new (the runtime's bookkeeping alone changed).
func (o *observer) frame(e wire.SendFrame) (text, kind string, ok bool) {
	switch f := e.Frame.(type) {
	case wire.Waterfall:
		return "waterfall ev=" + o.ids.event(f.EventID) + " " + f.Event + " agent=" + f.AgentID + " " + o.ids.json(string(f.Request)), "waterfall", true
	case wire.Cancel:
		return "cancel ev=" + o.ids.event(f.EventID), "cancel", true
	case wire.Ready:
		return f.String(), "ready", true
	case wire.StreamItem:
		return "item stream=" + f.StreamID + " " + o.ids.json(string(f.Value)), "stream", true
	case wire.StreamEnd:
		return f.String(), "stream", true
	case wire.StreamError:
		return f.String(), "stream", true
	case wire.SessionUpdate:
		var b strings.Builder
		b.WriteString("session ")
		b.WriteString(f.Session)
		if f.Reset {
			b.WriteString(" reset")
		}
		shown := " questions{" + string(wire.AppendQuestionsViewJSON(nil, f.Questions)) + "} inbox{" + o.ids.inbox(f.Inbox) + "}"
		var evs []string
		for _, ev := range f.Events {
			if t, ok := o.event(ev); ok {
				evs = append(evs, t)
			}
		}
		key := [2]string{e.Client, f.Session}
		last, ok := o.last[key]
		if !ok { // before any update, a client has seen the empty view
			last = " questions{" + string(wire.AppendQuestionsViewJSON(nil, wire.QuestionsView{})) + "} inbox{" + o.ids.inbox(wire.InboxView{}) + "}"
		}
		if !f.Reset && len(evs) == 0 && last == shown && !o.opts.Runtime {
			return "", "", false
		}
		o.last[key] = shown
		if o.opts.Runtime && len(f.Events) > 0 {
			b.WriteString(" events=" + strconv.Itoa(f.Events[0].Seq) + ".." + strconv.Itoa(f.Events[len(f.Events)-1].Seq))
		}
		b.WriteString(" [")
		b.WriteString(strings.Join(evs, " ; "))
		b.WriteString("]")
		b.WriteString(shown)
		return b.String(), "session-update", true
	}
	return o.ids.text(e.Frame), "frame", true
}

// event renders a Session event as the decision sees it: ok false for the runtime's own
// bookkeeping. Seqs, turns and steps are the runtime's and are left out (unless Runtime).
func (o *observer) event(ev session.Event) (string, bool) {
	if o.opts.Runtime {
		return o.ids.eventText(ev), true
	}
	switch d := ev.Data.(type) {
	case session.RequestHeader:
		return "request/header reason=" + d.Reason + " tools=" + d.Tools, true
	case session.ToolCall:
		return "tool/call call=" + d.CallID + " name=" + d.Name + " args=" + d.Arguments, true
	case session.ToolResult:
		d.Turn, d.Step = 0, 0
		return strings.Replace(d.String(), " turn=0 step=0", "", 1), true
	case session.UserMessage:
		m := d.Message
		m.ID = o.ids.message(m.ID)
		return "user/message " + m.String(), true
	case session.PTCDispatchStart:
		return d.String(), true
	case session.PTCDispatch:
		return d.String(), true
	}
	return "", false
}

// state observes a probe or the final state: each Session's projection and inbox, and
// each client's cards, drafts, tool rows and reply nodes (not its conversation layout,
// which folds the runtime's turns).
func (o *observer) state(label string, rec int, t int64, h wire.HostState, clients []wire.ClientState) {
	var b strings.Builder
	b.WriteString(label)
	b.WriteString(":")
	for _, s := range h.Sessions {
		b.WriteString(" ")
		b.WriteString(s.ID)
		b.WriteString("{questions{")
		b.Write(wire.AppendQuestionsViewJSON(nil, s.Questions))
		b.WriteString("} inbox{")
		b.WriteString(o.ids.inbox(s.Inbox))
		b.WriteString("}")
		if o.opts.Runtime {
			b.WriteString(" log=" + strconv.Itoa(len(s.Log)) + " persisted=" + strconv.Itoa(s.Persisted) + " " + s.Phase)
		}
		b.WriteString("}")
	}
	o.add(streamState, Item{T: t, Text: b.String(), Kind: "state", Record: rec})
	for _, c := range clients {
		var cb strings.Builder
		cb.WriteString(label + ": gen=" + strconv.Itoa(c.Gen))
		if c.Connected {
			cb.WriteString(" up")
		}
		for _, x := range c.Cards {
			cb.WriteString(" [" + x.String() + "]")
		}
		for _, x := range c.Drafts {
			cb.WriteString(" [" + x.String() + "]")
		}
		for _, x := range c.Rows {
			cb.WriteString(" [" + x.String() + "]")
		}
		for _, x := range c.Nodes {
			cb.WriteString(" [node " + x.Session + " call=" + x.CallID + " msg=" + o.ids.message(x.MessageID) + " t=" + strconv.FormatInt(x.Time, 10) + " outcome=" + x.Outcome)
			if len(x.Lines) == 0 {
				cb.WriteString(" raw=" + wire.JSONString(x.Text))
			}
			for _, l := range x.Lines {
				cb.WriteString(" | " + wire.TextPart(l))
			}
			cb.WriteString("]")
		}
		o.add(streamState+" of client "+c.Client, Item{T: t, Text: cb.String(), Kind: "client-state", Record: rec})
	}
}
