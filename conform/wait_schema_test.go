package conform

import (
	"encoding/json"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
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
