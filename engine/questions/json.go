package questions

import (
	"math"
	"strconv"
	"strings"

	"github.com/twosettle/twosettle/engine/wire"
)

// value is a parsed JSON value with JavaScript's semantics: numbers are float64, object
// keys keep the position of their first occurrence and the value of their last (as
// JSON.parse builds an object), and re-encoding (appendJS) writes what JSON.stringify
// writes; string literals are read by wire.ReadJSONString, as in engine/client. It is
// the package's only JSON reader: the projection, the tool and answer() read
// model and client JSON through it instead of encoding/json's reflection.
type value struct {
	kind kind
	b    bool
	n    float64
	s    string
	// arr is an array's elements, or an object's members as key, value, key, value, …
	// (the key a kStr value): one slice per container.
	arr []value
}

// members is the number of an object's members; key(i) and val(i) read member i.
func (v value) members() int     { return len(v.arr) / 2 }
func (v value) key(i int) string { return v.arr[2*i].s }
func (v value) val(i int) value  { return v.arr[2*i+1] }

type kind uint8

const (
	kNull kind = iota
	kBool
	kNum
	kStr
	kArr
	kObj
)

// maxDepth bounds nesting, so hostile input cannot exhaust the stack: the project's one
// limit, wire.MaxJSONDepth (docs/PEER.md §11.1), so a text every other reader accepts
// (the host's payload checks, the oracle's encoding/json) is readable here too.
const maxDepth = wire.MaxJSONDepth

// parseJSON parses one JSON text (surrounding whitespace allowed). ok is false for
// anything JSON.parse would reject, and for nesting deeper than maxDepth (where
// JSON.parse has no limit: docs/PEER.md §11.1).
func parseJSON(s string) (value, bool) {
	v, ok, _ := parseReusing(nil, s)
	return v, ok
}

// parseReusing is parseJSON with buf as the text's buffer when it is large enough. It
// returns the buffer to keep for the next parse: the value it returns is valid until buf
// is reused.
func parseReusing(buf []value, s string) (value, bool, []value) {
	p := parser{s: s, reuse: buf}
	v, ok := p.parse()
	if p.buf != nil {
		buf = p.buf[:cap(p.buf)]
	}
	return v, ok, buf
}

func (p *parser) parse() (value, bool) {
	p.ws()
	v, ok := p.value(0)
	if !ok {
		return value{}, false
	}
	p.ws()
	if p.i != len(p.s) {
		return value{}, false
	}
	return v, true
}

// parser reads one text into one buffer allocated for it (one allocation per text): the
// children of the containers being parsed stack up from its start (buf[:sp]), and each
// container that closes moves its children, contiguous, to the end, which fills downwards
// (buf[top:]). A value is in one of the two regions at a time, so they never meet.
type parser struct {
	s     string
	i     int
	buf   []value
	sp    int
	top   int
	reuse []value // storage to use for buf when it is large enough
}

// push adds children to the container being parsed.
func (p *parser) push(vs ...value) bool {
	if p.buf == nil {
		// An array element follows '[' or ','; an object member (a key and a value) has
		// one ':'. So this bounds the values containers hold, however they nest.
		n := strings.Count(p.s, "[") + strings.Count(p.s, ",") + 2*strings.Count(p.s, ":")
		if cap(p.reuse) >= n {
			p.buf = p.reuse[:n]
		} else {
			p.buf = make([]value, max(n, 2*cap(p.reuse)))[:n]
		}
		p.top = n
	}
	if p.sp+len(vs) > p.top {
		return false // cannot happen: the buffer has room for every child
	}
	p.sp += copy(p.buf[p.sp:], vs)
	return true
}

// take moves the children above mark to the finished region and returns them.
func (p *parser) take(mark int) []value {
	n := p.sp - mark
	if n == 0 {
		return nil
	}
	p.top -= n
	copy(p.buf[p.top:], p.buf[mark:p.sp])
	p.sp = mark
	return p.buf[p.top : p.top+n : p.top+n]
}

func (p *parser) ws() {
	if p.i < len(p.s) && p.s[p.i] > ' ' {
		return // compact JSON: no whitespace between tokens
	}
	s, i := p.s, p.i
	for i < len(s) && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r') {
		i++
	}
	p.i = i
}

func (p *parser) value(depth int) (value, bool) {
	// depth counts the containers around this value: one more may open here only while
	// fewer than maxDepth do (encoding/json's rule).
	if p.i >= len(p.s) || depth >= maxDepth && (p.s[p.i] == '{' || p.s[p.i] == '[') {
		return value{}, false
	}
	switch c := p.s[p.i]; {
	case c == '{':
		return p.object(depth)
	case c == '[':
		return p.array(depth)
	case c == '"':
		s, ok := p.str()
		return value{kind: kStr, s: s}, ok
	case c == 't':
		return p.lit("true", value{kind: kBool, b: true})
	case c == 'f':
		return p.lit("false", value{kind: kBool})
	case c == 'n':
		return p.lit("null", value{kind: kNull})
	case c == '-' || (c >= '0' && c <= '9'):
		return p.num()
	}
	return value{}, false
}

