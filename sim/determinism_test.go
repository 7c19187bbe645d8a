package sim

import (
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/twosettle/twosettle/engine/wire"
	"github.com/twosettle/twosettle/trace"
)

// jitterConfig is racy: random latencies, two clients answering, faults drawn by seed.
func jitterConfig(seed uint64) Config {
	cfg := raceConfig(seed)
	for i := range cfg.Clients {
		cfg.Clients[i].Mux = Latency{0, 30}
		cfg.Clients[i].HTTP = Latency{0, 60}
		cfg.Clients[i].Clock = Clock{Offset: wire.Duration(i) * 777, DriftPPM: int64(i) * 150}
	}
	cfg.Steps = append(cfg.Steps,
		Step{At: 3000, Host: wire.Send{Session: "s1", Target: "next-turn", Text: "again"}},
		Step{At: 3000, Host: wire.ToolCall{Session: "s1", CallID: "q2", Name: "ask", Args: `{"ms":5000}`}},
		Step{At: 4000, Probe: "mid"},
	)
	cfg.Faults = FaultConfig{DisconnectPerMin: 6, LoseHTTPPerMin: 6, ClockJumpPerMin: 3, CrashPerMin: 2}
	cfg.Healed = 20_000
	return cfg
}

func runJitter(t *testing.T, seed uint64) *trace.Trace {
	tr, _, _ := runFake(t, jitterConfig(seed), 100, map[string]int64{"c1": 400, "c2": 400})
	return tr
}

func TestSameSeedSameTrace(t *testing.T) {
	for seed := uint64(0); seed < 40; seed++ {
		a, b := runJitter(t, seed), runJitter(t, seed)
		if d, diff := trace.Diverge(a, b); diff {
			t.Fatalf("seed %d: %s", seed, d)
		}
		if a.Text() != b.Text() {
			t.Fatalf("seed %d: texts differ", seed)
		}
	}
}

func TestSameTraceUnderGOMAXPROCS(t *testing.T) {
	prev := runtime.GOMAXPROCS(1)
	defer runtime.GOMAXPROCS(prev)
	var one []string
	for seed := uint64(0); seed < 20; seed++ {
		one = append(one, runJitter(t, seed).Text())
	}
	runtime.GOMAXPROCS(2)
	for seed := uint64(0); seed < 20; seed++ {
		if got := runJitter(t, seed).Text(); got != one[seed] {
			t.Fatalf("seed %d differs between GOMAXPROCS=1 and 2", seed)
		}
	}
}

func TestDifferentSeedsDifferentSchedules(t *testing.T) {
	// Two clients answer at the same instant with the same latencies: only the schedule
	// stream decides who wins.
	scheds := map[string]bool{}
	winners := map[string]bool{}
	for seed := uint64(0); seed < 32; seed++ {
		tr, _, _ := runFake(t, raceConfig(seed), 0, map[string]int64{"c1": 1000, "c2": 1000})
		scheds[schedule(tr)] = true
		for _, l := range grep(tr, "host out append s1", "tool/result") {
			winners[l[len(l)-4:]] = true
		}
	}
	if len(scheds) < 4 {
		t.Fatalf("32 seeds gave only %d distinct schedules", len(scheds))
	}
	if len(winners) != 2 {
		t.Fatalf("the race was always won by the same client: %v", winners)
	}
}

func TestStreamsAreIndependent(t *testing.T) {
	a, b := NewStreams(42), NewStreams(42)
	for i := 0; i < 1000; i++ {
		b.Network.Uint64() // draws in one stream
		b.Faults.Uint64()
	}
	for i := 0; i < 100; i++ {
		if a.Schedule.Uint64() != b.Schedule.Uint64() {
			t.Fatal("draws in the network and fault streams shifted the schedule stream")
		}
		if a.Generation.Uint64() != b.Generation.Uint64() {
			t.Fatal("draws in other streams shifted the generation stream")
		}
	}
	s := NewStreams(42)
	if s.Schedule.Uint64() == s.Network.Uint64() {
		t.Fatal("two streams of one seed start alike")
	}
	if NewStreams(1).Schedule.Uint64() == NewStreams(2).Schedule.Uint64() {
		t.Fatal("neighbouring seeds start alike")
	}

	// In a run: changing what the network draws (latency ranges) leaves the random
	// faults (times, targets, magnitudes) exactly as they were.
	faults := func(mux Latency) []string {
		cfg := jitterConfig(9)
		for i := range cfg.Clients {
			cfg.Clients[i].Mux = mux
		}
		tr, _, _ := runFake(t, cfg, 100, map[string]int64{"c1": 400, "c2": 400})
		var out []string
		for _, r := range tr.Records {
			if r.Kind == trace.Fault {
				if f := r.Payload.(trace.Injected); f.Kind != FaultCrash {
					out = append(out, f.String()+" @"+strconv.FormatInt(r.Time, 10))
				}
			}
		}
		return out
	}
	x, y := faults(Latency{0, 30}), faults(Latency{10, 90})
	if len(x) == 0 || len(x) != len(y) {
		t.Fatalf("fault lists differ in length: %v vs %v", x, y)
	}
	for i := range x {
		if x[i] != y[i] {
			t.Fatalf("fault %d changed with the network draws: %s vs %s", i, x[i], y[i])
		}
	}
}

func TestSelfCheck(t *testing.T) {
	cfg := jitterConfig(3)
	ports := func() (wire.HostPort, map[string]wire.ClientPort, error) {
		h, p, _ := fakePorts(100, map[string]int64{"c1": 400, "c2": 400}, "c1", "c2")
		return h, p, nil
	}
	if _, err := SelfCheck(cfg, ports); err != nil {
		t.Fatal(err)
	}
	// A host that behaves differently on its second life is caught at the first record
	// where it shows.
	runs := 0
	leaky := func() (wire.HostPort, map[string]wire.ClientPort, error) {
		runs++
		h, p, _ := fakePorts(100, map[string]int64{"c1": 400, "c2": 400}, "c1", "c2")
		h.genN = runs * 10 // generation numbers leak from the previous run
		return h, p, nil
	}
	_, err := SelfCheck(cfg, leaky)
	de, ok := err.(*DivergenceError)
	if !ok {
		t.Fatalf("want a divergence, got %v", err)
	}
	if de.At.Record < 0 || de.At.A == de.At.B {
		t.Fatalf("bad divergence %+v", de.At)
	}
	if want := "ready gen=1"; !strings.Contains(de.At.A, want) {
		t.Fatalf("first divergence %q should be the first ready frame", de.At.A)
	}
}
