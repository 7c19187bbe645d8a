package client

import "testing"

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
