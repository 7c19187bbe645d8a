package judge

import (
	"encoding/json"
	"strconv"
	"strings"

	"github.com/twosettle/twosettle/engine/session"
	"github.com/twosettle/twosettle/engine/wire"
	"github.com/twosettle/twosettle/trace"
)

// Names gives the ids a host mints (waterfall event ids, inbox message ids) canonical
// names in order of first appearance: ⟨e1⟩, ⟨e2⟩, … and ⟨m1⟩, ⟨m2⟩, …. An id is renamed
// where the vocabulary puts one (a frame's event id, a message's id, an inbox entry, the
// messageId of an inbox/discard call), never by matching text elsewhere, so an id that
// happens to equal other text ("1", "seed") renames nothing else.
type Names struct {
	events, messages map[string]string
}

// NewNames returns an empty renaming.
func NewNames() *Names {
	return &Names{events: map[string]string{}, messages: map[string]string{}}
}

func (n *Names) event(id string) string   { return canonical(n.events, "e", id) }
func (n *Names) message(id string) string { return canonical(n.messages, "m", id) }

func canonical(m map[string]string, prefix, id string) string {
	if id == "" {
		return ""
	}
	if c, ok := m[id]; ok {
		return c
	}
	c := "⟨" + prefix + strconv.Itoa(len(m)+1) + "⟩"
	m[id] = c
	return c
}

func (n *Names) inbox(v wire.InboxView) string {
	var b strings.Builder
	list := func(name string, ms []session.Message) {
		b.WriteString(name + "=[")
		for i, m := range ms {
			if i > 0 {
				b.WriteByte(' ')
			}
			m.ID = n.message(m.ID)
			b.WriteString(m.String())
		}
		b.WriteByte(']')
	}
	list("next-step", v.NextStep)
	b.WriteByte(' ')
	list("next-turn", v.NextTurn)
	return b.String()
}

// json is a JSON payload as observed: the decision puts no minted id in the payloads a
// host sends (waterfall requests, stream items, RPC values, direct results), so it is
// compared as written.
func (n *Names) json(s string) string { return s }

// eventText is an event's whole canonical text with its message ids renamed (Runtime).
func (n *Names) eventText(ev session.Event) string { return mapEvent(ev, n.message).String() }

// command is the text of a command the host refused, its ids renamed.
func (n *Names) command(p trace.Payload) string {
	switch c := p.(type) {
	case wire.EventResult:
		c.EventID = n.event(c.EventID)
		return c.String()
	case wire.Call:
		return n.call(c.Endpoint, c.Args, c.String())
	}
	return p.String()
}

// text is the text of what a client did, its ids renamed.
func (n *Names) text(p trace.Payload) string {
	switch c := p.(type) {
	case wire.SendResult:
		c.EventID = n.event(c.EventID)
		return c.String()
	case wire.SendCall:
		return n.call(c.Endpoint, c.Args, c.String())
	}
	return p.String()
}

// call renames the messageId of an inbox/discard call's arguments.
func (n *Names) call(endpoint string, args json.RawMessage, text string) string {
	if endpoint != wire.EndpointDiscard {
		return text
	}
	var a map[string]json.RawMessage
	if json.Unmarshal(args, &a) != nil {
		return text
	}
	var id string
	if json.Unmarshal(a["messageId"], &id) != nil || id == "" {
		return text
	}
	q, _ := json.Marshal(id)
	renamed := strings.Replace(string(args), `"messageId":`+string(q), `"messageId":"`+n.message(id)+`"`, 1)
	return strings.Replace(text, string(args), renamed, 1)
}
