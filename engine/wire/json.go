package wire

import (
	"slices"
	"strconv"
	"unicode/utf8"
)

// AppendJSONString appends s as a JSON string literal exactly as JavaScript's
// JSON.stringify writes it: only '"', '\\' and control characters are escaped (no HTML
// escaping), so texts the peer tests compare byte for byte come out identical.
// Invalid UTF-8 bytes become U+FFFD.
func AppendJSONString(b []byte, s string) []byte {
	b = slices.Grow(b, len(s)+2)
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c > '\\' || c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"':
				b = append(b, '\\', '"')
			case '\\':
				b = append(b, '\\', '\\')
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				const hex = "0123456789abcdef"
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, "\ufffd"...)
			i++
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

// JSONString returns s as a JSON string literal (see AppendJSONString).
func JSONString(s string) string {
	if plainJSON(s) {
		return `"` + s + `"`
	}
	return string(AppendJSONString(make([]byte, 0, len(s)+8), s))
}

// plainJSON reports whether s is written as is between the quotes: printable ASCII with
// no '"' or '\\'.
func plainJSON(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= utf8.RuneSelf || c == '"' || c == '\\' {
			return false
		}
	}
	return true
}

func appendKey(b []byte, first bool, key string) []byte {
	if !first {
		b = append(b, ',')
	}
	b = AppendJSONString(b, key)
	return append(b, ':')
}

func appendStrings(b []byte, ss []string) []byte {
	b = append(b, '[')
	for i, s := range ss {
		if i > 0 {
			b = append(b, ',')
		}
		b = AppendJSONString(b, s)
	}
	return append(b, ']')
}

func appendInt(b []byte, n int64) []byte { return strconv.AppendInt(b, n, 10) }
