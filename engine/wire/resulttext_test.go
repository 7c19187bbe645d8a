package wire

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/twosettle/twosettle/engine/jsonx"
)

// pendingByEncodingJSON is the pending test written plainly over encoding/json (an object
// whose last pending member is true), the reference ReadPendingResult is checked against;
// callID is set when the last callId member is a string.
func pendingByEncodingJSON(text string) (callID string, hasCallID, pending bool) {
	var m map[string]json.RawMessage
	if json.Unmarshal([]byte(text), &m) != nil || m == nil {
		return "", false, false
	}
	if string(m["pending"]) != "true" {
		return "", false, false
	}
	if json.Unmarshal(m["callId"], &callID) != nil || !strings.HasPrefix(strings.TrimSpace(string(m["callId"])), `"`) {
		return "", false, true
	}
	return callID, true, true
}

func TestReadPendingResult(t *testing.T) {
	t.Run("PROJ-4 a pending result is an object whose last pending member is true; the row also needs a string callId (docs/PEER.md §8.6)", func(t *testing.T) {
		for _, c := range []struct {
			text    string
			pending bool
			callID  string
			hasCall bool
		}{
			{`{"pending":true,"callId":"c1","message":"m"}`, true, "c1", true},
			{`{"pending":true}`, true, "", false},
			{`{"pending":true,"callId":7}`, true, "", false},
			{`{"pending":true,"callId":"a","callId":null}`, true, "", false},
			{`{"callId":"c\u0031","pend\u0069ng":true}`, true, "c1", true},
			{` { "pending" : true } `, true, "", false},
			{`{"pending":false}`, false, "", false},
			{`{"pending":"true","callId":"c1"}`, false, "", false},
			{`{"pending":true,"pending":false}`, false, "", false},
			{`{"pending":false,"pending":true}`, true, "", false},
			{`{"pending":{"x":1}}`, false, "", false},
			{`{"pending":true} x`, false, "", false},
			{`[{"pending":true}]`, false, "", false},
			{`{"pending":true,}`, false, "", false},
			{`{"pending":tru}`, false, "", false},
			{`{"answers":[]}`, false, "", false},
			{``, false, "", false},
			{`Error: pending`, false, "", false},
		} {
			p, ok := ReadPendingResult(c.text)
			if ok != c.pending || p.CallID != c.callID || p.HasCallID != c.hasCall {
				t.Errorf("%s: %+v %v, want pending %v callId %q %v", c.text, p, ok, c.pending, c.callID, c.hasCall)
			}
		}
	})
	t.Run("PROJ-4 it agrees with encoding/json on random texts", func(t *testing.T) {
		parts := []string{`{`, `}`, `[`, `]`, `,`, `:`, `"pending"`, `"callId"`, `"c1"`, `true`, `false`, `null`, `1`, ` `, `"pend\u0069ng"`, `"x"`}
		rapid.Check(t, func(t *rapid.T) {
			text := strings.Join(rapid.SliceOfN(rapid.SampledFrom(parts), 0, 16).Draw(t, "parts"), "")
			p, ok := ReadPendingResult(text)
			id, has, pending := pendingByEncodingJSON(text)
			if ok != pending || p.HasCallID != has || p.CallID != id {
				t.Fatalf("%s: %+v %v; encoding/json: %q %v %v", text, p, ok, id, has, pending)
			}
		})
	})
	t.Run("PROJ-4 a pending text nested deeper than jsonx.MaxDepth is not pending (docs/PEER.md §11.1)", func(t *testing.T) {
		deep := func(n int) string { return strings.Repeat("[", n) + strings.Repeat("]", n) }
		if _, ok := ReadPendingResult(`{"pending":true,"x":` + deep(jsonx.MaxDepth-1) + `}`); !ok {
			t.Fatal("at the limit: not pending")
		}
		if _, ok := ReadPendingResult(`{"pending":true,"x":` + deep(jsonx.MaxDepth) + `}`); ok {
			t.Fatal("over the limit: pending")
		}
	})
	t.Run("the pending probe allocates nothing", func(t *testing.T) {
		text := `{"pending":true,"callId":"c1","message":"No answer batch arrived before the timeout."}`
		if n := testing.AllocsPerRun(100, func() { ReadPendingResult(text) }); n != 0 {
			t.Fatalf("%v allocations", n)
		}
	})
}

