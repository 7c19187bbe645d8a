package questions

import (
	"reflect"
	"testing"

	"pgregory.net/rapid"

	"github.com/twosettle/twosettle/engine/jsonx"
	"github.com/twosettle/twosettle/engine/wire"
)

func TestJSONReader(t *testing.T) {
	t.Run("re-encodes as JSON.stringify does", func(t *testing.T) {
		cases := map[string]string{
			` { "b" : 1 , "a" : [ true , false , null ] } `:                         `{"b":1,"a":[true,false,null]}`,
			`{"a":1,"b":2,"a":3}`:                                                   `{"a":3,"b":2}`,
			`[1.50, -0, 1e21, 1e-7, 123456789012345680000, 0.000001, 1E2, -2.5e-3]`: `[1.5,0,1e+21,1e-7,123456789012345680000,0.000001,100,-0.0025]`,
			`"\u00e9\/\n\u0001\ud83d\ude00<>&"`:                                     `"é/\n\u0001😀<>&"`,
			`[1e400]`:                                                               `[null]`,
		}
		for in, want := range cases {
			v, ok := jsonx.Parse(in)
			if !ok {
				t.Errorf("%s: not parsed", in)
				continue
			}
			if got := string(appendJS(nil, v)); got != want {
				t.Errorf("%s: got %s, want %s", in, got, want)
			}
		}
	})
	t.Run("rejects what JSON.parse rejects", func(t *testing.T) {
		for _, in := range []string{``, ` `, `{`, `[1,]`, `{"a":1,}`, `01`, `1.`, `.5`, `+1`, `"a`, "\"\x01\"", `'a'`, `{a:1}`, `[1] 2`, `nul`, `"\x"`, `"\u12"`, `-`, `1e`} {
			if _, ok := jsonx.Parse(in); ok {
				t.Errorf("%q parsed", in)
			}
		}
	})
}

// TestReadBatchOfEncodedAnswers: the projection's reading of the tool's result text is the
// batch the tool encoded (the memo gives the batch back without a parse on that ground):
// any ids, labels and custom texts, empty selections included.
func TestReadBatchOfEncodedAnswers(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		var as []wire.AnswerItem
		for i := rapid.IntRange(0, 3).Draw(t, "n"); i > 0; i-- {
			a := wire.AnswerItem{ID: rapid.String().Draw(t, "id"), Selected: []string{}}
			for j := rapid.IntRange(0, 3).Draw(t, "sel"); j > 0; j-- {
				a.Selected = append(a.Selected, rapid.String().Draw(t, "label"))
			}
			if rapid.Bool().Draw(t, "custom") {
				c := rapid.String().Draw(t, "text")
				a.Custom = &c
			}
			as = append(as, a)
		}
		if as == nil {
			as = []wire.AnswerItem{}
		}
		text := string(wire.Answer{Answers: as}.AppendJSON(nil))
		got, ok := readBatch(text)
		if !ok || !reflect.DeepEqual(got, as) {
			t.Fatalf("readBatch(%s) = %#v %v, want %#v", text, got, ok, as)
		}
		var m Memo
		m.rememberBatch(text, as)
		if got, ok := m.readBatch(text); !ok || !reflect.DeepEqual(got, as) {
			t.Fatalf("memo readBatch(%s) = %#v %v", text, got, ok)
		}
	})
}
