package conform

import (
	"sort"
	"strconv"
	"strings"

	"github.com/twosettle/twosettle/engine/session"
	"github.com/twosettle/twosettle/engine/wire"
	"github.com/twosettle/twosettle/golden"
	"github.com/twosettle/twosettle/trace"
)

// Comparable renders the transcript of tr as a conformance comparison reads it
// (docs/PROTOCOL.md, "What a host may choose"): the text of a refusal is the host's own;
// the ids it mints (waterfall event ids, inbox message ids) are renamed by order of first
// appearance (⟨e1⟩, ⟨m1⟩, …); and without introspection the wait-note records and the
// volatile part of every state (waits, reservations, connections, pending events) are
// left out, records renumbered. Two runs conform when their Comparable texts are equal.
func Comparable(name string, tr *trace.Trace, introspection bool) []byte {
	cp := &trace.Trace{Seed: tr.Seed, Records: make([]trace.Record, 0, len(tr.Records)), Final: tr.Final}
	events, messages := newRenamer("e"), newRenamer("m")
	for _, r := range tr.Records {
		switch p := r.Payload.(type) {
		case wire.WaitNote:
			if !introspection {
				continue
			}
		case trace.Rejected:
			p.Err = "refused"
			r.Payload = p
		case trace.Snapshot:
			if !introspection {
				p.Host = stable(p.Host)
				r.Payload = p
			}
		}
		names(r.Payload, events, messages)
		r.Seq = len(cp.Records)
		cp.Records = append(cp.Records, r)
	}
	if !introspection {
		cp.Final.Host = stable(cp.Final.Host)
	}
	for _, s := range cp.Final.Host.Sessions {
		for _, e := range s.Log {
			eventNames(e, messages)
		}
	}
	text := golden.FromTrace(name, cp, "").Render()
	return []byte(rename(string(text), events, messages))
}

// stable is the part of a host state every host shows.
func stable(h wire.HostState) wire.HostState {
	return wire.HostState{Sessions: h.Sessions}
}

// Divergence compares two Comparable texts: "" when they agree, else the first divergent
// record with context, the reference on the - side and the host on the + side.
func Divergence(reference, host []byte) string {
	m := golden.Compare(reference, host)
	if m == nil {
		return ""
	}
	s := m.String()
	s = strings.Replace(s, "departs from the golden", "departs from the reference engine", 1)
	s = strings.ReplaceAll(s, "(golden)", "(reference)")
	s = strings.ReplaceAll(s, "the golden", "the reference")
	s = strings.ReplaceAll(s, "this run", "the host")
	return s
}

// renamer gives host-minted ids canonical names in order of first appearance.
type renamer struct {
	prefix string
	order  []string
	seen   map[string]bool
}

func newRenamer(prefix string) *renamer { return &renamer{prefix: prefix, seen: map[string]bool{}} }

func (r *renamer) add(id string) {
	if id != "" && !r.seen[id] {
		r.seen[id] = true
		r.order = append(r.order, id)
	}
}

// names records the host-minted ids a payload carries.
func names(p trace.Payload, events, messages *renamer) {
	switch x := p.(type) {
	case wire.SendFrame:
		switch f := x.Frame.(type) {
		case wire.Waterfall:
			events.add(f.EventID)
		case wire.Cancel:
			events.add(f.EventID)
		case wire.SessionUpdate:
			for _, e := range f.Events {
				eventNames(e, messages)
			}
			inboxNames(f.Inbox, messages)
		}
	case wire.Appended:
		eventNames(x.Event, messages)
	}
}

func eventNames(e session.Event, messages *renamer) {
	switch d := e.Data.(type) {
	case session.InboxSpliced:
		for _, m := range d.Inserted {
			messages.add(m.ID)
		}
	case session.UserMessage:
		messages.add(d.Message.ID)
	}
}

func inboxNames(v wire.InboxView, messages *renamer) {
	for _, m := range v.NextStep {
		messages.add(m.ID)
	}
	for _, m := range v.NextTurn {
		messages.add(m.ID)
	}
}

// rename replaces every occurrence of a minted id in text that stands alone: not
// inside a longer run of id characters (letters, digits, - _ .). An id may hold any
// character ("inbox/42"); the longest id that matches at a place wins.
func rename(text string, rs ...*renamer) string {
	byFirst := map[byte][]string{}
	repl := map[string]string{}
	for _, r := range rs {
		for i, id := range r.order {
			repl[id] = "⟨" + r.prefix + strconv.Itoa(i+1) + "⟩"
			byFirst[id[0]] = append(byFirst[id[0]], id)
		}
	}
	if len(repl) == 0 {
		return text
	}
	for _, ids := range byFirst {
		sort.Slice(ids, func(i, j int) bool { return len(ids[i]) > len(ids[j]) })
	}
	var b strings.Builder
	b.Grow(len(text))
	for i := 0; i < len(text); {
		if i == 0 || !tokenByte(text[i-1]) {
			matched := ""
			for _, id := range byFirst[text[i]] {
				if strings.HasPrefix(text[i:], id) && (i+len(id) == len(text) || !tokenByte(text[i+len(id)])) {
					matched = id
					break
				}
			}
			if matched != "" {
				b.WriteString(repl[matched])
				i += len(matched)
				continue
			}
		}
		b.WriteByte(text[i])
		i++
	}
	return b.String()
}

// tokenByte is a byte an id token is made of (ids are delimited by anything else).
func tokenByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.' || c >= 0x80
}
