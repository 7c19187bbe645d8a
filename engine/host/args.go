package host

import (
	"encoding/json"
	"strconv"
	"strings"

	"github.com/twosettle/twosettle/engine/wire"
)

// The strict reader of Remote call args: an object whose keys are exactly the endpoint's
// fields, each a string or an object. It validates with wire.ValidJSON (a scanner, no
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
	if len(raw) == 0 || !wire.ValidJSON(raw) {
		return [maxFields]string{}, shape()
	}
	s := string(raw)
	i := skipWS(s, 0)
	if s[i] != '{' {
		return [maxFields]string{}, shape()
	}
	seen := make([]bool, len(fields))
	i = skipWS(s, i+1)
	for s[i] != '}' {
		end := valueEnd(s, i)
		key, ok := jsonString(s[i:end])
		if !ok {
			return [maxFields]string{}, shape()
		}
		i = skipWS(s, end)
		i = skipWS(s, i+1) // ':'
		end = valueEnd(s, i)
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
		i = skipWS(s, end)
		if s[i] == ',' {
			i = skipWS(s, i+1)
		}
	}
	for j, f := range fields {
		if !seen[j] {
			return [maxFields]string{}, argumentsInvalid(endpoint, "missing field "+strconv.Quote(f.name))
		}
	}
	return out, nil
}

func skipWS(s string, i int) int {
	for i < len(s) && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r') {
		i++
	}
	return i
}

// valueEnd returns the end of the value starting at i in valid JSON.
func valueEnd(s string, i int) int {
	switch s[i] {
	case '"':
		for j := i + 1; j < len(s); j++ {
			switch s[j] {
			case '\\':
				j++
			case '"':
				return j + 1
			}
		}
		return len(s)
	case '{', '[':
		depth := 0
		for j := i; j < len(s); j++ {
			switch s[j] {
			case '"':
				j = valueEnd(s, j) - 1
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return j + 1
				}
			}
		}
		return len(s)
	}
	j := i
	for j < len(s) && !strings.ContainsRune(",}] \t\n\r", rune(s[j])) {
		j++
	}
	return j
}

// jsonString decodes a JSON string literal (escapes through encoding/json, which decodes
// them as JSON.parse does).
func jsonString(lit string) (string, bool) {
	if len(lit) < 2 || lit[0] != '"' {
		return "", false
	}
	if !strings.ContainsRune(lit, '\\') {
		return lit[1 : len(lit)-1], true
	}
	var out string
	if json.Unmarshal([]byte(lit), &out) != nil {
		return "", false
	}
	return out, true
}
