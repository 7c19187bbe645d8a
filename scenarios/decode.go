package scenarios

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
)

// MaxFileSize is the largest scenario file Decode reads (and ReadFile reads at all).
const MaxFileSize = 1 << 20

const (
	tooLarge     = "the file is larger than 1048576 bytes (1 MiB)"
	tooLargeHint = "split it into several scenarios"
)

// Decode reads one scenario file strictly and validates it. file names it in error
// positions. The error, if any, is an Errors value listing every problem found, each
// with file:line:col and a hint.
func Decode(file string, data []byte) (*Scenario, error) {
	s, errs := decode(file, data)
	if len(errs) > 0 {
		return nil, errs.err()
	}
	if err := Validate(s); err != nil {
		return nil, err
	}
	return s, nil
}

var yamlLine = regexp.MustCompile(`^yaml: line (\d+): (.*)$`)

func decode(file string, data []byte) (*Scenario, Errors) {
	d := &dec{file: file}
	top := &yaml.Node{Line: 1, Column: 1}
	if len(data) > MaxFileSize {
		d.fail(top, tooLargeHint, "%s", tooLarge)
		return nil, d.errs
	}
	if line, col, what, ok := notText(data); !ok {
		d.fail(&yaml.Node{Line: line, Column: col}, "a scenario is a UTF-8 text file: is this the right file?", "the file is not text: %s", what)
		return nil, d.errs
	}
	yd := yaml.NewDecoder(bytes.NewReader(data))
	var doc yaml.Node
	if err := yd.Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			d.fail(top, "a scenario starts with name: and summary:", "the file is empty")
			return nil, d.errs
		}
		d.yamlError(err, data)
		return nil, d.errs
	}
	var extra yaml.Node
	if err := yd.Decode(&extra); err == nil {
		d.fail(&extra, "put each scenario in its own file", "a second YAML document (---) in one file")
		return nil, d.errs
	} else if !errors.Is(err, io.EOF) {
		d.yamlError(err, data)
		return nil, d.errs
	}
	if doc.Kind != yaml.DocumentNode || len(doc.Content) != 1 {
		d.fail(top, "a scenario starts with name: and summary:", "the file holds no scenario")
		return nil, d.errs
	}
	root := doc.Content[0]
	if !d.plain(root) {
		return nil, d.errs
	}
	s := d.scenario(root)
	return s, d.errs
}

func (d *dec) yamlError(err error, data []byte) {
	msg := err.Error()
	pos := &yaml.Node{Line: 1, Column: 1}
	for _, line := range strings.Split(msg, "\n") {
		if m := yamlLine.FindStringSubmatch(strings.TrimSpace(line)); m != nil {
			n, _ := strconv.Atoi(m[1])
			pos.Line = n
			msg = m[2]
			break
		}
	}
	msg = strings.TrimPrefix(msg, "yaml: ")
	if strings.HasPrefix(msg, "did not find expected ',' or") || (pos.Line == 1 && !strings.Contains(err.Error(), "line 1:")) {
		// An unclosed [ or { is found only where the input runs out, and yaml names the
		// line before the flow or none: point at the bracket left open, else (no line
		// named) at the last line.
		if l, c, open := unclosed(data); open || !strings.Contains(err.Error(), "line ") {
			pos.Line, pos.Column = l, c
		}
	}
	lines := strings.Split(string(data), "\n")
	for n := pos.Line - 1; n <= pos.Line+1; n++ {
		if n < 1 || n > len(lines) {
			continue
		}
		if l := lines[n-1]; strings.Contains(l, "?") && strings.ContainsAny(l, "{[") {
			d.fail(&yaml.Node{Line: n, Column: strings.Index(l, "?") + 1},
				"inside { } and [ ] YAML cannot hold a bare ?: quote the text (question: \"Which one?\"), or write the mapping as indented lines",
				"%s", msg)
			return
		}
	}
	d.fail(pos, "the file is not valid YAML: check the indentation; inside { } and [ ] quote text that contains , : ? # [ ] { } (question: \"Ready?\"), or write the mapping as indented lines", "%s", msg)
}

// dec is the decoder's state: the file and the errors so far.
type dec struct {
	file string
	errs Errors
	// clients are the declared client names, in file order.
	clients []string
	// more counts the errors past maxErrors (dropped of them).
	more    *Error
	dropped int
}

const maxErrors = 50

func (d *dec) pos(n *yaml.Node) Pos { return Pos{File: d.file, Line: n.Line, Col: n.Column} }

func (d *dec) fail(n *yaml.Node, hint, format string, args ...any) {
	d.errs = capped(d.errs, &d.more, &d.dropped, d.file, &Error{Pos: d.pos(n), Msg: fmt.Sprintf(format, args...), Hint: hint})
}

