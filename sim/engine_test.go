package sim_test

// Integration tests: the simulator driving the reference engine (engine/host and
// engine/client, built here and handed over as ports) for issue 4's "Done when" items.

import (
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/twosettle/twosettle/engine/client"
	"github.com/twosettle/twosettle/engine/host"
	"github.com/twosettle/twosettle/engine/wire"
	"github.com/twosettle/twosettle/sim"
	"github.com/twosettle/twosettle/trace"
)

// ports builds the reference host and one reference client per name.
func ports(t testing.TB, hc host.Config, names ...string) (wire.HostPort, map[string]wire.ClientPort) {
	t.Helper()
	h, err := host.New(hc)
	if err != nil {
		t.Fatal(err)
	}
	cs := map[string]wire.ClientPort{}
	for i, n := range names {
		cs[n] = client.New(client.Config{Name: n, Seed: uint64(i + 1)})
	}
	return h, cs
}

func question(timeoutSec int) string {
	return `{"questions":[{"id":"a","question":"Ship it?","options":[{"label":"yes"},{"label":"no"}]}],"timeout":` + strconv.Itoa(timeoutSec) + `}`
}

func answer(at int64, c, card string) []sim.Step {
	return []sim.Step{
		{At: wire.Time(at), Client: c, User: &wire.UserAction{Kind: wire.ActChoose, Card: card, Question: "a", Label: "yes"}},
		{At: wire.Time(at), Client: c, User: &wire.UserAction{Kind: wire.ActSubmit, Card: card}},
	}
}

func clients(mux, http sim.Latency, names ...string) []sim.ClientConfig {
	out := make([]sim.ClientConfig, len(names))
	for i, n := range names {
		out[i] = sim.ClientConfig{Name: n, Mux: mux, HTTP: http, ReconnectMs: 100}
	}
	return out
}

// asked is the prelude of most tests: a Session whose first step asks q1 at t=20.
func asked(timeoutSec int) []sim.Step {
	return []sim.Step{
		{At: 0, Host: wire.OpenSession{Session: "s1"}},
		{At: 10, Host: wire.Header{Session: "s1"}},
		{At: 10, Host: wire.Send{Session: "s1", Target: "next-turn", Text: "go"}},
		{At: 20, Host: wire.ToolCall{Session: "s1", CallID: "q1", Name: "ask_user_question", Args: question(timeoutSec)}},
	}
}

func run(t testing.TB, cfg sim.Config, hc host.Config) *trace.Trace {
	t.Helper()
	names := make([]string, len(cfg.Clients))
	for i, c := range cfg.Clients {
		names[i] = c.Name
	}
	h, cs := ports(t, hc, names...)
	tr, err := sim.Simulate(cfg, h, cs)
	if err != nil {
		t.Fatalf("%v\n%s", err, tr.Text())
	}
	return tr
}

func find(tr *trace.Trace, frags ...string) int {
	for i, r := range tr.Records {
		l := r.String()
		ok := true
		for _, f := range frags {
			if !strings.Contains(l, f) {
				ok = false
				break
			}
		}
		if ok {
			return i
		}
	}
	return -1
}

func count(tr *trace.Trace, frags ...string) int {
	n := 0
	for _, r := range tr.Records {
		l := r.String()
		ok := true
		for _, f := range frags {
			if !strings.Contains(l, f) {
				ok = false
				break
			}
		}
		if ok {
			n++
		}
	}
	return n
}

func finalLog(tr *trace.Trace, s string) string {
	ss, _ := tr.Final.Host.Session(s)
	var b strings.Builder
	for _, e := range ss.Log {
		b.WriteString(e.String())
		b.WriteByte('\n')
	}
	return b.String()
}

func view(tr *trace.Trace, s string) string {
	ss, _ := tr.Final.Host.Session(s)
	return ss.Questions.String()
}

