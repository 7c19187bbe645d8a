package judge

import (
	"encoding/json"
	"io"
	"sort"
	"strconv"

	"github.com/twosettle/twosettle/engine/session"
	"github.com/twosettle/twosettle/engine/wire"
	"github.com/twosettle/twosettle/trace"
)

// Minted are the ids a run's host minted, each list in order of first appearance in
// its effects (as the simulator saw them).
type Minted struct {
	Events, Messages []string
}

// MintedIDs reads the ids the host of tr minted, in order of first appearance in its
// effects: the reference names a Port gives a host's own ids.
func MintedIDs(tr *trace.Trace) Minted {
	var m Minted
	seenE, seenM := map[string]bool{}, map[string]bool{}
	ev := func(id string) string {
		if id != "" && !seenE[id] {
			seenE[id] = true
			m.Events = append(m.Events, id)
		}
		return id
	}
	msg := func(id string) string {
		if id != "" && !seenM[id] {
			seenM[id] = true
			m.Messages = append(m.Messages, id)
		}
		return id
	}
	for i := range tr.Records {
		r := &tr.Records[i]
		if snap, ok := r.Payload.(trace.Snapshot); ok && r.Kind == trace.Probe {
			mapState(snap.Host, ev, msg)
			continue
		}
		if r.Actor != trace.ActorHost {
			continue
		}
		if a, ok := r.Payload.(wire.AppendEvent); ok && r.Kind == trace.In {
			mapEvent(a.Event, func(id string) string { seenM[id] = true; return id })
			continue
		}
		if r.Kind != trace.Out {
			continue
		}
		e, ok := r.Payload.(wire.Effect)
		if !ok {
			continue
		}
		mapEffect(e, ev, msg)
	}
	mapState(tr.Final.Host, ev, msg)
	return m
}

// Port wraps a host port so that two runs of one scenario are comparable (package doc):
// each Apply's effects reach the simulator in the canonical order (Canonical), and with
// a reference list the host's minted ids reach it under the reference's names, the k-th
// new event id the host mints named as the reference's k-th, and so for message ids;
// commands that name such an id (a client's $events/result, an inbox/discard call) are
// translated back to the host's id, and so is the state the host reports. An id the
// runner itself put in a command (an event appended by hand) keeps its name.
type Port struct {
	inner   wire.HostPort
	ref     *Minted
	ev, msg *idMap
	out     []wire.Effect
}

// idMap is one kind's host id → reference name, and back; minted counts the ids the
// host minted (not those the runner chose).
type idMap struct {
	to, from map[string]string
	minted   int
}

func newIDMap() *idMap { return &idMap{to: map[string]string{}, from: map[string]string{}} }

// NewPort wraps inner; ref nil keeps every id as the host wrote it (the reference side).
func NewPort(inner wire.HostPort, ref *Minted) *Port {
	return &Port{inner: inner, ref: ref, ev: newIDMap(), msg: newIDMap()}
}

// Inner is the wrapped port.
func (p *Port) Inner() wire.HostPort { return p.inner }

// Apply implements wire.HostPort.
func (p *Port) Apply(now wire.Time, cmd wire.Command) ([]wire.Effect, error) {
	if p.ref != nil {
		cmd = p.toHost(cmd)
	}
	effs, err := p.inner.Apply(now, cmd)
	p.out = append(p.out[:0], effs...)
	Canonical(p.out)
	if p.ref != nil {
		for i, e := range p.out {
			p.out[i] = mapEffect(e, p.eventName, p.messageName)
		}
	}
	return p.out, err
}

// NextDeadline implements wire.HostPort.
func (p *Port) NextDeadline() (wire.Time, bool) { return p.inner.NextDeadline() }

// State implements wire.HostState, with the host's ids under their reference names.
func (p *Port) State() wire.HostState {
	s := p.inner.State()
	if p.ref == nil {
		return s
	}
	return mapState(s, p.eventName, p.messageName)
}

