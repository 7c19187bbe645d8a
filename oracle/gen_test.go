package oracle_test

import (
	"math/rand/v2"
	"strconv"

	"github.com/twosettle/twosettle/engine/client"
	"github.com/twosettle/twosettle/engine/host"
	"github.com/twosettle/twosettle/engine/wire"
	"github.com/twosettle/twosettle/oracle"
	"github.com/twosettle/twosettle/sim"
	"github.com/twosettle/twosettle/trace"
)

// genRun draws a random scenario (sessions, asks, user actions, faults) from seed, runs
// it against the reference host and clients, and returns the trace and the options the
// oracle needs. It is a small stand-in for the fuzzer's generator, used to show that the
// reference engine passes the oracle under random exploration.
func genRun(seed uint64, faults bool) (*trace.Trace, oracle.Options, error) {
	r := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	defSec := []int{0, 2, 5, -1}[r.IntN(4)]
	mode := "timed"
	if r.IntN(6) == 0 {
		mode = "legacy"
	}
	window := []int64{-1, 0, 50}[r.IntN(3)]
	h, err := host.New(host.Config{ToolMode: mode, DefaultTimeoutSec: defSec, WriteWindowMs: window})
	if err != nil {
		return nil, oracle.Options{}, err
	}
	nc := 1 + r.IntN(3)
	cls := map[string]wire.ClientPort{}
	var ccfg []sim.ClientConfig
	for i := 0; i < nc; i++ {
		name := "c" + strconv.Itoa(i+1)
		cls[name] = client.New(client.Config{Name: name, Seed: seed + uint64(i)})
		lo := int64(r.IntN(20))
		ccfg = append(ccfg, sim.ClientConfig{Name: name, Mux: sim.Latency{Min: wire.Duration(lo), Max: wire.Duration(lo + int64(r.IntN(60)))},
			HTTP: sim.Latency{Min: wire.Duration(lo), Max: wire.Duration(lo + int64(r.IntN(80)))}, ReconnectMs: wire.Duration(50 + r.IntN(300)),
			Clock: sim.Clock{Offset: wire.Duration(r.IntN(2000)) - 1000}})
	}
	var steps []sim.Step
	t := int64(0)
	add := func(s sim.Step) { s.At = wire.Time(t); steps = append(steps, s) }
	hostCmd := func(c wire.Command) { add(sim.Step{Host: c}) }
	hostCmd(wire.OpenSession{Session: "s1"})
	if r.IntN(3) == 0 {
		hostCmd(wire.OpenSession{Session: "k1", Owner: "s1"})
	}
	t += 5
	hostCmd(wire.Header{Session: "s1"})
	hostCmd(wire.Send{Session: "s1", Target: "next-turn", Text: "go"})
	calls := []string{}
	nsteps := 10 + r.IntN(30)
	for i := 0; i < nsteps; i++ {
		t += int64(r.IntN(2500))
		cl := "c" + strconv.Itoa(1+r.IntN(nc))
		pick := func() string {
			if len(calls) == 0 {
				return ""
			}
			return calls[r.IntN(len(calls))]
		}
		switch k := r.IntN(20); {
		case k < 4:
			id := "q" + strconv.Itoa(len(calls)+1)
			calls = append(calls, id)
			to := []string{"", `,"timeout":1`, `,"timeout":3`, `,"timeout":6`, `,"timeout":-1`, `,"timeout":0`}[r.IntN(6)]
			q := `{"questions":[{"id":"a","question":"A?","options":[{"label":"x"},{"label":"y"}]}` +
				[]string{"", `,{"id":"b","question":"B?"}`}[r.IntN(2)] + `]` + to + `}`
			sess := "s1"
			if r.IntN(8) == 0 {
				sess = "k1"
			}
			if r.IntN(6) == 0 {
				hostCmd(wire.ToolCall{Session: sess, CallID: "p" + id, Name: "run_code",
					Args: `{"calls":[{"name":"ask_user_question","arguments":` + q + `}]}`})
			} else {
				hostCmd(wire.ToolCall{Session: sess, CallID: id, Name: "ask_user_question", Args: q})
			}
		case k < 6:
			hostCmd(wire.EndStep{Session: "s1", Final: r.IntN(3) == 0})
		case k < 7:
			hostCmd(wire.Send{Session: "s1", Target: []string{"next-turn", "next-step"}[r.IntN(2)], Text: "more"})
		case k < 8:
			hostCmd(wire.Header{Session: "s1"})
		case k < 13:
			c := pick()
			add(sim.Step{Client: cl, User: &wire.UserAction{Kind: wire.ActChoose, Card: c, Question: "a", Label: "x"}})
			t += int64(r.IntN(300))
			if r.IntN(2) == 0 {
				add(sim.Step{Client: cl, User: &wire.UserAction{Kind: wire.ActSkip, Card: c, Question: "b"}})
			}
			add(sim.Step{Client: cl, User: &wire.UserAction{Kind: wire.ActSubmit, Card: c}})
		case k < 14:
			c := pick()
			add(sim.Step{Client: cl, User: &wire.UserAction{Kind: wire.ActReopen, Card: c}})
		case k < 15:
			kinds := []string{wire.ActFocus, wire.ActBlur, wire.ActTakeTime, wire.ActHide, wire.ActClose, wire.ActDiscard, wire.ActType}
			add(sim.Step{Client: cl, User: &wire.UserAction{Kind: kinds[r.IntN(len(kinds))], Card: pick(), Text: "t"}})
		case k < 16:
			hostCmd(wire.CancelTurn{Session: "s1", KeepInbox: r.IntN(2) == 0})
		case k < 17 && faults:
			add(sim.Step{Fault: &sim.Fault{Kind: sim.FaultCrash, Point: []string{"", sim.PointInsideWriteWindow, sim.PointBetweenClaimAdmit, sim.PointAfterAnswerAck, sim.PointBeforeAnswerAck}[r.IntN(5)]}})
		case k < 18 && faults:
			add(sim.Step{Net: &sim.NetAction{Kind: sim.NetDisconnect, Client: cl}})
		case k < 19:
			hostCmd(wire.CloseSession{Session: "s1"})
		default:
			hostCmd(wire.Tick{})
		}
	}
	t += 20_000
	hostCmd(wire.EndStep{Session: "s1", Final: true})
	cfg := sim.Config{Seed: seed, Clients: ccfg, Steps: steps, Model: sim.ModelConfig{AutoEndMs: []wire.Duration{-1, 500, 3000}[r.IntN(3)]}, Limit: wire.Time(t + 30_000)}
	if faults && r.IntN(2) == 0 {
		cfg.Faults = sim.FaultConfig{CrashPerMin: r.Float64() * 2, DisconnectPerMin: r.Float64() * 3, ReloadPerMin: r.Float64(),
			ClockJumpPerMin: r.Float64(), PartitionPerMin: r.Float64(), LoseHTTPPerMin: r.Float64() * 2, DelayHTTPPerMin: r.Float64() * 2}
		cfg.Healed = wire.Time(t - 5000)
	}
	tr, err := sim.Simulate(cfg, h, cls)
	opts := oracle.Options{}
	switch {
	case defSec == 0:
		opts.DefaultTimeoutMs = 120_000
	case defSec < 0:
		opts.DefaultTimeoutMs = -1
	default:
		opts.DefaultTimeoutMs = int64(defSec) * 1000
	}
	return tr, opts, err
}