// racy is a two-client scenario with jittered latencies, drifting clocks and random
// faults: what the fuzzer runs.
func racy(seed uint64) sim.Config {
	cfg := sim.Config{Seed: seed, Clients: clients(sim.Latency{Min: 0, Max: 40}, sim.Latency{Min: 0, Max: 80}, "c1", "c2"),
		Model: sim.ModelConfig{AutoEndMs: 300}, Healed: 30_000,
		Faults: sim.FaultConfig{CrashPerMin: 2, DisconnectPerMin: 4, ReloadPerMin: 1, LoseHTTPPerMin: 3, ClockJumpPerMin: 1, PartitionPerMin: 1}}
	cfg.Clients[1].Clock = sim.Clock{Offset: 900, DriftPPM: 300}
	cfg.Steps = asked(5)
	cfg.Steps = append(cfg.Steps, answer(1000, "c1", "q1")...)
	cfg.Steps = append(cfg.Steps, answer(1000, "c2", "q1")...)
	cfg.Steps = append(cfg.Steps,
		sim.Step{At: 8000, Host: wire.Send{Session: "s1", Target: "next-turn", Text: "more"}},
		sim.Step{At: 8000, Host: wire.ToolCall{Session: "s1", CallID: "q2", Name: "ask_user_question", Args: question(3)}},
		sim.Step{At: 9000, Probe: "mid"},
	)
	cfg.Steps = append(cfg.Steps, answer(20_000, "c2", "q1")...)
	return cfg
}

func engineSelf(seed uint64) sim.Ports {
	return func() (wire.HostPort, map[string]wire.ClientPort, error) {
		h, err := host.New(host.Config{ToolMode: "timed", WriteWindowMs: 0})
		if err != nil {
			return nil, nil, err
		}
		return h, map[string]wire.ClientPort{
			"c1": client.New(client.Config{Name: "c1", Seed: seed}),
			"c2": client.New(client.Config{Name: "c2", Seed: seed + 1}),
		}, nil
	}
}

func TestEngineSameSeedByteIdentical(t *testing.T) {
	texts := map[uint64]string{}
	for seed := uint64(0); seed < 30; seed++ {
		tr, err := sim.SelfCheck(racy(seed), engineSelf(seed))
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		texts[seed] = tr.Text() + strings.Join(tr.Final.Lines(), "\n")
	}
	for _, procs := range []int{1, 2} {
		prev := runtime.GOMAXPROCS(procs)
		for seed := uint64(0); seed < 30; seed++ {
			h, cs, _ := engineSelf(seed)()
			tr, err := sim.Simulate(racy(seed), h, cs)
			if err != nil {
				t.Fatal(err)
			}
			if got := tr.Text() + strings.Join(tr.Final.Lines(), "\n"); got != texts[seed] {
				t.Fatalf("seed %d differs under GOMAXPROCS=%d", seed, procs)
			}
		}
		runtime.GOMAXPROCS(prev)
	}
}

func TestEngineDifferentSeedsDifferentSchedules(t *testing.T) {
	scheds := map[string]bool{}
	for seed := uint64(0); seed < 16; seed++ {
		cfg := racy(seed)
		cfg.Faults = sim.FaultConfig{}
		tr := run(t, cfg, host.Config{ToolMode: "timed"})
		var b strings.Builder
		for _, r := range tr.Records {
			if r.Kind == trace.Sched {
				b.WriteString(r.Payload.String() + ";")
			}
		}
		scheds[b.String()] = true
	}
	if len(scheds) < 8 {
		t.Fatalf("16 seeds gave %d schedules", len(scheds))
	}
}

