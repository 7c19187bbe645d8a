package explore

import (
	"bytes"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"pgregory.net/rapid"

	"github.com/twosettle/twosettle/engine/wire"
	"github.com/twosettle/twosettle/trace"
)

// The protocol's codec loses nothing the harness records: over the fuzzer's generated
// runs, every command a host receives (delivered, dropped or refused), every effect it
// emits, the host state of a probe and of the end of the run, and the host configuration
// encode to JSON, decode back with the same canonical text, and re-encode to the same
// bytes (twosettle-conform/1, docs/PROTOCOL.md).
func TestCodecRoundTripsFuzzerRuns(t *testing.T) {
	r := NewRunner(Options{})
	rapid.Check(t, func(t *rapid.T) {
		s := Generate(rapid.Uint64Range(1, 1<<40).Draw(t, "seed"))
		out, _ := r.Run(s)
		if out.Kind == InvalidScenario {
			t.Fatalf("generated an invalid scenario: %v", out.Err)
		}
		probed := false
		for _, rec := range out.Trace.Records {
			p := rec.Payload
			switch x := p.(type) {
			case trace.Dropped:
				p = x.What
			case trace.Rejected:
				p = x.Input
			case trace.Snapshot:
				if !probed { // the first probe's state: the final one is checked below
					roundTripState(t, x.Host)
					probed = true
				}
				continue
			}
			switch x := p.(type) {
			case wire.Command:
				b1, err := wire.AppendCommandJSON(nil, x)
				if err != nil {
					t.Fatalf("record %d: %v", rec.Seq, err)
				}
				c, err := wire.DecodeCommand(b1)
				if err != nil {
					t.Fatalf("record %d: %s: %v", rec.Seq, b1, err)
				}
				b2, _ := wire.AppendCommandJSON(nil, c)
				if !bytes.Equal(b1, b2) || c.String() != x.String() {
					t.Fatalf("record %d: command does not round-trip:\n%s\n%s\n%s\n%s", rec.Seq, x, c, b1, b2)
				}
			case wire.Effect:
				b1, err := wire.AppendEffectJSON(nil, x)
				if err != nil {
					t.Fatalf("record %d: %v", rec.Seq, err)
				}
				e, err := wire.DecodeEffect(b1)
				if err != nil {
					t.Fatalf("record %d: %s: %v", rec.Seq, b1, err)
				}
				b2, _ := wire.AppendEffectJSON(nil, e)
				if !bytes.Equal(b1, b2) || e.String() != x.String() {
					t.Fatalf("record %d: effect does not round-trip:\n%s\n%s\n%s\n%s", rec.Seq, x, e, b1, b2)
				}
			}
		}
		roundTripState(t, out.Trace.Final.Host)
		cfg := wire.AppendHostConfigJSON(nil, out.Plan.Host)
		if back, err := wire.DecodeHostConfig(cfg); err != nil || back != out.Plan.Host {
			t.Fatalf("host config %s: %v %+v", cfg, err, back)
		}
	})
}

func roundTripState(t *rapid.T, h wire.HostState) {
	b1, err := wire.AppendHostStateJSON(nil, h)
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
	if d := cmp.Diff(h, st, cmpopts.EquateEmpty()); d != "" {
		t.Fatalf("state does not round-trip (-want +got):\n%s", d)
	}
}
