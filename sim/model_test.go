package sim

import (
	"strings"
	"testing"

	"github.com/twosettle/twosettle/engine/wire"
	"github.com/twosettle/twosettle/trace"
)

func TestModelAutoEnd(t *testing.T) {
	t.Run("an empty step ends AutoEndMs after it opened", func(t *testing.T) {
		cfg := Config{Steps: []Step{{At: 100, Host: wire.Send{Session: "s1", Target: "next-turn", Text: "go"}}}, Model: ModelConfig{AutoEndMs: 250}}
		tr, _, _ := runFake(t, cfg, 0, nil)
		if first(tr, "t=350 model note auto-end s1 turn=1 step=1") < 0 || first(tr, "t=350 host in end-step s1 final") < 0 {
			t.Fatalf("\n%s", tr.Text())
		}
	})
	t.Run("the model waits for every tool result", func(t *testing.T) {
		cfg := Config{Steps: []Step{
			{At: 100, Host: wire.Send{Session: "s1", Target: "next-turn", Text: "go"}},
			{At: 100, Host: wire.ToolCall{Session: "s1", CallID: "a", Name: "sleep", Args: `{"ms":500}`}},
			{At: 120, Host: wire.ToolCall{Session: "s1", CallID: "b", Name: "sleep", Args: `{"ms":900}`}},
		}, Model: ModelConfig{AutoEndMs: 50}}
		tr, _, _ := runFake(t, cfg, 0, nil)
		if i := first(tr, "auto-end"); i < 0 || tr.Records[i].Time != 1070 {
			t.Fatalf("auto-end should follow the last result (1020) by 50\n%s", tr.Text())
		}
	})
	t.Run("a scripted command at the same instant goes first", func(t *testing.T) {
		cfg := Config{Steps: []Step{
			{At: 100, Host: wire.Send{Session: "s1", Target: "next-turn", Text: "go"}},
			{At: 100, Host: wire.ToolCall{Session: "s1", CallID: "a", Name: "instant"}},
		}, Model: ModelConfig{AutoEndMs: 0}}
		for seed := uint64(0); seed < 16; seed++ {
			cfg.Seed = seed
			tr, _, _ := runFake(t, cfg, 0, nil)
			if first(tr, "tool/call turn=1 step=1 call=a") < 0 || first(tr, "tool/call") > first(tr, "auto-end") {
				t.Fatalf("seed %d: the step ended before the scripted call\n%s", seed, tr.Text())
			}
		}
	})
	t.Run("a scripted end step is not repeated", func(t *testing.T) {
		cfg := Config{Steps: []Step{
			{At: 100, Host: wire.Send{Session: "s1", Target: "next-turn", Text: "go"}},
			{At: 100, Host: wire.ToolCall{Session: "s1", CallID: "a", Name: "sleep", Args: `{"ms":500}`}},
			{At: 200, Host: wire.EndStep{Session: "s1", Final: true}},
		}, Model: ModelConfig{AutoEndMs: 10}}
		tr, _, _ := runFake(t, cfg, 0, nil)
		if first(tr, "auto-end") >= 0 || len(grep(tr, "host out append", "step/end")) != 1 {
			t.Fatalf("\n%s", tr.Text())
		}
	})
	t.Run("a non-final scripted end opens a step the model ends", func(t *testing.T) {
		cfg := Config{Steps: []Step{
			{At: 100, Host: wire.Send{Session: "s1", Target: "next-turn", Text: "go"}},
			{At: 200, Host: wire.EndStep{Session: "s1"}},
		}, Model: ModelConfig{AutoEndMs: 500}}
		tr, _, _ := runFake(t, cfg, 0, nil)
		if first(tr, "t=700 model note auto-end s1 turn=1 step=2") < 0 || first(tr, "turn/end turn=1 reason=completed") < 0 {
			t.Fatalf("\n%s", tr.Text())
		}
	})
	t.Run("never with a negative AutoEndMs", func(t *testing.T) {
		cfg := Config{Steps: []Step{{At: 100, Host: wire.Send{Session: "s1", Target: "next-turn", Text: "go"}}}, Model: ModelConfig{AutoEndMs: -1}}
		tr, _, _ := runFake(t, cfg, 0, nil)
		if first(tr, "end-step") >= 0 {
			t.Fatalf("\n%s", tr.Text())
		}
	})
	t.Run("a restart forgets the open step", func(t *testing.T) {
		cfg := Config{Steps: []Step{
			{At: 100, Host: wire.Send{Session: "s1", Target: "next-turn", Text: "go"}},
			{At: 150, Host: wire.Restart{CutAfter: -1}},
		}, Model: ModelConfig{AutoEndMs: 100}}
		tr, _, _ := runFake(t, cfg, 0, nil)
		if first(tr, "auto-end") >= 0 || first(tr, "host in restart") < 0 {
			t.Fatalf("\n%s", tr.Text())
		}
	})
}