// GW-1 with two clients answering at the same instant: the waterfall settles once, the
// loser (who still held the delivery) gets a cancel, the winner none, and the loser's
// result is discarded.
func TestEngineRaceSettlesOnce(t *testing.T) {
	t.Run("GW-1 two clients answer at the same instant: one settlement, a cancel to the loser", func(t *testing.T) {
		winners := map[string]bool{}
		for seed := uint64(0); seed < 24; seed++ {
			cfg := sim.Config{Seed: seed, Clients: clients(sim.Latency{Min: 5, Max: 5}, sim.Latency{Min: 10, Max: 10}, "c1", "c2"),
				Model: sim.ModelConfig{AutoEndMs: 100}, Steps: asked(120)}
			cfg.Steps = append(cfg.Steps, answer(1000, "c1", "q1")...)
			cfg.Steps = append(cfg.Steps, answer(1000, "c2", "q1")...)
			tr := run(t, cfg, host.Config{ToolMode: "timed"})
			if n := count(tr, "host out append s1", "tool/result", "call=q1"); n != 1 {
				t.Fatalf("seed %d: %d tool results\n%s", seed, n, tr.Text())
			}
			// both results reached the host at 1010; the first processed won
			first := find(tr, "t=1010 host in event-result")
			if first < 0 || count(tr, "t=1010 host in event-result") != 2 {
				t.Fatalf("seed %d: results\n%s", seed, tr.Text())
			}
			win := tr.Records[first].Payload.(wire.EventResult).Client
			lose := map[string]string{"c1": "c2", "c2": "c1"}[win]
			winners[win] = true
			if count(tr, "host out send "+lose+".1 cancel ev=e1") != 1 || count(tr, "host out send "+win+".1 cancel") != 0 {
				t.Fatalf("seed %d: winner %s: cancels wrong\n%s", seed, win, tr.Text())
			}
			if !strings.Contains(view(tr, "s1"), "settled=[q1{a=[yes]}]") {
				t.Fatalf("seed %d: view %s", seed, view(tr, "s1"))
			}
		}
		if len(winners) != 2 {
			t.Fatalf("the same client always won: %v", winners)
		}
	})
}

// AGENT-6, AGENT-3: a crash inside the unpersisted window loses the last events (the
// answer's tool/result), and the cold load repairs the durable tool/call with
// TOOL_OUTCOME_UNKNOWN, which makes the timed question continued (PROJ-4).
func TestEngineCrashInsideWriteWindow(t *testing.T) {
	t.Run("AGENT-6 a crash inside the write window loses the tool result; AGENT-3 repair yields TOOL_OUTCOME_UNKNOWN", func(t *testing.T) {
		cfg := sim.Config{Clients: clients(sim.Latency{Min: 5, Max: 5}, sim.Latency{Min: 10, Max: 10}, "c1"),
			Model: sim.ModelConfig{AutoEndMs: 100}, Steps: asked(120)}
		cfg.Steps = append(cfg.Steps, answer(1000, "c1", "q1")...)
		cfg.Steps = append(cfg.Steps, sim.Step{At: 1005, Fault: &sim.Fault{Kind: sim.FaultCrash, Point: sim.PointInsideWriteWindow}})
		tr := run(t, cfg, host.Config{ToolMode: "timed", WriteWindowMs: 200})
		crash := find(tr, "t=1010 sim fault crash point=inside-write-window")
		answered := find(tr, "t=1010 host out append s1", "tool/result", `{"answers"`)
		if crash < 0 || answered < 0 || answered > crash {
			t.Fatalf("the crash did not land after the answer was appended\n%s", tr.Text())
		}
		log := finalLog(tr, "s1")
		if strings.Contains(log, `call=q1 ok {"answers"`) {
			t.Fatalf("the unpersisted answer survived:\n%s", log)
		}
		if !strings.Contains(log, "tool/result turn=1 step=1 call=q1 error err=ToolOutcomeUnknownError/TOOL_OUTCOME_UNKNOWN") ||
			!strings.Contains(log, "turn/end turn=1 reason=interrupted") {
			t.Fatalf("no repair:\n%s", log)
		}
		if v := view(tr, "s1"); v != "active=[q1:continued] settled=[]" {
			t.Fatalf("view %s", v)
		}
	})
	t.Run("AGENT-6 the same answer outside the window survives", func(t *testing.T) {
		cfg := sim.Config{Clients: clients(sim.Latency{Min: 5, Max: 5}, sim.Latency{Min: 10, Max: 10}, "c1"),
			Model: sim.ModelConfig{AutoEndMs: -1}, Steps: asked(120)}
		cfg.Steps = append(cfg.Steps, answer(1000, "c1", "q1")...)
		cfg.Steps = append(cfg.Steps, sim.Step{At: 1500, Fault: &sim.Fault{Kind: sim.FaultCrash}})
		tr := run(t, cfg, host.Config{ToolMode: "timed", WriteWindowMs: 200})
		if log := finalLog(tr, "s1"); !strings.Contains(log, `call=q1 ok {"answers"`) {
			t.Fatalf("the persisted answer was lost:\n%s", log)
		}
	})
}

