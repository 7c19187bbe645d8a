package sim

import (
	"strings"
	"testing"

	"github.com/twosettle/twosettle/engine/wire"
	"github.com/twosettle/twosettle/trace"
)

func oneClient() []ClientConfig {
	return []ClientConfig{{Name: "c1", Mux: Latency{5, 5}, HTTP: Latency{10, 10}, ReconnectMs: 100}}
}

func logOf(tr *trace.Trace, s string) []string {
	ss, ok := tr.Final.Host.Session(s)
	if !ok {
		return nil
	}
	out := make([]string, len(ss.Log))
	for i, e := range ss.Log {
		out[i] = e.String()
	}
	return out
}

func TestCrashBetweenCommands(t *testing.T) {
	cfg := Config{Clients: oneClient(), Steps: append(ask(100, "q1", 10_000),
		Step{At: 200, Fault: &Fault{Kind: FaultCrash}})}
	tr, h, _ := runFake(t, cfg, 0, nil)
	if first(tr, "t=200 sim fault crash") < 0 || first(tr, "t=200 host in restart") < 0 || h.restarts != 1 {
		t.Fatalf("no crash\n%s", tr.Text())
	}
	// every link is gone: the client hears it and redials into a new generation
	if first(tr, "t=200 c1@200 in link-down") < 0 || first(tr, "t=305 host in connect c1") < 0 {
		t.Fatalf("no redial after the restart\n%s", tr.Text())
	}
	// the durable tool/call is repaired (the fake host's repair closes the turn)
	log := strings.Join(logOf(tr, "s1"), "\n")
	if !strings.Contains(log, "tool/result turn=1 step=1 call=q1 error err=ToolOutcomeUnknownError/TOOL_OUTCOME_UNKNOWN") ||
		!strings.Contains(log, "turn/end turn=1 reason=interrupted") {
		t.Fatalf("no repair:\n%s", log)
	}
}

func TestCrashAfterEffectCutsTheApply(t *testing.T) {
	cfg := Config{Clients: oneClient(), Steps: []Step{
		{At: 100, Host: wire.Send{Session: "s1", Target: "next-turn", Text: "go"}},
		{At: 150, Fault: &Fault{Kind: FaultCrash, Point: PointAfterEffect, Effect: 1}},
		{At: 200, Host: wire.ToolCall{Session: "s1", CallID: "q1", Name: "ask", Args: `{"ms":1000}`}},
	}}
	cfg.Model.AutoEndMs = -1
	tr, _, _ := runFake(t, cfg, 0, nil)
	i := first(tr, "t=200 host in tool-call")
	if i < 0 {
		t.Fatalf("no tool call\n%s", tr.Text())
	}
	got := lines(tr)[i+1 : i+4]
	want := []string{"host out append s1 #2", "sim fault crash point=after-effect cut=1/3", "host in restart cut-after=1"}
	for k := range want {
		if !strings.Contains(got[k], want[k]) {
			t.Fatalf("after the tool call: %q, want %q\n%s", got, want, tr.Text())
		}
	}
	if first(tr, "c1@", "waterfall") >= 0 {
		t.Fatalf("an effect past the cut was delivered\n%s", tr.Text())
	}
	// the tool/call was appended but its Persisted was cut: lost, and no tool result
	log := strings.Join(logOf(tr, "s1"), "\n")
	if strings.Contains(log, "tool/call") || !strings.Contains(log, "turn/end turn=1 reason=interrupted") {
		t.Fatalf("log after the cut crash:\n%s", log)
	}
}

// A crash inside the unpersisted window loses the last events (AGENT-6 as the simulator
// produces it): with a write-behind host the tool/call is appended, not yet durable.
func TestCrashInsideWriteWindowLosesTheLastEvents(t *testing.T) {
	cfg := Config{Clients: oneClient(), Steps: []Step{
		{At: 100, Host: wire.Send{Session: "s1", Target: "next-turn", Text: "go"}},
		{At: 1000, Fault: &Fault{Kind: FaultCrash, Point: PointInsideWriteWindow}},
		{At: 1000, Host: wire.ToolCall{Session: "s1", CallID: "q1", Name: "ask", Args: `{"ms":5000}`}},
	}}
	cfg.Model.AutoEndMs = -1
	tr, _, _ := runFake(t, cfg, 200, nil)
	if first(tr, "t=1000 sim fault crash point=inside-write-window cut=2/2") < 0 {
		t.Fatalf("no cut at the end of the window's Apply\n%s", tr.Text())
	}
	log := strings.Join(logOf(tr, "s1"), "\n")
	if strings.Contains(log, "tool/call") {
		t.Fatalf("the unpersisted tool/call survived:\n%s", log)
	}
	// with a persist-at-once host the cut lands before the Persisted effect
	tr, _, _ = runFake(t, cfg, 0, nil)
	if first(tr, "t=1000 sim fault crash point=inside-write-window cut=2/3") < 0 {
		t.Fatalf("no cut before the Persisted\n%s", tr.Text())
	}
}

