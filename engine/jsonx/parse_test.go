package jsonx

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"pgregory.net/rapid"
)

// toAny converts a parsed value to what encoding/json's Unmarshal into any gives.
func toAny(v Value) any {
	switch v.Kind() {
	case Object:
		m := map[string]any{}
		for _, it := range v.Items() {
			m[it.Key()] = toAny(it)
		}
		return m
	case Array:
		a := make([]any, v.Len())
		for i, it := range v.Items() {
			a[i] = toAny(it)
		}
		return a
	case String:
		s, _ := v.Str()
		return s
	case Number:
		f, _ := v.Num()
		return f
	case True:
		return true
	case False:
		return false
	}
	return nil
}

// checkParse compares Parse with encoding/json (the same acceptance, the same value:
// encoding/json's Unmarshal into any also keeps a repeated key's last value).
func checkParse(t interface{ Fatalf(string, ...any) }, s string) {
	v, ok := Parse(s)
	if valid := json.Valid([]byte(s)); ok != valid {
		t.Fatalf("%.80q: Parse ok=%v, encoding/json.Valid %v", s, ok, valid)
	}
	var want any
	// encoding/json refuses a number beyond float64's range, which JSON.parse reads as
	// ±Infinity (TestParse's numbers case): values are compared where it reads them
	if err := json.Unmarshal([]byte(s), &want); ok && err == nil && !reflect.DeepEqual(toAny(v), want) {
		t.Fatalf("%q: %#v, want %#v", s, toAny(v), want)
	}
}

var parsePieces = []string{
	"{", "}", "[", "]", ",", ":", `"a"`, `"b\n"`, `"a":`, `"b":`, `"\u0041"`, "1", "-2.5", "1e3", "true", "null", " ", `"`, `\`, "0",
}

func TestParse(t *testing.T) {
	t.Run("agrees with encoding/json on fixed texts", func(t *testing.T) {
		for _, s := range []string{
			`{}`, `[]`, `{"a":1,"a":2}`, `{"a":[1,-2.5e3,0,true,false,null,"x\u00e9\n\"\\\/"]}`, `"\ud83d\ude00"`, `"\ud83d"`,
			` { "k" : [ ] } `, `01`, `1.`, `-`, `1e`, `{"a" 1}`, `{"a":1,}`, `[1,]`, `tru`, `nul`, `"a`, "\"\x01\"", `{"a":1}x`,
			`"\x"`, `"\u12"`, `1E+2`, `-0`, `[[[[[]]]]]`, "", " ", `{"questions":[{"id":"a","question":"q"}]}`,
			strings.Repeat("[", 100),
		} {
			checkParse(t, s)
		}
	})
	t.Run("agrees with encoding/json on random texts", func(t *testing.T) {
		rapid.Check(t, func(t *rapid.T) {
			parts := rapid.SliceOfN(rapid.SampledFrom(parsePieces), 0, 24).Draw(t, "parts")
			checkParse(t, strings.Join(parts, ""))
		})
	})
	t.Run("a repeated key keeps its first position and its last value, as JSON.parse builds an object", func(t *testing.T) {
		v, ok := Parse(`{"a":1,"b":{"c":[2]},"a":[3,4],"b":null}`)
		if !ok || v.Len() != 2 {
			t.Fatalf("%v %d", ok, v.Len())
		}
		a, b := v.Items()[0], v.Items()[1]
		if a.Key() != "a" || a.Len() != 2 || b.Key() != "b" || b.Kind() != Null || v.Get("a").Len() != 2 {
			t.Fatalf("%#v", v)
		}
	})
	t.Run("numbers are doubles as JSON.parse reads them", func(t *testing.T) {
		for lit, want := range map[string]float64{"1.50": 1.5, "-0": 0, "1e400": 0, "1E2": 100, "5e-400": 0} {
			v, ok := Parse(lit)
			f, isNum := v.Num()
			if lit == "1e400" {
				want = f // +Inf: checked below
				if f <= 1e308 {
					t.Fatalf("1e400 is %v, want +Inf", f)
				}
			}
			if !ok || !isNum || f != want {
				t.Fatalf("%s: %v %v %v", lit, f, ok, isNum)
			}
		}
	})
	t.Run("strings without escapes are substrings of the text", func(t *testing.T) {
		text := `{"key":"value"}`
		v, _ := Parse(text)
		s, _ := v.Get("key").Str()
		if s != "value" || !strings.Contains(text, s) {
			t.Fatalf("%q", s)
		}
		if n := testing.AllocsPerRun(100, func() { v, _ = Parse(text); s, _ = v.Get("key").Str() }); n > 1 {
			t.Fatalf("a parse with a fresh buffer allocates %v times, want 1 (the buffer)", n)
		}
	})
}

// TestReaderReuse: a Reader reused from text to text returns exactly what a fresh Parse
// of each text returns, whatever the texts before it left in its buffer, and allocates
// nothing once its buffer is large enough.
func TestReaderReuse(t *testing.T) {
	var r Reader
	for _, s := range []string{`{"a":"x","b":[1,{"c":2}]}`, `[3,[4,5],"y"]`, `{"d":{}}`, `[[],{}]`, `{"e":null}`, `1`} {
		want, _ := Parse(s)
		if got, _ := r.Parse(s); !reflect.DeepEqual(got, want) {
			t.Fatalf("%q: reused reader gives %#v, a fresh one %#v", s, got, want)
		}
	}
	rapid.Check(t, func(t *rapid.T) {
		s := strings.Join(rapid.SliceOfN(rapid.SampledFrom(parsePieces), 0, 24).Draw(t, "parts"), "")
		want, wok := Parse(s)
		got, gok := r.Parse(s)
		if gok != wok || (wok && !reflect.DeepEqual(got, want)) {
			t.Fatalf("%q: reused reader gives %v %#v, a fresh one %v %#v", s, gok, got, wok, want)
		}
	})
	text := `{"questions":[{"id":"a","question":"A?","options":[{"label":"x"}]}]}`
	r.Parse(text)
	if n := testing.AllocsPerRun(100, func() { r.Parse(text) }); n != 0 {
		t.Fatalf("a reused reader allocates %v times a parse", n)
	}
}
