package scenarios

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"os"
	"regexp"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
	"pgregory.net/rapid"
)

var updateSchema = flag.Bool("update-schema", false, "rewrite schema.json from the key tables")

func TestSchemaFile(t *testing.T) {
	want := Schema()
	if *updateSchema {
		if err := os.WriteFile("schema.json", want, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	have, err := os.ReadFile("schema.json")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(have, want) {
		t.Fatal("schema.json is out of date with the key tables: run go test ./scenarios -run TestSchemaFile -update-schema")
	}
	var v any
	if err := json.Unmarshal(have, &v); err != nil {
		t.Fatal(err)
	}
}

// TestSchemaAcceptsWhatTheDecoderAccepts: every random valid scenario, encoded, is valid
// under the schema (so the schema cannot lag the decoder).
func TestSchemaAcceptsWhatTheDecoderAccepts(t *testing.T) {
	sv := newSchemaValidator(t)
	rapid.Check(t, func(t *rapid.T) {
		s := genScenario().Draw(t, "scenario")
		y := Encode(s)
		if err := sv.validateYAML(y); err != nil {
			t.Fatalf("schema rejects a valid scenario: %v\n%s", err, y)
		}
	})
	for _, src := range []string{example, base} {
		if err := sv.validateYAML([]byte(src)); err != nil {
			t.Fatalf("schema rejects %v:\n%s", err, src)
		}
	}
	for _, f := range Library() {
		if err := sv.validateYAML(f.Data); err != nil {
			t.Errorf("%s: schema rejects it: %v", f.Path, err)
		}
	}
}

// TestSchemaRejectsWhatTheDecoderRejects: the shape errors a decoder reports, the schema
// reports too (an editor flags them as they are typed).
func TestSchemaRejectsWhatTheDecoderRejects(t *testing.T) {
	sv := newSchemaValidator(t)
	for _, bad := range []string{
		base + "tiemout: 5\n",
		"summary: y\n",
		base + "covers: [WAIT-99]\n",
		base + "mode: timd\n",
		base + "timeout: 5s\n",
		base + "write-window: 200\n",
		base + "  b: {latncy: 5ms}\n",
		base + "steps:\n  - {at: 0s, model: hedaer}\n",
		base + "steps:\n  - {at: 0s, model: {call: c1}}\n",
		base + "steps:\n  - {at: 0s, model: {call: c1, ask: [], sleep: 1s}}\n",
		base + "steps:\n  - {at: 0s, host: {crash: before-dispatch}}\n",
		base + "steps:\n  - {at: 0s, a: sumbit}\n",
		base + "steps:\n  - {model: header}\n",
		base + "expect:\n  - {at: end, crad: c1}\n",
		base + "expect:\n  - {at: end, card: c1, state: settled}\n",
		base + "expect:\n  - {at: end, card: c1, countdown: 3s}\n",
		base + "explore: {seed: 3}\n",
	} {
		if _, err := Decode("x.yaml", []byte(bad)); err == nil {
			t.Fatalf("the decoder accepts %q", bad)
		}
		if err := sv.validateYAML([]byte(bad)); err == nil {
			t.Errorf("the schema accepts what the decoder rejects:\n%s", bad)
		}
	}
}

// --- a small JSON Schema validator for the subset schema.go uses ----------------------

type schemaValidator struct {
	defs map[string]any
	root map[string]any
	re   map[string]*regexp.Regexp
}

func newSchemaValidator(t testing.TB) *schemaValidator {
	var root map[string]any
	if err := json.Unmarshal(Schema(), &root); err != nil {
		t.Fatal(err)
	}
	return &schemaValidator{defs: root["$defs"].(map[string]any), root: root, re: map[string]*regexp.Regexp{}}
}

func (sv *schemaValidator) validateYAML(src []byte) error {
	var v any
	if err := yaml.Unmarshal(src, &v); err != nil {
		return err
	}
	return sv.validate(sv.root, normalize(v), "$")
}

// normalize turns YAML values into JSON's: map keys as strings, numbers as float64.
func normalize(v any) any {
	switch x := v.(type) {
	case map[string]any:
		out := map[string]any{}
		for k, e := range x {
			out[k] = normalize(e)
		}
		return out
	case map[any]any:
		out := map[string]any{}
		for k, e := range x {
			out[fmt.Sprint(k)] = normalize(e)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = normalize(e)
		}
		return out
	case int:
		return float64(x)
	case int64:
		return float64(x)
	case uint64:
		return float64(x)
	}
	return v
}

func typeOf(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case float64:
		if x == math.Trunc(x) {
			return "integer"
		}
		return "number"
	case string:
		return "string"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	}
	return "unknown"
}

func (sv *schemaValidator) validate(s map[string]any, v any, at string) error {
	if r, ok := s["$ref"].(string); ok {
		def := sv.defs[strings.TrimPrefix(r, "#/$defs/")]
		if def == nil {
			return fmt.Errorf("%s: unresolved %s", at, r)
		}
		if err := sv.validate(def.(map[string]any), v, at); err != nil {
			return err
		}
	}
	if ts, ok := s["type"]; ok {
		got := typeOf(v)
		okType := false
		var list []any
		switch x := ts.(type) {
		case string:
			list = []any{x}
		case []any:
			list = x
		}
		for _, want := range list {
			okType = okType || want == got || (want == "number" && got == "integer")
		}
		if !okType {
			return fmt.Errorf("%s: %s is not %v", at, got, ts)
		}
	}
	if c, ok := s["const"]; ok && fmt.Sprint(c) != fmt.Sprint(v) {
		return fmt.Errorf("%s: %v is not %v", at, v, c)
	}
	if e, ok := s["enum"].([]any); ok {
		found := false
		for _, x := range e {
			found = found || x == v
		}
		if !found {
			return fmt.Errorf("%s: %v is not one of the enum", at, v)
		}
	}
	if p, ok := s["pattern"].(string); ok {
		if str, isStr := v.(string); isStr {
			re := sv.re[p]
			if re == nil {
				re = regexp.MustCompile(p)
				sv.re[p] = re
			}
			if !re.MatchString(str) {
				return fmt.Errorf("%s: %q does not match %s", at, str, p)
			}
		}
	}
	if m, ok := s["minimum"].(float64); ok {
		if f, isNum := v.(float64); isNum && f < m {
			return fmt.Errorf("%s: %v below %v", at, f, m)
		}
	}
	if m, ok := s["minLength"].(float64); ok {
		if str, isStr := v.(string); isStr && float64(len(str)) < m {
			return fmt.Errorf("%s: too short", at)
		}
	}
	if arr, isArr := v.([]any); isArr {
		if items, ok := s["items"].(map[string]any); ok {
			for i, x := range arr {
				if err := sv.validate(items, x, fmt.Sprintf("%s[%d]", at, i)); err != nil {
					return err
				}
			}
		}
		if u, _ := s["uniqueItems"].(bool); u {
			seen := map[string]bool{}
			for _, x := range arr {
				k := fmt.Sprint(x)
				if seen[k] {
					return fmt.Errorf("%s: %v twice", at, x)
				}
				seen[k] = true
			}
		}
	}
	if obj, isObj := v.(map[string]any); isObj {
		props, _ := s["properties"].(map[string]any)
		for _, r := range asList(s["required"]) {
			if _, ok := obj[r.(string)]; !ok {
				return fmt.Errorf("%s: missing %s", at, r)
			}
		}
		if m, ok := s["minProperties"].(float64); ok && float64(len(obj)) < m {
			return fmt.Errorf("%s: fewer than %v keys", at, m)
		}
		for k, x := range obj {
			if pn, ok := s["propertyNames"].(map[string]any); ok {
				if err := sv.validate(pn, k, at+" key"); err != nil {
					return err
				}
			}
			if ps, ok := props[k]; ok {
				if err := sv.validate(ps.(map[string]any), x, at+"."+k); err != nil {
					return err
				}
				continue
			}
			switch ap := s["additionalProperties"].(type) {
			case bool:
				if !ap {
					return fmt.Errorf("%s: unknown key %s", at, k)
				}
			case map[string]any:
				if err := sv.validate(ap, x, at+"."+k); err != nil {
					return err
				}
			}
		}
	}
	if alts := asList(s["anyOf"]); len(alts) > 0 {
		var first error
		matched := false
		for _, a := range alts {
			if err := sv.validate(a.(map[string]any), v, at); err == nil {
				matched = true
				break
			} else if first == nil {
				first = err
			}
		}
		if !matched {
			return fmt.Errorf("%s: no alternative matches (first: %v)", at, first)
		}
	}
	if alts := asList(s["oneOf"]); len(alts) > 0 {
		n := 0
		var errs []string
		for _, a := range alts {
			if err := sv.validate(a.(map[string]any), v, at); err == nil {
				n++
			} else {
				errs = append(errs, err.Error())
			}
		}
		if n != 1 {
			return fmt.Errorf("%s: %d alternatives match (want 1): %s", at, n, strings.Join(errs, "; "))
		}
	}
	return nil
}

func asList(v any) []any {
	l, _ := v.([]any)
	return l
}