func TestCrashAroundPTCDispatch(t *testing.T) {
	run := func(point string, window int64) *trace.Trace {
		cfg := Config{Clients: oneClient(), Steps: []Step{
			{At: 100, Host: wire.Send{Session: "s1", Target: "next-turn", Text: "go"}},
			{At: 100, Fault: &Fault{Kind: FaultCrash, Point: point}},
			{At: 100, Host: wire.ToolCall{Session: "s1", CallID: "rc", Name: "run_code", Args: `{"calls":[{}]}`}},
		}}
		cfg.Model.AutoEndMs = -1
		tr, _, _ := runFake(t, cfg, window, nil)
		return tr
	}
	// before: the record never becomes durable
	tr := run(PointBeforePTCDispatch, 0)
	if first(tr, "fault crash point=before-ptc-dispatch cut=4/5") < 0 || strings.Contains(strings.Join(logOf(tr, "s1"), "\n"), "tool/ptc-dispatch ") {
		t.Fatalf("before, persist-at-once\n%s", tr.Text())
	}
	tr = run(PointBeforePTCDispatch, 200)
	if first(tr, "fault crash point=before-ptc-dispatch cut=4/4") < 0 || strings.Contains(strings.Join(logOf(tr, "s1"), "\n"), "tool/ptc-dispatch ") {
		t.Fatalf("before, write-behind\n%s", tr.Text())
	}
	// after: the record is durable; with a write-behind host the cut lands in the flush
	tr = run(PointAfterPTCDispatch, 0)
	if first(tr, "t=100 sim fault crash point=after-ptc-dispatch cut=5/5") < 0 || !strings.Contains(strings.Join(logOf(tr, "s1"), "\n"), "tool/ptc-dispatch ") {
		t.Fatalf("after, persist-at-once\n%s", tr.Text())
	}
	tr = run(PointAfterPTCDispatch, 200)
	if first(tr, "t=300 sim fault crash point=after-ptc-dispatch cut=1/1") < 0 || first(tr, "t=300 host in tick") < 0 ||
		!strings.Contains(strings.Join(logOf(tr, "s1"), "\n"), "tool/ptc-dispatch ") {
		t.Fatalf("after, write-behind\n%s", tr.Text())
	}
}

// Before the ack the client's call dies with the host (a failure reaches it); after the
// ack the client was told, and a host that persists after acknowledging loses the reply.
func TestCrashAroundAnswerAck(t *testing.T) {
	run := func(point string) *trace.Trace {
		cfg := Config{Clients: oneClient(), Steps: []Step{
			{At: 100, Host: wire.Send{Session: "s1", Target: "next-turn", Text: "go"}},
			{At: 150, Fault: &Fault{Kind: FaultCrash, Point: point}},
			{At: 200, Client: "c1", User: &wire.UserAction{Kind: wire.ActReopen, Session: "s1"}},
		}}
		cfg.Model.AutoEndMs = -1
		tr, _, _ := runFake(t, cfg, 0, nil)
		return tr
	}
	tr := run(PointBeforeAnswerAck)
	if first(tr, "t=210 sim fault crash point=before-answer-ack cut=1/3") < 0 ||
		first(tr, `t=220 c1@220 in http rpc=c1-r1 {"ok":false,"error":{"code":"net/failed"`) < 0 {
		t.Fatalf("before\n%s", tr.Text())
	}
	tr = run(PointAfterAnswerAck)
	if first(tr, "t=210 sim fault crash point=after-answer-ack cut=2/3") < 0 ||
		first(tr, `t=220 c1@220 in http rpc=c1-r1 {"ok":true,"value":true}`) < 0 ||
		strings.Contains(strings.Join(logOf(tr, "s1"), "\n"), "agent/inbox/spliced") {
		t.Fatalf("after\n%s", tr.Text())
	}
}