// AGENT-2, AGENT-3: a crash between commands while a client holds the claim loses every
// wait and claim; the durable tool/call is repaired, the reconnected client sees the
// question continued and answers it late, and the steered reply settles it.
func TestEngineCrashLosesWaitsAndLateAnswerSettles(t *testing.T) {
	t.Run("AGENT-2 a restart loses the wait and the claim, keeps the log; the late answer settles", func(t *testing.T) {
		cfg := sim.Config{Clients: clients(sim.Latency{Min: 5, Max: 5}, sim.Latency{Min: 10, Max: 10}, "c1"),
			Model: sim.ModelConfig{AutoEndMs: 100}, Steps: asked(120)}
		cfg.Steps = append(cfg.Steps, sim.Step{At: 400, Probe: "claimed"}, sim.Step{At: 500, Fault: &sim.Fault{Kind: sim.FaultCrash}},
			sim.Step{At: 1000, Probe: "restarted"})
		cfg.Steps = append(cfg.Steps, answer(2000, "c1", "q1")...)
		tr := run(t, cfg, host.Config{ToolMode: "timed"})
		before := tr.Records[find(tr, "probe claimed")].Payload.(trace.Snapshot)
		after := tr.Records[find(tr, "probe restarted")].Payload.(trace.Snapshot)
		if len(before.Host.Waits) != 1 || before.Host.Waits[0].Claims != 1 {
			t.Fatalf("before: waits %+v", before.Host.Waits)
		}
		if len(after.Host.Waits) != 0 || len(after.Host.Pending) != 0 || len(after.Host.Reservations) != 0 {
			t.Fatalf("after: %+v", after.Host)
		}
		s, _ := after.Host.Session("s1")
		if s.Questions.String() != "active=[q1:continued] settled=[]" {
			t.Fatalf("after: %s", s.Questions)
		}
		if find(tr, "t=500 c1@500 in link-down") < 0 || find(tr, "host out send c1.2 ready gen=2") < 0 {
			t.Fatalf("no reconnection\n%s", tr.Text())
		}
		if find(tr, "c1@2000 out call gen=2", "userQuestions/answer") < 0 || view(tr, "s1") != "active=[] settled=[q1{a=[yes]}]" {
			t.Fatalf("late answer\n%s", tr.Text())
		}
	})
}

// AGENT-4: a timed question asked as a run_code sub-call becomes late-answerable only if
// its tool/ptc-dispatch with the pending content reached the disk.
func TestEnginePTCInterruption(t *testing.T) {
	ptc := func(point string) *trace.Trace {
		cfg := sim.Config{Clients: clients(sim.Latency{Min: 5, Max: 5}, sim.Latency{Min: 10, Max: 10}, "c1"),
			Model: sim.ModelConfig{AutoEndMs: -1}}
		cfg.Steps = []sim.Step{
			{At: 0, Host: wire.OpenSession{Session: "s1"}},
			{At: 10, Host: wire.Header{Session: "s1"}},
			{At: 10, Host: wire.Send{Session: "s1", Target: "next-turn", Text: "go"}},
			{At: 20, Fault: &sim.Fault{Kind: sim.FaultCrash, Point: point}},
			{At: 20, Host: wire.ToolCall{Session: "s1", CallID: "rc", Name: "run_code",
				Args: `{"calls":[{"name":"ask_user_question","arguments":` + question(1) + `}]}`}},
		}
		return run(t, cfg, host.Config{ToolMode: "timed", WriteWindowMs: 200})
	}
	t.Run("AGENT-4 crash before the tool/ptc-dispatch record is persisted: the sub-call question is gone", func(t *testing.T) {
		tr := ptc(sim.PointBeforePTCDispatch)
		if find(tr, "sim fault crash point=before-ptc-dispatch") < 0 || find(tr, "host out append s1", "tool/ptc-dispatch parent=rc") < 0 {
			t.Fatalf("no crash after the dispatch record\n%s", tr.Text())
		}
		log := finalLog(tr, "s1")
		if strings.Contains(log, "tool/ptc-dispatch parent=rc") || !strings.Contains(log, "call=rc error err=ToolOutcomeUnknownError/TOOL_OUTCOME_UNKNOWN") {
			t.Fatalf("log:\n%s", log)
		}
		if v := view(tr, "s1"); strings.Contains(v, "rc:ptc:1") {
			t.Fatalf("the unrecorded sub-call is answerable: %s", v)
		}
	})
	t.Run("AGENT-4 crash after it is persisted: the sub-call question is continued (PROJ-7)", func(t *testing.T) {
		tr := ptc(sim.PointAfterPTCDispatch)
		if find(tr, "sim fault crash point=after-ptc-dispatch") < 0 {
			t.Fatalf("no crash\n%s", tr.Text())
		}
		log := finalLog(tr, "s1")
		if !strings.Contains(log, "tool/ptc-dispatch parent=rc") {
			t.Fatalf("log:\n%s", log)
		}
		if v := view(tr, "s1"); !strings.Contains(v, "rc:ptc:1:continued") {
			t.Fatalf("view %s", v)
		}
	})
}

