package wire

// The JSON codec of the protocol vocabulary (twosettle-conform/1): every Command, Effect,
// Frame, Session log event, HostState and HostConfig as one line of JSON, and back. The
// schemas are docs/protocol/*.schema.json; the rules every encoder and decoder here keeps:
//
//   - A union is an object with a discriminator first: "kind" for commands, effects,
//     frames and outcomes (the kebab-case word their String starts with), "type" for log
//     events (the peer's event type names, session.Type*), "ok" for envelopes.
//   - Keys are camelCase and always come in the Go declaration order, so one value has one
//     encoding, byte for byte (encoders are hand-written appends, no reflection).
//   - An optional field is omitted when its zero value means "absent" ("" for owner, forkOf,
//     tools, parent, outcome, detail, code; false for flags such as final, keepInbox,
//     reset, isError, noText, live, root; a nil pointer). Every other field is always
//     written, zero or not (gen, cutAfter, through, seq, time, turn, ...). Decoders accept an
//     optional key written with its zero value.
//   - A list field is always written as an array, [] for nil and empty alike, and decodes
//     to nil when it is empty or absent. The one exception is a question's options, which
//     keep the peer's question shape: omitted when absent (nil), [] when present and
//     empty (see Question.AppendJSON, docs/PEER.md §11.3).
//   - A raw JSON payload (json.RawMessage: Waterfall.Request, StreamItem.Value,
//     Direct.Body, Call.Args, StreamOpen.Args, Envelope.Value, Outcome.Value,
//     DirectResult.Value) is embedded as its JSON value byte for byte when it is
//     embeddable: valid JSON (jsonx.Valid), valid UTF-8, no '\n' or '\r', no space or tab
//     before or after the value, and nested at most maxPayloadDepth deep. Otherwise it is
//     written as a JSON string under the same key with a "Raw" suffix ("argsRaw":"…"), so any
//     payload round-trips and a message stays one line. A nil payload is an absent key; an
//     empty non-nil one is "argsRaw":"".
//   - Model text (ToolCall.Args, RequestHeader.Tools, the arguments of tool and PTC
//     events) is a JSON string, whatever it holds.
//   - Strings are written with AppendJSONString: bytes that are not valid UTF-8 become
//     U+FFFD (payloads too, before the embeddable test), so a value with invalid UTF-8 is
//     normalised by its first encoding; after that, encode(decode(b)) == b.
//   - Integers are JSON integers: decoders refuse a fraction or an exponent (1.5, 1e3, 1.0)
//     and values outside the Go type's range (int is 64 bits on the hosts we build for).
//   - Decoding is strict: an unknown key, a duplicate key, a wrong JSON type, a missing
//     required key, null where a value is expected, or an unknown discriminator is an
//     error that names its path ("effect.frame.events[2].type: unknown event type \"x\"").
//   - The codec checks shape, not values: an unknown direct op, a negative gen or an
//     invalid tool mode decodes, and the host refuses it as it would refuse the Go value.
//
// Append functions return b unchanged and an error for a value JSON cannot hold (a nil
// or foreign union member, an outcome or envelope whose fields contradict its kind, an
// unknown wait-note kind); the error names the field.

import (
	"encoding/json"
	"unicode/utf8"

	"github.com/twosettle/twosettle/engine/jsonx"
)

// maxPayloadDepth is how deeply an embedded payload may nest arrays and objects; a deeper
// one goes under its Raw key as a string, so a message stays readable by JSON parsers
// with small recursion limits (Python's is about 1 000 frames).
const maxPayloadDepth = 512

// encodeError is an Append error: the path of the field that cannot be represented.
type encodeError struct {
	path, msg string
}

func (e *encodeError) Error() string { return e.path + ": " + e.msg }

// within prefixes err's path with the field that holds it ("frame" + "events[2]").
func within(prefix string, err error) error {
	e, ok := err.(*encodeError)
	if !ok {
		return err
	}
	if e.path == "" {
		return &encodeError{prefix, e.msg}
	}
	if e.path[0] == '[' {
		return &encodeError{prefix + e.path, e.msg}
	}
	return &encodeError{prefix + "." + e.path, e.msg}
}

func appendBool(b []byte, v bool) []byte {
	if v {
		return append(b, "true"...)
	}
	return append(b, "false"...)
}

// appendPayload appends `,"key":<raw>` or `,"keyRaw":"<raw as text>"`, or nothing for a
// nil payload (see the package rules above).
func appendPayload(b []byte, key string, raw json.RawMessage) []byte {
	if raw == nil {
		return b
	}
	b = append(b, ',', '"')
	b = append(b, key...)
	if embeddable(raw) {
		b = append(b, '"', ':')
		return append(b, raw...)
	}
	if !utf8.Valid(raw) {
		fixed := jsonx.ToValidUTF8(string(raw))
		if embeddable([]byte(fixed)) {
			b = append(b, '"', ':')
			return append(b, fixed...)
		}
		b = append(b, `Raw":`...)
		return AppendJSONString(b, fixed)
	}
	b = append(b, `Raw":`...)
	return AppendJSONString(b, string(raw))
}

// embeddable reports whether raw can be written as a JSON value inside a message and read
// back as the same bytes.
func embeddable(raw []byte) bool {
	n := len(raw)
	if n == 0 || jsonx.IsSpace(raw[0]) || jsonx.IsSpace(raw[n-1]) || !jsonx.Valid(raw) {
		return false
	}
	// raw is valid JSON: a raw '\n' or '\r' can only be whitespace between tokens.
	depth := 0
	ascii := true
	inString, escaped := false, false
	for _, c := range raw {
		switch {
		case c >= utf8.RuneSelf:
			ascii = false
		case inString:
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
			}
		case c == '"':
			inString = true
		case c == '{' || c == '[':
			if depth++; depth > maxPayloadDepth {
				return false
			}
		case c == '}' || c == ']':
			depth--
		case c == '\n' || c == '\r':
			return false
		}
	}
	return ascii || utf8.Valid(raw)
}
