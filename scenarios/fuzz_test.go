package scenarios

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// FuzzDecode feeds arbitrary bytes to the decoder: it must never panic or hang, and what
// it accepts must encode to a file that decodes to the same scenario.
//
//	go test ./scenarios -run '^$' -fuzz FuzzDecode -fuzztime 60s
func FuzzDecode(f *testing.F) {
	f.Add([]byte(example))
	f.Add([]byte(base))
	f.Add([]byte(""))
	f.Add([]byte("name: x\nsummary: y\nsteps:\n  - {at: 0s, model: {call: c1, run: [{ask: []}, {sleep: 1s}]}}\n"))
	f.Add([]byte("a: &x [*x]\n"))
	f.Add([]byte("name: [x\n"))
	for _, e := range Library() {
		f.Add(e.Data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := Decode("fuzz.yaml", data)
		if err != nil {
			if err.Error() == "" {
				t.Fatal("an error without a message")
			}
			return
		}
		y := Encode(s)
		back, err := Decode("fuzz.yaml", y)
		if err != nil {
			t.Fatalf("accepted input re-encodes to a file that does not decode: %v\n%s", err, y)
		}
		if d := cmp.Diff(s, back, ignorePos); d != "" {
			t.Fatalf("round trip changed the scenario:\n%s", d)
		}
	})
}
