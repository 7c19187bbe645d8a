package sim

import (
	"strconv"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/twosettle/twosettle/engine/wire"
	"github.com/twosettle/twosettle/trace"
)

func twoClients(mux, http Latency, reconnect int64) []ClientConfig {
	return []ClientConfig{
		{Name: "c1", Mux: mux, HTTP: http, ReconnectMs: wire.Duration(reconnect)},
		{Name: "c2", Mux: mux, HTTP: http, ReconnectMs: wire.Duration(reconnect)},
	}
}

func ask(at int64, call string, ms int64) []Step {
	return []Step{
		{At: wire.Time(at), Host: wire.Send{Session: "s1", Target: "next-turn", Text: "go"}},
		{At: wire.Time(at), Host: wire.ToolCall{Session: "s1", CallID: call, Name: "ask", Args: `{"ms":` + strconv.FormatInt(ms, 10) + `}`}},
	}
}

// The mux link is FIFO whatever the latencies drawn: every client receives the frames of
// a generation in the order the host sent them.
func TestMuxLinkKeepsOrder(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		seed := rapid.Uint64().Draw(rt, "seed")
		n := rapid.IntRange(1, 12).Draw(rt, "asks")
		cfg := Config{Seed: seed, Clients: twoClients(Latency{0, wire.Duration(rapid.Int64Range(0, 80).Draw(rt, "mux"))}, Latency{0, 40}, 50)}
		cfg.Steps = []Step{{At: 100, Host: wire.Send{Session: "s1", Target: "next-turn", Text: "go"}}}
		at := int64(100)
		for i := 0; i < n; i++ {
			at += rapid.Int64Range(0, 15).Draw(rt, "gap")
			ms := rapid.Int64Range(1, 60).Draw(rt, "timeout")
			cfg.Steps = append(cfg.Steps, Step{At: wire.Time(at), Host: wire.ToolCall{Session: "s1", CallID: "q" + string(rune('a'+i)), Name: "ask", Args: `{"ms":` + strconv.FormatInt(ms, 10) + `}`}})
		}
		cfg.Model.AutoEndMs = -1
		h, ports, _ := fakePorts(0, map[string]int64{"c1": -1, "c2": -1}, "c1", "c2")
		tr, err := Simulate(cfg, h, ports)
		if err != nil {
			rt.Fatal(err)
		}
		for _, c := range []string{"c1", "c2"} {
			var sent, got []string
			for _, r := range tr.Records {
				switch p := r.Payload.(type) {
				case wire.SendFrame:
					if r.Kind == trace.Out && p.Client == c {
						sent = append(sent, p.Frame.String())
					}
				case wire.FromHost:
					if r.Actor == c {
						got = append(got, p.Frame.String())
					}
				}
			}
			if strings.Join(sent, "\n") != strings.Join(got, "\n") {
				rt.Fatalf("%s: frames reordered:\nsent %q\ngot  %q", c, sent, got)
			}
		}
	})
}

// The HTTP channel is separate: a result sent after a stream open can reach the host
// first when HTTP is faster than the mux link (docs/PEER-RUNTIME.md §7.1).
func TestHTTPOvertakesMux(t *testing.T) {
	cfg := Config{Clients: []ClientConfig{{Name: "c1", Mux: Latency{50, 50}, HTTP: Latency{5, 5}}}, Steps: ask(100, "q1", 10_000)}
	h, ports, fcs := fakePorts(0, map[string]int64{"c1": 0}, "c1")
	fcs["c1"].streams = true
	tr := mustRun(t, cfg, h, ports)
	open := first(tr, "c1@", "out open")
	res := first(tr, "c1@", "out result")
	hostRes := first(tr, "host in event-result")
	hostOpen := first(tr, "host in stream-open")
	if open < 0 || res < 0 || hostRes < 0 || hostOpen < 0 {
		t.Fatalf("missing records\n%s", tr.Text())
	}
	if !(open < res && hostRes < hostOpen) {
		t.Fatalf("the result did not overtake the stream open\n%s", tr.Text())
	}
}

