package variant

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"strconv"
	"strings"

	"github.com/twosettle/twosettle/engine/jsonx"
	"github.com/twosettle/twosettle/engine/session"
	"github.com/twosettle/twosettle/engine/wire"
)

// The ids a host mints (docs/PROTOCOL.md, "What a host may choose freely"): waterfall
// event ids and inbox message ids. The ids wrapper keeps, per kind, a bijection between
// the inner host's ids and its own for the whole run (the reference's ids are unique over
// a run, restarts included). Going out, every id the inner host shows is renamed, minting
// a new one the first time; coming in, every id a command names is translated back. An id
// a command names that the variant never minted (a scenario naming the reference's "e1"
// or "msg-2", a history appended by hand) is one the variant host does not know: it gets
// an alias the inner host cannot have minted ("x:" + id), shown back as the id itself.

// Id kinds.
const (
	kindEvent   = 0
	kindMessage = 1
)

// aliasPrefix marks an id the runner chose, as the inner host holds it.
const aliasPrefix = "x:"

// minter mints the n-th (from 1) variant id of a kind.
type minter func(kind, n int) string

// uuidMinter draws uuid-shaped ids deterministically from the kind and the count.
func uuidMinter(kind, n int) string {
	sum := sha256.Sum256([]byte("twosettle-variant/" + strconv.Itoa(kind) + "/" + strconv.Itoa(n)))
	h := hex.EncodeToString(sum[:16])
	// version 4, variant 10xx, as a random uuid has
	return h[0:8] + "-" + h[8:12] + "-4" + h[13:16] + "-" + string("89ab"[sum[8]&3]) + h[17:20] + "-" + h[20:32]
}

// numberMinter mints "1", "2", ... per kind.
func numberMinter(_, n int) string { return strconv.Itoa(n) }

// names is one kind's bijection.
type names struct {
	out  map[string]string // inner id -> variant id
	back map[string]string // variant id -> inner id
	n    int
}

// renamer renames ids both ways.
type renamer struct {
	mint  minter
	kinds [2]names
}

func newRenamer(m minter) *renamer {
	r := &renamer{mint: m}
	for i := range r.kinds {
		r.kinds[i] = names{out: map[string]string{}, back: map[string]string{}}
	}
	return r
}

// out is the variant's id for the inner host's id (minted the first time).
func (r *renamer) out(kind int, id string) string {
	if id == "" {
		return id
	}
	ns := &r.kinds[kind]
	if v, ok := ns.out[id]; ok {
		return v
	}
	var v string
	for {
		ns.n++
		v = r.mint(kind, ns.n)
		if _, taken := ns.back[v]; !taken {
			break
		}
	}
	ns.out[id], ns.back[v] = v, id
	return v
}

// in is the inner host's id for an id a command names.
func (r *renamer) in(kind int, id string) string {
	if id == "" {
		return id
	}
	ns := &r.kinds[kind]
	if v, ok := ns.back[id]; ok {
		return v
	}
	alias := aliasPrefix + id
	ns.out[alias], ns.back[id] = id, alias
	return alias
}

// text renames every id the inner host showed that occurs as a whole token in s (an
// error message naming a message or an event).
func (r *renamer) text(s string) string {
	isIDByte := func(c byte) bool {
		return c == '-' || c == '_' || c == ':' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		if !isIDByte(s[i]) {
			b.WriteByte(s[i])
			i++
			continue
		}
		j := i
		for j < len(s) && isIDByte(s[j]) {
			j++
		}
		tok := s[i:j]
		if v, ok := r.kinds[kindMessage].out[tok]; ok {
			tok = v
		} else if v, ok := r.kinds[kindEvent].out[tok]; ok {
			tok = v
		}
		b.WriteString(tok)
		i = j
	}
	return b.String()
}

// ids is the ids wrapper.
type ids struct {
	base
	r    *renamer
	effs []wire.Effect
}

func newIDs(h wire.HostPort, m minter) wire.HostPort { return &ids{base: base{h}, r: newRenamer(m)} }

func (p *ids) Apply(now wire.Time, cmd wire.Command) ([]wire.Effect, error) {
	effs, err := p.h.Apply(now, p.command(cmd))
	p.effs = p.effs[:0]
	for _, e := range effs {
		p.effs = append(p.effs, p.effect(e))
	}
	if err != nil && !isLost(err) {
		err = errors.New(p.r.text(err.Error()))
	}
	return p.effs, err
}

func (p *ids) State() wire.HostState {
	st := p.h.State()
	r := p.r
	out := st
	out.Sessions = make([]wire.SessionState, len(st.Sessions))
	for i, s := range st.Sessions {
		s.Log = r.events(s.Log)
		s.Inbox = r.inbox(s.Inbox)
		out.Sessions[i] = s
	}
	if st.Reservations != nil {
		out.Reservations = make([]wire.ReservationState, len(st.Reservations))
		for i, rs := range st.Reservations {
			rs.MessageID = r.out(kindMessage, rs.MessageID)
			out.Reservations[i] = rs
		}
	}
	if st.Pending != nil {
		out.Pending = make([]wire.PendingEvent, len(st.Pending))
		for i, pe := range st.Pending {
			pe.EventID = r.out(kindEvent, pe.EventID)
			out.Pending[i] = pe
		}
	}
	return out
}

