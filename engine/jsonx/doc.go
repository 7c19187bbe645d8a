// Package jsonx is the engine's one JSON reader: every JSON text the engine reads (tool
// arguments, result texts, late replies, request payloads, request/header tools, Remote
// args, the protocol codec's messages) goes through it, with JavaScript's JSON.parse
// semantics, since the peer implementation reads every such text with JSON.parse
// (docs/PEER.md §11).
//
// What it offers, one concept a file:
//   - Reader and Value (parse.go, value.go): a text parsed into a small tree in one buffer
//     the Reader keeps, so a caller that keeps one Reader parses without allocating once
//     the buffer has grown; strings without escapes are substrings of the text.
//   - Scanner (scan.go): a walk that validates what it skips and builds a Value only for
//     the member asked for (the hot probes: is a text pending, is a header timed).
//   - Valid (valid.go): encoding/json.Valid's verdict, faster; End (end.go): the end of a
//     value in a checked text, to split it into its members' texts.
//   - ReadString (string.go): the one string-literal reader.
//
// Contract: the semantics are JSON.parse's (RFC 8259 grammar, whitespace space, tab, LF
// and CR; numbers are doubles, out of range ±Inf; a repeated key keeps its first position
// and its last value), with two documented decisions, each pinned by a test that cites it:
//   - nesting deeper than MaxDepth (10 000, encoding/json's limit, which the oracle and the
//     protocol envelope read with) is unreadable, where JSON.parse has no limit
//     (docs/PEER.md §11.1);
//   - an unpaired surrogate escape, and each byte that is not UTF-8, reads as U+FFFD, where
//     JSON.parse keeps a lone surrogate (a Go string is UTF-8; docs/PEER.md §11.2).
//
// The package is deterministic and pure. It is hand-written rather than built on
// github.com/go-json-experiment/json's jsontext (the basis of encoding/json/v2, which Go
// 1.26 has only under GOEXPERIMENT=jsonv2): the engine imports only the standard library
// (docs/ARCHITECTURE.md §1), and jsontext allocates for each string it returns where this
// package returns substrings of the text (the figures are in README's Performance
// section).
//
// The oracle does not use this package: it judges the engine with its own readers
// (encoding/json), so that a bug here cannot hide itself.
//
// Imports: the standard library only.
package jsonx
