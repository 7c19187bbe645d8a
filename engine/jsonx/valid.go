package jsonx

// MaxDepth is how deeply every JSON reader of the project nests arrays and objects:
// encoding/json's limit (its scanner refuses deeper texts, and the oracle and the protocol
// envelope read through it), and this package's (Valid, Reader, Scanner). JSON.parse has no
// such limit; a deeper text is unreadable everywhere in the project alike, a documented
// decision (docs/PEER.md §11.1).
const MaxDepth = 10000

// Valid reports whether data is exactly one JSON value with optional whitespace
// around it, with encoding/json.Valid's verdict on every input: the RFC 8259 grammar,
// whitespace space, tab, LF and CR, at most 10000 nested arrays and objects, and string
// contents checked only for control characters and escapes (not for UTF-8). It is a
// direct scanner instead of encoding/json's per-byte state machine, for the gateway's and
// the host's checks of every payload.
func Valid(data []byte) bool {
	var buf [32]byte
	stack := buf[:0] // '{' or '[' per open container
	n := len(data)
	i := 0
	ok := false
value:
	i = skipJSONSpace(data, i)
	if i >= n {
		return false
	}
	switch c := data[i]; {
	case c == '{':
		if len(stack) >= MaxDepth {
			return false
		}
		i = skipJSONSpace(data, i+1)
		if i < n && data[i] == '}' {
			i++
			goto end
		}
		stack = append(stack, '{')
		goto key
	case c == '[':
		if len(stack) >= MaxDepth {
			return false
		}
		i = skipJSONSpace(data, i+1)
		if i < n && data[i] == ']' {
			i++
			goto end
		}
		stack = append(stack, '[')
		goto value
	case c == '"':
		if i, ok = skipJSONString(data, i); !ok {
			return false
		}
		goto end
	case c == 't':
		if i, ok = skipJSONWord(data, i, "true"); !ok {
			return false
		}
		goto end
	case c == 'f':
		if i, ok = skipJSONWord(data, i, "false"); !ok {
			return false
		}
		goto end
	case c == 'n':
		if i, ok = skipJSONWord(data, i, "null"); !ok {
			return false
		}
		goto end
	case c == '-' || (c >= '0' && c <= '9'):
		if i, ok = numberEnd(data, i); !ok {
			return false
		}
		goto end
	}
	return false
key:
	if i >= n || data[i] != '"' {
		return false
	}
	if i, ok = skipJSONString(data, i); !ok {
		return false
	}
	i = skipJSONSpace(data, i)
	if i >= n || data[i] != ':' {
		return false
	}
	i++
	goto value
end:
	i = skipJSONSpace(data, i)
	if len(stack) == 0 {
		return i == n
	}
	if i >= n {
		return false
	}
	switch top, c := stack[len(stack)-1], data[i]; {
	case c == ',':
		i = skipJSONSpace(data, i+1)
		if top == '{' {
			goto key
		}
		goto value
	case top == '{' && c == '}', top == '[' && c == ']':
		stack = stack[:len(stack)-1]
		i++
		goto end
	}
	return false
}

// text is what the scanners read: a string or a byte slice (Valid's payloads).
type text interface{ ~string | ~[]byte }

func skipJSONSpace[T text](data T, i int) int {
	if i < len(data) && data[i] > ' ' {
		return i // compact JSON: no whitespace between tokens
	}
	for i < len(data) {
		switch data[i] {
		case ' ', '\t', '\n', '\r':
			i++
		default:
			return i
		}
	}
	return i
}

// skipJSONString skips the string literal at data[i] (its opening quote).
func skipJSONString[T text](data T, i int) (int, bool) {
	i++
	for i < len(data) {
		c := data[i]
		if c > '\\' || c >= 0x20 && c != '"' && c != '\\' {
			i++ // the usual byte: nothing to check
			continue
		}
		switch {
		case c == '"':
			return i + 1, true
		case c < 0x20:
			return i, false
		case c == '\\':
			i++
			if i >= len(data) {
				return i, false
			}
			switch data[i] {
			case 'b', 'f', 'n', 'r', 't', '\\', '/', '"':
				i++
			case 'u':
				if i+4 >= len(data) {
					return i, false
				}
				for j := i + 1; j < i+5; j++ {
					if h := data[j]; !('0' <= h && h <= '9' || 'a' <= h && h <= 'f' || 'A' <= h && h <= 'F') {
						return i, false
					}
				}
				i += 5
			default:
				return i, false
			}
		default:
			i++
		}
	}
	return i, false
}

func skipJSONWord[T text](data T, i int, word string) (int, bool) {
	if len(data)-i < len(word) || string(data[i:i+len(word)]) != word {
		return i, false
	}
	return i + len(word), true
}