// plain rejects anchors, aliases, merge keys and explicit tags anywhere under n: the
// format has one way to write each value, and walking aliases could blow up.
func (d *dec) plain(n *yaml.Node) bool {
	ok := true
	var walk func(n *yaml.Node, depth int)
	walk = func(n *yaml.Node, depth int) {
		if depth > MaxNesting {
			d.fail(n, "flatten the structure", "nested too deeply")
			ok = false
			return
		}
		switch {
		case n.Kind == yaml.AliasNode:
			d.fail(n, "write the value out instead of *"+n.Value, "aliases are not part of the scenario format")
			ok = false
			return
		case n.Anchor != "":
			d.fail(n, "remove &"+n.Anchor+" and write each value out", "anchors are not part of the scenario format")
			ok = false
		case n.Style&yaml.TaggedStyle != 0:
			d.fail(n, "remove the tag "+n.Tag, "explicit tags are not part of the scenario format")
			ok = false
		}
		for _, c := range n.Content {
			walk(c, depth+1)
		}
	}
	walk(n, 0)
	return ok
}

// --- scalar readers -------------------------------------------------------------------

func kindName(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	case yaml.ScalarNode:
		switch n.ShortTag() {
		case "!!null":
			return "nothing"
		case "!!bool":
			return "a boolean"
		case "!!int":
			return "an integer"
		case "!!float":
			return "a number"
		}
		return "a string"
	}
	return "a value"
}

func isNull(n *yaml.Node) bool { return n.Kind == yaml.ScalarNode && n.ShortTag() == "!!null" }

// text reads any string-like scalar (strings and numbers as written).
func (d *dec) text(n *yaml.Node, what string) (string, bool) {
	if n.Kind == yaml.ScalarNode {
		switch n.ShortTag() {
		case "!!str", "!!int", "!!float":
			return n.Value, true
		}
	}
	hint := "write it as text"
	if n.Kind == yaml.ScalarNode && n.ShortTag() == "!!bool" {
		hint = "quote it: \"" + n.Value + "\""
	}
	d.fail(n, hint, "%s must be text, not %s", what, kindName(n))
	return "", false
}

var identRe = regexp.MustCompile(`^[A-Za-z0-9#][A-Za-z0-9_.:#/-]*$`)

// ident reads a name: a call id, a Session, a client, a question id.
func (d *dec) ident(n *yaml.Node, what string) (string, bool) {
	s, ok := d.text(n, what)
	if !ok {
		return "", false
	}
	if !identRe.MatchString(s) {
		d.fail(n, "use letters, digits and - _ . : / # only, like c1 or s1", "%s %q is not a valid name", what, s)
		return "", false
	}
	return s, true
}

func (d *dec) duration(n *yaml.Node, what string, signed bool) (Duration, bool) {
	if n.Kind == yaml.ScalarNode && (n.ShortTag() == "!!str" || (n.ShortTag() == "!!int" && n.Value == "0")) {
		v, err := ParseDuration(n.Value)
		if err == nil && (signed || v >= 0) {
			return v, true
		}
		if err == nil {
			d.fail(n, "write a positive duration", "%s cannot be negative", what)
			return 0, false
		}
		d.fail(n, "write a duration such as 5s, 250ms or 1.5s", "%s %q: %v", what, n.Value, err)
		return 0, false
	}
	if n.Kind == yaml.ScalarNode && (n.ShortTag() == "!!int" || n.ShortTag() == "!!float") {
		d.fail(n, "add a unit: "+n.Value+"s or "+n.Value+"ms", "%s needs a unit", what)
		return 0, false
	}
	d.fail(n, "write a duration such as 5s, 250ms or 1.5s", "%s must be a duration, not %s", what, kindName(n))
	return 0, false
}

func (d *dec) integer(n *yaml.Node, what string) (int64, bool) {
	return d.integerFrom(n, what, "-9223372036854775808")
}

// integerFrom is integer whose hint for a number too large names least as the smallest
// value the field takes (a field that cannot be negative never offers a negative one).
func (d *dec) integerFrom(n *yaml.Node, what, least string) (int64, bool) {
	if n.Kind == yaml.ScalarNode && n.ShortTag() == "!!int" {
		v, err := strconv.ParseInt(n.Value, 0, 64)
		if err == nil {
			return v, true
		}
	}
	if n.Kind == yaml.ScalarNode && (n.ShortTag() == "!!int" || n.ShortTag() == "!!float") && wholeRe.MatchString(n.Value) {
		d.fail(n, "write a whole number from "+least+" to 9223372036854775807", "%s %s is too large", what, n.Value)
		return 0, false
	}
	hint := "write a whole number"
	if n.Kind == yaml.ScalarNode && n.ShortTag() == "!!str" {
		if _, err := ParseDuration(n.Value); err == nil {
			hint = "this is a number of seconds without a unit, like 5"
		}
	}
	d.fail(n, hint, "%s must be a whole number, not %s", what, kindName(n))
	return 0, false
}

// wholeRe is a whole number as written (YAML reads one too large for 64 bits as a float).
var wholeRe = regexp.MustCompile(`^[-+]?[0-9][0-9_]*$`)

