package jsonx

// Scanner walks one JSON text without building values: it validates what it skips (so a
// walk that succeeds to the end means the text parses, as with JSON.parse and then
// looking), reads only the keys and strings its caller asks for, and builds a Value only
// for the member the caller wants (Value). The hot probes of the engine (is a result text
// pending, is a request/header timed, the answers of a batch) use it instead of a Parse.
// Its depth rule is the Reader's: at most MaxDepth nested arrays and objects.
type Scanner struct {
	p     parser
	depth int     // containers open around the cursor
	r     *Reader // the buffer of Value, nil for a fresh one
}

// Scan returns a Scanner over s whose Value parses into r's buffer (a nil r: a buffer
// of its own, made only if Value is called).
func Scan(s string, r *Reader) Scanner { return Scanner{p: parser{s: s}, r: r} }

// Skip validates and skips the value at the cursor (and the whitespace before it).
func (s *Scanner) Skip() bool {
	p := &s.p
	p.ws()
	if p.i >= len(p.s) {
		return false
	}
	switch p.s[p.i] {
	case '{':
		return s.Members(func(string) bool { return s.Skip() })
	case '[':
		return s.Items(func() bool { return s.Skip() })
	}
	var v Value // literals, numbers and strings build nothing
	return p.value(&v, s.depth)
}

// Members walks the object at the cursor, calling member for each key with the cursor on
// its value; member must consume the value (Skip, Value, Str, Members, Items) or return
// false. ok is false for invalid JSON or a value that is not an object.
func (s *Scanner) Members(member func(key string) bool) bool {
	if s.depth >= MaxDepth || s.Peek() != '{' {
		return false
	}
	s.depth++
	defer func() { s.depth-- }()
	p := &s.p
	p.i++
	if s.Peek() == '}' {
		p.i++
		return true
	}
	for {
		p.ws()
		if p.i >= len(p.s) || p.s[p.i] != '"' {
			return false
		}
		key, next, ok := ReadString(p.s, p.i)
		p.i = next
		if !ok || s.next() != ':' {
			return false
		}
		if !member(key) {
			return false
		}
		switch s.next() {
		case ',':
		case '}':
			return true
		default:
			return false
		}
	}
}

// Items walks the array at the cursor, calling item with the cursor on each item; item
// must consume it or return false. ok is false for invalid JSON or a value that is not an
// array.
func (s *Scanner) Items(item func() bool) bool {
	if s.depth >= MaxDepth || s.Peek() != '[' {
		return false
	}
	s.depth++
	defer func() { s.depth-- }()
	p := &s.p
	p.i++
	if s.Peek() == ']' {
		p.i++
		return true
	}
	for {
		if !item() {
			return false
		}
		switch s.next() {
		case ',':
		case ']':
			return true
		default:
			return false
		}
	}
}

// Str reads the string at the cursor; without escapes it is a substring of the text (no
// allocation). ok is false when the value there is not a valid string.
func (s *Scanner) Str() (string, bool) {
	if s.Peek() != '"' {
		return "", false
	}
	str, next, ok := ReadString(s.p.s, s.p.i)
	s.p.i = next
	return str, ok
}

// Value parses the value at the cursor into the Scanner's Reader (valid until that
// Reader's next parse); a string, number or literal needs no buffer.
func (s *Scanner) Value() (Value, bool) {
	if c := s.Peek(); s.p.buf == nil && (c == '{' || c == '[') {
		r := s.r
		if r == nil {
			r = new(Reader)
		}
		q := r.parser(s.p.s)
		s.p.buf, s.p.top = q.buf, q.top
	}
	var v Value
	ok := s.p.value(&v, s.depth)
	return v, ok
}

// Peek is the next byte after whitespace (0 at the end), not consumed.
func (s *Scanner) Peek() byte {
	p := &s.p
	p.ws()
	if p.i >= len(p.s) {
		return 0
	}
	return p.s[p.i]
}

// next consumes whitespace and returns the next byte (0 at the end), consuming it.
func (s *Scanner) next() byte {
	c := s.Peek()
	if c != 0 {
		s.p.i++
	}
	return c
}

// Done reports whether only whitespace is left.
func (s *Scanner) Done() bool {
	s.p.ws()
	return s.p.i == len(s.p.s)
}
