package jsonx

import (
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"
)

// validPieces are fragments a random text is made of: structure, literals, numbers,
// strings with escapes, control bytes, invalid UTF-8 and whitespace.
var validPieces = []string{"{", "}", "[", "]", ",", ":", " ", "\t", "\n", "\r", "\v", `"a"`, `"k\"\\\/\b\f\n\r\t"`,
	`"\u00e9\uD83D"`, `"\u12"`, `"\x"`, "\"\x01\"", "\"\xff\xfe\"", `"`, `\`, "true", "false", "null", "tru", "nul",
	"0", "-0", "01", "-", "1.5", "1.", ".5", "1e5", "1E+5", "1e-", "-2.5e-3", "123", "x"}

func randomText(r *rand.Rand) string {
	var b strings.Builder
	for n := r.IntN(24); n > 0; n-- {
		b.WriteString(validPieces[r.IntN(len(validPieces))])
	}
	return b.String()
}

func randomValue(r *rand.Rand, depth int) string {
	switch k := r.IntN(7); {
	case depth > 5 || k < 3:
		return validPieces[11+r.IntN(len(validPieces)-11)]
	case k < 5:
		var parts []string
		for i := r.IntN(4); i > 0; i-- {
			parts = append(parts, randomValue(r, depth+1))
		}
		return "[" + strings.Join(parts, ",") + "]"
	default:
		var parts []string
		for i := r.IntN(4); i > 0; i-- {
			parts = append(parts, ` "k" `+validPieces[5+r.IntN(2)]+randomValue(r, depth+1))
		}
		return "{" + strings.Join(parts, ",") + "}"
	}
}

func TestValidIsEncodingJSONValid(t *testing.T) {
	deep := func(n int, open, close string) string { return strings.Repeat(open, n) + strings.Repeat(close, n) }
	cases := []string{"", " ", "{}", "[]", "[1,]", "[,1]", `{"a":1,}`, `{"a" 1}`, `{1:2}`, "1 2", " 1 ", "-01",
		"1.0e+10", `"\u0041"`, `"\u004"`, "\"\x7f\"", "[[[]]]", "[[[]]", "{\"a\":[{}]}",
		deep(10000, "[", "]"), deep(10001, "[", "]"), deep(10000, `{"a":`, "}"), deep(10001, `{"a":`, "}"),
		deep(9999, "[", "]") + " ", "[" + deep(9999, `{"a":`, "}") + "]", "[" + deep(10000, `{"a":`, "}") + "]"}
	r := rand.New(rand.NewPCG(7, 11))
	for i := 0; i < 200000; i++ {
		if i%2 == 0 {
			cases = append(cases, randomText(r))
		} else {
			cases = append(cases, randomValue(r, 0))
		}
	}
	valid := 0
	for _, s := range cases {
		want := json.Valid([]byte(s))
		if got := Valid([]byte(s)); got != want {
			t.Fatalf("Valid(%.80q) = %v, encoding/json.Valid says %v", s, got, want)
		}
		if want {
			valid++
		}
	}
	if valid < len(cases)/10 {
		t.Fatalf("only %d of %d texts were valid: the generator tests too little", valid, len(cases))
	}
}

func FuzzValid(f *testing.F) {
	for _, s := range []string{`{"a":[1,"x",true,null]}`, `[1,]`, `"\u00zz"`, "-0.5e+3"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if got, want := Valid(data), json.Valid(data); got != want {
			t.Fatalf("Valid(%q) = %v, encoding/json.Valid says %v", data, got, want)
		}
	})
}
