package jsonx

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestAgainstJSONParse pins where the engine's reader is not JavaScript's JSON.parse, each
// a documented decision (docs/PEER.md §11), and the one difference that is gone. The
// consequences in the engine's readers are pinned where they show: engine/questions and
// engine/client (TestJSONAgainstJSONParse), engine/wire (TestReadPendingResult,
// TestEmptyOptionsArePresent).
func TestAgainstJSONParse(t *testing.T) {
	deep := func(n int) string { return strings.Repeat("[", n) + "1" + strings.Repeat("]", n) }
	t.Run("PROJ-3 nesting up to MaxDepth is read, one level deeper is unreadable everywhere alike (docs/PEER.md §11.1)", func(t *testing.T) {
		at, over := deep(MaxDepth), deep(MaxDepth+1)
		for _, c := range []struct {
			text string
			want bool
		}{{at, true}, {over, false}, {`{"a":` + deep(MaxDepth-1) + `}`, true}, {`{"a":` + deep(MaxDepth) + `}`, false}} {
			_, parsed := Parse(c.text)
			sc := Scan(c.text, nil)
			scanned := sc.Skip() && sc.Done()
			if parsed != c.want || scanned != c.want || Valid([]byte(c.text)) != c.want || json.Valid([]byte(c.text)) != c.want {
				t.Fatalf("depth %d: Parse %v, Scanner %v, Valid %v, encoding/json %v; want %v",
					strings.Count(c.text, "["), parsed, scanned, Valid([]byte(c.text)), json.Valid([]byte(c.text)), c.want)
			}
		}
	})
	t.Run("TOOL-5 an unpaired surrogate escape reads as U+FFFD, as encoding/json reads it (docs/PEER.md §11.2)", func(t *testing.T) {
		for lit, want := range map[string]string{
			`"\ud800"`:       "\ufffd",
			`"\udbff"`:       "\ufffd",
			`"x\udc00y"`:     "x\ufffdy",
			`"\ud83d\ude00"`: "😀",
			`"\ude00\ud83d"`: "\ufffd\ufffd",
			"\"a\xffb\"":     "a\ufffdb",
			`"\ud800\u0041"`: "\ufffdA",
			`"\ud800\ud800"`: "\ufffd\ufffd",
		} {
			v, ok := Parse(lit)
			got, _ := v.Str()
			var ref string
			if err := json.Unmarshal([]byte(lit), &ref); err != nil || !ok || got != want || ref != want {
				t.Fatalf("%s: %q %v, encoding/json %q %v; want %q", lit, got, ok, ref, err, want)
			}
		}
	})
	t.Run("CARD-1 an empty array stays present and empty, as JSON.parse keeps it (docs/PEER.md §11.3)", func(t *testing.T) {
		v, ok := Parse(`{"options":[],"other":null}`)
		o := v.Get("options")
		if !ok || !o.Exists() || !o.IsArray() || o.Len() != 0 || o.IsNull() || v.Get("absent").Exists() || !v.Get("other").IsNull() {
			t.Fatalf("%#v", v)
		}
	})
}

// FuzzParse: the reader, the scanner and Valid agree with encoding/json on any input, and
// a reused Reader reads what a fresh one reads (go test -fuzz FuzzParse ./engine/jsonx).
func FuzzParse(f *testing.F) {
	for _, s := range []string{`{"a":[1,"x",true,null],"a":{}}`, `[1,]`, `"\ud800"`, "-0.5e+3", `{"pending":true}`} {
		f.Add(s)
	}
	var r Reader
	f.Fuzz(func(t *testing.T, s string) {
		checkParse(t, s)
		sc := Scan(s, nil)
		scanned := sc.Skip() && sc.Done()
		_, parsed := Parse(s)
		if scanned != parsed || Valid([]byte(s)) != parsed {
			t.Fatalf("%q: Parse %v, Scanner %v, Valid %v", s, parsed, scanned, Valid([]byte(s)))
		}
		v, _ := Parse(s)
		if w, ok := r.Parse(s); ok != parsed || (ok && toAnyString(w) != toAnyString(v)) {
			t.Fatalf("%q: a reused Reader differs", s)
		}
	})
}

func toAnyString(v Value) string {
	b, _ := json.Marshal(toAny(v))
	return string(b)
}