// A disconnect loses what is in flight on the mux link, tells both sides, and the client
// redials after its backoff into a new generation that gets the pending replay.
func TestDisconnectLosesInFlightAndRedials(t *testing.T) {
	cfg := Config{Clients: []ClientConfig{{Name: "c1", Mux: Latency{50, 50}, HTTP: Latency{5, 5}, ReconnectMs: 100}},
		Steps: append(ask(100, "q1", 10_000), Step{At: 120, Net: &NetAction{Kind: NetDisconnect, Client: "c1"}})}
	tr, _, _ := runFake(t, cfg, 0, map[string]int64{"c1": -1})
	for _, want := range [][]string{
		{"t=120 net drop to=c1 why=link-down frame waterfall ev=e1"},
		{"t=120 host in disconnect c1"},
		{"t=120 c1@120 in link-down"},
		{"t=120 c1@120 out dial"},
		{"t=270 host in connect c1"}, // 120 + backoff 100 + mux 50
		{"t=270 host out send c1.2 ready gen=2"},
		{"t=270 host out send c1.2 waterfall ev=e1"},
		{"t=320 c1@320 in frame ready gen=2"},
		{"t=320 c1@320 in frame waterfall ev=e1"},
	} {
		if first(tr, want...) < 0 {
			t.Fatalf("no record %q\n%s", want, tr.Text())
		}
	}
	if first(tr, "c1@", "in frame waterfall ev=e1") != first(tr, "t=320 c1@320 in frame waterfall ev=e1") {
		t.Fatalf("the lost frame was delivered\n%s", tr.Text())
	}
}

// A host that sends for a generation the client no longer holds has its frame dropped:
// with the disconnect and a new ask at one instant, some seed lets the host send before
// it learns of the disconnect.
func TestFramesForADeadGenerationAreDropped(t *testing.T) {
	for seed := uint64(0); seed < 64; seed++ {
		cfg := Config{Seed: seed, Clients: []ClientConfig{{Name: "c1", Mux: Latency{5, 5}, ReconnectMs: 100}},
			Steps: []Step{
				{At: 100, Host: wire.Send{Session: "s1", Target: "next-turn", Text: "go"}},
				{At: 100, Net: &NetAction{Kind: NetDisconnect, Client: "c1"}},
				{At: 100, Host: wire.ToolCall{Session: "s1", CallID: "q1", Name: "ask", Args: `{"ms":1000}`}},
			}}
		tr, _, _ := runFake(t, cfg, 0, nil)
		if first(tr, "net drop to=c1 why=dead-gen send c1.1 waterfall") >= 0 {
			if first(tr, "c1@", "in frame waterfall ev=e1") < first(tr, "ready gen=2") {
				t.Fatalf("seed %d: the dead generation's frame reached the client\n%s", seed, tr.Text())
			}
			return
		}
	}
	t.Fatal("no seed delivered the ask before the disconnect")
}