func (d *dec) uinteger(n *yaml.Node, what string) (int64, bool) {
	v, ok := d.integerFrom(n, what, "0")
	if ok && v < 0 {
		d.fail(n, "write 0 or more", "%s cannot be negative", what)
		return 0, false
	}
	return v, ok
}

func (d *dec) boolean(n *yaml.Node, what string) (bool, bool) {
	if n.Kind == yaml.ScalarNode && n.ShortTag() == "!!bool" {
		v, err := strconv.ParseBool(strings.ToLower(n.Value))
		if err == nil {
			return v, true
		}
	}
	d.fail(n, "write true or false", "%s must be true or false, not %s", what, kindName(n))
	return false, false
}

func (d *dec) isTrue(n *yaml.Node, what string) bool {
	v, ok := d.boolean(n, what)
	if ok && !v {
		d.fail(n, "leave the key out instead of writing false", "%s can only be true", what)
		return false
	}
	return v
}

func (d *dec) rate(n *yaml.Node, what string) (float64, bool) {
	if n.Kind == yaml.ScalarNode && (n.ShortTag() == "!!int" || n.ShortTag() == "!!float") {
		v, err := strconv.ParseFloat(n.Value, 64)
		if err == nil && v >= 0 && v <= 1e6 {
			return v, true
		}
	}
	d.fail(n, "write a rate per simulated minute, like 0.5 or 2", "%s must be a number of faults per minute, not %s", what, kindName(n))
	return 0, false
}

var jsonNumber = regexp.MustCompile(`^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?$`)

// jsonNum reads a number exactly as the model writes it into JSON.
func (d *dec) jsonNum(n *yaml.Node, what string) (string, bool) {
	if n.Kind == yaml.ScalarNode && (n.ShortTag() == "!!int" || n.ShortTag() == "!!float") && jsonNumber.MatchString(n.Value) {
		return n.Value, true
	}
	hint := "write the number of seconds the model sends, like 5 or -1; for any other JSON value write the raw arguments (ask: '{...}')"
	if n.Kind == yaml.ScalarNode && n.ShortTag() == "!!str" {
		if v, err := ParseDuration(n.Value); err == nil && v%1000 == 0 && v > 0 {
			hint = fmt.Sprintf("the model's timeout is whole seconds without a unit: write %s: %d", what, v/1000)
		}
	}
	d.fail(n, hint, "%s must be a JSON number, not %s", what, kindName(n))
	return "", false
}

// raw reads a string kept as it is (raw JSON, raw arguments).
func (d *dec) raw(n *yaml.Node, what string) (string, bool) {
	if n.Kind == yaml.ScalarNode && n.ShortTag() == "!!str" {
		return n.Value, true
	}
	d.fail(n, "quote it with single quotes: '{\"key\": 1}'", "%s must be a string of raw text, not %s", what, kindName(n))
	return "", false
}

func (d *dec) rawJSON(n *yaml.Node, what string) (string, bool) {
	s, ok := d.raw(n, what)
	if ok && !json.Valid([]byte(s)) {
		d.fail(n, "check the quotes and brackets of the JSON", "%s is not valid JSON", what)
		return "", false
	}
	return s, ok
}

func (d *dec) enum(n *yaml.Node, what string, values []string) (string, bool) {
	s, ok := d.text(n, what)
	if !ok {
		return "", false
	}
	for _, v := range values {
		if s == v {
			return s, true
		}
	}
	d.fail(n, oneOf(s, values), "unknown %s %q", what, s)
	return "", false
}

func (d *dec) texts(n *yaml.Node, what string) ([]string, bool) {
	if n.Kind != yaml.SequenceNode {
		d.fail(n, "write a list: [a, b]", "%s must be a list, not %s", what, kindName(n))
		return nil, false
	}
	out := make([]string, 0, len(n.Content))
	ok := true
	for _, c := range n.Content {
		s, k := d.text(c, what+" item")
		ok = ok && k
		out = append(out, s)
	}
	return out, ok
}

// --- mappings -------------------------------------------------------------------------

// entry is one key of a mapping with its value.
type entry struct{ k, v *yaml.Node }

// mapping reads the entries of a mapping, checking that keys are plain text and unique.
func (d *dec) mapping(n *yaml.Node, what string) ([]entry, bool) {
	if n.Kind != yaml.MappingNode {
		d.fail(n, "write "+what+" as key: value lines", "%s must be a mapping, not %s", what, kindName(n))
		return nil, false
	}
	out := make([]entry, 0, len(n.Content)/2)
	seen := map[string]bool{}
	ok := true
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if k.Kind != yaml.ScalarNode || k.ShortTag() == "!!null" {
			d.fail(k, "keys are plain words", "a key of %s must be a word, not %s", what, kindName(k))
			ok = false
			continue
		}
		if k.Value == "<<" {
			d.fail(k, "write the keys out", "merge keys are not part of the scenario format")
			ok = false
			continue
		}
		if seen[k.Value] {
			d.fail(k, "keep one", "the key %q appears twice in %s", k.Value, what)
			ok = false
			continue
		}
		seen[k.Value] = true
		out = append(out, entry{k, v})
	}
	return out, ok
}