// AGENT-6: the reference host persists an accepted late reply before it acknowledges, so
// a crash right after the acknowledgement keeps it; a crash before it fails the client's
// call (it may answer again).
func TestEngineCrashAroundAnswerAck(t *testing.T) {
	late := func(point string) *trace.Trace {
		cfg := sim.Config{Clients: clients(sim.Latency{Min: 5, Max: 5}, sim.Latency{Min: 10, Max: 10}, "c1"),
			Model: sim.ModelConfig{AutoEndMs: -1}, Steps: asked(1)}
		cfg.Steps = append(cfg.Steps, sim.Step{At: 1500, Fault: &sim.Fault{Kind: sim.FaultCrash, Point: point}})
		cfg.Steps = append(cfg.Steps, answer(2000, "c1", "q1")...)
		return run(t, cfg, host.Config{ToolMode: "timed", WriteWindowMs: 200})
	}
	t.Run("AGENT-6 a crash after the answer's ack keeps the accepted reply", func(t *testing.T) {
		tr := late(sim.PointAfterAnswerAck)
		i := find(tr, "sim fault crash point=after-answer-ack")
		if i < 0 || find(tr, `c1@`, `in http`, `{"ok":true,"value":true}`) < 0 {
			t.Fatalf("no ack then crash\n%s", tr.Text())
		}
		if log := finalLog(tr, "s1"); !strings.Contains(log, "user-question-reply(call=q1,outcome=answered)") {
			t.Fatalf("the acknowledged reply was lost:\n%s", log)
		}
	})
	t.Run("AGENT-6 a crash before the ack fails the client's call: it is never told true", func(t *testing.T) {
		tr := late(sim.PointBeforeAnswerAck)
		i := find(tr, "c1@2000 out call", "userQuestions/answer")
		if i < 0 {
			t.Fatalf("no answer call\n%s", tr.Text())
		}
		rpc := tr.Records[i].Payload.(wire.SendCall).RPCID
		if find(tr, "sim fault crash point=before-answer-ack") < 0 ||
			find(tr, `c1@`, `in http rpc=`+rpc+` `, `"code":"net/failed"`) < 0 || find(tr, `in http rpc=`+rpc+` `, `"ok":true`) >= 0 {
			t.Fatalf("the client was not failed\n%s", tr.Text())
		}
	})
}

// GW-5, GW-6: a disconnect is not a next: the request stays pending and is replayed to the
// reconnected generation under the same event id, where the answer settles it.
func TestEngineDisconnectReplays(t *testing.T) {
	t.Run("GW-5 a request pending over a disconnect is replayed under the same event id", func(t *testing.T) {
		cfg := sim.Config{Clients: clients(sim.Latency{Min: 5, Max: 5}, sim.Latency{Min: 10, Max: 10}, "c1"),
			Model: sim.ModelConfig{AutoEndMs: 100}, Steps: asked(120)}
		cfg.Steps = append(cfg.Steps, sim.Step{At: 500, Net: &sim.NetAction{Kind: sim.NetDisconnect, Client: "c1"}},
			sim.Step{At: 550, Probe: "away"})
		cfg.Steps = append(cfg.Steps, answer(2000, "c1", "q1")...)
		tr := run(t, cfg, host.Config{ToolMode: "timed"})
		away := tr.Records[find(tr, "probe away")].Payload.(trace.Snapshot)
		if len(away.Host.Pending) != 1 || len(away.Host.Pending[0].Deliveries) != 0 {
			t.Fatalf("the request did not stay pending: %+v", away.Host.Pending)
		}
		if find(tr, "host out send c1.2 waterfall ev=e1") < 0 || find(tr, "c1@2000 out result gen=2", "ev=e1") < 0 {
			t.Fatalf("no replay\n%s", tr.Text())
		}
		if v := view(tr, "s1"); v != "active=[] settled=[q1{a=[yes]}]" {
			t.Fatalf("view %s", v)
		}
	})
}

