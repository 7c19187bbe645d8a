package schemacheck

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestValidate(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "item.schema.json"), []byte(`{"$defs":{"id":{"type":"string","minLength":1},"count":{"type":"integer","minimum":0}},
		"type":"object","additionalProperties":false,"required":["id"],"dependentRequired":{"from":["to"]},
		"properties":{"id":{"$ref":"item.schema.json#/$defs/id"},"n":{"$ref":"#/$defs/count"},"tags":{"type":"array","items":{"enum":["a","b"]}},"from":{"type":"integer"},"to":{"type":"integer"}}}`), 0o644)
	os.WriteFile(filepath.Join(dir, "line.schema.json"), []byte(`{"oneOf":[
		{"type":"object","additionalProperties":false,"required":["kind","item"],"properties":{"kind":{"const":"one"},"item":{"$ref":"item.schema.json"}}},
		{"type":"object","additionalProperties":false,"required":["kind"],"properties":{"kind":{"const":"none"}}}]}`), 0o644)
	os.WriteFile(filepath.Join(dir, "any.schema.json"), []byte(`{"anyOf":[{"type":"string"},{"type":["integer","null"]}]}`), 0o644)
	os.WriteFile(filepath.Join(dir, "broken.schema.json"), []byte(`{"$ref":"item.schema.json#/$defs/nope"}`), 0o644)
	d := New(dir)
	for _, c := range []struct{ file, value, want string }{
		{"item.schema.json", `{"id":"x","n":3,"tags":["a","b"]}`, ""},
		{"item.schema.json", `{"id":""}`, "$.id: shorter than 1"},
		{"item.schema.json", `{"id":"x","n":-1}`, "$.n: less than 0"},
		{"item.schema.json", `{"id":"x","n":1.5}`, `$.n: not of type "integer"`},
		{"item.schema.json", `{"n":1}`, "$: missing id"},
		{"item.schema.json", `{"id":"x","zz":1,"extra":1}`, "$: unknown key extra"},
		{"item.schema.json", `{"id":"x","tags":["a","c"]}`, `$.tags[1]: "c" is not in the enum`},
		{"item.schema.json", `{"id":"x","to":2}`, ""},
		{"item.schema.json", `{"id":"x","from":1,"to":2}`, ""},
		{"item.schema.json", `{"id":"x","from":1}`, "$: missing to (with from)"},
		{"line.schema.json", `{"kind":"none"}`, ""},
		{"line.schema.json", `{"kind":"one","item":{"id":"x"}}`, ""},
		// the deepest branch's message: the item's, not the other kind's
		{"line.schema.json", `{"kind":"one","item":{"id":7}}`, `$: matches 0 of oneOf ($.item.id: not of type "string")`},
		// the branch of the value's kind, though another kind's message is as deep
		{"line.schema.json", `{"kind":"none","x":1}`, `$: matches 0 of oneOf ($: unknown key x)`},
		{"any.schema.json", `null`, ""},
		{"any.schema.json", `true`, `$: matches none of anyOf ($: not of type "string")`}, // a tie: the first branch
	} {
		got, err := d.ValidateJSON(c.file, []byte(c.value))
		if err != nil || got != c.want {
			t.Errorf("%s %s: %q, %v; want %q", c.file, c.value, got, err, c.want)
		}
	}
	if _, err := d.ValidateJSON("broken.schema.json", []byte(`"x"`)); err == nil || !strings.Contains(err.Error(), `no "nope"`) {
		t.Errorf("a $ref that does not resolve: %v", err)
	}
	if _, err := d.ValidateJSON("missing.schema.json", []byte(`1`)); err == nil {
		t.Error("a missing schema file is not an error")
	}
	if _, err := d.ValidateJSON("item.schema.json", []byte(`{`)); err == nil {
		t.Error("text that is not JSON is not an error")
	}
}
