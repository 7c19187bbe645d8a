package wire

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/twosettle/twosettle/schemacheck"
)

var updateSchemas = flag.Bool("update-schemas", false, "rewrite docs/protocol/*.schema.json from the codec's samples")

// The JSON Schemas under docs/protocol are derived from the codec's own sample tables
// (every kind has samples, TestConformSamplesCoverEveryKind): each kind's keys with the
// JSON types its samples show, required where every sample of the kind has the key. So
// a schema cannot drift from the codec: this test fails when a schema file is not what
// the samples give (go test ./engine/wire -run Schemas -update-schemas rewrites them).
func TestProtocolSchemasMatchTheCodec(t *testing.T) {
	// Each sample, and each of its variants without a key the decoder does without
	// (withOmissions): a key is required by a schema exactly when the decoder requires it.
	var cmds, effs, frames, events []string
	for _, s := range commandSamples {
		cmds = append(cmds, s.json)
	}
	cmds = withOmissions(t, cmds, func(b []byte) error { _, err := DecodeCommand(b); return err })
	for _, s := range effectSamples {
		effs = append(effs, s.json)
	}
	effs = withOmissions(t, effs, func(b []byte) error { _, err := DecodeEffect(b); return err })
	for _, s := range effs {
		var x struct{ Frame json.RawMessage }
		json.Unmarshal([]byte(s), &x)
		if x.Frame != nil {
			frames = append(frames, string(x.Frame))
		}
	}
	for _, s := range eventSamples {
		events = append(events, s.json)
	}
	events = withOmissions(t, events, func(b []byte) error { _, err := DecodeEvent(b); return err })
	var configs []string
	for _, s := range hostConfigSamples {
		configs = append(configs, s.json)
	}
	configs = withOmissions(t, configs, func(b []byte) error { _, err := DecodeHostConfig(b); return err })
	states := withOmissions(t, []string{hostStateSampleJSON}, func(b []byte) error { _, err := DecodeHostState(b); return err })
	eventRef := map[string]any{"$ref": "event.schema.json"}
	eventList := map[string]any{"type": "array", "items": eventRef}
	hostState := single("host-state", hostStateDoc, states, map[string]any{"log": eventList})
	// a Session's phase is one the decoder knows
	setProperty(hostState, []string{"sessions", "phase"}, map[string]any{"enum": SessionPhases()})
	// counts of events are not negative (as in a log file's header)
	setProperty(hostState, []string{"sessions", "inherited"}, map[string]any{"type": "integer", "minimum": 0,
		"description": "how many of the first log events were copied from the fork parent (PROJ-11): 0 unless the Session is a fork"})
	setProperty(hostState, []string{"sessions", "persisted"}, map[string]any{"type": "integer", "minimum": 0,
		"description": "how many of the first log events are durable (the last persisted effect's through)"})
	// and an active row's state one of the two (the view schema's enum)
	rowState := map[string]any{"enum": []string{StateOpen, StateContinued}}
	setProperty(hostState, []string{"sessions", "questions", "active", "state"}, rowState)
	command := discriminated("command", "A HostPort command: the command of an apply request.", "kind", cmds, map[string]any{"event": eventRef})
	for _, alt := range command["oneOf"].([]any) {
		// a fork names the event it is taken through
		if a := alt.(map[string]any); a["properties"].(map[string]any)["kind"].(map[string]any)["const"] == "open-session" {
			a["dependentRequired"] = map[string]any{"forkOf": []string{"forkThrough"}}
		}
	}
	frame := discriminated("frame", "A frame a host sends a client (inside a send-frame effect).", "kind", frames, map[string]any{"events": eventList})
	for _, alt := range frame["oneOf"].([]any) {
		if a := alt.(map[string]any); a["properties"].(map[string]any)["kind"].(map[string]any)["const"] == "session-update" {
			setProperty(a, []string{"questions", "active", "state"}, rowState)
		}
	}
	files := map[string]map[string]any{
		"command.schema.json": command,
		// a wait-note's keys depend on its wait kind: one alternative per kind
		"effect.schema.json": discriminatedBy("effect", "One effect of an applied reply, in order.", "kind", map[string]string{"wait-note": "wait"}, effs,
			map[string]any{"frame": map[string]any{"$ref": "frame.schema.json"}, "event": eventRef}),
		"frame.schema.json":       frame,
		"event.schema.json":       discriminated("event", "One Session log event in its neutral JSON form.", "type", events, nil),
		"host-state.schema.json":  hostState,
		"host-config.schema.json": single("host-config", "The configuration of a start request.", configs, nil),
	}
	addClientSchemas(t, files)
	enums := map[string][]string{"command.schema.json": commandKinds, "effect.schema.json": effectKinds,
		"frame.schema.json": frameKinds, "event.schema.json": eventTypes,
		"client-input.schema.json": clientInputKinds, "client-effect.schema.json": clientEffectKinds}
	dir := filepath.Join("..", "..", "docs", "protocol")
	for name, schema := range files {
		b, err := json.MarshalIndent(schema, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		b = append(b, '\n')
		path := filepath.Join(dir, name)
		if *updateSchemas {
			if err := os.WriteFile(path, b, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		have, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("%s: %v (run with -update-schemas)", name, err)
		}
		if !bytes.Equal(have, b) {
			t.Errorf("%s is not what the codec's samples give: run go test ./engine/wire -run Schemas -update-schemas", name)
		}
		if known, ok := enums[name]; ok {
			// the discriminator's enum is exactly the kinds the codec knows
			var file struct {
				Properties map[string]struct{ Enum []string }
			}
			if err := json.Unmarshal(have, &file); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			var enum []string
			for _, p := range file.Properties {
				enum = p.Enum
			}
			want := append([]string(nil), known...)
			sort.Strings(want)
			if strings.Join(enum, " ") != strings.Join(want, " ") {
				t.Errorf("%s: discriminator enum %q, the codec knows %q", name, enum, want)
			}
		}
	}
}

func header(id, doc string) map[string]any {
	return map[string]any{
		"$schema":     "https://json-schema.org/draft/2020-12/schema",
		"$id":         "https://twosettle.dev/protocol/" + id + ".schema.json",
		"title":       "twosettle-conform/1 " + id,
		"description": doc + " Derived from the codec's samples (engine/wire/codec_schema_test.go)." + codecRules,
	}
}

// codecRules is what every schema's description says of the codec (engine/wire/codec.go).
const codecRules = " Keys come in a fixed order and optional keys are left out at their zero value (decoders accept them written);" +
	" list fields are always written and decode to empty when absent (so a list is never required here); required are exactly the keys the decoder requires, except in the entries of an inbox view, which the decoder reads leniently and the schemas describe in their canonical form (docs/PROTOCOL.md, \"Inbox entries as a real host sends them\"); integers are JSON integers (no fraction or exponent);" +
	" a raw payload key holds its JSON value verbatim, or its text under the key with a Raw suffix when it is not" +
	" valid UTF-8 JSON without newlines and surrounding whitespace, nested at most 512 deep; invalid UTF-8 becomes U+FFFD;" +
	" decoding is strict (unknown, duplicate or missing keys, wrong types and unknown kinds are errors)."

// discriminated is a oneOf over the kinds the samples show, by the key disc; refs replace
// the inferred schema of the properties they name (a value of another file's schema).
func discriminated(id, doc, disc string, samples []string, refs map[string]any) map[string]any {
	return discriminatedBy(id, doc, disc, nil, samples, refs)
}

// discriminatedBy is discriminated where the kinds in sub are split further by the value
// of a second key (a wait-note by its wait kind): one alternative per pair.
func discriminatedBy(id, doc, disc string, sub map[string]string, samples []string, refs map[string]any) map[string]any {
	var vs []any
	for _, s := range samples {
		var v map[string]any
		if err := json.Unmarshal([]byte(s), &v); err != nil {
			panic(s + ": " + err.Error())
		}
		vs = append(vs, v)
	}
	s := oneOfBy(vs, disc, sub, refs)
	for k, v := range header(id, doc) {
		s[k] = v
	}
	return s
}

// oneOfBy is the schema of objects discriminated by the key disc (and, for the kinds in
// sub, by a second key): one alternative per kind, inferred from its objects.
func oneOfBy(vs []any, disc string, sub map[string]string, refs map[string]any) map[string]any {
	type group struct {
		kind   any // the discriminator's value (a string, or a boolean: an envelope's ok)
		subKey string
		subVal string
		vs     []any
	}
	groups := map[string]*group{}
	byKind := map[string][]any{}
	kindSet := map[string]any{}
	for _, x := range vs {
		v := x.(map[string]any)
		k := v[disc]
		ks := fmt.Sprint(k)
		kindSet[ks] = k
		byKind[ks] = append(byKind[ks], v)
		g := group{kind: k}
		if sk, ok := sub[ks]; ok {
			g.subKey = sk
			g.subVal, _ = v[sk].(string)
		}
		key := ks + "\x00" + g.subVal
		if groups[key] == nil {
			groups[key] = &g
		}
		groups[key].vs = append(groups[key].vs, v)
	}
	var keys, kindKeys []string
	for k := range groups {
		keys = append(keys, k)
	}
	for k := range kindSet {
		kindKeys = append(kindKeys, k)
	}
	sort.Strings(keys)
	sort.Strings(kindKeys)
	var kinds []any
	for _, k := range kindKeys {
		kinds = append(kinds, kindSet[k])
	}
	var one []any
	for _, k := range keys {
		g := groups[k]
		sch := infer(g.vs, refs)
		props := sch["properties"].(map[string]any)
		if g.subKey != "" {
			// the decoder reads the same keys for every value of the second key: each
			// alternative allows them all and requires its own
			all := infer(byKind[fmt.Sprint(g.kind)], refs)["properties"].(map[string]any)
			for p, ps := range all {
				if _, ok := props[p]; !ok {
					props[p] = ps
				}
			}
			props[g.subKey] = map[string]any{"const": g.subVal}
		}
		props[disc] = map[string]any{"const": g.kind}
		one = append(one, sch)
	}
	return map[string]any{
		"type":       "object",
		"required":   []string{disc},
		"properties": map[string]any{disc: map[string]any{"enum": kinds}},
		"oneOf":      one,
	}
}

// nestedKinds are the keys whose object values the decoder reads by their own kind (an
// outcome: next takes nothing, result an optional value, rejected a required error).
// An envelope likewise by its ok: a success takes an optional value, a failure a required
// error.
var nestedKinds = map[string]string{"outcome": "kind", "envelope": "ok"}

// hostStateDoc is the host-state schema's description.
const hostStateDoc = "The state reply's snapshot of a host (docs/HOST.md, \"Host state\")." +
	" sessions is the durable part every host shows; waits, reservations, clients and pending are its volatile question machinery," +
	" shown only by a host that declares the introspection feature (absent or empty otherwise)."

// setProperty replaces the schema of the property at path (object keys, through array items).
func setProperty(s map[string]any, path []string, to map[string]any) {
	for i, k := range path {
		if it, ok := s["items"].(map[string]any); ok {
			s = it
		}
		p := s["properties"].(map[string]any)
		if i == len(path)-1 {
			p[k] = to
			return
		}
		s = p[k].(map[string]any)
	}
}

// withOmissions returns the samples and, after them, each variant of a sample without one
// of its keys (at any depth, outside payloads and inbox entries: keyPaths) that decode
// accepts, so that infer requires a key only where the decoder does.
func withOmissions(t *testing.T, samples []string, decode func([]byte) error) []string {
	t.Helper()
	out := append([]string(nil), samples...)
	for _, js := range samples {
		doc := parseDoc(t, js)
		for _, p := range keyPaths(doc, nil) {
			b := marshalDoc(t, edit(doc, p, false, nil))
			if decode(b) == nil {
				out = append(out, string(b))
			}
		}
	}
	return out
}

func single(id, doc string, samples []string, refs map[string]any) map[string]any {
	var vs []any
	for _, x := range samples {
		var v any
		json.Unmarshal([]byte(x), &v)
		vs = append(vs, v)
	}
	s := infer(vs, refs)
	for k, v := range header(id, doc) {
		s[k] = v
	}
	return s
}

// rawPayload are the keys of opaque JSON payloads (json.RawMessage fields): any value.
var rawPayload = map[string]bool{"request": true, "value": true, "body": true, "args": true}

// infer is the schema of a set of JSON values of one shape.
func infer(vs []any, refs map[string]any) map[string]any {
	types := map[string]bool{}
	var objs []map[string]any
	var items []any
	for _, v := range vs {
		switch x := v.(type) {
		case map[string]any:
			types["object"] = true
			objs = append(objs, x)
		case []any:
			types["array"] = true
			items = append(items, x...)
		case string:
			types["string"] = true
		case bool:
			types["boolean"] = true
		case float64:
			if x == float64(int64(x)) {
				types["integer"] = true
			} else {
				types["number"] = true
			}
		case nil:
			types["null"] = true
		}
	}
	s := map[string]any{}
	var ts []string
	for t := range types {
		ts = append(ts, t)
	}
	sort.Strings(ts)
	if len(ts) == 1 {
		s["type"] = ts[0]
	} else if len(ts) > 1 {
		s["type"] = ts
	}
	if len(objs) > 0 {
		props := map[string][]any{}
		count := map[string]int{}
		for _, o := range objs {
			for k, v := range o {
				props[k] = append(props[k], v)
				count[k]++
			}
		}
		ps := map[string]any{}
		var req []string
		for k, vs := range props {
			if ref, ok := refs[k]; ok {
				ps[k] = ref
			} else if sk, ok := nestedKinds[k]; ok && allObjects(vs) {
				ps[k] = oneOfBy(vs, sk, nil, refs)
			} else if rawPayload[k] {
				ps[k] = map[string]any{"description": "an opaque JSON payload, copied byte for byte (any JSON value)"}
			} else if strings.HasSuffix(k, "Raw") {
				ps[k] = map[string]any{"type": "string", "description": "the payload as text, when it cannot be embedded verbatim (not valid UTF-8 JSON, a newline, surrounding whitespace, nested deeper than 512)"}
			} else {
				ps[k] = infer(vs, refs)
			}
			if count[k] == len(objs) {
				req = append(req, k)
			}
		}
		sort.Strings(req)
		s["properties"] = ps
		if len(req) > 0 {
			s["required"] = req
		}
		s["additionalProperties"] = false
	}
	if len(items) > 0 {
		s["items"] = infer(items, refs)
	}
	return s
}

func allObjects(vs []any) bool {
	for _, v := range vs {
		if _, ok := v.(map[string]any); !ok {
			return false
		}
	}
	return true
}

// TestProtocolSchemasAcceptTheSamples validates every sample line against its schema file
// with the few keywords the files use ($ref across files, type, const, enum, properties,
// required, additionalProperties, items, oneOf), so the references resolve and each
// file accepts what the codec writes and refuses an unknown key.
func TestProtocolSchemasAcceptTheSamples(t *testing.T) {
	v := newSchemaValidator()
	check := func(file, line string, want bool) {
		t.Helper()
		var x any
		if err := json.Unmarshal([]byte(line), &x); err != nil {
			t.Fatal(err)
		}
		if err := v.check(t, file, x); (err == "") != want {
			t.Errorf("%s: %s: valid=%v, want %v (%s)", file, line, err == "", want, err)
		}
	}
	for _, s := range commandSamples {
		check("command.schema.json", s.json, true)
		check("command.schema.json", s.json[:len(s.json)-1]+`,"extra":1}`, false)
	}
	for _, s := range effectSamples {
		check("effect.schema.json", s.json, true)
		check("effect.schema.json", s.json[:len(s.json)-1]+`,"extra":1}`, false)
	}
	for _, s := range eventSamples {
		check("event.schema.json", s.json, true)
		check("effect.schema.json", `{"kind":"appended","session":"s1","event":`+s.json+`}`, true)
	}
	check("host-state.schema.json", hostStateSampleJSON, true)
	for _, s := range hostConfigSamples {
		check("host-config.schema.json", s.json, true)
	}
	checkClientSamples(check)
	check("command.schema.json", `{"kind":"jump"}`, false)
	check("event.schema.json", `{"seq":0,"time":0,"type":"turn/start"}`, false)
}

// schemaValidator checks a value against a file of docs/protocol (schemacheck, which
// simrun export's and the projection profile's tests use too).
type schemaValidator struct{ d *schemacheck.Dir }

func newSchemaValidator() schemaValidator {
	return schemaValidator{schemacheck.New(filepath.Join("..", "..", "docs", "protocol"))}
}

// check returns "" when x matches the schema file, else what does not.
func (v schemaValidator) check(t *testing.T, file string, x any) string {
	t.Helper()
	msg, err := v.d.Validate(file, x)
	if err != nil {
		t.Fatal(err)
	}
	return msg
}