// command translates the ids a command names back to the inner host's.
func (p *ids) command(cmd wire.Command) wire.Command {
	r := p.r
	switch c := cmd.(type) {
	case wire.EventResult:
		c.EventID = r.in(kindEvent, c.EventID)
		return c
	case wire.Call:
		c.Args = r.args(c.Args, r.in)
		return c
	case wire.StreamOpen:
		c.Args = r.args(c.Args, r.in)
		return c
	case wire.AppendEvent:
		c.Event = r.event(c.Event, r.in)
		return c
	}
	return cmd
}

// effect renames the ids an effect shows.
func (p *ids) effect(e wire.Effect) wire.Effect {
	r := p.r
	switch e := e.(type) {
	case wire.SendFrame:
		e.Frame = r.frame(e.Frame)
		return e
	case wire.Reply:
		e.Envelope = r.envelope(e.Envelope)
		return e
	case wire.Appended:
		e.Event = r.event(e.Event, r.out)
		return e
	case wire.WaitNote:
		e.Reason = r.text(e.Reason)
		return e
	case wire.DirectResult:
		e.Value = r.args(e.Value, r.out)
		if e.Err != nil {
			er := *e.Err
			er.Message = r.text(er.Message)
			e.Err = &er
		}
		return e
	}
	return e
}

func (r *renamer) frame(f wire.Frame) wire.Frame {
	switch f := f.(type) {
	case wire.Waterfall:
		f.EventID = r.out(kindEvent, f.EventID)
		return f
	case wire.Cancel:
		f.EventID = r.out(kindEvent, f.EventID)
		return f
	case wire.StreamItem:
		f.Value = r.args(f.Value, r.out)
		return f
	case wire.StreamError:
		f.Message = r.text(f.Message)
		return f
	case wire.SessionUpdate:
		f.Events = r.events(f.Events)
		f.Inbox = r.inbox(f.Inbox)
		return f
	}
	return f
}

func (r *renamer) envelope(e wire.Envelope) wire.Envelope {
	e.Value = r.args(e.Value, r.out)
	if e.Error != nil {
		er := *e.Error
		er.Message = r.text(er.Message)
		e.Error = &er
	}
	return e
}

func (r *renamer) events(evs []session.Event) []session.Event {
	if evs == nil {
		return nil
	}
	out := make([]session.Event, len(evs))
	for i, ev := range evs {
		out[i] = r.event(ev, r.out)
	}
	return out
}

// event renames the message ids of a log event one way (r.out or r.in).
func (r *renamer) event(ev session.Event, way func(int, string) string) session.Event {
	switch d := ev.Data.(type) {
	case session.UserMessage:
		d.Message.ID = way(kindMessage, d.Message.ID)
		ev.Data = d
	case session.InboxSpliced:
		d.Inserted = r.messages(d.Inserted, way)
		ev.Data = d
	}
	return ev
}

func (r *renamer) messages(ms []session.Message, way func(int, string) string) []session.Message {
	if ms == nil {
		return nil
	}
	out := make([]session.Message, len(ms))
	for i, m := range ms {
		m.ID = way(kindMessage, m.ID)
		out[i] = m
	}
	return out
}

func (r *renamer) inbox(v wire.InboxView) wire.InboxView {
	return wire.InboxView{NextTurn: r.messages(v.NextTurn, r.out), NextStep: r.messages(v.NextStep, r.out)}
}

// idKeys are the keys of a JSON object (RPC and stream arguments, reply and result
// values) whose string value is an id of a kind.
var idKeys = map[string]int{"messageId": kindMessage, "eventId": kindEvent}

// args renames the ids of a JSON payload's top-level object members messageId and
// eventId one way, keeping every other byte as it is. A payload that is not an object,
// or names no id, is returned unchanged.
func (r *renamer) args(raw json.RawMessage, way func(int, string) string) json.RawMessage {
	if len(raw) == 0 || !jsonx.Valid(raw) {
		return raw
	}
	s := string(raw)
	i := jsonx.SkipSpace(s, 0)
	if i >= len(s) || s[i] != '{' {
		return raw
	}
	var b []byte
	last := 0
	i = jsonx.SkipSpace(s, i+1)
	for i < len(s) && s[i] != '}' {
		key, next, ok := jsonx.ReadString(s, i)
		if !ok {
			return raw
		}
		i = jsonx.SkipSpace(s, next)
		i = jsonx.SkipSpace(s, i+1) // ':'
		end := jsonx.End(s, i)
		if kind, isID := idKeys[key]; isID && s[i] == '"' {
			if id, _, ok := jsonx.ReadString(s, i); ok {
				if v := way(kind, id); v != id {
					b = append(b, s[last:i]...)
					b = wire.AppendJSONString(b, v)
					last = end
				}
			}
		}
		i = jsonx.SkipSpace(s, end)
		if i < len(s) && s[i] == ',' {
			i = jsonx.SkipSpace(s, i+1)
		}
	}
	if b == nil {
		return raw
	}
	return json.RawMessage(append(b, s[last:]...))
}

// base is what every wrapper passes through to the host it wraps.
type base struct{ h wire.HostPort }

func (b base) NextDeadline() (wire.Time, bool) { return b.h.NextDeadline() }
func (b base) State() wire.HostState           { return b.h.State() }

// Lost passes on the inner port's loss (a host behind the protocol).
func (b base) Lost() *wire.PortLost { return wire.LostOf(b.h) }

// Close closes the inner port when it is an io.Closer (a process host).
func (b base) Close() error {
	if c, ok := b.h.(interface{ Close() error }); ok {
		return c.Close()
	}
	return nil
}

// isLost reports whether err is a lost port (never reworded or renamed).
func isLost(err error) bool {
	var l *wire.PortLost
	return errors.As(err, &l)
}