// A partition loses the HTTP messages in flight (the client gets a failure when they
// would have arrived) and connection attempts wait for its end.
func TestPartitionLosesHTTPAndDelaysDial(t *testing.T) {
	cfg := Config{Clients: []ClientConfig{{Name: "c1", Mux: Latency{5, 5}, HTTP: Latency{100, 100}, ReconnectMs: 50}},
		Steps: append(ask(100, "q1", 10_000), Step{At: 1150, Net: &NetAction{Kind: NetPartition, Client: "c1", DurationMs: 500}})}
	tr, _, fcs := runFake(t, cfg, 0, map[string]int64{"c1": 1000})
	for _, want := range []string{
		"t=1105 c1@1105 out result gen=1 rpc=c1-r1 ev=e1",
		"t=1150 sim fault partition c1 for=500",
		"t=1150 net drop to=host why=lost event-result c1.1 rpc=c1-r1",
		"t=1150 host in disconnect c1",
		"t=1150 c1@1150 in link-down",
		`t=1205 c1@1205 in http rpc=c1-r1 {"ok":false,"error":{"code":"net/failed"`,
		"t=1655 host in connect c1", // partition ends at 1650, + mux 5
	} {
		if first(tr, want) < 0 {
			t.Fatalf("no record %q\n%s", want, tr.Text())
		}
	}
	if first(tr, "host in event-result", "rpc=c1-r1 ") >= 0 {
		t.Fatalf("the lost result reached the host\n%s", tr.Text())
	}
	if len(fcs["c1"].replies) != 1 || first(tr, "host in event-result c1.2 rpc=c1-r2") < 0 {
		t.Fatalf("client replies %v", fcs["c1"].replies)
	}
}

// A lose action loses the next HTTP message; a delay action delays it.
func TestLoseAndDelayHTTP(t *testing.T) {
	cfg := Config{Clients: []ClientConfig{{Name: "c1", Mux: Latency{5, 5}, HTTP: Latency{10, 10}, ReconnectMs: 0}},
		Steps: append(ask(100, "q1", 100_000),
			Step{At: 200, Net: &NetAction{Kind: NetLose, Client: "c1"}},
			Step{At: 1000, Host: wire.ToolCall{Session: "s1", CallID: "q2", Name: "ask", Args: `{"ms":100000}`}},
			Step{At: 1001, Net: &NetAction{Kind: NetDelay, Client: "c1", DurationMs: 777}},
		)}
	cfg.Model.AutoEndMs = -1
	tr, _, _ := runFake(t, cfg, 0, map[string]int64{"c1": 500})
	for _, want := range []string{
		"t=605 net drop to=host why=lost event-result c1.1 rpc=c1-r1 ev=e1",
		`t=615 c1@615 in http rpc=c1-r1 {"ok":false`,
	} {
		if first(tr, want) < 0 {
			t.Fatalf("no record %q\n%s", want, tr.Text())
		}
	}
	// the first HTTP message after the delay action: sent at s, arrives at s + 10 + 777
	d := first(tr, "fault delay c1 for=777")
	i := -1
	for k := d; k < len(tr.Records); k++ {
		if tr.Records[k].Kind == trace.Out && strings.HasPrefix(tr.Records[k].Payload.String(), "result ") {
			i = k
			break
		}
	}
	if d < 0 || i < 0 {
		t.Fatalf("no result after the delay\n%s", tr.Text())
	}
	rpc := tr.Records[i].Payload.(wire.SendResult).RPCID
	j := first(tr, "host in event-result", "rpc="+rpc+" ")
	if j < 0 || tr.Records[j].Time != tr.Records[i].Time+787 {
		t.Fatalf("the delayed result arrived at record %d, want t=%d\n%s", j, tr.Records[i].Time+787, tr.Text())
	}
	// the one after it is not delayed
	k := first(tr, "host in event-result", "ev=e2")
	if k < 0 || k > j {
		t.Fatalf("the next result was delayed too\n%s", tr.Text())
	}
}