// fields reads a mapping against an object's keys: every key known, every required key
// present. It returns the value nodes by key.
func (d *dec) fields(n *yaml.Node, o *object, what string) (map[string]*yaml.Node, bool) {
	es, ok := d.mapping(n, what)
	if !ok && es == nil {
		return nil, false
	}
	out := make(map[string]*yaml.Node, len(es))
	for _, e := range es {
		if !o.has(e.k.Value) {
			d.fail(e.k, d.keyHint(e.k.Value, o.names()), "unknown key %q in %s", e.k.Value, what)
			ok = false
			continue
		}
		out[e.k.Value] = e.v
	}
	for _, k := range o.Keys {
		if k.Required && out[k.Name] == nil {
			d.fail(n, "add "+k.Name+": ("+k.Doc+")", "%s needs %s:", what, k.Name)
			ok = false
		}
	}
	return out, ok
}

func (d *dec) keyHint(k string, allowed []string) string {
	if c, ok := closest(k, allowed); ok {
		return "did you mean " + c + "? the keys here are " + strings.Join(allowed, ", ")
	}
	return "the keys here are " + strings.Join(allowed, ", ")
}

// verb finds which of the candidate objects a mapping is, by its verb key (each object's
// first key is its verb, except call which marks model calls).
func (d *dec) verb(n *yaml.Node, objects []*object, what string) (*object, bool) {
	es, ok := d.mapping(n, what)
	if !ok && es == nil {
		return nil, false
	}
	var verbs []string
	found := map[string]*object{}
	for _, o := range objects {
		v := verbOf(o)
		verbs = append(verbs, v)
		found[v] = o
	}
	var hits []string
	for _, e := range es {
		if found[e.k.Value] != nil {
			hits = append(hits, e.k.Value)
		}
	}
	switch len(hits) {
	case 1:
		return found[hits[0]], true
	case 0:
		var keys []string
		for _, e := range es {
			keys = append(keys, e.k.Value)
		}
		hint := "write one of " + strings.Join(verbs, ", ")
		for _, k := range keys {
			if c, ok := closest(k, verbs); ok {
				hint = "did you mean " + c + "? " + hint
				break
			}
		}
		d.fail(n, hint, "%s does not say what it does", what)
	default:
		d.fail(n, "split it into several steps at the same time", "%s does several things at once: %s", what, strings.Join(hits, ", "))
	}
	return nil, false
}

// verbOf is the key that names an object's action: its first key other than call.
func verbOf(o *object) string {
	for _, k := range o.Keys {
		if k.Name != "call" {
			return k.Name
		}
	}
	return o.Keys[0].Name
}

// --- the scenario ---------------------------------------------------------------------

var nameRe = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)

