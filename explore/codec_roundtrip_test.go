package explore

import (
	"bytes"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"pgregory.net/rapid"

	"github.com/twosettle/twosettle/engine/wire"
)

// The protocol's codec loses nothing the harness records: over the fuzzer's generated
// runs, every command a host receives, every effect it emits and its final state encode
// to JSON, decode back with the same canonical text, and re-encode to the same bytes.
func TestCodecRoundTripsFuzzerRuns(t *testing.T) {
	r := NewRunner(Options{})
	rapid.Check(t, func(t *rapid.T) {
		s := Generate(rapid.Uint64Range(1, 1<<40).Draw(t, "seed"))
		out, _ := r.Run(s)
		for _, rec := range out.Trace.Records {
			switch p := rec.Payload.(type) {
			case wire.Command:
				b1, err := wire.AppendCommandJSON(nil, p)
				if err != nil {
					t.Fatalf("record %d: %v", rec.Seq, err)
				}
				c, err := wire.DecodeCommand(b1)
				if err != nil {
					t.Fatalf("record %d: %s: %v", rec.Seq, b1, err)
				}
				b2, _ := wire.AppendCommandJSON(nil, c)
				if !bytes.Equal(b1, b2) || c.String() != p.String() {
					t.Fatalf("record %d: command does not round-trip:\n%s\n%s\n%s\n%s", rec.Seq, p, c, b1, b2)
				}
			case wire.Effect:
				b1, err := wire.AppendEffectJSON(nil, p)
				if err != nil {
					t.Fatalf("record %d: %v", rec.Seq, err)
				}
				e, err := wire.DecodeEffect(b1)
				if err != nil {
					t.Fatalf("record %d: %s: %v", rec.Seq, b1, err)
				}
				b2, _ := wire.AppendEffectJSON(nil, e)
				if !bytes.Equal(b1, b2) || e.String() != p.String() {
					t.Fatalf("record %d: effect does not round-trip:\n%s\n%s\n%s\n%s", rec.Seq, p, e, b1, b2)
				}
			}
		}
		b1, err := wire.AppendHostStateJSON(nil, out.Trace.Final.Host)
		if err != nil {
			t.Fatal(err)
		}
		st, err := wire.DecodeHostState(b1)
		if err != nil {
			t.Fatalf("%s: %v", b1, err)
		}
		if b2, _ := wire.AppendHostStateJSON(nil, st); !bytes.Equal(b1, b2) {
			t.Fatalf("state does not re-encode to the same bytes")
		}
		if d := cmp.Diff(out.Trace.Final.Host, st, cmpopts.EquateEmpty()); d != "" {
			t.Fatalf("state does not round-trip (-want +got):\n%s", d)
		}
	})
}
