package sim_test

import (
	"cmp"
	"slices"
	"testing"
	"time"

	"github.com/twosettle/twosettle/engine/client"
	"github.com/twosettle/twosettle/engine/host"
	"github.com/twosettle/twosettle/engine/wire"
	"github.com/twosettle/twosettle/sim"
	"github.com/twosettle/twosettle/trace"
)

// workload is the fuzz workload of docs/ARCHITECTURE.md §9 on the reference engine: two clients with
// jittered latencies racing to answer three timed questions (120 s timeouts), one
// disconnect and one lost HTTP message; ~200 records a run. With answer false nobody
// answers: every question waits out its 120 s.
func workload(seed uint64, answerIt bool) sim.Config {
	cfg := sim.Config{Seed: seed, Clients: clients(sim.Latency{Min: 1, Max: 30}, sim.Latency{Min: 1, Max: 60}, "c1", "c2"),
		Model: sim.ModelConfig{AutoEndMs: 200}}
	cfg.Clients[1].Clock = sim.Clock{Offset: 700, DriftPPM: 100}
	cfg.Steps = make([]sim.Step, 0, 22)
	cfg.Steps = append(cfg.Steps,
		sim.Step{At: 0, Host: wire.OpenSession{Session: "s1"}},
		sim.Step{At: 10, Host: wire.Header{Session: "s1"}},
	)
	at := int64(20)
	args := question(120)
	for i, q := range []string{"q1", "q2", "q3"} {
		cfg.Steps = append(cfg.Steps,
			sim.Step{At: wire.Time(at), Host: wire.Send{Session: "s1", Target: "next-turn", Text: "go"}},
			sim.Step{At: wire.Time(at + 10), Host: wire.ToolCall{Session: "s1", CallID: q, Name: "ask_user_question", Args: args}})
		if answerIt {
			cfg.Steps = append(cfg.Steps, answer(at+800, "c1", q)...)
			cfg.Steps = append(cfg.Steps, answer(at+800+int64(i)*5, "c2", q)...)
		}
		at += 200_000
	}
	cfg.Steps = append(cfg.Steps, sim.Step{At: 200_500, Net: &sim.NetAction{Kind: sim.NetDisconnect, Client: "c2"}},
		sim.Step{At: 400_500, Net: &sim.NetAction{Kind: sim.NetLose, Client: "c1"}})
	slices.SortStableFunc(cfg.Steps, func(a, b sim.Step) int { return cmp.Compare(a.At, b.At) })
	return cfg
}

func benchEngine(b *testing.B, answerIt bool) {
	r := sim.NewRunner()
	var tr trace.Trace
	recs, virt := 0, int64(0)
	b.ReportAllocs()
	start := time.Now()
	for i := 0; b.Loop(); i++ {
		cfg := workload(uint64(i), answerIt)
		h, err := host.New(host.Config{ToolMode: "timed"})
		if err != nil {
			b.Fatal(err)
		}
		cs := map[string]wire.ClientPort{
			"c1": client.New(client.Config{Name: "c1", Seed: uint64(i)}),
			"c2": client.New(client.Config{Name: "c2", Seed: uint64(i) + 1}),
		}
		if err := r.Run(&cfg, h, cs, &tr); err != nil {
			b.Fatal(err)
		}
		recs += len(tr.Records)
		virt += tr.Final.Time
	}
	el := time.Since(start).Seconds()
	b.ReportMetric(float64(recs)/float64(b.N), "records/run")
	b.ReportMetric(float64(b.N)/el, "runs/s")
	b.ReportMetric(float64(recs)/el, "records/s")
	b.ReportMetric(float64(virt)/1000/el, "virtual-s/wall-s")
}

// BenchmarkEngineTwoClients: runs and records per second on the two-client workload.
func BenchmarkEngineTwoClients(b *testing.B) { benchEngine(b, true) }

// BenchmarkEngineTimeouts120s: virtual time over wall time when every 120 s timeout runs out.
func BenchmarkEngineTimeouts120s(b *testing.B) { benchEngine(b, false) }