// Lost reports a lost inner port (wire.Losable).
func (p *Port) Lost() *wire.PortLost {
	if l, ok := p.inner.(wire.Losable); ok {
		return l.Lost()
	}
	return nil
}

// Close closes the inner port when it is an io.Closer.
func (p *Port) Close() error {
	if c, ok := p.inner.(io.Closer); ok {
		return c.Close()
	}
	return nil
}

func (p *Port) eventName(id string) string   { return p.ev.name(id, p.ref.Events, "e") }
func (p *Port) messageName(id string) string { return p.msg.name(id, p.ref.Messages, "m") }

// name is the reference name of a host id, given on its first appearance: the next
// unused name of the reference's list, or a name no reference id has.
func (m *idMap) name(id string, ref []string, kind string) string {
	if id == "" {
		return id
	}
	if n, ok := m.to[id]; ok {
		return n
	}
	m.minted++
	n := "⟨host-" + kind + strconv.Itoa(m.minted) + "⟩"
	if k := m.minted - 1; k < len(ref) {
		n = ref[k]
	}
	for m.from[n] != "" { // a reference name already given (to an id the runner chose)
		n += "'"
	}
	m.to[id], m.from[n] = n, id
	return n
}

// keep records an id the runner chose: it is its own name on both sides.
func (m *idMap) keep(id string) {
	if id == "" {
		return
	}
	if _, ok := m.to[id]; !ok {
		if _, taken := m.from[id]; !taken {
			m.to[id], m.from[id] = id, id
		}
	}
}

// back is the host's id of a reference name (the name itself when it names none).
func (m *idMap) back(id string) string {
	if h, ok := m.from[id]; ok {
		return h
	}
	return id
}

// toHost translates the reference names a command carries back to the host's ids.
func (p *Port) toHost(cmd wire.Command) wire.Command {
	switch c := cmd.(type) {
	case wire.EventResult:
		c.EventID = p.ev.back(c.EventID)
		return c
	case wire.Call:
		if c.Endpoint == wire.EndpointDiscard {
			c.Args = renameMessageID(c.Args, p.msg.back)
		}
		return c
	case wire.AppendEvent:
		mapEvent(c.Event, func(id string) string { p.msg.keep(id); return id })
		return c
	}
	return cmd
}

// renameMessageID rewrites the messageId of an inbox/discard call's arguments.
func renameMessageID(args json.RawMessage, f func(string) string) json.RawMessage {
	var a map[string]json.RawMessage
	if json.Unmarshal(args, &a) != nil {
		return args
	}
	var id string
	if json.Unmarshal(a["messageId"], &id) != nil {
		return args
	}
	n := f(id)
	if n == id {
		return args
	}
	a["messageId"], _ = json.Marshal(n)
	out, err := json.Marshal(a)
	if err != nil {
		return args
	}
	return out
}

// mapEffect returns e with its minted ids replaced by ev (event ids) and msg (message
// ids), in the order they appear; slices are copied, never written in place.
func mapEffect(e wire.Effect, ev, msg func(string) string) wire.Effect {
	switch x := e.(type) {
	case wire.SendFrame:
		switch f := x.Frame.(type) {
		case wire.Waterfall:
			f.EventID = ev(f.EventID)
			x.Frame = f
		case wire.Cancel:
			f.EventID = ev(f.EventID)
			x.Frame = f
		case wire.SessionUpdate:
			if len(f.Events) > 0 {
				evs := make([]session.Event, len(f.Events))
				for i, e := range f.Events {
					evs[i] = mapEvent(e, msg)
				}
				f.Events = evs
			}
			f.Inbox = mapInbox(f.Inbox, msg)
			x.Frame = f
		}
		return x
	case wire.Appended:
		x.Event = mapEvent(x.Event, msg)
		return x
	}
	return e
}