func TestReadAnswers(t *testing.T) {
	custom := "it is fast"
	for _, c := range []struct {
		name, text string
		keys       AnswerKeys
		want       []AnswerItem
		ok         bool
	}{
		{"PROJ-5 a batch", `{"answers":[{"id":"pkg","selected":["bun"]},{"id":"why","selected":[],"custom":"it is fast"}]}`, AnswerKeysOnly,
			[]AnswerItem{{ID: "pkg", Selected: []string{"bun"}}, {ID: "why", Selected: []string{}, Custom: &custom}}, true},
		{"PROJ-8 a late reply's text carries its questions too", `{"kind":"answer_to_pending_question","questions":[{"id":"a"}],"answers":[{"id":"a","selected":[]}]}`, AnswerKeysOnly,
			[]AnswerItem{{ID: "a", Selected: []string{}}}, true},
		{"PROJ-5 an empty batch", `{"answers":[]}`, AnswerKeysOnly, []AnswerItem{}, true},
		{"PROJ-5 the last answers member counts, as JSON.parse keeps it", `{"answers":7,"answers":[]}`, AnswerKeysOnly, []AnswerItem{}, true},
		{"PROJ-6 an item with another key is not a batch for the projection (docs/PEER.md §5.2)", `{"answers":[{"id":"a","selected":[],"x":1}]}`, AnswerKeysOnly, nil, false},
		{"ROW-1 the row drops an item's other keys (docs/PEER.md §7.2)", `{"answers":[{"id":"a","selected":[],"x":1}]}`, OtherKeysDropped,
			[]AnswerItem{{ID: "a", Selected: []string{}}}, true},
		{"PROJ-6 a null custom is not a string", `{"answers":[{"id":"a","selected":[],"custom":null}]}`, OtherKeysDropped, nil, false},
		{"PROJ-6 selected must hold strings", `{"answers":[{"id":"a","selected":[1]}]}`, AnswerKeysOnly, nil, false},
		{"PROJ-6 selected is required", `{"answers":[{"id":"a"}]}`, OtherKeysDropped, nil, false},
		{"PROJ-6 no answers", `{"pending":true}`, AnswerKeysOnly, nil, false},
		{"PROJ-6 answers not an array", `{"answers":{}}`, AnswerKeysOnly, nil, false},
		{"PROJ-6 not JSON", `{"answers":[]`, AnswerKeysOnly, nil, false},
		{"PROJ-6 not an object", `[{"answers":[]}]`, AnswerKeysOnly, nil, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, ok := ReadAnswers(c.text, c.keys, nil)
			var r jsonx.Reader
			again, ok2 := ReadAnswers(c.text, c.keys, &r)
			if ok != c.ok || !reflect.DeepEqual(got, c.want) || ok2 != ok || !reflect.DeepEqual(again, got) {
				t.Fatalf("%s: %#v %v (with a reader %#v %v), want %#v %v", c.text, got, ok, again, ok2, c.want, c.ok)
			}
		})
	}
	t.Run("PROJ-5 a batch the tool encodes reads back as itself", func(t *testing.T) {
		var r jsonx.Reader
		rapid.Check(t, func(t *rapid.T) {
			as := []AnswerItem{}
			for i := rapid.IntRange(0, 3).Draw(t, "n"); i > 0; i-- {
				a := AnswerItem{ID: rapid.String().Draw(t, "id"), Selected: []string{}}
				for j := rapid.IntRange(0, 3).Draw(t, "sel"); j > 0; j-- {
					a.Selected = append(a.Selected, rapid.String().Draw(t, "label"))
				}
				if rapid.Bool().Draw(t, "custom") {
					c := rapid.String().Draw(t, "text")
					a.Custom = &c
				}
				as = append(as, a)
			}
			text := string(Answer{Answers: as}.AppendJSON(nil))
			for _, keys := range []AnswerKeys{AnswerKeysOnly, OtherKeysDropped} {
				if got, ok := ReadAnswers(text, keys, &r); !ok || !reflect.DeepEqual(got, as) {
					t.Fatalf("ReadAnswers(%s) = %#v %v, want %#v", text, got, ok, as)
				}
			}
		})
	})
}
