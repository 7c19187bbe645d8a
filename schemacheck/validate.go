package schemacheck

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Dir is the schema files of one directory, each read once when first used.
type Dir struct {
	dir   string
	files map[string]any
}

// New is the schemas of directory dir ("docs/protocol" from the module root).
func New(dir string) *Dir { return &Dir{dir: dir, files: map[string]any{}} }

// Validate returns "" when x (a value as encoding/json decodes into any) matches the schema
// file named file, else the first place where it does not ("$.message.source: unknown key
// callId"). The error is for a schema that cannot be read or a $ref that does not resolve.
func (d *Dir) Validate(file string, x any) (string, error) {
	s, err := d.load(file)
	if err != nil {
		return "", err
	}
	return d.validate(file, s, x, "$")
}

// ValidateJSON is Validate of a JSON text; text that is not JSON is an error.
func (d *Dir) ValidateJSON(file string, text []byte) (string, error) {
	var x any
	if err := json.Unmarshal(text, &x); err != nil {
		return "", fmt.Errorf("not JSON: %v", err)
	}
	return d.Validate(file, x)
}

func (d *Dir) load(name string) (any, error) {
	if s, ok := d.files[name]; ok {
		return s, nil
	}
	b, err := os.ReadFile(filepath.Join(d.dir, name))
	if err != nil {
		return nil, err
	}
	var s any
	if err := json.Unmarshal(b, &s); err != nil {
		return nil, fmt.Errorf("%s is not JSON: %v", name, err)
	}
	d.files[name] = s
	return s, nil
}

// validate checks x against schema, a part of the file named file (what a "#/…" $ref
// points into).
func (d *Dir) validate(file string, schema, x any, at string) (string, error) {
	s, ok := schema.(map[string]any)
	if !ok {
		return "", nil
	}
	if ref, ok := s["$ref"].(string); ok {
		refFile, pointer, _ := strings.Cut(ref, "#")
		if refFile == "" {
			refFile = file // "#/$defs/ms": a place in the same file
		}
		target, err := d.load(refFile)
		if err != nil {
			return "", fmt.Errorf("%s: $ref %q: %v", at, ref, err)
		}
		// A fragment is a JSON pointer into that file ("wait.schema.json#/$defs/request").
		for _, key := range strings.Split(strings.TrimPrefix(pointer, "/"), "/") {
			if key == "" {
				continue
			}
			m, ok := target.(map[string]any)
			if !ok || m[key] == nil {
				return "", fmt.Errorf("%s: $ref %q: no %q in %s", at, ref, key, refFile)
			}
			target = m[key]
		}
		return d.validate(refFile, target, x, at)
	}
	if c, ok := s["const"]; ok && c != x {
		return at + ": not " + text(c), nil
	}
	if e, ok := s["enum"].([]any); ok {
		found := false
		for _, c := range e {
			found = found || c == x
		}
		if !found {
			return at + ": " + text(x) + " is not in the enum", nil
		}
	}
	if ty, ok := s["type"]; ok {
		var types []any
		if one, ok := ty.(string); ok {
			types = []any{one}
		} else {
			types, _ = ty.([]any)
		}
		found := false
		for _, want := range types {
			w, _ := want.(string)
			found = found || typeIs(w, x)
		}
		if !found {
			return at + ": not of type " + text(ty), nil
		}
	}
	if n, ok := s["minLength"].(float64); ok {
		if str, ok := x.(string); ok && float64(utf8.RuneCountInString(str)) < n {
			return at + ": shorter than " + text(n), nil
		}
	}
	if n, ok := s["minimum"].(float64); ok {
		if f, ok := x.(float64); ok && f < n {
			return at + ": less than " + text(n), nil
		}
	}
	if obj, ok := x.(map[string]any); ok {
		props, _ := s["properties"].(map[string]any)
		for _, r := range list(s["required"]) {
			name, _ := r.(string)
			if _, ok := obj[name]; !ok {
				return at + ": missing " + name, nil
			}
		}
		deps, _ := s["dependentRequired"].(map[string]any)
		for _, k := range sortedKeys(deps) {
			if _, ok := obj[k]; !ok {
				continue
			}
			for _, r := range list(deps[k]) {
				name, _ := r.(string)
				if _, ok := obj[name]; !ok {
					return at + ": missing " + name + " (with " + k + ")", nil
				}
			}
		}
		keys := make([]string, 0, len(obj))
		for k := range obj {
			keys = append(keys, k)
		}
		sort.Strings(keys) // the first difference is the same on every run
		for _, k := range keys {
			p, ok := props[k]
			if !ok {
				if s["additionalProperties"] == false {
					return at + ": unknown key " + k, nil
				}
				continue
			}
			if msg, err := d.validate(file, p, obj[k], at+"."+k); msg != "" || err != nil {
				return msg, err
			}
		}
	}
	if arr, ok := x.([]any); ok && s["items"] != nil {
		for i, it := range arr {
			if msg, err := d.validate(file, s["items"], it, at+"["+strconv.Itoa(i)+"]"); msg != "" || err != nil {
				return msg, err
			}
		}
	}
	if one := list(s["oneOf"]); one != nil {
		n, best, bestKind := 0, "", false
		for _, branch := range one {
			msg, err := d.validate(file, branch, x, at)
			if err != nil {
				return "", err
			}
			if msg == "" {
				n++
				continue
			}
			// A branch of the value's own kind (its const keys match) says more than one of
			// another kind.
			kind := constsMatch(branch, x)
			if kind && !bestKind {
				best, bestKind = msg, true
			} else if kind == bestKind {
				best = deeper(best, msg)
			}
		}
		if n != 1 {
			return at + ": matches " + strconv.Itoa(n) + " of oneOf (" + best + ")", nil
		}
	}
	if anyOf := list(s["anyOf"]); anyOf != nil {
		best := ""
		for _, branch := range anyOf {
			msg, err := d.validate(file, branch, x, at)
			if err != nil {
				return "", err
			}
			if msg == "" {
				return "", nil
			}
			best = deeper(best, msg)
		}
		return at + ": matches none of anyOf (" + best + ")", nil
	}
	return "", nil
}