func (d *dec) scenario(n *yaml.Node) *Scenario {
	f, _ := d.fields(n, scenarioObject, "the scenario")
	if f == nil {
		return nil
	}
	s := &Scenario{Pos: d.pos(n)}
	if v := f["name"]; v != nil {
		if name, ok := d.text(v, "name"); ok {
			if !nameRe.MatchString(name) {
				d.fail(v, "use lowercase words joined by dashes, like "+suggestName(name), "the name %q is not lowercase words joined by dashes", name)
			}
			s.Name = name
		}
	}
	if v := f["summary"]; v != nil {
		if sum, ok := d.text(v, "summary"); ok {
			if strings.TrimSpace(sum) == "" || strings.Contains(strings.TrimRight(sum, "\n"), "\n") {
				d.fail(v, "say what the scenario shows in one line", "the summary must be one non-empty line")
			}
			s.Summary = strings.TrimRight(sum, "\n")
		}
	}
	if v := f["covers"]; v != nil {
		s.Covers = d.covers(v)
	}
	if v := f["seed"]; v != nil {
		if n, ok := d.uinteger(v, "seed"); ok {
			s.Seed = uint64(n)
		}
	}
	if v := f["mode"]; v != nil {
		s.Mode, _ = d.enum(v, "mode", modes)
	}
	if v := f["timeout"]; v != nil {
		if t, ok := d.integer(v, "timeout"); ok {
			s.Timeout = &t
		}
	}
	if v := f["write-window"]; v != nil {
		if w, ok := d.duration(v, "write-window", false); ok {
			s.WriteWindow = &w
		}
	}
	if v := f["auto-end"]; v != nil {
		if v.Kind == yaml.ScalarNode && v.Value == "never" {
			s.AutoEnd = Never
		} else {
			s.AutoEnd, _ = d.duration(v, "auto-end", false)
		}
	}
	if v := f["limit"]; v != nil {
		s.Limit, _ = d.duration(v, "limit", false)
	}
	if v := f["sessions"]; v != nil {
		s.Sessions = d.sessions(v)
	}
	if v := f["clients"]; v != nil {
		s.Clients = d.clientList(v)
	}
	for _, c := range s.Clients {
		d.clients = append(d.clients, c.Name)
	}
	if v := f["steps"]; v != nil {
		if v.Kind != yaml.SequenceNode {
			d.fail(v, "write steps as a list of - at: ... items", "steps must be a list, not %s", kindName(v))
		} else {
			// Each step is decoded in place in the list (a kind's decoder gets a pointer).
			s.Steps = make([]Step, 0, len(v.Content))
			for _, c := range v.Content {
				s.Steps = append(s.Steps, Step{})
				if !d.step(c, &s.Steps[len(s.Steps)-1]) {
					s.Steps = s.Steps[:len(s.Steps)-1]
				}
			}
			if len(s.Steps) == 0 {
				s.Steps = nil
			}
		}
	}
	if v := f["expect"]; v != nil {
		if v.Kind != yaml.SequenceNode {
			d.fail(v, "write expect as a list of - at: ... items", "expect must be a list, not %s", kindName(v))
		} else {
			s.Expect = make([]Expectation, 0, len(v.Content))
			for _, c := range v.Content {
				s.Expect = append(s.Expect, Expectation{})
				if !d.expectation(c, &s.Expect[len(s.Expect)-1]) {
					s.Expect = s.Expect[:len(s.Expect)-1]
				}
			}
			if len(s.Expect) == 0 {
				s.Expect = nil
			}
		}
	}
	if v := f["explore"]; v != nil {
		s.Explore = d.explore(v)
	}
	if v := f["timeout"]; v != nil {
		// Here rather than in Validate, which has only the scenario's position.
		if msg, hint := refusedTimeout(s); msg != "" {
			d.fail(v, hint, "%s", msg)
		}
	}
	return s
}

func suggestName(s string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(s) {
		if (r >= 'a' && r <= 'z') || (r >= '0' && r <= '9') {
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			dash = false
			b.WriteRune(r)
		} else {
			dash = true
		}
	}
	if b.Len() == 0 {
		return "my-scenario"
	}
	return b.String()
}

func (d *dec) covers(n *yaml.Node) []string {
	if n.Kind != yaml.SequenceNode {
		d.fail(n, "write a list: covers: [WAIT-1, WAIT-2]", "covers must be a list of requirement ids, not %s", kindName(n))
		return nil
	}
	var out []string
	seen := map[string]bool{}
	for _, c := range n.Content {
		id, ok := d.text(c, "a requirement id")
		if !ok {
			continue
		}
		if !KnownRequirement(id) {
			hint := "the ids are listed in docs/REQUIREMENTS.md (simrun coverage prints them)"
			if best, ok := closest(id, RequirementIDs()); ok {
				hint = "did you mean " + best + "? " + hint
			}
			d.fail(c, hint, "unknown requirement id %q", id)
			continue
		}
		if seen[id] {
			d.fail(c, "list each id once", "%s is listed twice", id)
			continue
		}
		seen[id] = true
		out = append(out, id)
	}
	return out
}

var clientNameRe = regexp.MustCompile(`^[a-z][a-z0-9-]*$`)

func (d *dec) checkName(k *yaml.Node, what string, re *regexp.Regexp) bool {
	if !re.MatchString(k.Value) {
		d.fail(k, "use a short lowercase name like a, b or phone", "%s name %q is not a lowercase word", what, k.Value)
		return false
	}
	for _, r := range reservedIDs {
		if k.Value == r {
			d.fail(k, "pick another name; "+strings.Join(reservedIDs, ", ")+" are reserved", "%s cannot be named %q", what, k.Value)
			return false
		}
	}
	return true
}

func (d *dec) sessions(n *yaml.Node) []Session {
	es, _ := d.mapping(n, "sessions")
	var out []Session
	for _, e := range es {
		if !d.checkName(e.k, "a Session", identRe) {
			continue
		}
		s := Session{Name: e.k.Value, Pos: d.pos(e.k)}
		if !isNull(e.v) {
			f, _ := d.fields(e.v, sessionObject, "Session "+s.Name)
			if v := f["owner"]; v != nil {
				s.Owner, _ = d.ident(v, "owner")
			}
		}
		out = append(out, s)
	}
	return out
}

