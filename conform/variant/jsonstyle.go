package variant

import (
	"github.com/twosettle/twosettle/engine/jsonx"
)

// payloadKeys are the keys whose values are raw JSON payloads, which the protocol carries
// byte for byte (docs/PROTOCOL.md: waterfall requests, RPC args and values, stream items,
// direct bodies): Restyle copies them as they are.
var payloadKeys = map[string]bool{"value": true, "request": true, "body": true, "args": true}

// Restyle rewrites one protocol message (a JSON object, without its newline) as another
// host's JSON library might: every object's keys in reverse order, a space after each
// colon and comma and inside the braces and brackets of non-empty objects and arrays.
// Payloads (payloadKeys) and strings are copied byte for byte. A line that is not valid
// JSON is returned unchanged.
func Restyle(line []byte) []byte {
	if !jsonx.Valid(line) {
		return line
	}
	s := string(line)
	i := jsonx.SkipSpace(s, 0)
	return restyle(make([]byte, 0, len(line)+len(line)/4), s[i:jsonx.End(s, i)])
}

// restyle appends the restyled form of the valid JSON value v (no space around it).
func restyle(b []byte, v string) []byte {
	switch v[0] {
	case '{':
		type member struct{ key, val string }
		var ms []member
		i := jsonx.SkipSpace(v, 1)
		for v[i] != '}' {
			_, next, _ := jsonx.ReadString(v, i)
			key := v[i:next]
			i = jsonx.SkipSpace(v, next)
			i = jsonx.SkipSpace(v, i+1)
			end := jsonx.End(v, i)
			ms = append(ms, member{key, v[i:end]})
			i = jsonx.SkipSpace(v, end)
			if v[i] == ',' {
				i = jsonx.SkipSpace(v, i+1)
			}
		}
		if len(ms) == 0 {
			return append(b, "{}"...)
		}
		b = append(b, "{ "...)
		for k := len(ms) - 1; k >= 0; k-- {
			m := ms[k]
			b = append(b, m.key...)
			b = append(b, ": "...)
			name, _, _ := jsonx.ReadString(m.key, 0)
			if payloadKeys[name] {
				b = append(b, m.val...)
			} else {
				b = restyle(b, m.val)
			}
			if k > 0 {
				b = append(b, ", "...)
			}
		}
		return append(b, " }"...)
	case '[':
		i := jsonx.SkipSpace(v, 1)
		if v[i] == ']' {
			return append(b, "[]"...)
		}
		b = append(b, "[ "...)
		for {
			end := jsonx.End(v, i)
			b = restyle(b, v[i:end])
			i = jsonx.SkipSpace(v, end)
			if v[i] == ']' {
				return append(b, " ]"...)
			}
			b = append(b, ", "...)
			i = jsonx.SkipSpace(v, i+1)
		}
	}
	return append(b, v...)
}
