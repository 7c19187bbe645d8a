package wire

import (
	"encoding/json"
	"strconv"
	"strings"

	"github.com/twosettle/twosettle/engine/jsonx"
)

// The strict reader under the codec's decoders. A message is checked once with jsonx.Valid
// and then walked lazily: an object is split into its keys and the text of their values,
// and a value is only looked into when a decoder asks for it, so a payload is kept as the
// exact bytes it was written with. Every object remembers where it is (its parent and the
// key or index that holds it); the path string is made only for an error.

// decodeError is a Decode error: the path of the offending value and what is wrong.
type decodeError struct {
	path, msg string
}

func (e *decodeError) Error() string { return e.path + ": " + e.msg }

// at is the place of a value in the message: the root (name, no parent), a key of its
// parent object, or an index of an array under a key of its parent (index >= 0).
type at struct {
	parent *at
	key    string
	index  int
}

func (p *at) String() string {
	var b []byte
	return string(p.appendTo(b))
}

func (p *at) appendTo(b []byte) []byte {
	if p.parent != nil {
		b = p.parent.appendTo(b)
		b = append(b, '.')
	}
	b = append(b, p.key...)
	if p.index >= 0 {
		b = append(b, '[')
		b = strconv.AppendInt(b, int64(p.index), 10)
		b = append(b, ']')
	}
	return b
}

// member is one key of an object and the text of its value.
type member struct {
	key, val string
	used     bool
}

// object is a JSON object being decoded. Accessors record the first error in err and
// return zero values after it; done reports it (unknown keys first).
type object struct {
	at      at
	what    string // the kind or type being decoded, for messages ("" before it is known)
	members []member
	err     error
}

// parseTop checks a whole message and returns its top-level object, named name.
func parseTop(data []byte, name string) (*object, error) {
	if !jsonx.Valid(data) {
		var v any
		msg := "invalid JSON"
		if err := json.Unmarshal(data, &v); err != nil {
			msg += ": " + err.Error()
			if se, ok := err.(*json.SyntaxError); ok {
				msg += " (at byte " + strconv.FormatInt(se.Offset, 10) + ")"
			}
		}
		return nil, &decodeError{name, msg}
	}
	s := strings.Trim(string(data), " \t\r\n")
	root := at{key: name, index: -1}
	o, err := readObject(root, s)
	if err != nil {
		return nil, err
	}
	return o, nil
}

// readObject splits the valid JSON text s, which must be an object, into its members.
func readObject(p at, s string) (*object, error) {
	if s[0] != '{' {
		return nil, &decodeError{p.String(), "want an object, got " + jsonType(s)}
	}
	o := &object{at: p}
	var seen map[string]bool
	i := jsonx.SkipSpace(s, 1)
	if s[i] == '}' {
		return o, nil
	}
	for {
		key, next, ok := jsonx.ReadString(s, i)
		if !ok {
			return nil, &decodeError{p.String(), "bad key"} // cannot happen after jsonx.Valid
		}
		i = jsonx.SkipSpace(s, next)
		i = jsonx.SkipSpace(s, i+1) // the ':'
		end := jsonx.End(s, i)
		dup := false
		switch {
		case seen == nil && len(o.members) < 16:
			dup = o.has(key)
		default: // a big object: a set, not a scan per key
			if seen == nil {
				seen = make(map[string]bool, 32)
				for _, m := range o.members {
					seen[m.key] = true
				}
			}
			dup = seen[key]
			seen[key] = true
		}
		if dup {
			return nil, &decodeError{p.String(), "duplicate key " + strconv.Quote(key)}
		}
		o.members = append(o.members, member{key: key, val: s[i:end]})
		i = jsonx.SkipSpace(s, end)
		if s[i] == '}' {
			return o, nil
		}
		i = jsonx.SkipSpace(s, i+1) // the ','
	}
}

// readArray splits the valid JSON text s, which must be an array, into its items.
func readArray(s string) []string {
	i := jsonx.SkipSpace(s, 1)
	if s[i] == ']' {
		return nil
	}
	var items []string
	for {
		end := jsonx.End(s, i)
		items = append(items, s[i:end])
		i = jsonx.SkipSpace(s, end)
		if s[i] == ']' {
			return items
		}
		i = jsonx.SkipSpace(s, i+1)
	}
}

// jsonType names the JSON type of the valid value text v.
func jsonType(v string) string {
	switch v[0] {
	case '"':
		return "string"
	case '{':
		return "object"
	case '[':
		return "array"
	case 't', 'f':
		return "boolean"
	case 'n':
		return "null"
	}
	return "number"
}

func (o *object) child(key string, index int) at { return at{parent: &o.at, key: key, index: index} }

// fail records a problem with o's key (or with o itself when key is "").
func (o *object) fail(key, msg string) {
	if o.err != nil {
		return
	}
	p := o.at
	if key != "" {
		p = o.child(key, -1)
	}
	o.err = &decodeError{p.String(), msg}
}

// unknown records an unknown discriminator at key: the other keys are not checked.
func (o *object) unknown(key, msg string) {
	o.fail(key, msg)
	o.skipRest()
}

// skipRest marks every key used: after a bad discriminator the other keys mean nothing.
func (o *object) skipRest() {
	for i := range o.members {
		o.members[i].used = true
	}
}

// failWith records an error of a nested value.
func (o *object) failWith(err error) {
	if o.err == nil && err != nil {
		o.err = err
	}
}

func (o *object) missing(key string) {
	msg := "missing key " + strconv.Quote(key)
	if o.what != "" {
		msg += " of " + o.what
	}
	o.fail("", msg)
}

// get returns the value text of key and marks it used.
func (o *object) get(key string) (string, bool) {
	for i := range o.members {
		if o.members[i].key == key {
			o.members[i].used = true
			return o.members[i].val, true
		}
	}
	return "", false
}

