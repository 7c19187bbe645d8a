package client

import (
	"math"
	"strconv"
	"strings"

	"github.com/twosettle/twosettle/engine/wire"
)

// jv is one parsed JSON value. The client reads every recorded or received JSON text
// once, with JSON.parse's semantics (a repeated key keeps its last value), into this small
// tree: reflection-free and a few allocations per text.
type jv struct {
	kind byte   // 'o' object, 'a' array, 's' string, 'n' number, 't' true, 'f' false, 'z' null, 0 absent
	str  string // string value, or a number's literal
	key  string // the member's key, for a value inside an object
	vals []jv   // object members or array items
}

// maxDepth bounds nesting, so hostile input cannot exhaust the stack: the project's one
// limit, wire.MaxJSONDepth (docs/PEER.md §11.1), the same as engine/questions' reader.
const maxDepth = wire.MaxJSONDepth

// parseJSON parses one JSON text; ok is false for anything that is not exactly one value.
func parseJSON(s string) (jv, bool) {
	var r reader
	return r.parse(s)
}

// reader parses texts into one buffer it keeps: the value a parse returns (its members
// and items) is valid until the reader's next parse. Every reader of the client reads a
// text, turns what it needs into wire values (strings point into the text, not the
// buffer) and only then reads another, so a client keeps one reader and its parses
// allocate nothing once the buffer has grown to its largest text.
type reader struct{ buf []jv }

func (r *reader) parse(s string) (jv, bool) {
	// Members of every object and array: at most one per '{', '[' or ','.
	n := strings.Count(s, "{") + strings.Count(s, "[") + strings.Count(s, ",")
	if cap(r.buf) < n {
		r.buf = make([]jv, max(n, 2*cap(r.buf)))
	}
	p := jparser{s: s, buf: r.buf[:n], top: n}
	p.ws()
	var v jv
	if !p.value(&v, 0) {
		return jv{}, false
	}
	p.ws()
	return v, p.i == len(p.s)
}

// get is the value of key (the last one when repeated); absent values have kind 0.
func (v jv) get(key string) jv {
	if v.kind != 'o' {
		return jv{}
	}
	for i := len(v.vals) - 1; i >= 0; i-- {
		if v.vals[i].key == key {
			return v.vals[i]
		}
	}
	return jv{}
}

func (v jv) has(key string) bool { return v.get(key).kind != 0 }

func (v jv) isObject() bool { return v.kind == 'o' }
func (v jv) isArray() bool  { return v.kind == 'a' }

func (v jv) asString() (string, bool) { return v.str, v.kind == 's' }

func (v jv) asBool() (bool, bool) { return v.kind == 't', v.kind == 't' || v.kind == 'f' }

func (v jv) asNumber() (float64, bool) {
	if v.kind != 'n' {
		return 0, false
	}
	f, err := strconv.ParseFloat(v.str, 64)
	if err != nil && !math.IsInf(f, 0) {
		return 0, false
	}
	return f, true
}

// asStrings reads an array of strings only.
func (v jv) asStrings() ([]string, bool) {
	if v.kind != 'a' {
		return nil, false
	}
	out := make([]string, 0, len(v.vals))
	for _, it := range v.vals {
		if it.kind != 's' {
			return nil, false
		}
		out = append(out, it.str)
	}
	return out, true
}

// jparser reads one text into one buffer allocated for it: the members of the objects
// and arrays being read stack up from its start (sp), and the members of each finished
// container move, contiguous, to its end, which fills downwards (top). Each member is in
// one of the two regions at a time, so they never meet.
type jparser struct {
	s   string
	i   int
	buf []jv
	sp  int // buf[:sp]: members of the containers being read
	top int // buf[top:]: members of finished containers
}

// slot reserves the next member of the container being read (nil when full, which
// cannot happen: the buffer has room for every member).
func (p *jparser) slot() *jv {
	if p.sp >= p.top {
		return nil
	}
	p.sp++
	return &p.buf[p.sp-1]
}

// keep moves the members of a finished container (from base) to the finished region and
// returns them.
func (p *jparser) keep(base int) []jv {
	k := p.sp - base
	p.top -= k
	copy(p.buf[p.top:], p.buf[base:p.sp])
	p.sp = base
	return p.buf[p.top : p.top+k : p.top+k]
}

