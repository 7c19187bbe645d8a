package sim

import (
	"testing"

	"github.com/twosettle/twosettle/engine/wire"
)

func raceConfig(seed uint64) Config {
	return Config{
		Seed: seed,
		Clients: []ClientConfig{
			{Name: "c1", Mux: Latency{5, 5}, HTTP: Latency{10, 10}, ReconnectMs: 100},
			{Name: "c2", Mux: Latency{5, 5}, HTTP: Latency{10, 10}, ReconnectMs: 100},
		},
		Steps: []Step{
			{At: 100, Host: wire.Send{Session: "s1", Target: "next-turn", Text: "hi"}},
			{At: 100, Host: wire.ToolCall{Session: "s1", CallID: "q1", Name: "ask", Args: `{"ms":120000}`}},
		},
		Model: ModelConfig{AutoEndMs: 50},
	}
}

func TestSmoke(t *testing.T) {
	cfg := raceConfig(1)
	h, ports, _ := fakePorts(0, map[string]int64{"c1": 1000, "c2": 1000}, "c1", "c2")
	tr, err := Simulate(cfg, h, ports)
	if err != nil {
		t.Fatal(err)
	}
	t.Log("\n" + tr.Text())
	for _, l := range tr.Final.Lines() {
		t.Log(l)
	}
}

func TestShowJitter(t *testing.T) {
	if testing.Short() {
		t.Skip()
	}
	tr, _, _ := runFake(t, jitterConfig(5), 100, map[string]int64{"c1": 400, "c2": 400})
	t.Log("\n" + tr.Text())
}