func TestProbeSnapshotsEveryActor(t *testing.T) {
	cfg := Config{Clients: oneClient(), Steps: append(ask(100, "q1", 10_000),
		Step{At: 250, Probe: "asked"},
		Step{At: 260, Fault: &Fault{Kind: FaultCrash}},
		Step{At: 260, Host: wire.Send{Session: "s1", Target: "next-turn", Text: "again"}},
	)}
	cfg.Model.AutoEndMs = -1
	tr, _, _ := runFake(t, cfg, 200, nil)
	i := first(tr, "t=250 sim probe asked")
	if i < 0 {
		t.Fatalf("no probe\n%s", tr.Text())
	}
	snap := tr.Records[i].Payload.(trace.Snapshot)
	if len(snap.Clients) != 1 || len(snap.Clients[0].Cards) != 1 || snap.Clients[0].Cards[0].Key != "e1" {
		t.Fatalf("client snapshot %+v", snap.Clients)
	}
	ss, _ := snap.Host.Session("s1")
	if len(ss.Log) != 3 || ss.Persisted != 0 {
		t.Fatalf("host snapshot log %v persisted %d", ss.Log, ss.Persisted)
	}
	// the crash lost the unpersisted log and the fake host appended new events into the
	// same storage: the snapshot is a copy and still shows what was there at 250
	if got := ss.Log[0].String(); got != "#0 t=100 turn/start turn=1" {
		t.Fatalf("the snapshot changed after the probe: %s", got)
	}
	if final := logOf(tr, "s1"); len(final) == 0 || final[0] != "#0 t=260 turn/start turn=1" {
		t.Fatalf("final log %v", final)
	}
	if !strings.Contains(snap.String(), "asked host{s1{log=3 persisted=0 running") || !strings.Contains(snap.String(), "c1{gen=1 up cards=[card e1") {
		t.Fatalf("snapshot line %s", snap.String())
	}
}

func TestLimitStopsTheRun(t *testing.T) {
	cfg := Config{Clients: oneClient(), Steps: append(ask(100, "q1", 120_000), Step{At: 50_000, Probe: "late"}), Limit: 10_000}
	tr, _, _ := runFake(t, cfg, 0, nil)
	if tr.Final.Time != 10_000 || first(tr, "probe late") >= 0 || first(tr, "tool/result") >= 0 {
		t.Fatalf("final t=%d\n%s", tr.Final.Time, tr.Text())
	}
	cfg.Limit = 0
	tr, _, _ = runFake(t, cfg, 0, nil)
	if tr.Final.Time != 120_105 || first(tr, "t=120100 host out append s1 #3 t=120100 tool/result") < 0 {
		t.Fatalf("to quiescence: final t=%d\n%s", tr.Final.Time, tr.Text())
	}
}

func TestRunawayGuards(t *testing.T) {
	cfg := Config{Clients: oneClient(), Steps: ask(100, "q1", 120_000), MaxRecords: 10}
	h, ports, _ := fakePorts(0, nil, "c1")
	tr, err := Simulate(cfg, h, ports)
	if err == nil || !strings.Contains(err.Error(), "budget of 10 records") || len(tr.Records) != 10 {
		t.Fatalf("budget: %v (%d records)", err, len(tr.Records))
	}
	_, err = Simulate(Config{}, stuckHost{}, nil)
	if err == nil || !strings.Contains(err.Error(), "host timer keeps firing") {
		t.Fatalf("stuck timer: %v", err)
	}
}

// stuckHost arms a timer it never fires.
type stuckHost struct{}

func (stuckHost) Apply(wire.Time, wire.Command) ([]wire.Effect, error) { return nil, nil }
func (stuckHost) NextDeadline() (wire.Time, bool)                      { return 5, true }
func (stuckHost) State() wire.HostState                                { return wire.HostState{} }
