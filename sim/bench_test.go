package sim

import (
	"sort"
	"testing"
	"time"

	"github.com/twosettle/twosettle/engine/wire"
	"github.com/twosettle/twosettle/trace"
)

// benchConfig is the fuzz-like workload of docs/ARCHITECTURE.md §9 on the fake ports: two clients
// racing on several questions with jittered latencies, a disconnect and a lost result.
func benchConfig(seed uint64) Config {
	cfg := Config{Seed: seed, Clients: []ClientConfig{
		{Name: "c1", Mux: Latency{1, 30}, HTTP: Latency{1, 60}, ReconnectMs: 200, Clock: Clock{Offset: 333, DriftPPM: 50}},
		{Name: "c2", Mux: Latency{1, 30}, HTTP: Latency{1, 60}, ReconnectMs: 200},
	}, Model: ModelConfig{AutoEndMs: 100}}
	at := int64(100)
	for i := 0; i < 6; i++ {
		cfg.Steps = append(cfg.Steps,
			Step{At: wire.Time(at), Host: wire.Send{Session: "s1", Target: "next-turn", Text: "go"}},
			Step{At: wire.Time(at), Host: wire.ToolCall{Session: "s1", CallID: "q" + string(rune('0'+i)), Name: "ask", Args: `{"ms":120000}`}},
		)
		at += 2000
	}
	cfg.Steps = append(cfg.Steps, Step{At: 4100, Net: &NetAction{Kind: NetDisconnect, Client: "c2"}},
		Step{At: 6000, Net: &NetAction{Kind: NetLose, Client: "c1"}}, Step{At: 9000, Probe: "end"})
	sort.SliceStable(cfg.Steps, func(i, j int) bool { return cfg.Steps[i].At < cfg.Steps[j].At })
	return cfg
}

func benchRun(b *testing.B, cfg func(uint64) Config, answer map[string]int64) {
	r := NewRunner()
	var tr trace.Trace
	recs, virt := 0, int64(0)
	b.ReportAllocs()
	start := time.Now()
	for i := 0; b.Loop(); i++ {
		c := cfg(uint64(i))
		h, ports, _ := fakePorts(100, answer, "c1", "c2")
		if err := r.Run(&c, h, ports, &tr); err != nil {
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

func BenchmarkFakeTwoClients(b *testing.B) {
	benchRun(b, benchConfig, map[string]int64{"c1": 700, "c2": 700})
}

// Nobody answers: every question waits its whole 120 s timeout.
func BenchmarkFakeTimeouts120s(b *testing.B) {
	benchRun(b, benchConfig, nil)
}

// Ports that cost (almost) nothing, to measure the simulator's own overhead per record:
// the host answers every tool call with a waterfall to both clients and every result with
// a cancel to the other; clients answer every waterfall at once.
type echoHost struct {
	ask    []wire.Effect
	cancel [2][]wire.Effect
	none   []wire.Effect
	gen    int
}

func newEchoHost() *echoHost {
	w := wire.Waterfall{EventID: "e", Event: wire.EventQuestionsRequest, AgentID: "s1"}
	return &echoHost{
		ask:    []wire.Effect{wire.SendFrame{Client: "c1", Gen: 1, Frame: w}, wire.SendFrame{Client: "c2", Gen: 2, Frame: w}},
		cancel: [2][]wire.Effect{{wire.SendFrame{Client: "c2", Gen: 2, Frame: wire.Cancel{EventID: "e"}}}, {wire.SendFrame{Client: "c1", Gen: 1, Frame: wire.Cancel{EventID: "e"}}}},
	}
}

func (h *echoHost) Apply(_ wire.Time, cmd wire.Command) ([]wire.Effect, error) {
	switch c := cmd.(type) {
	case wire.Connect:
		h.gen++
		if c.Client == "c1" {
			return []wire.Effect{wire.SendFrame{Client: "c1", Gen: 1, Frame: wire.Ready{Gen: 1}}}, nil
		}
		return []wire.Effect{wire.SendFrame{Client: "c2", Gen: 2, Frame: wire.Ready{Gen: 2}}}, nil
	case wire.ToolCall:
		return h.ask, nil
	case wire.EventResult:
		if c.Client == "c1" {
			return h.cancel[0], nil
		}
		return h.cancel[1], nil
	}
	return h.none, nil
}
func (h *echoHost) NextDeadline() (wire.Time, bool) { return 0, false }
func (h *echoHost) State() wire.HostState           { return wire.HostState{} }

type echoClient struct{ res []wire.ClientEffect }

func (c *echoClient) Apply(_ wire.Time, in wire.ClientInput) ([]wire.ClientEffect, error) {
	if f, ok := in.(wire.FromHost); ok {
		if _, ok := f.Frame.(wire.Waterfall); ok {
			return c.res, nil
		}
	}
	return nil, nil
}
func (c *echoClient) NextDeadline() (wire.Time, bool)    { return 0, false }
func (c *echoClient) State() wire.ClientState            { return wire.ClientState{} }
func (c *echoClient) StateAt(wire.Time) wire.ClientState { return wire.ClientState{} }

func BenchmarkSimOverhead(b *testing.B) {
	cfg := Config{Clients: []ClientConfig{
		{Name: "c1", Mux: Latency{1, 30}, HTTP: Latency{1, 60}},
		{Name: "c2", Mux: Latency{1, 30}, HTTP: Latency{1, 60}},
	}, Model: ModelConfig{AutoEndMs: -1}}
	for i := 0; i < 40; i++ {
		cfg.Steps = append(cfg.Steps, Step{At: wire.Time(100 * i), Host: wire.ToolCall{Session: "s1", CallID: "q", Name: "ask"}})
	}
	ports := map[string]wire.ClientPort{
		"c1": &echoClient{res: []wire.ClientEffect{wire.SendResult{Gen: 1, RPCID: "r", EventID: "e"}}},
		"c2": &echoClient{res: []wire.ClientEffect{wire.SendResult{Gen: 2, RPCID: "r", EventID: "e"}}},
	}
	r := NewRunner()
	var tr trace.Trace
	recs := 0
	b.ReportAllocs()
	start := time.Now()
	for i := 0; b.Loop(); i++ {
		cfg.Seed = uint64(i)
		if err := r.Run(&cfg, newEchoHost(), ports, &tr); err != nil {
			b.Fatal(err)
		}
		recs += len(tr.Records)
	}
	el := time.Since(start).Seconds()
	b.ReportMetric(float64(recs)/float64(b.N), "records/run")
	b.ReportMetric(float64(recs)/el, "records/s")
	b.ReportMetric(el*1e9/float64(recs), "ns/record")
}
