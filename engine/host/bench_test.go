package host

import (
	"encoding/json"
	"testing"

	"github.com/twosettle/twosettle/engine/session"
	"github.com/twosettle/twosettle/engine/wire"
)

// BenchmarkTimedRun is one typical run: two clients, a timed question claimed and answered
// by one of them, a second one that goes pending and is answered late, a restart.
func BenchmarkTimedRun(b *testing.B) {
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		h, err := New(Config{ToolMode: "timed"})
		if err != nil {
			b.Fatal(err)
		}
		n := 0
		apply := func(now int64, c wire.Command) []wire.Effect {
			effs, err := h.Apply(wire.Time(now), c)
			if err != nil {
				b.Fatal(c, err)
			}
			n += len(effs)
			return effs
		}
		apply(0, wire.OpenSession{Session: "s1"})
		apply(0, wire.Connect{Client: "A"})
		apply(0, wire.Connect{Client: "B"})
		apply(0, wire.Send{Session: "s1", Target: session.NextTurn, Text: "go"})
		apply(0, wire.Header{Session: "s1"})
		effs := apply(10, ask("c1", "5"))
		ev := ""
		for _, f := range frames(effs, "A") {
			if w, ok := f.(wire.Waterfall); ok {
				ev = w.EventID
			}
		}
		apply(20, attach("A", 1, "w1", "c1"))
		apply(30, attach("B", 1, "w2", "c1"))
		apply(40, wire.StreamCancel{Client: "B", Gen: 1, StreamID: "w2"})
		apply(1000, wire.EventResult{Client: "A", Gen: 1, RPCID: "r1", EventID: ev, Outcome: wire.Outcome{Kind: wire.OutcomeResult, Value: json.RawMessage(batchA)}})
		apply(1010, ask("c2", "5"))
		apply(1020, wire.EndStep{Session: "s1"})
		apply(1100, wire.Tick{})
		for at, ok := h.NextDeadline(); ok && at < 7000; at, ok = h.NextDeadline() {
			apply(at.Ms(), wire.Tick{})
		}
		apply(7000, wire.EndStep{Session: "s1", Final: true})
		apply(8000, answerCall("r2", "c2", batchA))
		apply(9000, wire.Restart{CutAfter: -1})
		apply(9001, wire.Connect{Client: "A"})
		if i == 0 {
			b.ReportMetric(float64(n), "effects/run")
		}
	}
}
