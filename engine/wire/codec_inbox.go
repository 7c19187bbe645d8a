package wire

import (
	"github.com/twosettle/twosettle/engine/jsonx"
	"github.com/twosettle/twosettle/engine/session"
)

// Inbox entries are read as the peer's client reads an inbox (docs/PEER.md §6.5, §7.1;
// docs/PROTOCOL.md "Clients", "Inbox entries as a real host sends them"), not strictly: a
// real host writes its inbox from its own runtime, and an entry may carry null, a value of
// another type, or keys this protocol does not name. The client only ever asks of an entry
// whether it is a late reply for a call: a record whose source is a record with kind
// user-question-reply and a string callId; anything else is ignored. So:
//
//   - an entry that is not an object (null, a number, a string, an array) is dropped;
//   - in an entry and in its source, null or a value of another type where a string is
//     expected (id, text, kind, callId, outcome) is absent (""), as is a source that is not
//     an object, and noText is set only by true;
//   - keys other than id, source, text and noText (such as the peer runtime's role and
//     content) are ignored.
//
// The encoder writes the canonical entry ({"id","source","text","noText"?}), so an odd
// entry is re-encoded in that form; the lists themselves (next-turn, next-step) stay
// strict arrays.

// decodeInboxEntries reads the optional array of inbox entries key of o.
func decodeInboxEntries(o *object, key string) []session.Message {
	items := o.list(key)
	var out []session.Message
	for i, v := range items {
		if v[0] != '{' {
			continue // not a record: ignored, as the peer's client ignores it
		}
		m := o.itemObj(key, i, v)
		if m == nil {
			return nil
		}
		out = append(out, decodeInboxEntry(m))
	}
	return out
}

// decodeInboxEntry reads one entry leniently; it records no error.
func decodeInboxEntry(m *object) session.Message {
	msg := session.Message{ID: looseStr(m, "id"), Text: looseStr(m, "text")}
	if v, ok := m.get("noText"); ok && v == "true" {
		msg.NoText = true
	}
	if v, ok := m.get("source"); ok && v[0] == '{' {
		if so, err := readObject(m.child("source", -1), v); err == nil {
			msg.Source = session.Source{Kind: looseStr(so, "kind"), CallID: looseStr(so, "callId"), Outcome: looseStr(so, "outcome")}
		}
	}
	return msg
}

// looseStr is key's string value, or "" when key is absent, null or not a string.
func looseStr(o *object, key string) string {
	v, ok := o.get(key)
	if !ok || v[0] != '"' {
		return ""
	}
	s, _, _ := jsonx.ReadString(v, 0)
	return s
}
