package questions

import (
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/twosettle/twosettle/engine/jsonx"
)

// The value-based probes: the plain reading of docs/PEER.md §5.2, against which the scanner is
// checked.

// isPendingValue reports whether a result text is a pending result: a JSON object with
// pending === true (the projection's loose test, docs/PEER.md §5.2 and §8.6: callId not required).
func isPendingValue(text string) bool {
	v, ok := jsonx.Parse(text)
	return ok && v.Get("pending").Kind() == jsonx.True
}

// headerTimed reports whether a request/header's tools (raw JSON) declare the timed
// schema: an array with an entry whose name is ask_user_question, whose parameters is an
// object and whose parameters.properties is an object with a timeout key (PROJ-2).
func headerTimedValue(tools string) bool {
	v, ok := jsonx.Parse(tools)
	if !ok || !v.IsArray() {
		return false
	}
	for _, t := range v.Items() {
		if name, _ := t.Get("name").Str(); name != ToolName || t.Get("name").Kind() != jsonx.String {
			continue
		}
		params := t.Get("parameters")
		if !params.IsObject() {
			continue
		}
		props := params.Get("properties")
		if !props.IsObject() {
			continue
		}
		if props.Get("timeout").Exists() {
			return true
		}
	}
	return false
}

func TestScanner(t *testing.T) {
	t.Run("PROJ-2 the header scan agrees with parsing the tools", func(t *testing.T) {
		cases := []string{timedTools, legacyTools, ``, `[]`, `[1,"x",null]`, `"x"`, `[{"name":"ask_user_question","parameters":{"properties":{"timeout":1}}}]`,
			`[{"name":"ask_user_question","parameters":{"properties":{"timeout":1}},"name":"x"}]`,
			`[{"name":"x","name":"ask_user_question","parameters":{"properties":{"timeout":1}}}]`,
			`[{"name":"ask_user_question","parameters":{"properties":{"timeout":1}},"parameters":{}}]`,
			`[{"name":"ask_user_question","parameters":{"properties":{"timeout":1},"properties":{"x":1}}}]`,
			`[{"name":"ask_user_question","parameters":{"properties":{"time\u006fut":1}}}]`,
			`[{"name":"ask_user_question","parameters":{"properties":{"timeout":1}}}] x`,
			`[{"name":"ask_user_question","parameters":{"properties":{"timeout":1}}},]`,
			`[{"name":"ask_user_question","parameters":{"properties":{"timeout":[1,{"a":[]}]}}},{"name":1}]`}
		for _, c := range cases {
			if scanHeaderTimed(c) != headerTimedValue(c) {
				t.Errorf("%s: scan %v, value %v", c, scanHeaderTimed(c), headerTimedValue(c))
			}
		}
	})
	t.Run("PROJ-4 the pending scan agrees with parsing the text", func(t *testing.T) {
		cases := []string{pendingFor("c1"), `{"pending":true}`, `{"pending":false}`, `{"pending":"true"}`, `{"pending":true,"pending":false}`,
			`{"pending":false,"pending":true}`, `{"pending":{"a":1}}`, `{"pending":true} x`, `[{"pending":true}]`, `{"pending":true,}`, ``, `{}`, `{"a":[1,2,{"b":null}],"pending":true}`}
		for _, c := range cases {
			if isPendingText(c) != isPendingValue(c) {
				t.Errorf("%s: scan %v, value %v", c, isPendingText(c), isPendingValue(c))
			}
		}
	})
	t.Run("PROJ-12 the scanners agree with the parser on random JSON values", func(t *testing.T) {
		rapid.Check(t, func(t *rapid.T) {
			s := drawJSON(t, 0)
			if _, ok := jsonx.Parse(s); !ok {
				t.Fatalf("generator made invalid JSON %s", s)
			}
			if scanHeaderTimed(s) != headerTimedValue(s) {
				t.Fatalf("header %s: scan %v, value %v", s, scanHeaderTimed(s), headerTimedValue(s))
			}
			if isPendingText(s) != isPendingValue(s) {
				t.Fatalf("pending %s: scan %v, value %v", s, isPendingText(s), isPendingValue(s))
			}
		})
	})
	t.Run("PROJ-12 the scanners agree with the parser on random texts", func(t *testing.T) {
		parts := []string{`[`, `]`, `{`, `}`, `,`, `:`, `"name"`, `"ask_user_question"`, `"parameters"`, `"properties"`, `"timeout"`, `"pending"`,
			`true`, `false`, `null`, `1`, `-2.5e3`, `"x"`, ` `, `"\u0074imeout"`, `"a\"b"`}
		rapid.Check(t, func(t *rapid.T) {
			n := rapid.IntRange(0, 30).Draw(t, "n")
			var b strings.Builder
			for i := 0; i < n; i++ {
				b.WriteString(rapid.SampledFrom(parts).Draw(t, "part"))
			}
			s := b.String()
			if scanHeaderTimed(s) != headerTimedValue(s) {
				t.Fatalf("header %s: scan %v, value %v", s, scanHeaderTimed(s), headerTimedValue(s))
			}
			if isPendingText(s) != isPendingValue(s) {
				t.Fatalf("pending %s: scan %v, value %v", s, isPendingText(s), isPendingValue(s))
			}
		})
	})
}

var jsonKeys = []string{`"name"`, `"parameters"`, `"properties"`, `"timeout"`, `"pending"`, `"x"`, `"time\u006fut"`}

// drawJSON draws a JSON value built from the keys and values the probes look at.
func drawJSON(t *rapid.T, depth int) string {
	kind := rapid.IntRange(0, 6).Draw(t, "kind")
	if depth > 4 {
		kind = 0
	}
	switch kind {
	case 0:
		return rapid.SampledFrom([]string{`true`, `false`, `null`, `1`, `"ask_user_question"`, `"x"`, `-0.5`}).Draw(t, "scalar")
	case 1, 2:
		n := rapid.IntRange(0, 4).Draw(t, "items")
		parts := make([]string, n)
		for i := range parts {
			parts[i] = drawJSON(t, depth+1)
		}
		return "[" + strings.Join(parts, ",") + "]"
	default:
		n := rapid.IntRange(0, 4).Draw(t, "members")
		parts := make([]string, n)
		for i := range parts {
			parts[i] = rapid.SampledFrom(jsonKeys).Draw(t, "key") + ":" + drawJSON(t, depth+1)
		}
		return "{" + strings.Join(parts, ",") + "}"
	}
}