func (p *jparser) ws() {
	if p.i < len(p.s) && p.s[p.i] > ' ' {
		return // compact JSON: no whitespace between tokens
	}
	s, i := p.s, p.i
	for i < len(s) && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r') {
		i++
	}
	p.i = i
}

// set fills v (a slot of the buffer may hold an older text's value: every field but the
// key is written).
func set(v *jv, kind byte, str string, vals []jv) {
	v.kind, v.str, v.vals = kind, str, vals
}

func (p *jparser) lit(v *jv, word string, kind byte) bool {
	if len(p.s)-p.i >= len(word) && p.s[p.i:p.i+len(word)] == word {
		p.i += len(word)
		set(v, kind, "", nil)
		return true
	}
	return false
}

// value reads one value into v (its key is the caller's).
func (p *jparser) value(v *jv, depth int) bool {
	// depth counts the containers around this value: one more may open here only while
	// fewer than maxDepth do (encoding/json's rule).
	if p.i >= len(p.s) || depth >= maxDepth && (p.s[p.i] == '{' || p.s[p.i] == '[') {
		return false
	}
	switch c := p.s[p.i]; {
	case c == '{':
		return p.object(v, depth)
	case c == '[':
		return p.array(v, depth)
	case c == '"':
		s, ok := p.string()
		set(v, 's', s, nil)
		return ok
	case c == 't':
		return p.lit(v, "true", 't')
	case c == 'f':
		return p.lit(v, "false", 'f')
	case c == 'n':
		return p.lit(v, "null", 'z')
	case c == '-' || (c >= '0' && c <= '9'):
		return p.number(v)
	}
	return false
}

func (p *jparser) object(v *jv, depth int) bool {
	p.i++ // {
	base := p.sp
	p.ws()
	if p.i < len(p.s) && p.s[p.i] == '}' {
		p.i++
		set(v, 'o', "", nil)
		return true
	}
	for {
		p.ws()
		if p.i >= len(p.s) || p.s[p.i] != '"' {
			return false
		}
		k, ok := p.string()
		if !ok {
			return false
		}
		p.ws()
		if p.i >= len(p.s) || p.s[p.i] != ':' {
			return false
		}
		p.i++
		p.ws()
		m := p.slot()
		if m == nil {
			return false
		}
		m.key = k
		if !p.value(m, depth+1) {
			return false
		}
		p.ws()
		if p.i >= len(p.s) {
			return false
		}
		switch p.s[p.i] {
		case ',':
			p.i++
		case '}':
			p.i++
			set(v, 'o', "", p.keep(base))
			return true
		default:
			return false
		}
	}
}

func (p *jparser) array(v *jv, depth int) bool {
	p.i++ // [
	base := p.sp
	p.ws()
	if p.i < len(p.s) && p.s[p.i] == ']' {
		p.i++
		set(v, 'a', "", nil)
		return true
	}
	for {
		p.ws()
		m := p.slot()
		if m == nil {
			return false
		}
		m.key = ""
		if !p.value(m, depth+1) {
			return false
		}
		p.ws()
		if p.i >= len(p.s) {
			return false
		}
		switch p.s[p.i] {
		case ',':
			p.i++
		case ']':
			p.i++
			set(v, 'a', "", p.keep(base))
			return true
		default:
			return false
		}
	}
}

// string reads the string literal at p.i (its opening quote): wire.ReadJSONString.
func (p *jparser) string() (string, bool) {
	str, next, ok := wire.ReadJSONString(p.s, p.i)
	p.i = next
	return str, ok
}

func (p *jparser) number(v *jv) bool {
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
		return false
	}
	if p.i < len(p.s) && p.s[p.i] == '.' {
		p.i++
		if digits() == 0 {
			return false
		}
	}
	if p.i < len(p.s) && (p.s[p.i] == 'e' || p.s[p.i] == 'E') {
		p.i++
		if p.i < len(p.s) && (p.s[p.i] == '+' || p.s[p.i] == '-') {
			p.i++
		}
		if digits() == 0 {
			return false
		}
	}
	set(v, 'n', p.s[start:p.i], nil)
	return true
}