// A reload drops the link (the host gets Disconnect, the client no LinkDown), redials at
// once, and a reply for the old page is dropped.
func TestReloadDropsOldRepliesAndRedialsAtOnce(t *testing.T) {
	cfg := Config{Clients: []ClientConfig{{Name: "c1", Mux: Latency{5, 5}, HTTP: Latency{100, 100}, ReconnectMs: 10_000}},
		Steps: []Step{
			{At: 100, Client: "c1", User: &wire.UserAction{Kind: wire.ActReopen, Session: "s1"}},
			{At: 150, Fault: &Fault{Kind: FaultReload, Client: "c1"}},
		}}
	tr, _, fcs := runFake(t, cfg, 0, nil)
	for _, want := range []string{
		"t=100 c1@100 out call gen=1 rpc=c1-r1 userQuestions/answer",
		"t=150 sim fault reload c1",
		"t=150 host in disconnect c1",
		"t=150 c1@150 in reload",
		"t=150 c1@150 out dial",
		"t=155 host in connect c1",
		"t=200 host in call c1.1 rpc=c1-r1",
		"t=200 net drop to=c1 why=client-reloaded reply c1.1 rpc=c1-r1",
	} {
		if first(tr, want) < 0 {
			t.Fatalf("no record %q\n%s", want, tr.Text())
		}
	}
	if first(tr, "c1@", "in link-down") >= 0 || len(fcs["c1"].replies) != 0 {
		t.Fatalf("reload delivered a link-down or an old reply\n%s", tr.Text())
	}
}

// A crashed client gets nothing more; the host sees it leave.
func TestClientCrash(t *testing.T) {
	cfg := Config{Clients: twoClients(Latency{5, 5}, Latency{5, 5}, 10),
		Steps: append([]Step{{At: 50, Fault: &Fault{Kind: FaultClientCrash, Client: "c1"}}},
			append(ask(100, "q1", 1000), Step{At: 200, Client: "c1", User: &wire.UserAction{Kind: wire.ActSubmit}})...)}
	tr, _, fcs := runFake(t, cfg, 0, nil)
	for _, want := range []string{
		"t=50 sim fault client-crash c1",
		"t=50 host in disconnect c1",
		"t=200 net drop to=c1 why=client-crashed user submit",
	} {
		if first(tr, want) < 0 {
			t.Fatalf("no record %q\n%s", want, tr.Text())
		}
	}
	if first(tr, "c1@", "in frame waterfall") >= 0 || len(fcs["c1"].frames) != 1 {
		t.Fatalf("the crashed client got frames %v\n%s", fcs["c1"].frames, tr.Text())
	}
}

// Clients read their own clocks: offset, drift and jumps move their records' clock and
// their timers (CD-1, CD-10 as the simulator produces them).
func TestClientClocks(t *testing.T) {
	cfg := Config{Clients: []ClientConfig{
		{Name: "c1", Mux: Latency{0, 0}, Clock: Clock{Offset: 5000}},
		{Name: "c2", Mux: Latency{0, 0}, Clock: Clock{DriftPPM: 100_000}}, // 10% fast
	}, Steps: ask(1000, "q1", 100_000)}
	cfg.Model.AutoEndMs = -1
	tr, _, _ := runFake(t, cfg, 0, map[string]int64{"c1": 1000, "c2": 1100})
	// c1 receives at t=1000 (its clock 6000) and answers at its 7000 = t 2000.
	if first(tr, "t=1000 c1@6000 in frame waterfall") < 0 || first(tr, "t=2000 c1@7000 out result") < 0 {
		t.Fatalf("offset clock\n%s", tr.Text())
	}
	// c2 receives at t=1000 (its 1100) and answers at its 2200 = t 2000 (1.1 x 2000).
	if first(tr, "t=1000 c2@1100 in frame waterfall") < 0 || first(tr, "t=2000 c2@2200 out result") < 0 {
		t.Fatalf("drifting clock\n%s", tr.Text())
	}

	// A jump forward moves the pending timer earlier.
	steps := cfg.Steps
	cfg.Steps = append(steps, Step{At: 1200, Fault: &Fault{Kind: FaultClockJump, Client: "c1", ByMs: 500}})
	tr, _, _ = runFake(t, cfg, 0, map[string]int64{"c1": 1000, "c2": 1100})
	// c1: at t=1200 its clock reads 6200+500=6700; 7000 is reached at t=1500.
	if first(tr, "t=1200 sim fault clock-jump c1 by=500") < 0 || first(tr, "t=1500 c1@7000 out result") < 0 {
		t.Fatalf("jump\n%s", tr.Text())
	}
	// A drift change moves it too.
	cfg.Steps = append(steps, Step{At: 1200, Fault: &Fault{Kind: FaultClockDrift, Client: "c2", PPM: -500_000}})
	tr, _, _ = runFake(t, cfg, 0, map[string]int64{"c1": 5000, "c2": 1100})
	// c2: at t=1200 it reads 1320, then runs at half speed: 2200 at t = 1200 + 880*2 = 2960.
	if first(tr, "t=2960 c2@2200 out result") < 0 {
		t.Fatalf("drift change\n%s", tr.Text())
	}
}