func (d *dec) clientList(n *yaml.Node) []Client {
	es, _ := d.mapping(n, "clients")
	var out []Client
	for _, e := range es {
		if !d.checkName(e.k, "a client", clientNameRe) {
			continue
		}
		c := Client{Name: e.k.Value, Pos: d.pos(e.k)}
		if !isNull(e.v) {
			f, _ := d.fields(e.v, clientObject, "client "+c.Name)
			if v := f["latency"]; v != nil {
				c.Latency, _ = d.latency(v, "latency")
			}
			if v := f["http"]; v != nil {
				if l, ok := d.latency(v, "http"); ok {
					c.HTTP = &l
				}
			}
			if v := f["skew"]; v != nil {
				c.Skew, _ = d.duration(v, "skew", true)
			}
			if v := f["drift"]; v != nil {
				c.Drift, _ = d.ppm(v, "drift")
			}
			if v := f["tick"]; v != nil {
				c.Tick, _ = d.duration(v, "tick", false)
			}
			if v := f["offline"]; v != nil {
				c.Offline, _ = d.boolean(v, "offline")
			}
			if v := f["hold"]; v != nil {
				c.Hold, _ = d.boolean(v, "hold")
			}
			if v := f["reconnect"]; v != nil {
				if r, ok := d.duration(v, "reconnect", false); ok {
					c.Reconnect = &r
				}
			}
		}
		out = append(out, c)
	}
	return out
}

func (d *dec) latency(n *yaml.Node, what string) (Latency, bool) {
	if n.Kind == yaml.ScalarNode && (n.ShortTag() == "!!str" || n.Value == "0") {
		l, err := ParseLatency(n.Value)
		if err == nil {
			return l, true
		}
		d.fail(n, "write a duration like 20ms, or a range like 10ms..50ms", "%s %q: %v", what, n.Value, err)
		return Latency{}, false
	}
	d.fail(n, "write a duration like 20ms, or a range like 10ms..50ms", "%s must be a duration, not %s", what, kindName(n))
	return Latency{}, false
}

func (d *dec) ppm(n *yaml.Node, what string) (int64, bool) {
	if n.Kind == yaml.ScalarNode && n.ShortTag() == "!!str" {
		v, err := ParsePPM(n.Value)
		if err == nil {
			return v, true
		}
		d.fail(n, "write parts per million like 500ppm or -200ppm", "%s %q: %v", what, n.Value, err)
		return 0, false
	}
	d.fail(n, "write parts per million like 500ppm or -200ppm", "%s must be a ppm value, not %s", what, kindName(n))
	return 0, false
}

// --- steps ----------------------------------------------------------------------------

func (d *dec) actors() []string {
	var out []string
	for _, k := range stepKinds {
		if k.hinted {
			out = append(out, k.name)
		}
	}
	return append(out, d.clients...)
}

func (d *dec) step(n *yaml.Node, st *Step) bool {
	*st = Step{Pos: d.pos(n)}
	es, ok := d.mapping(n, "a step")
	if !ok && es == nil {
		return false
	}
	isClient := func(k string) bool {
		for _, c := range d.clients {
			if c == k {
				return true
			}
		}
		return false
	}
	var actor *entry
	var at *yaml.Node
	ok = true
	for i := range es {
		e := &es[i]
		switch k := e.k.Value; {
		case k == "at":
			at = e.v
		case k == "session":
			st.Session, _ = d.ident(e.v, "session")
		case k == "refused":
			st.Refused, _ = d.text(e.v, "refused")
			if st.Refused == "" {
				d.fail(e.v, "write a part of the expected error, like submission is disabled", "refused: needs the text of the expected error")
			}
		case stepKindNamed(k) != nil || isClient(k):
			if actor != nil {
				d.fail(e.k, "split it into two steps at the same time", "a step has one actor; this one has %s and %s", actor.k.Value, k)
				ok = false
				continue
			}
			actor = e
		default:
			hint := "the actors are " + strings.Join(d.actors(), ", ")
			if len(d.clients) == 0 {
				hint += " (declare clients under clients: to use their names)"
			}
			if c, found := closest(k, append(d.actors(), "at", "session")); found {
				hint = "did you mean " + c + "? " + hint
			}
			d.fail(e.k, hint, "unknown actor %q", k)
			ok = false
		}
	}
	if at == nil {
		d.fail(n, "add at: with the step's time, like at: 2s", "a step needs at:")
		ok = false
	} else {
		var k bool
		st.At, k = d.duration(at, "at", false)
		ok = ok && k
	}
	if actor == nil {
		if ok {
			d.fail(n, "add one actor: "+strings.Join(d.actors(), ", "), "a step needs an actor")
		}
		return false
	}
	kind := stepKindNamed(actor.k.Value)
	if kind == nil {
		kind = byClientKind()
	}
	ok = kind.decode(d, st, actor.k.Value, actor.v) && ok
	return ok
}

func (d *dec) word(n *yaml.Node, what string, words []string) (string, bool) {
	for _, w := range words {
		if n.Value == w {
			return w, true
		}
	}
	d.fail(n, oneOf(n.Value, words)+", or a mapping", "unknown %s %q", what, n.Value)
	return "", false
}