// DRAFT-1: a reload keeps the draft store and loses everything else; the replay brings
// the card back with its draft.
func TestEngineReloadKeepsDrafts(t *testing.T) {
	t.Run("DRAFT-1 a reload keeps the client's draft", func(t *testing.T) {
		cfg := sim.Config{Clients: clients(sim.Latency{Min: 5, Max: 5}, sim.Latency{Min: 10, Max: 10}, "c1", "c2"),
			Model: sim.ModelConfig{AutoEndMs: 100}, Steps: asked(120)}
		cfg.Steps = append(cfg.Steps,
			sim.Step{At: 500, Client: "c1", User: &wire.UserAction{Kind: wire.ActType, Card: "q1", Question: "a", Text: "maybe"}},
			sim.Step{At: 600, Probe: "typed"},
			sim.Step{At: 700, Fault: &sim.Fault{Kind: sim.FaultReload, Client: "c1"}},
			sim.Step{At: 1000, Probe: "reloaded"})
		tr := run(t, cfg, host.Config{ToolMode: "timed"})
		typed := tr.Records[find(tr, "probe typed")].Payload.(trace.Snapshot)
		rel := tr.Records[find(tr, "probe reloaded")].Payload.(trace.Snapshot)
		if len(typed.Clients[0].Drafts) != 1 || len(rel.Clients[0].Drafts) != 1 || typed.Clients[0].Drafts[0] != rel.Clients[0].Drafts[0] {
			t.Fatalf("drafts %+v -> %+v", typed.Clients[0].Drafts, rel.Clients[0].Drafts)
		}
		if len(typed.Clients[1].Drafts) != 0 || len(rel.Clients[1].Drafts) != 0 {
			t.Fatal("a draft leaked to the other client")
		}
		if find(tr, "t=700 host in disconnect c1") < 0 || find(tr, "t=700 c1@700 in reload") < 0 || rel.Clients[0].Gen != 2 || len(rel.Clients[0].Cards) != 1 {
			t.Fatalf("reload\n%s", tr.Text())
		}
	})
}

// A crashed client is gone: the other one still answers.
func TestEngineClientCrash(t *testing.T) {
	cfg := sim.Config{Clients: clients(sim.Latency{Min: 5, Max: 5}, sim.Latency{Min: 10, Max: 10}, "c1", "c2"),
		Model: sim.ModelConfig{AutoEndMs: 100}, Steps: asked(120)}
	cfg.Steps = append(cfg.Steps, sim.Step{At: 500, Fault: &sim.Fault{Kind: sim.FaultClientCrash, Client: "c1"}})
	cfg.Steps = append(cfg.Steps, answer(1000, "c1", "q1")...)
	cfg.Steps = append(cfg.Steps, answer(2000, "c2", "q1")...)
	tr := run(t, cfg, host.Config{ToolMode: "timed"})
	if find(tr, "t=500 host in disconnect c1") < 0 || find(tr, "t=1000 net drop to=c1 why=client-crashed user choose") < 0 ||
		find(tr, "c2@2000 out result") < 0 || view(tr, "s1") != "active=[] settled=[q1{a=[yes]}]" {
		t.Fatalf("\n%s", tr.Text())
	}
	if len(tr.Final.Host.Clients) != 1 || tr.Final.Host.Clients[0].Client != "c2" {
		t.Fatalf("conns %+v", tr.Final.Host.Clients)
	}
}

