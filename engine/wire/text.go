package wire

import "unicode/utf8"

// TextPart is the canonical text of a free-form string embedded unquoted in a text form
// (an answer label, an option label, a line of a row or a reply node): the string as it
// is, unless it holds a control character (a NUL, a newline: it would split a record
// over two lines or put a NUL in a golden file), invalid UTF-8, or starts with a double
// quote; then it is written as a JSON string, so the text form stays one line and reads
// back unambiguously.
func TextPart(s string) string {
	if plainText(s) {
		return s
	}
	return JSONString(s)
}

func plainText(s string) bool {
	if len(s) > 0 && s[0] == '"' {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x20 || c == 0x7f {
			return false
		}
		if c >= utf8.RuneSelf {
			return utf8.ValidString(s[i:]) && !hasC1(s[i:])
		}
	}
	return true
}

// hasC1 reports a C1 control character or a line or paragraph separator (U+0085,
// U+2028, U+2029 end a line for some readers).
func hasC1(s string) bool {
	for _, r := range s {
		if (r >= 0x80 && r <= 0x9f) || r == 0x2028 || r == 0x2029 {
			return true
		}
	}
	return false
}