func (d *dec) questionsOrRaw(n *yaml.Node, what string, ok bool) ([]Question, string, bool) {
	switch {
	case n.Kind == yaml.ScalarNode && n.ShortTag() == "!!str":
		if n.Value == "" {
			d.fail(n, "write [] for an empty batch", "%s is an empty string", what)
			return nil, "", false
		}
		return nil, n.Value, ok
	case n.Kind == yaml.SequenceNode:
		qs := make([]Question, 0, len(n.Content))
		for _, c := range n.Content {
			q, k := d.question(c)
			ok = ok && k
			qs = append(qs, q)
		}
		return qs, "", ok
	}
	d.fail(n, "write the questions as a list ([] for an empty batch), or the raw arguments as a quoted string", "%s must be a list of questions, not %s", what, kindName(n))
	return nil, "", false
}

func (d *dec) question(n *yaml.Node) (Question, bool) {
	var q Question
	f, ok := d.fields(n, questionObject, "a question")
	if f == nil {
		return q, false
	}
	var k bool
	if v := f["id"]; v != nil {
		q.ID, k = d.text(v, "id")
		ok = ok && k
	}
	if v := f["question"]; v != nil {
		q.Question, k = d.text(v, "question")
		ok = ok && k
	}
	if v := f["header"]; v != nil {
		q.Header, k = d.text(v, "header")
		ok = ok && k
	}
	if v := f["detail"]; v != nil {
		q.Detail, k = d.text(v, "detail")
		ok = ok && k
	}
	if v := f["multi"]; v != nil {
		q.Multi, k = d.boolean(v, "multi")
		ok = ok && k
	}
	if v := f["plan-review"]; v != nil {
		q.PlanReview, k = d.text(v, "plan-review")
		ok = ok && k
	}
	if v := f["options"]; v != nil {
		if v.Kind != yaml.SequenceNode {
			d.fail(v, "write the labels as a list: [npm, bun]", "options must be a list, not %s", kindName(v))
			return q, false
		}
		for _, c := range v.Content {
			var o Option
			if c.Kind == yaml.MappingNode {
				of, k := d.fields(c, optionObject, "an option")
				ok = ok && k
				if x := of["label"]; x != nil {
					o.Label, k = d.text(x, "label")
					ok = ok && k
				}
				if x := of["description"]; x != nil {
					o.Description, k = d.text(x, "description")
					ok = ok && k
				}
			} else {
				o.Label, k = d.text(c, "an option")
				ok = ok && k
			}
			q.Options = append(q.Options, o)
		}
	}
	return q, ok
}

// answers reads a batch written as question id: answer, in order. An answer is a label,
// a list of labels ([] is a skip), or {selected: [...], custom: text}.
func (d *dec) answers(n *yaml.Node) ([]AnswerItem, bool) {
	es, ok := d.mapping(n, "the answers")
	if !ok && es == nil {
		return nil, false
	}
	out := make([]AnswerItem, 0, len(es))
	for _, e := range es {
		a := AnswerItem{ID: e.k.Value, Selected: []string{}}
		var k bool
		switch e.v.Kind {
		case yaml.ScalarNode:
			var l string
			l, k = d.text(e.v, "the answer to "+a.ID)
			a.Selected = []string{l}
		case yaml.SequenceNode:
			a.Selected, k = d.texts(e.v, "the answer to "+a.ID)
		case yaml.MappingNode:
			var f map[string]*yaml.Node
			f, k = d.fields(e.v, answerObject, "the answer to "+a.ID)
			if v := f["selected"]; v != nil {
				var k2 bool
				a.Selected, k2 = d.texts(v, "selected")
				k = k && k2
			}
			if v := f["custom"]; v != nil {
				c, k2 := d.text(v, "custom")
				a.Custom = &c
				k = k && k2
			}
		default:
			d.fail(e.v, "write a label, a list of labels ([] skips), or {custom: text}", "the answer to %s is %s", a.ID, kindName(e.v))
		}
		ok = ok && k
		out = append(out, a)
	}
	return out, ok
}

// --- expectations ---------------------------------------------------------------------

func (d *dec) expectation(n *yaml.Node, e *Expectation) bool {
	*e = Expectation{Pos: d.pos(n)}
	es, ok := d.mapping(n, "an expectation")
	if !ok && es == nil {
		return false
	}
	var kinds []string
	for _, x := range es {
		if expectKind(x.k.Value) != nil {
			kinds = append(kinds, x.k.Value)
		}
	}
	switch len(kinds) {
	case 0:
		hint := "write one of " + strings.Join(expectKindNames(), ", ")
		for _, x := range es {
			if x.k.Value == "at" {
				continue
			}
			if c, found := closest(x.k.Value, expectKindNames()); found {
				hint = "did you mean " + c + "? " + hint
				break
			}
		}
		d.fail(n, hint, "the expectation does not say what it checks")
		return false
	case 1:
	default:
		d.fail(n, "write one check per item, at the same time", "one expectation checks %s", strings.Join(kinds, " and "))
		return false
	}
	o := expectKind(kinds[0])
	full := &object{Name: o.Name, Keys: append(append([]key(nil), expectCommon...), o.Keys...)}
	f, ok := d.fields(n, full, "the "+o.Name+" expectation")
	if f == nil {
		return false
	}
	e.Kind = o.Name
	var k bool
	if v := f["at"]; v != nil {
		if v.Kind == yaml.ScalarNode && v.Value == "end" {
			e.End = true
		} else {
			e.At, k = d.duration(v, "at", false)
			ok = ok && k
		}
	}
	e.Subject, k = o.readSubject(d, f[o.Name])
	ok = ok && k
	for _, x := range es {
		name, v := x.k.Value, x.v
		if name == "at" || name == o.Name || !full.has(name) {
			continue
		}
		if a := assertionKeyIndex[name]; a != nil {
			ok = a.decode(d, v, e, o) && ok
		}
	}
	return ok
}