func TestClockConversionIsTheEarliestInstant(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		// a clock without drift (the usual one) has its own conversion: draw it often
		ppm := rapid.OneOf(rapid.Just(int64(0)), rapid.Int64Range(-999_999, 999_999))
		c := newClock(Clock{Offset: wire.Duration(rapid.Int64Range(-1e6, 1e6).Draw(rt, "off")), DriftPPM: ppm.Draw(rt, "ppm")})
		now := int64(0)
		for i := 0; i < 5; i++ {
			now += rapid.Int64Range(0, 1e5).Draw(rt, "dt")
			switch rapid.IntRange(0, 2).Draw(rt, "op") {
			case 0:
				c.jump(now, rapid.Int64Range(-1e5, 1e5).Draw(rt, "by"))
			case 1:
				c.drift(now, ppm.Draw(rt, "ppm2"))
			}
			d := c.at(now) + rapid.Int64Range(-1000, 1e6).Draw(rt, "ahead")
			tt := c.simTime(now, d)
			if tt < now || c.at(tt) < d || (tt > now && c.at(tt-1) >= d) {
				rt.Fatalf("simTime(%d, %d) = %d: at(t)=%d at(t-1)=%d", now, d, tt, c.at(tt), c.at(tt-1))
			}
		}
	})
}

// A client that fails its own generation (a failed $events/result) closes the link: what
// it sent before still reaches the host, then the Disconnect; frames in flight to it are
// lost.
func TestClientClosesItsLink(t *testing.T) {
	cfg := Config{Clients: []ClientConfig{{Name: "c1", Mux: Latency{50, 50}, HTTP: Latency{5, 5}, ReconnectMs: 1000}},
		Steps: append(ask(100, "q1", 100_000), ask(100, "q2", 100_000)[1:]...)}
	cfg.Steps[1].Host = wire.ToolCall{Session: "s1", CallID: "q1", Name: "ask", Args: `{"ms":100000}`}
	cfg.Steps = append(cfg.Steps, Step{At: 160, Net: &NetAction{Kind: NetLose, Client: "c1"}},
		Step{At: 160, Client: "c1", User: &wire.UserAction{Kind: wire.ActReopen, Session: "s1"}},
		Step{At: 160, Host: wire.ToolCall{Session: "s1", CallID: "q3", Name: "ask", Args: `{"ms":100000}`}})
	cfg.Model.AutoEndMs = -1
	h, ports, fcs := fakePorts(0, nil, "c1")
	fcs["c1"].streams = true
	tr := mustRun(t, cfg, h, ports)
	for _, want := range []string{
		"t=165 c1@165 out cancel gen=1 stream=s-e1",
		"t=165 c1@165 out dial",
		"t=165 net drop to=c1 why=link-down frame waterfall ev=e3",
		"t=215 host in stream-cancel c1.1 stream=s-e1",
	} {
		if first(tr, want) < 0 {
			t.Fatalf("no record %q\n%s", want, tr.Text())
		}
	}
	if !(first(tr, "host in stream-cancel c1.1 stream=s-e2") < first(tr, "host in disconnect c1") && first(tr, "host in disconnect c1") < first(tr, "t=1215 host in connect c1")) {
		t.Fatalf("the cancels must arrive before the disconnect, and it before the new connect\n%s", tr.Text())
	}
}
