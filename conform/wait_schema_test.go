package conform

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/twosettle/twosettle/schemacheck"
)

// docs/protocol/wait.schema.json says what the decoder does: the same operations, each
// with the same keys and the same required ones, and the same events with their keys.
func TestWaitSchemaMatchesTheDecoder(t *testing.T) {
	data, err := os.ReadFile("../docs/protocol/wait.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	type variant struct {
		Title      string
		Properties map[string]json.RawMessage
		Required   []string
	}
	var schema struct {
		Defs struct {
			Request struct {
				Properties struct{ Op struct{ Enum []string } }
				OneOf      []variant
			}
			Event struct {
				Properties struct{ Event struct{ Enum []string } }
				OneOf      []variant
			}
		} `json:"$defs"`
	}
	if err := json.Unmarshal(data, &schema); err != nil {
		t.Fatal(err)
	}
	req := schema.Defs.Request
	if d := cmp.Diff(waitOps(), slices.Sorted(slices.Values(req.Properties.Op.Enum))); d != "" {
		t.Errorf("op enum (-decoder +schema):\n%s", d)
	}
	for _, v := range req.OneOf {
		keys, ok := waitOpKeys[v.Title]
		if !ok {
			t.Errorf("the schema has op %q", v.Title)
			continue
		}
		var all, required []string
		for _, k := range keys {
			name, optional := strings.CutSuffix(k, "?")
			all = append(all, name)
			if !optional {
				required = append(required, name)
			}
		}
		var props []string
		for k := range v.Properties {
			if k != "type" && k != "n" && k != "now" && k != "op" {
				props = append(props, k)
			}
		}
		if d := cmp.Diff(slices.Sorted(slices.Values(all)), slices.Sorted(slices.Values(props))); d != "" {
			t.Errorf("%s keys (-decoder +schema):\n%s", v.Title, d)
		}
		if d := cmp.Diff(slices.Sorted(slices.Values(required)), slices.Sorted(slices.Values(v.Required))); d != "" && !(len(required) == 0 && len(v.Required) == 0) {
			t.Errorf("%s required keys (-decoder +schema):\n%s", v.Title, d)
		}
	}
	if len(req.OneOf) != len(waitOpKeys) {
		t.Errorf("the schema has %d ops, the decoder %d", len(req.OneOf), len(waitOpKeys))
	}
	events := map[string][]string{
		WaitEventFrame:  {"at", "claim", "event", "remainingMs"},
		WaitEventEnd:    {"at", "claim", "event"},
		WaitEventClosed: {"at", "event", "reason", "wait"},
	}
	if d := cmp.Diff([]string{"closed", "end", "frame"}, slices.Sorted(slices.Values(schema.Defs.Event.Properties.Event.Enum))); d != "" {
		t.Errorf("event enum:\n%s", d)
	}
	for _, v := range schema.Defs.Event.OneOf {
		var props []string
		for k := range v.Properties {
			props = append(props, k)
		}
		if d := cmp.Diff(events[v.Title], slices.Sorted(slices.Values(props))); d != "" {
			t.Errorf("event %s keys (-decoder +schema):\n%s", v.Title, d)
		}
		// every key of the event's canonical form is in the schema, and the decoder takes it
		e := WaitEvent{Event: v.Title, Wait: "w", Claim: "k", Reason: "R", RemainingMs: 1, At: 2}
		back, err := decodeWaitEvents([]byte("[" + e.String() + "]"))
		if err != nil || back[0].String() != e.String() {
			t.Errorf("event %s: %v %v", v.Title, back, err)
		}
	}
}

// Every request line the runner sends for the library's and 200 generated wait scripts,
// and every waited reply the reference wait gives them, is what messages.schema.json (and
// through it wait.schema.json) says, as a team validating its own adapter's lines would
// check them.
func TestWaitLinesMatchTheMessagesSchema(t *testing.T) {
	scripts, err := LibraryWaitScripts()
	if err != nil {
		t.Fatal(err)
	}
	for seed := uint64(1); seed <= 200; seed++ {
		scripts = append(scripts, GenerateWaitScript(seed, 0))
	}
	schemas := schemacheck.New(filepath.Join("..", "docs", "protocol"))
	check := func(what string, line []byte) {
		t.Helper()
		msg, err := schemas.ValidateJSON("messages.schema.json", line)
		if err != nil {
			t.Fatalf("%s %s: %v", what, line, err)
		}
		if msg != "" {
			t.Errorf("%s %s: %s", what, line, msg)
		}
	}
	lines := 0
	for _, sc := range scripts {
		m := newWaitModel(0)
		for i, s := range sc.Steps {
			n := int64(i + 1)
			check(sc.Name+" request", waitRequestLine(n, s))
			check(sc.Name+" reply", appendWaited(nil, n, m.Step(s)))
			lines += 2
		}
	}
	if lines < 1000 {
		t.Fatalf("only %d lines checked", lines)
	}
	// and the schema refuses what the decoder refuses
	for _, bad := range []string{
		`{"type":"wait","n":1,"now":0,"op":"create","wait":"w"}`,
		`{"type":"wait","n":1,"now":-1,"op":"advance"}`,
		`{"type":"waited","n":1,"events":[{"event":"frame","claim":"k","remainingMs":1,"at":0,"x":1}],"timers":0}`,
	} {
		if msg, _ := schemas.ValidateJSON("messages.schema.json", []byte(bad)); msg == "" {
			t.Errorf("the schema accepts %s", bad)
		}
	}
}