// countdown reads "3s running", "2.5s paused" or "none" into its canonical form.
func (d *dec) countdown(n *yaml.Node) (string, bool) {
	s, ok := d.text(n, "countdown")
	if !ok {
		return "", false
	}
	if c, err := ParseCountdown(s); err == nil {
		return c, true
	}
	d.fail(n, "write the remaining time and running or paused, like 3s running, or none", "countdown %q is not a countdown", s)
	return "", false
}

// ParseCountdown reads "3s running", "2.5s paused" or "none" and returns its canonical
// form (the duration in canonical form).
func ParseCountdown(s string) (string, error) {
	if s == "none" {
		return s, nil
	}
	num, state, ok := strings.Cut(s, " ")
	if !ok || (state != "running" && state != "paused") {
		return "", errors.New("not a countdown")
	}
	d, err := ParseDuration(num)
	if err != nil || d < 0 {
		return "", errors.New("not a countdown")
	}
	return d.String() + " " + state, nil
}

func (d *dec) explore(n *yaml.Node) *Explore {
	f, _ := d.fields(n, exploreObject, "explore")
	if f == nil {
		return nil
	}
	x := &Explore{Pos: d.pos(n)}
	if v := f["seeds"]; v != nil {
		s, _ := d.uinteger(v, "seeds")
		x.Seeds = int(s)
	}
	if v := f["jitter"]; v != nil {
		x.Jitter, _ = d.duration(v, "jitter", false)
	}
	if v := f["healed"]; v != nil {
		x.Healed, _ = d.duration(v, "healed", false)
	}
	if v := f["faults"]; v != nil {
		ff, _ := d.fields(v, faultsObject, "faults")
		rate := func(name string, dst *float64) {
			if v := ff[name]; v != nil {
				*dst, _ = d.rate(v, name)
			}
		}
		rate("crash", &x.Faults.Crash)
		rate("disconnect", &x.Faults.Disconnect)
		rate("reload", &x.Faults.Reload)
		rate("clock-jump", &x.Faults.ClockJump)
		rate("partition", &x.Faults.Partition)
		rate("lose", &x.Faults.Lose)
	}
	return x
}

// notText finds the first byte that makes data not a text file (a NUL, another control
// character than tab, newline and carriage return, or invalid UTF-8): its 1-based line
// and column (in characters) and what it is; ok when there is none.
func notText(data []byte) (line, col int, what string, ok bool) {
	line, col = 1, 1
	for i := 0; i < len(data); {
		r, size := utf8.DecodeRune(data[i:])
		switch {
		case r == utf8.RuneError && size <= 1:
			return line, col, "invalid UTF-8", false
		case r == 0:
			return line, col, "a NUL byte", false
		case r == '\n':
			line, col = line+1, 0
		case r < 0x20 && r != '\t' && r != '\r', r == 0x7f:
			return line, col, fmt.Sprintf("the control character U+%04X", r), false
		}
		i += size
		col++
	}
	return 0, 0, "", true
}

// unclosed returns the position of the innermost [ or { that is never closed (outside
// quotes and comments) and true, or the start of the last non-empty line and false.
func unclosed(data []byte) (int, int, bool) {
	type open struct{ line, col int }
	var stack []open
	lines := strings.Split(string(data), "\n")
	last := 1
	for i, l := range lines {
		if strings.TrimSpace(l) != "" {
			last = i + 1
		}
		var quote rune
		col := 0
		prev := ' '
		for _, r := range l {
			col++
			switch {
			case quote != 0:
				if r == quote {
					quote = 0
				}
			case r == '\'' || r == '"':
				quote = r
			case r == '#' && (prev == ' ' || prev == '\t' || col == 1):
				goto next
			case r == '[' || r == '{':
				stack = append(stack, open{i + 1, col})
			case (r == ']' || r == '}') && len(stack) > 0:
				stack = stack[:len(stack)-1]
			}
			prev = r
		}
	next:
	}
	if len(stack) > 0 {
		o := stack[len(stack)-1]
		return o.line, o.col, true
	}
	return last, 1, false
}