// has reports whether o has key, without using it.
func (o *object) has(key string) bool {
	for i := range o.members {
		if o.members[i].key == key {
			return true
		}
	}
	return false
}

// done reports the first unknown key or else the first error.
func (o *object) done() error {
	for _, m := range o.members {
		if !m.used {
			msg := "unknown key " + strconv.Quote(m.key)
			if o.what != "" {
				msg += " in " + o.what
			}
			return &decodeError{o.at.String(), msg}
		}
	}
	return o.err
}

func (o *object) wantType(key, v, want string) {
	o.fail(key, "want "+want+", got "+jsonType(v))
}

// str returns the required string key.
func (o *object) str(key string) string {
	s, ok := o.optStr(key)
	if !ok {
		o.missing(key)
	}
	return s
}

// optStr returns the optional string key and whether it was there.
func (o *object) optStr(key string) (string, bool) {
	v, ok := o.get(key)
	if !ok || o.err != nil {
		return "", ok
	}
	if v[0] != '"' {
		o.wantType(key, v, "a string")
		return "", true
	}
	s, _, ok2 := jsonx.ReadString(v, 0)
	if !ok2 {
		o.fail(key, "bad string") // cannot happen after jsonx.Valid
	}
	return s, true
}

// intOf parses the integer text v into bits bits.
func (o *object) intOf(key, v string, bits int) int64 {
	if v[0] != '-' && (v[0] < '0' || v[0] > '9') {
		o.wantType(key, v, "an integer")
		return 0
	}
	if strings.ContainsAny(v, ".eE") {
		o.fail(key, "want an integer, got "+v)
		return 0
	}
	n, err := strconv.ParseInt(v, 10, bits)
	if err != nil {
		o.fail(key, "integer "+v+" out of range")
		return 0
	}
	return n
}

// int returns the required int key.
func (o *object) int(key string) int {
	n, ok := o.optInt(key)
	if !ok {
		o.missing(key)
	}
	return n
}

// optInt returns the optional int key and whether it was there.
func (o *object) optInt(key string) (int, bool) {
	v, ok := o.get(key)
	if !ok || o.err != nil {
		return 0, ok
	}
	return int(o.intOf(key, v, strconv.IntSize)), true
}

// int64 returns the required int64 key.
func (o *object) int64(key string) int64 {
	n, ok := o.optInt64(key)
	if !ok {
		o.missing(key)
	}
	return n
}

// optInt64 returns the optional int64 key and whether it was there.
func (o *object) optInt64(key string) (int64, bool) {
	v, ok := o.get(key)
	if !ok || o.err != nil {
		return 0, ok
	}
	return o.intOf(key, v, 64), true
}

// optBool returns the optional boolean key and whether it was there.
func (o *object) optBool(key string) (bool, bool) {
	v, ok := o.get(key)
	if !ok || o.err != nil {
		return false, ok
	}
	switch v {
	case "true":
		return true, true
	case "false":
		return false, true
	}
	o.wantType(key, v, "a boolean")
	return false, true
}

// flag returns the optional boolean key (false when absent).
func (o *object) flag(key string) bool {
	b, _ := o.optBool(key)
	return b
}

// payload returns the raw payload under key (verbatim) or keyRaw (a string); nil when
// neither is there.
func (o *object) payload(key string) json.RawMessage {
	rawKey := key + "Raw"
	v, ok := o.get(key)
	_, hasRaw := o.get(rawKey)
	switch {
	case o.err != nil:
		return nil
	case ok && hasRaw:
		o.fail("", "both "+strconv.Quote(key)+" and "+strconv.Quote(rawKey))
		return nil
	case ok:
		return json.RawMessage(v)
	case hasRaw:
		s, _ := o.optStr(rawKey)
		return append(json.RawMessage{}, s...)
	}
	return nil
}

// obj returns the required object key, or nil after an error.
func (o *object) obj(key string) *object {
	sub, ok := o.optObj(key)
	if !ok {
		o.missing(key)
	}
	return sub
}

// optObj returns the optional object key (nil when absent or after an error).
func (o *object) optObj(key string) (*object, bool) {
	v, ok := o.get(key)
	if !ok || o.err != nil {
		return nil, ok
	}
	sub, err := readObject(o.child(key, -1), v)
	if err != nil {
		o.failWith(err)
		return nil, true
	}
	return sub, true
}

// list returns the items of the optional array key (nil when absent or empty).
func (o *object) list(key string) []string {
	v, ok := o.get(key)
	if !ok || o.err != nil {
		return nil
	}
	if v[0] != '[' {
		o.wantType(key, v, "an array")
		return nil
	}
	return readArray(v)
}

// itemObj returns item i of the array key as an object, or nil after an error.
func (o *object) itemObj(key string, i int, v string) *object {
	if o.err != nil {
		return nil
	}
	sub, err := readObject(o.child(key, i), v)
	if err != nil {
		o.failWith(err)
		return nil
	}
	return sub
}

// strings returns the optional array of strings key.
func (o *object) strings(key string) []string {
	items := o.list(key)
	if len(items) == 0 {
		return nil
	}
	out := make([]string, len(items))
	for i, v := range items {
		if v[0] != '"' {
			p := o.child(key, i)
			o.failWith(&decodeError{p.String(), "want a string, got " + jsonType(v)})
			return nil
		}
		out[i], _, _ = jsonx.ReadString(v, 0)
	}
	return out
}

// close finishes a nested object: its error goes to o. It reports whether sub is good.
func (o *object) close(sub *object) bool {
	if sub == nil {
		return false
	}
	if err := sub.done(); err != nil {
		o.failWith(err)
		return false
	}
	return true
}
