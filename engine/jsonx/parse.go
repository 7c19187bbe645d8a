package jsonx

import "strings"

// Parse reads one JSON text (surrounding whitespace allowed) into a Value with a buffer
// of its own. ok is false for anything JSON.parse rejects, and for nesting deeper than
// MaxDepth (docs/PEER.md §11.1).
func Parse(s string) (Value, bool) {
	var r Reader
	return r.Parse(s)
}

// Reader parses texts into one buffer it keeps: the Value a Parse returns (its items and
// members) is valid until the Reader's next Parse. A caller that reads a text, turns what
// it needs into its own values (strings point into the text, not the buffer) and only
// then reads another keeps one Reader, and its parses allocate nothing once the buffer
// has grown to its largest text. The zero Reader is ready; a Reader is not safe for
// concurrent use.
type Reader struct{ buf []Value }

// Parse is the package's Parse through r's buffer.
func (r *Reader) Parse(s string) (Value, bool) {
	p := r.parser(s)
	p.ws()
	var v Value
	if !p.value(&v, 0) {
		return Value{}, false
	}
	p.ws()
	return v, p.i == len(p.s)
}

// parser makes the parser of s over r's buffer, grown to hold every member of s.
func (r *Reader) parser(s string) parser {
	// Members of every object and array: at most one per '{', '[' or ','.
	n := strings.Count(s, "{") + strings.Count(s, "[") + strings.Count(s, ",")
	if cap(r.buf) < n {
		r.buf = make([]Value, max(n, 2*cap(r.buf)))
	}
	return parser{s: s, buf: r.buf[:n], top: n}
}

// parser reads one text into one buffer: the members of the objects and arrays being
// read stack up from its start (sp), and the members of each finished container move,
// contiguous, to its end, which fills downwards (top). Each member is in one of the two
// regions at a time, so they never meet.
type parser struct {
	s   string
	i   int
	buf []Value
	sp  int // buf[:sp]: members of the containers being read
	top int // buf[top:]: members of finished containers
}

// slot reserves the next member of the container being read (nil when full, which
// cannot happen: the buffer has room for every member).
func (p *parser) slot() *Value {
	if p.sp >= p.top {
		return nil
	}
	p.sp++
	return &p.buf[p.sp-1]
}

// keep moves the members of a finished container (from base) to the finished region and
// returns them.
func (p *parser) keep(base int) []Value {
	k := p.sp - base
	if k == 0 {
		return nil
	}
	p.top -= k
	copy(p.buf[p.top:], p.buf[base:p.sp])
	p.sp = base
	return p.buf[p.top : p.top+k : p.top+k]
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

// set fills v (a slot of the buffer may hold an older text's value: every field but the
// key is written).
func set(v *Value, kind Kind, str string, vals []Value) {
	v.kind, v.str, v.vals = kind, str, vals
}

// value reads one value into v (its key is the caller's). depth counts the containers
// around it: one more may open here only while fewer than MaxDepth do (encoding/json's
// rule).
func (p *parser) value(v *Value, depth int) bool {
	if p.i >= len(p.s) {
		return false
	}
	switch c := p.s[p.i]; {
	case c == '{':
		return depth < MaxDepth && p.object(v, depth)
	case c == '[':
		return depth < MaxDepth && p.array(v, depth)
	case c == '"':
		s, next, ok := ReadString(p.s, p.i)
		p.i = next
		set(v, String, s, nil)
		return ok
	case c == 't':
		return p.lit(v, "true", True)
	case c == 'f':
		return p.lit(v, "false", False)
	case c == 'n':
		return p.lit(v, "null", Null)
	case c == '-' || (c >= '0' && c <= '9'):
		end, ok := numberEnd(p.s, p.i)
		if ok {
			set(v, Number, p.s[p.i:end], nil)
		}
		p.i = end
		return ok
	}
	return false
}

func (p *parser) lit(v *Value, word string, kind Kind) bool {
	if len(p.s)-p.i >= len(word) && p.s[p.i:p.i+len(word)] == word {
		p.i += len(word)
		set(v, kind, "", nil)
		return true
	}
	return false
}

func (p *parser) object(v *Value, depth int) bool {
	p.i++ // {
	base := p.sp
	p.ws()
	if p.i < len(p.s) && p.s[p.i] == '}' {
		p.i++
		set(v, Object, "", nil)
		return true
	}
	for {
		p.ws()
		if p.i >= len(p.s) || p.s[p.i] != '"' {
			return false
		}
		k, next, ok := ReadString(p.s, p.i)
		p.i = next
		if !ok {
			return false
		}
		p.ws()
		if p.i >= len(p.s) || p.s[p.i] != ':' {
			return false
		}
		p.i++
		p.ws()
		// JSON.parse: a repeated key keeps its first position and takes the last value
		m := (*Value)(nil)
		for j := base; j < p.sp; j++ {
			if p.buf[j].key == k {
				m = &p.buf[j]
				break
			}
		}
		if m == nil {
			if m = p.slot(); m == nil {
				return false
			}
			m.key = k
		}
		if !p.value(m, depth+1) {
			return false
		}
		if done, ok := p.next(v, Object, '}', base); done || !ok {
			return ok
		}
	}
}

func (p *parser) array(v *Value, depth int) bool {
	p.i++ // [
	base := p.sp
	p.ws()
	if p.i < len(p.s) && p.s[p.i] == ']' {
		p.i++
		set(v, Array, "", nil)
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
		if done, ok := p.next(v, Array, ']', base); done || !ok {
			return ok
		}
	}
}

// next reads what follows a member or an item: a comma (more to come; done is false) or
// the container's closing byte, which sets v to kind with the values kept from base
// (done). ok is false for anything else.
func (p *parser) next(v *Value, kind Kind, close byte, base int) (done, ok bool) {
	p.ws()
	if p.i >= len(p.s) {
		return false, false
	}
	switch p.s[p.i] {
	case ',':
		p.i++
		return false, true
	case close:
		p.i++
		set(v, kind, "", p.keep(base))
		return true, true
	}
	return false, false
}

// numberEnd returns the end of the number literal
// -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)? at s[i], and whether there is one.
func numberEnd[T text](s T, i int) (int, bool) {
	n := len(s)
	if s[i] == '-' {
		i++
	}
	digits := func() int {
		start := i
		for i < n && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		return i - start
	}
	switch {
	case i < n && s[i] == '0':
		i++
	case digits() == 0:
		return i, false
	}
	if i < n && s[i] == '.' {
		i++
		if digits() == 0 {
			return i, false
		}
	}
	if i < n && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < n && (s[i] == '+' || s[i] == '-') {
			i++
		}
		if digits() == 0 {
			return i, false
		}
	}
	return i, true
}