func mapEvent(e session.Event, msg func(string) string) session.Event {
	switch d := e.Data.(type) {
	case session.UserMessage:
		d.Message.ID = msg(d.Message.ID)
		e.Data = d
	case session.InboxSpliced:
		if len(d.Inserted) > 0 {
			ins := make([]session.Message, len(d.Inserted))
			for i, m := range d.Inserted {
				m.ID = msg(m.ID)
				ins[i] = m
			}
			d.Inserted = ins
			e.Data = d
		}
	}
	return e
}

func mapInbox(v wire.InboxView, msg func(string) string) wire.InboxView {
	list := func(ms []session.Message) []session.Message {
		if ms == nil {
			return nil
		}
		out := make([]session.Message, len(ms))
		for i, m := range ms {
			m.ID = msg(m.ID)
			out[i] = m
		}
		return out
	}
	return wire.InboxView{NextTurn: list(v.NextTurn), NextStep: list(v.NextStep)}
}

func mapState(s wire.HostState, ev, msg func(string) string) wire.HostState {
	sessions := make([]wire.SessionState, len(s.Sessions))
	for i, ss := range s.Sessions {
		if len(ss.Log) > 0 {
			log := make([]session.Event, len(ss.Log))
			for j, e := range ss.Log {
				log[j] = mapEvent(e, msg)
			}
			ss.Log = log
		}
		ss.Inbox = mapInbox(ss.Inbox, msg)
		sessions[i] = ss
	}
	s.Sessions = sessions
	if len(s.Reservations) > 0 {
		rs := make([]wire.ReservationState, len(s.Reservations))
		for i, r := range s.Reservations {
			r.MessageID = msg(r.MessageID)
			rs[i] = r
		}
		s.Reservations = rs
	}
	if len(s.Pending) > 0 {
		pending := make([]wire.PendingEvent, len(s.Pending))
		for i, pe := range s.Pending {
			pe.EventID = ev(pe.EventID)
			pending[i] = pe
		}
		s.Pending = pending
	}
	return s
}

// Canonical reorders one Apply's effects in place into the canonical order: the
// durability effects (appended, persisted) keep their places, and between two of them
// the messages are ordered by destination (RPC replies by client, direct results,
// frames by client), each destination's own in the order the host wrote them. Wait
// notes (the host's account of its own machinery, read in order by the oracle) keep
// their places too, and the messages fill the other places of the segment: so a host
// that sends no wait notes hands the simulator its messages in the same order as one
// that does. The order of independent effects inside one instant, which the decision
// leaves free, thus never changes what the simulator does next, and the effects a crash
// point cuts after are the same on both sides.
func Canonical(effs []wire.Effect) {
	var msgs []wire.Effect
	var slots []int
	start := 0
	for i := 0; i <= len(effs); i++ {
		if i < len(effs) && !durable(effs[i]) {
			continue
		}
		msgs, slots = msgs[:0], slots[:0]
		for j := start; j < i; j++ {
			if _, note := effs[j].(wire.WaitNote); !note {
				msgs, slots = append(msgs, effs[j]), append(slots, j)
			}
		}
		if len(msgs) > 1 {
			sort.SliceStable(msgs, func(a, b int) bool {
				ca, da := destination(msgs[a])
				cb, db := destination(msgs[b])
				if ca != cb {
					return ca < cb
				}
				return da < db
			})
			for k, j := range slots {
				effs[j] = msgs[k]
			}
		}
		start = i + 1
	}
}

func durable(e wire.Effect) bool {
	switch e.(type) {
	case wire.Appended, wire.Persisted:
		return true
	}
	return false
}

// destination is an effect's class and addressee for Canonical.
func destination(e wire.Effect) (int, string) {
	switch x := e.(type) {
	case wire.Reply:
		return 0, x.Client
	case wire.DirectResult:
		return 1, ""
	case wire.SendFrame:
		return 2, x.Client
	}
	return 3, ""
}
