package gateway

import (
	"encoding/json"
	"testing"

	"github.com/twosettle/twosettle/engine/signal"
	"github.com/twosettle/twosettle/engine/wire"
)

// BenchmarkWaterfall measures two clients, a forwarded event, a next, a reconnect with
// replay, a winning result and an aborted second event.
func BenchmarkWaterfall(b *testing.B) {
	var effects []wire.Effect
	req := json.RawMessage(`{"questions":[]}`)
	settle := func(Settlement) {}
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		effects = effects[:0]
		g := New(Config{Emit: func(e wire.Effect) { effects = append(effects, e) }})
		g.Connect("A")
		g.Connect("B")
		id, _ := g.Forward(Invocation{Event: "x/request", AgentID: "s1", Request: req, Settle: settle})
		g.Result("A", 1, "r1", id, wire.Outcome{Kind: wire.OutcomeNext})
		g.Connect("A")
		g.Result("B", 1, "r2", id, wire.Outcome{Kind: wire.OutcomeResult, Value: req})
		sig := signal.New()
		g.Forward(Invocation{Event: "x/request", AgentID: "s1", Request: req, Signal: sig, Settle: settle})
		sig.Abort(errAbortedNoReason)
	}
	b.ReportMetric(float64(len(effects)), "effects/run")
}