func (p *parser) lit(word string, v value) (value, bool) {
	if strings.HasPrefix(p.s[p.i:], word) {
		p.i += len(word)
		return v, true
	}
	return value{}, false
}

func (p *parser) num() (value, bool) {
	start := p.i
	if p.s[p.i] == '-' {
		p.i++
	}
	digits := func() int {
		n := 0
		for p.i < len(p.s) && p.s[p.i] >= '0' && p.s[p.i] <= '9' {
			p.i++
			n++
		}
		return n
	}
	if p.i < len(p.s) && p.s[p.i] == '0' {
		p.i++
	} else if digits() == 0 {
		return value{}, false
	}
	if p.i < len(p.s) && p.s[p.i] == '.' {
		p.i++
		if digits() == 0 {
			return value{}, false
		}
	}
	if p.i < len(p.s) && (p.s[p.i] == 'e' || p.s[p.i] == 'E') {
		p.i++
		if p.i < len(p.s) && (p.s[p.i] == '+' || p.s[p.i] == '-') {
			p.i++
		}
		if digits() == 0 {
			return value{}, false
		}
	}
	f, err := strconv.ParseFloat(p.s[start:p.i], 64)
	if err != nil {
		// Out of range: JSON.parse gives ±Infinity (or 0 for underflow, which ParseFloat
		// already returns without error).
		if ne, ok := err.(*strconv.NumError); !ok || ne.Err != strconv.ErrRange {
			return value{}, false
		}
	}
	return value{kind: kNum, n: f}, true
}

// str reads the string literal at p.i (its opening quote): wire.ReadJSONString.
func (p *parser) str() (string, bool) {
	str, next, ok := wire.ReadJSONString(p.s, p.i)
	p.i = next
	return str, ok
}

func (p *parser) array(depth int) (value, bool) {
	p.i++
	v := value{kind: kArr}
	p.ws()
	if p.i < len(p.s) && p.s[p.i] == ']' {
		p.i++
		return v, true
	}
	mark := p.sp
	for {
		p.ws()
		e, ok := p.value(depth + 1)
		if !ok {
			return value{}, false
		}
		if !p.push(e) {
			return value{}, false
		}
		p.ws()
		if p.i >= len(p.s) {
			return value{}, false
		}
		switch p.s[p.i] {
		case ',':
			p.i++
		case ']':
			p.i++
			v.arr = p.take(mark)
			return v, true
		default:
			return value{}, false
		}
	}
}

func (p *parser) object(depth int) (value, bool) {
	p.i++
	v := value{kind: kObj}
	p.ws()
	if p.i < len(p.s) && p.s[p.i] == '}' {
		p.i++
		return v, true
	}
	mark := p.sp
	for {
		p.ws()
		if p.i >= len(p.s) || p.s[p.i] != '"' {
			return value{}, false
		}
		k, ok := p.str()
		if !ok {
			return value{}, false
		}
		p.ws()
		if p.i >= len(p.s) || p.s[p.i] != ':' {
			return value{}, false
		}
		p.i++
		p.ws()
		e, ok := p.value(depth + 1)
		if !ok {
			return value{}, false
		}
		dup := false
		for j := mark; j < p.sp; j += 2 {
			if p.buf[j].s == k {
				p.buf[j+1] = e // JSON.parse: the last value wins, the first position stays
				dup = true
				break
			}
		}
		if !dup && !p.push(value{kind: kStr, s: k}, e) {
			return value{}, false
		}
		p.ws()
		if p.i >= len(p.s) {
			return value{}, false
		}
		switch p.s[p.i] {
		case ',':
			p.i++
		case '}':
			p.i++
			v.arr = p.take(mark)
			return v, true
		default:
			return value{}, false
		}
	}
}

func (v value) index(key string) int {
	for i := 0; i < len(v.arr); i += 2 {
		if v.arr[i].s == key {
			return i / 2
		}
	}
	return -1
}

// get returns the member key of an object.
func (v value) get(key string) (value, bool) {
	if v.kind != kObj {
		return value{}, false
	}
	if i := v.index(key); i >= 0 {
		return v.val(i), true
	}
	return value{}, false
}

// appendJS appends v as JSON.stringify writes it: compact, keys in order, strings with
// JSON.stringify's escaping, numbers in JavaScript's shortest form.
func appendJS(b []byte, v value) []byte {
	switch v.kind {
	case kNull:
		return append(b, "null"...)
	case kBool:
		if v.b {
			return append(b, "true"...)
		}
		return append(b, "false"...)
	case kNum:
		return appendJSNumber(b, v.n)
	case kStr:
		return wire.AppendJSONString(b, v.s)
	case kArr:
		b = append(b, '[')
		for i, e := range v.arr {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendJS(b, e)
		}
		return append(b, ']')
	}
	b = append(b, '{')
	for i := 0; i < v.members(); i++ {
		if i > 0 {
			b = append(b, ',')
		}
		b = wire.AppendJSONString(b, v.key(i))
		b = append(b, ':')
		b = appendJS(b, v.val(i))
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