func TestCancelTurnFault(t *testing.T) {
	cfg := Config{Clients: oneClient(), Steps: append(ask(100, "q1", 10_000),
		Step{At: 300, Fault: &Fault{Kind: FaultCancelTurn, Session: "s1"}})}
	tr, _, _ := runFake(t, cfg, 0, nil)
	if first(tr, "t=300 sim fault cancel-turn s1") < 0 || first(tr, "t=300 host in cancel-turn s1") < 0 ||
		first(tr, "t=300 host out send c1.1 cancel ev=e1") < 0 || first(tr, "turn/end turn=1 reason=aborted:user") < 0 {
		t.Fatalf("cancel\n%s", tr.Text())
	}
}

// A host that cannot inject storage faults refuses wire.FailInboxWrite: the fault is
// recorded and the refusal with it.
func TestInboxWriteFaultReachesTheHost(t *testing.T) {
	cfg := Config{Clients: oneClient(), Steps: append(ask(100, "q1", 10_000),
		Step{At: 300, Fault: &Fault{Kind: FaultInboxWrite, Session: "s1"}})}
	tr, _, _ := runFake(t, cfg, 0, nil)
	if first(tr, "t=300 sim fault inbox-write-fail s1") < 0 || first(tr, "t=300 host reject fail-inbox-write s1") < 0 {
		t.Fatalf("fault\n%s", tr.Text())
	}
}

func TestRandomFaultsStopWhenHealed(t *testing.T) {
	for seed := uint64(0); seed < 10; seed++ {
		cfg := jitterConfig(seed)
		cfg.Faults = FaultConfig{CrashPerMin: 30, DisconnectPerMin: 30, ReloadPerMin: 30, ClockJumpPerMin: 30,
			PartitionPerMin: 30, LoseHTTPPerMin: 30, DelayHTTPPerMin: 30, ClockDriftPerMin: 30, CancelTurnPerMin: 30, InboxWriteFailPerMin: 30}
		cfg.Healed = 8_000
		tr, _, _ := runFake(t, cfg, 100, map[string]int64{"c1": 400, "c2": 400})
		kinds := map[string]bool{}
		for _, r := range tr.Records {
			if r.Kind != trace.Fault {
				continue
			}
			f := r.Payload.(trace.Injected)
			if !f.Random {
				continue
			}
			kinds[f.Kind] = true
			if r.Time >= cfg.Healed.Ms() {
				t.Fatalf("seed %d: a random fault after the healed time: %s", seed, r)
			}
			if f.Kind == FaultCrash && !f.Armed && f.Of < 0 {
				t.Fatalf("a random crash not inside an Apply: %s", r)
			}
		}
		if len(kinds) < 6 {
			t.Fatalf("seed %d: only %v kinds drawn", seed, kinds)
		}
	}
}

func TestRejectedInputsAreRecorded(t *testing.T) {
	cfg := Config{Clients: oneClient(), Steps: []Step{
		{At: 100, Host: wire.ToolCall{Session: "nope", CallID: "q1", Name: "ask"}},
		{At: 100, Client: "c1", User: &wire.UserAction{Kind: wire.ActSubmit}},
	}}
	tr, _, _ := runFake(t, cfg, 0, nil)
	if first(tr, `t=100 host reject tool-call nope call=q1 ask  error="no open step in nope"`) < 0 ||
		first(tr, `t=100 c1@100 reject user submit error="no card to submit"`) < 0 {
		t.Fatalf("rejections\n%s", tr.Text())
	}
}

// A host stall holds the host's timers back: the ask's deadline (t=1100) fires only when
// the stall ends (t=2500), or at the first command the host takes before that.
func TestHostStallHoldsTheHostTimersBack(t *testing.T) {
	cfg := Config{Steps: append(ask(100, "q1", 1_000), Step{At: 500, Fault: &Fault{Kind: FaultHostStall, ByMs: 2000}})}
	tr, _, _ := runFake(t, cfg, 0, nil)
	if first(tr, "t=500 sim fault host-stall by=2000") < 0 || first(tr, "t=2500 host in tick") < 0 || first(tr, "t=1100 host in tick") >= 0 {
		t.Fatalf("stall\n%s", tr.Text())
	}
	cfg.Steps = append(cfg.Steps, Step{At: 1800, Host: wire.Tick{}})
	tr, _, _ = runFake(t, cfg, 0, nil)
	if first(tr, "t=1800 host in tick") < 0 || first(tr, "t=2500 host in tick") >= 0 {
		t.Fatalf("a command during the stall\n%s", tr.Text())
	}
}