// constsMatch reports whether the object x has every const key of branch's properties
// with that value: x is of the branch's kind ("type": {"const": "user/message"}). A
// branch that is a $ref, or has no const keys, matches.
func constsMatch(branch, x any) bool {
	b, _ := branch.(map[string]any)
	props, _ := b["properties"].(map[string]any)
	obj, isObj := x.(map[string]any)
	for k, p := range props {
		pm, _ := p.(map[string]any)
		c, ok := pm["const"]
		if !ok {
			continue
		}
		if !isObj || obj[k] != c {
			return false
		}
	}
	return true
}

// deeper is whichever of two branch messages names the deeper place, its nested
// branches' messages included (the branch that matched the value furthest, as a
// discriminated oneOf's own kind does), a on a tie.
func deeper(a, b string) string {
	if a == "" || depth(b) > depth(a) {
		return b
	}
	return a
}

// depth is the length of the deepest place a message names ("$.a.b: …", and inside
// "… of oneOf (…)" the nested message's).
func depth(m string) int {
	d := 0
	for {
		at, rest, _ := strings.Cut(m, ": ")
		d = max(d, len(at))
		_, inner, ok := strings.Cut(rest, "Of (")
		if !ok {
			return d
		}
		m = inner
	}
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func list(x any) []any { l, _ := x.([]any); return l }

func text(x any) string { b, _ := json.Marshal(x); return string(b) }

func typeIs(want string, x any) bool {
	switch x := x.(type) {
	case nil:
		return want == "null"
	case bool:
		return want == "boolean"
	case string:
		return want == "string"
	case float64:
		return want == "number" || want == "integer" && x == float64(int64(x))
	case []any:
		return want == "array"
	case map[string]any:
		return want == "object"
	}
	return false
}
