package questions

// scanner walks a JSON text without building values: it validates what it skips (so the
// result is the same as parsing it with JSON.parse and then looking), and reads only the
// keys and strings a probe asks for. The projection's two probes on the hot path (is this
// request/header timed, is this result text pending) use it instead of parseJSON.
type scanner struct {
	p parser
}

// skip validates and skips one value.
func (s *scanner) skip(depth int) bool {
	p := &s.p
	if p.i >= len(p.s) || depth >= maxDepth && (p.s[p.i] == '{' || p.s[p.i] == '[') {
		return false
	}
	switch c := p.s[p.i]; {
	case c == '{':
		p.i++
		p.ws()
		if p.i < len(p.s) && p.s[p.i] == '}' {
			p.i++
			return true
		}
		for {
			p.ws()
			if !s.skipString() {
				return false
			}
			if !s.colon() {
				return false
			}
			if !s.skip(depth + 1) {
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
	case c == '[':
		p.i++
		p.ws()
		if p.i < len(p.s) && p.s[p.i] == ']' {
			p.i++
			return true
		}
		for {
			p.ws()
			if !s.skip(depth + 1) {
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
	case c == '"':
		return s.skipString()
	default:
		_, ok := p.value(depth) // literals and numbers allocate nothing
		return ok
	}
}

// skipString validates and skips a string.
func (s *scanner) skipString() bool {
	p := &s.p
	if p.i >= len(p.s) || p.s[p.i] != '"' {
		return false
	}
	_, ok := s.str()
	return ok
}

// str reads a string; without escapes it is a substring of the text (no allocation).
func (s *scanner) str() (string, bool) { return s.p.str() }

// colon consumes whitespace, ':' and whitespace.
func (s *scanner) colon() bool {
	p := &s.p
	p.ws()
	if p.i >= len(p.s) || p.s[p.i] != ':' {
		return false
	}
	p.i++
	p.ws()
	return true
}

// next consumes whitespace and returns the next byte (0 at the end), consuming it.
func (s *scanner) next() byte {
	p := &s.p
	p.ws()
	if p.i >= len(p.s) {
		return 0
	}
	c := p.s[p.i]
	p.i++
	return c
}

func (s *scanner) peek() byte {
	p := &s.p
	p.ws()
	if p.i >= len(p.s) {
		return 0
	}
	return p.s[p.i]
}

// members walks the object at the cursor, calling member for each key with the cursor on
// its value; member must consume the value (or return false). ok is false for invalid
// JSON or a value that is not an object.
func (s *scanner) members(depth int, member func(key string) bool) bool {
	if depth >= maxDepth || s.peek() != '{' {
		return false
	}
	s.p.i++
	if s.peek() == '}' {
		s.p.i++
		return true
	}
	for {
		s.p.ws()
		if s.p.i >= len(s.p.s) || s.p.s[s.p.i] != '"' {
			return false
		}
		key, ok := s.str()
		if !ok || !s.colon() || !member(key) {
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

// done reports whether only whitespace is left.
func (s *scanner) done() bool {
	s.p.ws()
	return s.p.i == len(s.p.s)
}

// scanPending reports whether text is a JSON object whose pending member (the last one,
// as JSON.parse keeps) is true.
func scanPending(text string) bool {
	s := scanner{p: parser{s: text}}
	pending := false
	ok := s.members(0, func(key string) bool {
		if key != "pending" {
			return s.skip(1)
		}
		v, ok := s.p.value(1)
		if v.kind == kArr || v.kind == kObj {
			pending = false
			return ok
		}
		pending = ok && v.kind == kBool && v.b
		return ok
	})
	return ok && s.done() && pending
}

// scanHeaderTimed is headerTimed without building the tools value.
func scanHeaderTimed(tools string) bool {
	s := scanner{p: parser{s: tools}}
	if s.peek() != '[' {
		return false
	}
	s.p.i++
	timed := false
	if s.peek() == ']' {
		s.p.i++
		return false
	}
	for {
		s.p.ws()
		if s.peek() == '{' {
			isAsk, hasTimeout := false, false
			ok := s.members(1, func(key string) bool {
				switch key {
				case "name":
					if s.peek() != '"' {
						isAsk = false
						return s.skip(2)
					}
					n, ok := s.str()
					isAsk = ok && n == ToolName
					return ok
				case "parameters":
					if s.peek() != '{' {
						hasTimeout = false
						return s.skip(2)
					}
					hasTimeout = false
					return s.members(2, func(key string) bool {
						if key != "properties" {
							return s.skip(3)
						}
						if s.peek() != '{' {
							hasTimeout = false
							return s.skip(3)
						}
						has := false
						ok := s.members(3, func(key string) bool {
							if key == "timeout" {
								has = true
							}
							return s.skip(4)
						})
						hasTimeout = has
						return ok
					})
				}
				return s.skip(2)
			})
			if !ok {
				return false
			}
			if isAsk && hasTimeout {
				timed = true
			}
		} else if !s.skip(1) {
			return false
		}
		switch s.next() {
		case ',':
		case ']':
			return timed && s.done()
		default:
			return false
		}
	}
}
