package wire

import (
	"bytes"
	"encoding/json"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// The schemas under docs/protocol must accept what the runner's decoder accepts and refuse
// what it refuses, so that a team can validate its host's output against them and trust
// the answer. TestProtocolSchemasMatchTheCodec keeps the files equal to what the samples
// give; this test checks that what they give is the decoder's contract, by asking the
// decoder itself:
//
//   - every key of every sample, at every depth, left out: the decoder and the schema
//     agree on whether the document is still good (a key the decoder requires is required
//     by the schema, a key it does without is optional there);
//   - each sample with every key the decoder does without left out (the minimal document
//     the decoder accepts) validates;
//   - every value the decoder knows for a closed field (the kinds, the wait-note kinds, the
//     outcome kinds, the user action kinds, a Session's phase) put in each sample that has
//     the field: the two agree, and an unknown value is refused by both.
//
// Two parts are left out on purpose: the insides of raw payloads (opaque to the codec) and
// the entries of an inbox view, which the decoder reads leniently as the peer's client
// does while the schemas describe their canonical form (docs/PROTOCOL.md, "Inbox entries
// as a real host sends them").

// schemaDoc is one sample document with the decoder of its schema.
type schemaDoc struct {
	file   string
	json   string
	decode func([]byte) error
}

func schemaDocs() []schemaDoc {
	var docs []schemaDoc
	add := func(file, js string, decode func([]byte) error) {
		docs = append(docs, schemaDoc{file, js, decode})
	}
	cmd := func(b []byte) error { _, err := DecodeCommand(b); return err }
	eff := func(b []byte) error { _, err := DecodeEffect(b); return err }
	for _, s := range commandSamples {
		add("command.schema.json", s.json, cmd)
	}
	for _, s := range effectSamples {
		add("effect.schema.json", s.json, eff)
	}
	for _, s := range eventSamples {
		add("event.schema.json", s.json, func(b []byte) error { _, err := DecodeEvent(b); return err })
	}
	for _, js := range []string{hostStateSampleJSON, `{"sessions":[]}`} {
		add("host-state.schema.json", js, func(b []byte) error { _, err := DecodeHostState(b); return err })
	}
	for _, s := range hostConfigSamples {
		add("host-config.schema.json", s.json, func(b []byte) error { _, err := DecodeHostConfig(b); return err })
	}
	for _, s := range clientInputSamples() {
		add("client-input.schema.json", s.json, func(b []byte) error { _, err := DecodeClientInput(b); return err })
	}
	for _, s := range clientEffectSamples {
		add("client-effect.schema.json", s.json, func(b []byte) error { _, err := DecodeClientEffect(b); return err })
	}
	add("client-state.schema.json", clientStateSampleJSON, func(b []byte) error { _, err := DecodeClientState(b); return err })
	for _, s := range clientConfigSamples {
		add("client-config.schema.json", s.json, func(b []byte) error { _, err := DecodeClientConfig(b); return err })
	}
	for _, js := range []string{`{"format":"twosettle-session-log/1","session":"s2","parent":"s1","inherited":4}`,
		`{"format":"twosettle-session-log/1","session":"s1","inherited":0}`} {
		add("session-log.schema.json", js, func(b []byte) error { _, err := DecodeLogHeader(b); return err })
	}
	add("view-line.schema.json", `{"seq":3,"view":`+sampleViewJSON+`}`, func(b []byte) error { _, err := DecodeViewLine(b); return err })
	add("view.schema.json", sampleViewJSON, func(b []byte) error { _, err := DecodeQuestionsView(b); return err })
	return docs
}

// keyPath is where a key is in a document: the object keys and array indexes from the top.
type keyPath []any

func (p keyPath) String() string {
	var b strings.Builder
	for _, s := range p {
		switch s := s.(type) {
		case string:
			b.WriteString("." + s)
		case int:
			b.WriteString("[" + strconv.Itoa(s) + "]")
		}
	}
	return b.String()
}

// opaque reports whether the codec reads the value under key as it is (a payload) or
// leniently (an inbox view's entries), so its insides are not the schema's business here.
func opaque(key string) bool {
	return rawPayload[key] || key == "next-turn" || key == "next-step"
}

// keyPaths lists the path of every object key in v, depth first.
func keyPaths(v any, at keyPath) []keyPath {
	var out []keyPath
	switch x := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			p := append(append(keyPath{}, at...), k)
			out = append(out, p)
			if !opaque(k) {
				out = append(out, keyPaths(x[k], p)...)
			}
		}
	case []any:
		for i, it := range x {
			out = append(out, keyPaths(it, append(append(keyPath{}, at...), i))...)
		}
	}
	return out
}

