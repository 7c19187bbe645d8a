package wire

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

var updateSchemas = flag.Bool("update-schemas", false, "rewrite docs/protocol/*.schema.json from the codec's samples")

// The JSON Schemas under docs/protocol are derived from the codec's own sample tables
// (every kind has samples, TestConformSamplesCoverEveryKind): each kind's keys with the
// JSON types its samples show, required where every sample of the kind has the key. So
// a schema cannot drift from the codec: this test fails when a schema file is not what
// the samples give (go test ./engine/wire -run Schemas -update-schemas rewrites them).
func TestProtocolSchemasMatchTheCodec(t *testing.T) {
	var cmds, effs, frames, events []string
	for _, s := range commandSamples {
		cmds = append(cmds, s.json)
	}
	for _, s := range effectSamples {
		effs = append(effs, s.json)
	}
	for _, s := range effectSamples {
		var x struct{ Frame json.RawMessage }
		json.Unmarshal([]byte(s.json), &x)
		if x.Frame != nil {
			frames = append(frames, string(x.Frame))
		}
	}
	for _, s := range eventSamples {
		events = append(events, s.json)
	}
	var configs []string
	for _, s := range hostConfigSamples {
		configs = append(configs, s.json)
	}
	files := map[string]map[string]any{
		"command.schema.json":     discriminated("command", "A HostPort command: the command of an apply request.", "kind", cmds),
		"effect.schema.json":      discriminated("effect", "One effect of an applied reply, in order.", "kind", effs),
		"frame.schema.json":       discriminated("frame", "A frame a host sends a client (inside a send-frame effect).", "kind", frames),
		"event.schema.json":       discriminated("event", "One Session log event in its neutral JSON form.", "type", events),
		"host-state.schema.json":  single("host-state", "The state reply's snapshot of a host.", []string{hostStateSampleJSON}),
		"host-config.schema.json": single("host-config", "The configuration of a start request.", configs),
	}
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
	}
}

func header(id, doc string) map[string]any {
	return map[string]any{
		"$schema":     "https://json-schema.org/draft/2020-12/schema",
		"$id":         "https://twosettle.dev/protocol/" + id + ".schema.json",
		"title":       "twosettle-conform/1 " + id,
		"description": doc + " Derived from the codec's samples (engine/wire/codec_schema_test.go).",
	}
}

// discriminated is a oneOf over the kinds the samples show, by the key disc.
func discriminated(id, doc, disc string, samples []string) map[string]any {
	byKind := map[string][]map[string]any{}
	for _, s := range samples {
		var v map[string]any
		if err := json.Unmarshal([]byte(s), &v); err != nil {
			panic(s + ": " + err.Error())
		}
		k, _ := v[disc].(string)
		byKind[k] = append(byKind[k], v)
	}
	var kinds []string
	for k := range byKind {
		kinds = append(kinds, k)
	}
	sort.Strings(kinds)
	var one []any
	for _, k := range kinds {
		var vs []any
		for _, v := range byKind[k] {
			vs = append(vs, v)
		}
		sch := infer(vs)
		sch["properties"].(map[string]any)[disc] = map[string]any{"const": k}
		one = append(one, sch)
	}
	s := header(id, doc)
	s["type"] = "object"
	s["required"] = []string{disc}
	s["properties"] = map[string]any{disc: map[string]any{"enum": kinds}}
	s["oneOf"] = one
	return s
}

func single(id, doc string, samples []string) map[string]any {
	var vs []any
	for _, x := range samples {
		var v any
		json.Unmarshal([]byte(x), &v)
		vs = append(vs, v)
	}
	s := infer(vs)
	for k, v := range header(id, doc) {
		s[k] = v
	}
	return s
}

// rawPayload are the keys of opaque JSON payloads (json.RawMessage fields): any value.
var rawPayload = map[string]bool{"request": true, "value": true, "body": true, "args": true}

// infer is the schema of a set of JSON values of one shape.
func infer(vs []any) map[string]any {
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
			if rawPayload[k] {
				ps[k] = map[string]any{"description": "an opaque JSON payload, copied byte for byte (any JSON value)"}
			} else if strings.HasSuffix(k, "Raw") {
				ps[k] = map[string]any{"type": "string", "description": "the payload as text, when it is not valid JSON"}
			} else {
				ps[k] = infer(vs)
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
		s["items"] = infer(items)
	}
	return s
}
