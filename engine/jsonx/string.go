package jsonx

import (
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// ReadString reads the JSON string literal whose opening quote is s[i], as JSON.parse
// reads it from a decoded text, with one documented exception: escapes are resolved, and
// a surrogate escape that does not pair becomes U+FFFD, where JSON.parse keeps the lone
// surrogate (a Go string is UTF-8, which cannot hold one; encoding/json, and so the
// oracle, does the same: docs/PEER.md §11.2). Each byte that is not part of valid UTF-8
// becomes U+FFFD (a text decoder would have replaced it before JSON.parse saw the text;
// one U+FFFD a byte is what encoding/json does, so the engine and the oracle read the same
// string). next is the index after the closing quote. ok is false for what JSON.parse
// rejects: a raw control character, an unknown escape, a short \u escape, no closing
// quote. It is the one string reader of the engine (the tree, the scanner, the protocol
// codec and the host's Remote args); a string without escapes is returned as a substring
// of s, with no allocation.
func ReadString(s string, i int) (str string, next int, ok bool) {
	start := i + 1
	ascii := true
	for i = start; i < len(s); i++ {
		c := s[i]
		if c > '\\' || c >= 0x20 && c != '"' && c != '\\' {
			if c >= utf8.RuneSelf {
				ascii = false
			}
			continue // the usual byte
		}
		if c == '"' {
			str = s[start:i]
			if !ascii && !utf8.ValidString(str) {
				str = ToValidUTF8(str)
			}
			return str, i + 1, true
		}
		if c < 0x20 {
			return "", i, false
		}
		return readEscaped(s, start, i)
	}
	return "", len(s), false
}

// readEscaped finishes a string literal that has an escape at s[i].
func readEscaped(s string, start, i int) (string, int, bool) {
	b := append(make([]byte, 0, i-start+16), s[start:i]...)
	for i < len(s) {
		c := s[i]
		switch {
		case c == '"':
			str := string(b)
			if !utf8.ValidString(str) {
				str = ToValidUTF8(str)
			}
			return str, i + 1, true
		case c < 0x20:
			return "", i, false
		case c != '\\':
			b = append(b, c)
			i++
			continue
		}
		if i+1 >= len(s) {
			return "", len(s), false
		}
		e := s[i+1]
		i += 2
		switch e {
		case '"', '\\', '/':
			b = append(b, e)
		case 'b':
			b = append(b, '\b')
		case 'f':
			b = append(b, '\f')
		case 'n':
			b = append(b, '\n')
		case 'r':
			b = append(b, '\r')
		case 't':
			b = append(b, '\t')
		case 'u':
			r, ok := hex4(s, i)
			if !ok {
				return "", i, false
			}
			i += 4
			if utf16.IsSurrogate(r) {
				// a pair is two escapes; anything else leaves a lone surrogate, and what
				// follows is read on its own
				if strings.HasPrefix(s[i:], `\u`) {
					if r2, ok := hex4(s, i+2); ok {
						if d := utf16.DecodeRune(r, r2); d != utf8.RuneError {
							b = utf8.AppendRune(b, d)
							i += 6
							continue
						}
					}
				}
				r = utf8.RuneError
			}
			b = utf8.AppendRune(b, r)
		default:
			return "", i - 1, false
		}
	}
	return "", len(s), false
}

// ToValidUTF8 replaces each byte of s that is not part of valid UTF-8 with U+FFFD (one a
// byte, as encoding/json does; strings.ToValidUTF8 would replace a run with one).
func ToValidUTF8(s string) string {
	b := make([]byte, 0, len(s)+8)
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 {
			b = utf8.AppendRune(b, utf8.RuneError)
		} else {
			b = append(b, s[i:i+n]...)
		}
		i += n
	}
	return string(b)
}

// hex4 reads the four hex digits of a \u escape at s[i:].
func hex4(s string, i int) (rune, bool) {
	if i+4 > len(s) {
		return 0, false
	}
	var r rune
	for _, c := range []byte(s[i : i+4]) {
		r <<= 4
		switch {
		case c >= '0' && c <= '9':
			r |= rune(c - '0')
		case c >= 'a' && c <= 'f':
			r |= rune(c-'a') + 10
		case c >= 'A' && c <= 'F':
			r |= rune(c-'A') + 10
		default:
			return 0, false
		}
	}
	return r, true
}
