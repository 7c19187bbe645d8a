package questions

import (
	"math"
	"strconv"
	"strings"

	"github.com/twosettle/twosettle/engine/jsonx"
	"github.com/twosettle/twosettle/engine/wire"
)

// The package reads JSON with engine/jsonx (JSON.parse's semantics, the engine's one
// reader) and writes what it echoes as JSON.stringify would (appendJS).

// get is the member key of an object v, and whether it is there.
func get(v jsonx.Value, key string) (jsonx.Value, bool) {
	m := v.Get(key)
	return m, m.Exists()
}

// appendJS appends v as JSON.stringify writes it: compact, keys in order, strings with
// JSON.stringify's escaping, numbers in JavaScript's shortest form.
func appendJS(b []byte, v jsonx.Value) []byte {
	switch v.Kind() {
	case jsonx.Null:
		return append(b, "null"...)
	case jsonx.True:
		return append(b, "true"...)
	case jsonx.False:
		return append(b, "false"...)
	case jsonx.Number:
		f, _ := v.Num()
		return appendJSNumber(b, f)
	case jsonx.String:
		return wire.AppendJSONString(b, v.Text())
	case jsonx.Array:
		b = append(b, '[')
		for i, e := range v.Items() {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendJS(b, e)
		}
		return append(b, ']')
	}
	b = append(b, '{')
	for i, m := range v.Items() {
		if i > 0 {
			b = append(b, ',')
		}
		b = wire.AppendJSONString(b, m.Key())
		b = append(b, ':')
		b = appendJS(b, m)
	}
	return append(b, '}')
}

// appendJSNumber writes f as Number.prototype.toString does (JSON.stringify writes null for
// non-finite numbers).
func appendJSNumber(b []byte, f float64) []byte {
	if math.IsInf(f, 0) || math.IsNaN(f) {
		return append(b, "null"...)
	}
	if f == 0 {
		return append(b, '0')
	}
	a := math.Abs(f)
	if a >= 1e21 || a < 1e-6 {
		s := strconv.FormatFloat(f, 'e', -1, 64)
		// Go writes e+21 / e-07; JavaScript writes e+21 / e-7.
		if i := strings.IndexByte(s, 'e'); i >= 0 && i+2 < len(s) {
			mant, sign, exp := s[:i], s[i+1], strings.TrimLeft(s[i+2:], "0")
			b = append(b, mant...)
			b = append(b, 'e', sign)
			return append(b, exp...)
		}
		return append(b, s...)
	}
	return strconv.AppendFloat(b, f, 'f', -1, 64)
}

// isInteger reports whether f is a mathematical integer (Number.isInteger).
func isInteger(f float64) bool { return !math.IsInf(f, 0) && f == math.Trunc(f) }