// CD-1, CD-10: the client's deadline is its own now + remainingMs, so a clock jump moves its
// local expiry: it rejects ASK_TIMED_OUT early and the host takes that as pending
// (CLAIM-7) long before the host's own deadline.
func TestEngineClockJumpMovesLocalExpiry(t *testing.T) {
	t.Run("CD-10 a client clock jump moves its local expiry", func(t *testing.T) {
		cfg := sim.Config{Clients: clients(sim.Latency{Min: 5, Max: 5}, sim.Latency{Min: 10, Max: 10}, "c1"),
			Model: sim.ModelConfig{AutoEndMs: -1}, Steps: asked(120)}
		cfg.Clients[0].Clock = sim.Clock{Offset: 50_000}
		plain := run(t, cfg, host.Config{ToolMode: "timed"})
		cfg.Steps = append(cfg.Steps, sim.Step{At: 10_000, Fault: &sim.Fault{Kind: sim.FaultClockJump, Client: "c1", ByMs: 60_000}})
		jumped := run(t, cfg, host.Config{ToolMode: "timed"})
		at := func(tr *trace.Trace) int64 {
			i := find(tr, "host out append s1", "tool/result", "call=q1")
			if i < 0 {
				t.Fatalf("no result\n%s", tr.Text())
			}
			return tr.Records[i].Time
		}
		// the offset alone changes nothing (CD-1); the jump brings expiry 60 s earlier
		if a, b := at(plain), at(jumped); a < 120_000 || b > a-59_000 {
			t.Fatalf("expiry at %d without the jump, %d with it", a, b)
		}
		if find(jumped, "c1@", "out result", "ASK_TIMED_OUT") < 0 || !strings.Contains(finalLog(jumped, "s1"), `"pending":true`) {
			t.Fatalf("no local expiry\n%s", jumped.Text())
		}
	})
}

// WAIT-9: a turn cancel closes the wait with the parent's reason: the tool result is
// ASK_ABORTED and every delivery is cancelled.
func TestEngineCancelTurn(t *testing.T) {
	t.Run("WAIT-9 a turn cancel fault aborts the question", func(t *testing.T) {
		cfg := sim.Config{Clients: clients(sim.Latency{Min: 5, Max: 5}, sim.Latency{Min: 10, Max: 10}, "c1"),
			Model: sim.ModelConfig{AutoEndMs: -1}, Steps: asked(120)}
		cfg.Steps = append(cfg.Steps, sim.Step{At: 500, Fault: &sim.Fault{Kind: sim.FaultCancelTurn, Session: "s1"}})
		tr := run(t, cfg, host.Config{ToolMode: "timed"})
		if find(tr, "t=500 host out send c1.1 cancel ev=e1") < 0 || !strings.Contains(finalLog(tr, "s1"), "err=UserQuestionError/ASK_ABORTED") ||
			len(tr.Final.Host.Waits) != 0 {
			t.Fatalf("\n%s", tr.Text())
		}
	})
}

// LATE-5: an inbox write fault makes the late answer's steer fail for real: the RPC fails
// with the storage error, nothing is queued, and the user's resubmission is accepted.
func TestEngineInboxWriteFault(t *testing.T) {
	t.Run("LATE-5 a failed steer fails the answer RPC and the resubmission is accepted", func(t *testing.T) {
		cfg := sim.Config{Clients: clients(sim.Latency{Min: 5, Max: 5}, sim.Latency{Min: 10, Max: 10}, "c1"),
			Model: sim.ModelConfig{AutoEndMs: -1}, Steps: asked(1)}
		cfg.Steps = append(cfg.Steps, sim.Step{At: 2000, Fault: &sim.Fault{Kind: sim.FaultInboxWrite, Session: "s1"}})
		cfg.Steps = append(cfg.Steps, answer(3000, "c1", "q1")...)
		cfg.Steps = append(cfg.Steps, sim.Step{At: 4000, Client: "c1", User: &wire.UserAction{Kind: wire.ActSubmit, Card: "q1"}})
		tr := run(t, cfg, host.Config{ToolMode: "timed"})
		if find(tr, "t=2000 sim fault inbox-write-fail s1") < 0 || find(tr, "t=2000 host in fail-inbox-write s1") < 0 ||
			find(tr, `c1@3020 in http rpc=c1-r2 {"ok":false`, "storage write error") < 0 ||
			find(tr, `c1@4020 in http rpc=c1-r3 {"ok":true,"value":true}`) < 0 ||
			strings.Count(finalLog(tr, "s1"), "agent/inbox/spliced queued next-step") != 1 {
			t.Fatalf("\n%s", tr.Text())
		}
	})
}

