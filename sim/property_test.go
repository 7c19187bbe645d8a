package sim

import (
	"strconv"
	"testing"

	"pgregory.net/rapid"

	"github.com/twosettle/twosettle/engine/wire"
	"github.com/twosettle/twosettle/trace"
)

// Random configurations (clients, latencies, clocks, scripted steps of every kind, every
// crash point, random faults) always run to the end without a run error, and twice alike.
func TestRandomConfigurationsRunAndRepeat(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		nc := rapid.IntRange(1, 3).Draw(rt, "clients")
		cfg := Config{Seed: rapid.Uint64().Draw(rt, "seed"), Model: ModelConfig{AutoEndMs: wire.Duration(rapid.Int64Range(-1, 500).Draw(rt, "autoend"))}}
		var names []string
		for i := 0; i < nc; i++ {
			n := "c" + strconv.Itoa(i+1)
			names = append(names, n)
			lo := rapid.Int64Range(0, 20).Draw(rt, "lo")
			cfg.Clients = append(cfg.Clients, ClientConfig{Name: n,
				Mux:         Latency{wire.Duration(lo), wire.Duration(lo + rapid.Int64Range(0, 50).Draw(rt, "mux"))},
				HTTP:        Latency{wire.Duration(lo), wire.Duration(lo + rapid.Int64Range(0, 80).Draw(rt, "http"))},
				Clock:       Clock{Offset: wire.Duration(rapid.Int64Range(-5000, 5000).Draw(rt, "off")), DriftPPM: rapid.Int64Range(-5000, 5000).Draw(rt, "ppm")},
				ReconnectMs: wire.Duration(rapid.Int64Range(-1, 300).Draw(rt, "reconnect")),
				Offline:     rapid.IntRange(0, 5).Draw(rt, "offline") == 0,
			})
		}
		at := int64(0)
		client := func() string { return names[rapid.IntRange(0, nc-1).Draw(rt, "c")] }
		n := rapid.IntRange(0, 25).Draw(rt, "steps")
		for i := 0; i < n; i++ {
			at += rapid.Int64Range(0, 800).Draw(rt, "gap")
			st := Step{At: wire.Time(at)}
			switch rapid.IntRange(0, 9).Draw(rt, "kind") {
			case 0:
				st.Host = wire.Send{Session: "s1", Target: "next-turn", Text: "go"}
			case 1:
				st.Host = wire.ToolCall{Session: "s1", CallID: "q" + strconv.Itoa(i), Name: []string{"ask", "sleep", "run_code", "x"}[rapid.IntRange(0, 3).Draw(rt, "tool")],
					Args: `{"ms":` + strconv.Itoa(rapid.IntRange(1, 3000).Draw(rt, "ms")) + `,"calls":[{}]}`}
			case 2:
				st.Host = wire.EndStep{Session: "s1", Final: rapid.Bool().Draw(rt, "final")}
			case 3:
				st.Client, st.User = client(), &wire.UserAction{Kind: []string{wire.ActSubmit, wire.ActReopen, wire.ActType}[rapid.IntRange(0, 2).Draw(rt, "act")], Session: "s1"}
			case 4:
				st.Net = &NetAction{Kind: knownNet[rapid.IntRange(0, len(knownNet)-1).Draw(rt, "net")], Client: client(), DurationMs: wire.Duration(rapid.Int64Range(0, 2000).Draw(rt, "dur"))}
			case 5:
				p := knownPoints[rapid.IntRange(0, len(knownPoints)-1).Draw(rt, "point")]
				f := &Fault{Kind: FaultCrash, Point: p}
				if p == PointAfterEffect {
					f.Effect = rapid.IntRange(0, 5).Draw(rt, "effect")
				}
				st.Fault = f
			case 6:
				st.Fault = &Fault{Kind: []string{FaultReload, FaultClientCrash, FaultClockJump, FaultClockDrift}[rapid.IntRange(0, 3).Draw(rt, "cf")], Client: client(),
					ByMs: wire.Duration(rapid.Int64Range(-20000, 20000).Draw(rt, "by")), PPM: rapid.Int64Range(-900_000, 900_000).Draw(rt, "ppm2")}
			case 7:
				st.Fault = &Fault{Kind: FaultCancelTurn, Session: "s1", KeepInbox: rapid.Bool().Draw(rt, "keep")}
			case 8:
				st.Host = wire.Restart{CutAfter: -1}
			default:
				st.Probe = "p" + strconv.Itoa(i)
			}
			cfg.Steps = append(cfg.Steps, st)
		}
		if rapid.Bool().Draw(rt, "random faults") {
			r := func() float64 { return float64(rapid.IntRange(0, 20).Draw(rt, "rate")) }
			cfg.Faults = FaultConfig{CrashPerMin: r(), DisconnectPerMin: r(), ReloadPerMin: r(), ClockJumpPerMin: r(), PartitionPerMin: r(),
				LoseHTTPPerMin: r(), DelayHTTPPerMin: r(), ClientCrashPerMin: r(), ClockDriftPerMin: r(), CancelTurnPerMin: r(), InboxWriteFailPerMin: r()}
			cfg.Healed = wire.Time(at + 1)
		}
		cfg.Limit = wire.Time(at + 300_000)
		answer := map[string]int64{}
		for _, nm := range names {
			answer[nm] = rapid.Int64Range(-1, 2000).Draw(rt, "answer")
		}
		window := rapid.Int64Range(0, 300).Draw(rt, "window")
		once := func() *trace.Trace {
			h, ports, _ := fakePorts(window, answer, names...)
			tr, err := Simulate(cfg, h, ports)
			if err != nil {
				rt.Fatalf("run error: %v\n%s", err, tr.Text())
			}
			return tr
		}
		if d, diff := trace.Diverge(once(), once()); diff {
			rt.Fatal(d)
		}
	})
}
