package client

import (
	"encoding/json"
	"reflect"
	"testing"

	"pgregory.net/rapid"
)

// toAny converts a parsed value to what encoding/json's Unmarshal into any gives.
func toAny(v jv) any {
	switch v.kind {
	case 'o':
		m := map[string]any{}
		for _, it := range v.vals {
			m[it.key] = toAny(it)
		}
		return m
	case 'a':
		a := make([]any, len(v.vals))
		for i, it := range v.vals {
			a[i] = toAny(it)
		}
		return a
	case 's':
		return v.str
	case 'n':
		f, _ := v.asNumber()
		return f
	case 't':
		return true
	case 'f':
		return false
	}
	return nil
}

func checkJSON(t interface {
	Fatalf(string, ...any)
}, s string) {
	v, ok := parseJSON(s)
	var want any
	err := json.Unmarshal([]byte(s), &want)
	if ok != (err == nil) {
		t.Fatalf("%q: reader ok=%v, encoding/json err=%v", s, ok, err)
	}
	if ok && !reflect.DeepEqual(toAny(v), want) {
		t.Fatalf("%q: %#v, want %#v", s, toAny(v), want)
	}
}

func TestJSONReader(t *testing.T) {
	for _, s := range []string{
		`{}`, `[]`, `{"a":1,"a":2}`, `{"a":[1,-2.5e3,0,true,false,null,"x\u00e9\n\"\\\/"]}`, `"\ud83d\ude00"`, `"\ud83d"`,
		` { "k" : [ ] } `, `01`, `1.`, `-`, `1e`, `{"a" 1}`, `{"a":1,}`, `[1,]`, `tru`, `nul`, `"a`, "\"\x01\"", `{"a":1}x`,
		`"\x"`, `"\u12"`, `1E+2`, `-0`, `[[[[[]]]]]`, "", " ", `{"questions":[{"id":"a","question":"q"}]}`,
	} {
		checkJSON(t, s)
	}
	deep := ""
	for i := 0; i < 100; i++ {
		deep += "["
	}
	if _, ok := parseJSON(deep); ok {
		t.Fatal("unbounded nesting")
	}
	rapid.Check(t, func(t *rapid.T) {
		parts := rapid.SliceOfN(rapid.SampledFrom([]string{
			"{", "}", "[", "]", ",", ":", `"a"`, `"b\n"`, `"\u0041"`, "1", "-2.5", "1e3", "true", "null", " ", `"`, `\`, "0",
		}), 0, 20).Draw(t, "parts")
		s := ""
		for _, p := range parts {
			s += p
		}
		checkJSON(t, s)
	})
}

// TestJSONReaderReuse: a reader reused from text to text (the client keeps one) returns
// exactly what a fresh parse of each text returns, whatever the texts before it left in
// its buffer.
func TestJSONReaderReuse(t *testing.T) {
	var r reader
	for _, s := range []string{`{"a":"x","b":[1,{"c":2}]}`, `[3,[4,5],"y"]`, `{"d":{}}`, `[[],{}]`, `{"e":null}`, `1`} {
		want, _ := parseJSON(s)
		if got, _ := r.parse(s); !reflect.DeepEqual(got, want) {
			t.Fatalf("%q: reused reader gives %#v, a fresh one %#v", s, got, want)
		}
	}
	rapid.Check(t, func(t *rapid.T) {
		parts := rapid.SliceOfN(rapid.SampledFrom([]string{
			"{", "}", "[", "]", ",", ":", `"a"`, `"b\n"`, `"a":`, `"b":`, "1", "-2.5", "true", "null", " ", `"`, "0",
		}), 0, 24).Draw(t, "parts")
		s := ""
		for _, p := range parts {
			s += p
		}
		want, wok := parseJSON(s)
		got, gok := r.parse(s)
		if gok != wok || (wok && !reflect.DeepEqual(got, want)) {
			t.Fatalf("%q: reused reader gives %v %#v, a fresh one %v %#v", s, gok, got, wok, want)
		}
	})
}

// TestPlainRemainingMs: the claim frame's fast path reads exactly what the reader reads,
// and leaves every other text to it.
func TestPlainRemainingMs(t *testing.T) {
	for _, s := range []string{`{"remainingMs":0}`, `{"remainingMs":962}`, `{"remainingMs":120000}`,
		`{"remainingMs":999999999999999}`, `{"remainingMs":9999999999999999}`, `{"remainingMs":01}`,
		`{"remainingMs":-5}`, `{"remainingMs":1.5}`, `{"remainingMs":1e3}`, `{"remainingMs": 7}`,
		`{"remainingMs":}`, `{"remainingMs":"7"}`, `{"remainingMs":7,"x":1}`, `{"remainingms":7}`, `{}`, ``} {
		var r reader
		want, wok := r.remainingMs([]byte(" " + s)) // the leading space bypasses the fast path
		if got, ok := plainRemainingMs([]byte(s)); ok && (!wok || got != want) {
			t.Fatalf("%s: fast path %d, reader %d %v", s, got, want, wok)
		}
		if got, ok := r.remainingMs([]byte(s)); ok != wok || got != want {
			t.Fatalf("%s: %d %v, reader %d %v", s, got, ok, want, wok)
		}
	}
}