// parseDoc decodes a document keeping its numbers as they are written.
func parseDoc(t *testing.T, js string) any {
	t.Helper()
	d := json.NewDecoder(strings.NewReader(js))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		t.Fatalf("%s: %v", js, err)
	}
	return v
}

// edit returns a copy of v with the key at p deleted (set: false) or set to val.
func edit(v any, p keyPath, set bool, val any) any {
	switch x := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = e
		}
		k := p[0].(string)
		if len(p) == 1 {
			if set {
				out[k] = val
			} else {
				delete(out, k)
			}
		} else {
			out[k] = edit(x[k], p[1:], set, val)
		}
		return out
	case []any:
		out := append([]any(nil), x...)
		i := p[0].(int)
		out[i] = edit(x[i], p[1:], set, val)
		return out
	}
	return v
}

// get returns the value at p.
func get(v any, p keyPath) any {
	for _, s := range p {
		switch s := s.(type) {
		case string:
			v = v.(map[string]any)[s]
		case int:
			v = v.([]any)[s]
		}
	}
	return v
}

// plain decodes b as the validator reads JSON (numbers as float64).
func plain(t *testing.T, b []byte) any {
	t.Helper()
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatal(err)
	}
	return v
}

func marshalDoc(t *testing.T, v any) []byte {
	t.Helper()
	var b bytes.Buffer
	e := json.NewEncoder(&b)
	e.SetEscapeHTML(false)
	if err := e.Encode(v); err != nil {
		t.Fatal(err)
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n"))
}

// agree checks that the decoder and the schema give the same answer for v.
func (d schemaDoc) agree(t *testing.T, v schemaValidator, doc any, what string) bool {
	t.Helper()
	b := marshalDoc(t, doc)
	decErr := d.decode(b)
	schemaErr := v.check(t, d.file, plain(t, b))
	if (decErr == nil) != (schemaErr == "") {
		t.Errorf("%s: %s\n  %s\n  decoder: %v\n  schema:  %s", d.file, what, b, errOrOK(decErr), orOK(schemaErr))
		return false
	}
	return true
}

func errOrOK(err error) string {
	if err == nil {
		return "accepts"
	}
	return "refuses (" + err.Error() + ")"
}

func orOK(msg string) string {
	if msg == "" {
		return "accepts"
	}
	return "refuses (" + msg + ")"
}

func TestProtocolSchemasAgreeWithTheDecoderOnMissingKeys(t *testing.T) {
	v := newSchemaValidator()
	for _, d := range schemaDocs() {
		doc := parseDoc(t, d.json)
		if err := d.decode([]byte(d.json)); err != nil {
			t.Fatalf("%s: the sample does not decode: %v", d.json, err)
		}
		for _, p := range keyPaths(doc, nil) {
			d.agree(t, v, edit(doc, p, false, nil), "without "+p.String())
		}
	}
}

func TestProtocolSchemasAcceptTheMinimalDocuments(t *testing.T) {
	v := newSchemaValidator()
	for _, d := range schemaDocs() {
		doc := parseDoc(t, d.json)
		// leave out, deepest first, every key the decoder does without
		paths := keyPaths(doc, nil)
		for i := len(paths) - 1; i >= 0; i-- {
			if get(doc, paths[i][:len(paths[i])-1]) == nil {
				continue
			}
			if _, ok := get(doc, paths[i][:len(paths[i])-1]).(map[string]any)[paths[i][len(paths[i])-1].(string)]; !ok {
				continue
			}
			if less := edit(doc, paths[i], false, nil); d.decode(marshalDoc(t, less)) == nil {
				doc = less
			}
		}
		if msg := v.check(t, d.file, plain(t, marshalDoc(t, doc))); msg != "" {
			t.Errorf("%s: the decoder accepts %s, the schema refuses it: %s", d.file, marshalDoc(t, doc), msg)
		}
	}
}

// closedFields are the fields whose values the decoder knows, by their key and, for a key
// that is not unique, the key of the object above it ("" for any); the known values.
var closedFields = []struct {
	parent, key string
	known       []string
}{
	{"", "kind:command", commandKinds},
	{"", "kind:effect", effectKinds},
	{"frame", "kind", frameKinds},
	{"", "type:event", eventTypes},
	{"", "wait", waitKindList()},
	{"outcome", "kind", []string{OutcomeNext, OutcomeResult, OutcomeRejected}},
	{"", "kind:client-input", clientInputKinds},
	{"", "kind:client-effect", clientEffectKinds},
	{"action", "kind", UserActionKinds()},
	{"sessions", "phase", SessionPhases()},
	{"active", "state", []string{StateOpen, StateContinued}},
}

func waitKindList() []string {
	var ks []string
	for k := range waitKinds {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

// closedAt returns the known values of the field at p in a document of file, if it is one.
func closedAt(file string, p keyPath) []string {
	key, _ := p[len(p)-1].(string)
	parent := ""
	for i := len(p) - 2; i >= 0; i-- {
		if s, ok := p[i].(string); ok {
			parent = s
			break
		}
	}
	top := len(p) == 1
	for _, f := range closedFields {
		k, forFile, _ := strings.Cut(f.key, ":")
		switch {
		case forFile != "":
			if top && key == k && file == forFile+".schema.json" {
				return f.known
			}
		case key == k && (f.parent == "" || f.parent == parent):
			return f.known
		}
	}
	return nil
}

func TestProtocolSchemasKnowEveryValueTheDecoderKnows(t *testing.T) {
	v := newSchemaValidator()
	seen := map[string]bool{}
	for _, d := range schemaDocs() {
		doc := parseDoc(t, d.json)
		for _, p := range keyPaths(doc, nil) {
			known := closedAt(d.file, p)
			if known == nil {
				continue
			}
			if _, ok := get(doc, p).(string); !ok {
				continue
			}
			seen[d.file+" "+p[len(p)-1].(string)] = true
			for _, k := range known {
				d.agree(t, v, edit(doc, p, true, k), p.String()+" = "+strconv.Quote(k))
			}
			bogus := edit(doc, p, true, "no-such-value")
			if d.decode(marshalDoc(t, bogus)) == nil {
				t.Errorf("%s: the decoder accepts %s = \"no-such-value\": it is not a closed field", d.file, p)
			}
			d.agree(t, v, bogus, p.String()+" unknown")
		}
	}
	for _, f := range []string{"host-state.schema.json phase", "effect.schema.json wait", "host-state.schema.json state"} {
		if !seen[f] {
			t.Errorf("no sample has %s", f)
		}
	}
}

// A Session's counts of events are not negative, in a host state as in a log file's header.
func TestProtocolSchemasAgreeWithTheDecoderOnCounts(t *testing.T) {
	v := newSchemaValidator()
	for _, d := range schemaDocs() {
		doc := parseDoc(t, d.json)
		for _, p := range keyPaths(doc, nil) {
			if k := p[len(p)-1]; k != "inherited" && k != "persisted" {
				continue
			}
			for _, n := range []int{0, 1, -1} {
				d.agree(t, v, edit(doc, p, true, n), p.String()+" = "+strconv.Itoa(n))
			}
		}
	}
}
