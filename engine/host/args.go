package host

import (
	"encoding/json"
	"strconv"
	"strings"

	"github.com/twosettle/twosettle/engine/jsonx"
	"github.com/twosettle/twosettle/engine/wire"
)

// The strict reader of Remote call args: an object whose keys are exactly the endpoint's
// fields, each a string or an object. It validates with jsonx.Valid (a scanner, no
// reflection) and then walks the members of the now valid text.

func argumentsInvalid(endpoint, msg string) error {
	return gatewayError(wire.GatewayArgumentsInvalid, endpoint+": "+msg)
}

// field is one expected member: a string (Str) or an object.
type field struct {
	name string
	str  bool
}

// maxFields is the most fields an endpoint's args have.
const maxFields = 3

// readArgs returns the members of raw in the order of fields (at most maxFields; the
// result is an array, so reading args allocates no list): a string field as its decoded
// value, an object field as its raw JSON.
func readArgs(endpoint string, raw json.RawMessage, fields ...field) ([maxFields]string, error) {
	var out [maxFields]string
	shape := func() error {
		names := make([]string, len(fields))
		for i, f := range fields {
			names[i] = f.name
		}
		return argumentsInvalid(endpoint, "args must be an object {"+strings.Join(names, ", ")+"}")
	}
	if len(raw) == 0 || !jsonx.Valid(raw) {
		return [maxFields]string{}, shape()
	}
	s := string(raw)
	i := jsonx.SkipSpace(s, 0)
	if s[i] != '{' {
		return [maxFields]string{}, shape()
	}
	seen := make([]bool, len(fields))
	i = jsonx.SkipSpace(s, i+1)
	for s[i] != '}' {
		end := jsonx.End(s, i)
		key, ok := jsonString(s[i:end])
		if !ok {
			return [maxFields]string{}, shape()
		}
		i = jsonx.SkipSpace(s, end)
		i = jsonx.SkipSpace(s, i+1) // ':'
		end = jsonx.End(s, i)
		v := s[i:end]
		k := -1
		for j, f := range fields {
			if f.name == key {
				k = j
			}
		}
		if k < 0 {
			return [maxFields]string{}, argumentsInvalid(endpoint, "unexpected field "+strconv.Quote(key))
		}
		f := fields[k]
		switch {
		case f.str:
			str, ok := jsonString(v)
			if !ok {
				return [maxFields]string{}, argumentsInvalid(endpoint, "field "+strconv.Quote(f.name)+" must be a string")
			}
			out[k] = str
		case v[0] != '{':
			return [maxFields]string{}, argumentsInvalid(endpoint, "field "+strconv.Quote(f.name)+" must be an object")
		default:
			out[k] = v
		}
		seen[k] = true // a repeated key: the last one wins, as JSON.parse keeps it
		i = jsonx.SkipSpace(s, end)
		if s[i] == ',' {
			i = jsonx.SkipSpace(s, i+1)
		}
	}
	for j, f := range fields {
		if !seen[j] {
			return [maxFields]string{}, argumentsInvalid(endpoint, "missing field "+strconv.Quote(f.name))
		}
	}
	return out, nil
}

// jsonString decodes a JSON string literal (jsonx.ReadString, as JSON.parse decodes it).
func jsonString(lit string) (string, bool) {
	if len(lit) < 2 || lit[0] != '"' {
		return "", false
	}
	str, next, ok := jsonx.ReadString(lit, 0)
	return str, ok && next == len(lit)
}