// A lost $events/result fails the client's generation: it redials, the request is
// replayed, and the client's kept answer goes again.
func TestEngineLostResult(t *testing.T) {
	cfg := sim.Config{Clients: clients(sim.Latency{Min: 5, Max: 5}, sim.Latency{Min: 10, Max: 10}, "c1"),
		Model: sim.ModelConfig{AutoEndMs: 100}, Steps: asked(120)}
	cfg.Steps = append(cfg.Steps, sim.Step{At: 900, Net: &sim.NetAction{Kind: sim.NetLose, Client: "c1"}})
	cfg.Steps = append(cfg.Steps, answer(1000, "c1", "q1")...)
	cfg.Steps = append(cfg.Steps, sim.Step{At: 3000, Client: "c1", User: &wire.UserAction{Kind: wire.ActSubmit, Card: "q1"}})
	tr := run(t, cfg, host.Config{ToolMode: "timed"})
	if find(tr, "t=1000 net drop to=host why=lost event-result") < 0 || find(tr, "t=1010 c1@1010 in http", "net/failed") < 0 ||
		find(tr, "host out send c1.2 waterfall ev=e1") < 0 || view(tr, "s1") != "active=[] settled=[q1{a=[yes]}]" {
		t.Fatalf("\n%s", tr.Text())
	}
}

// A crash can land between any two host effects: cutting the Apply that settles the race
// after each k of its effects restarts the host with Restart{CutAfter: k}, and the run
// goes on to a consistent end (the answer is either durable or repaired to continued).
func TestEngineCrashAtEveryCut(t *testing.T) {
	for k := 0; ; k++ {
		cfg := sim.Config{Clients: clients(sim.Latency{Min: 5, Max: 5}, sim.Latency{Min: 10, Max: 10}, "c1", "c2"),
			Model: sim.ModelConfig{AutoEndMs: -1}, Steps: asked(120)}
		cfg.Steps = append(cfg.Steps, answer(1000, "c1", "q1")...)
		cfg.Steps = append(cfg.Steps, sim.Step{At: 1005, Fault: &sim.Fault{Kind: sim.FaultCrash, Point: sim.PointAfterEffect, Effect: k}})
		tr := run(t, cfg, host.Config{ToolMode: "timed", WriteWindowMs: -1})
		i := find(tr, "sim fault crash point=after-effect cut=")
		if i < 0 {
			if k == 0 {
				t.Fatalf("no cut at all\n%s", tr.Text())
			}
			t.Logf("cuts 0..%d tried", k-1)
			return // k reached the size of the Apply: every cut was tried
		}
		j := i + 1
		for j < len(tr.Records) && tr.Records[j].Kind == trace.Drop {
			j++ // what the restart took off the links
		}
		r, ok := tr.Records[j].Payload.(wire.Restart)
		if !ok || !strings.Contains(tr.Records[i].String(), "cut="+strconv.Itoa(r.CutAfter)+"/") {
			t.Fatalf("k=%d: the restart after the cut is %v, the cut %v", k, tr.Records[j], tr.Records[i])
		}
		// k effects survive, not counting wait notes (a host without introspection sends none)
		kept := 0
		for _, rec := range tr.Records[i-r.CutAfter : i] {
			if _, note := rec.Payload.(wire.WaitNote); !note {
				kept++
			}
		}
		if kept != k {
			t.Fatalf("k=%d: %d effects other than wait notes survived the cut\n%s", k, kept, tr.Text())
		}
		v := view(tr, "s1")
		if v != "active=[] settled=[q1{a=[yes]}]" && v != "active=[q1:continued] settled=[]" {
			t.Fatalf("k=%d: view %s\n%s", k, v, tr.Text())
		}
		if k > 40 {
			t.Fatal("the cut Apply never ran out of effects")
		}
	}
}
