package conform

import (
	"bufio"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/benbjohnson/clock"
	"github.com/twosettle/twosettle/engine/host"
	"github.com/twosettle/twosettle/engine/wire"
	"github.com/twosettle/twosettle/harness"
	"github.com/twosettle/twosettle/scenarios"
)

// Real-time mode of the host profile, on the library's mock clock: the runner paces on
// it and the host under test (timersHost, what conform refhost --real-timers serves) reads
// it, so every run is exact and repeatable.

// timersFactory builds timersHosts over the reference engine (with mutant) on clk;
// tweak, if given, breaks each one.
func timersFactory(clk clock.Clock, mutant string, tweak func(*timersHost)) harness.HostFactory {
	return func(cfg wire.HostConfig) (wire.HostPort, error) {
		h, err := host.New(host.Config{ToolMode: cfg.ToolMode, DefaultTimeoutSec: cfg.DefaultTimeoutSec, DefaultTimeoutSet: cfg.DefaultTimeoutSet, WriteWindowMs: cfg.WriteWindowMs.Ms(), Mutant: mutant})
		if err != nil {
			return nil, err
		}
		th := newTimersHost(h, clk)
		if tweak != nil {
			tweak(th)
		}
		return th, nil
	}
}

// realtimeRun runs s in real time against hosts on clk.
func realtimeRun(s *scenarios.Scenario, hosts harness.HostFactory, clk clock.Clock, tol Tolerance) Run {
	rerun := func(s *scenarios.Scenario, path string) string { return "rerun " + s.Name }
	return RunScenario(s, "", Options{Info: HostInfo{Name: "timers", Features: KnownFeatures()}, Command: "timers", hosts: hosts,
		Realtime: &RealtimeOptions{Tolerance: tol, Clock: clk, Rerun: rerun}})
}

var (
	suitedOnce sync.Once
	suited     []*scenarios.Scenario
)

// suitedScenarios are the first generated scenarios suited to real time at the test
// tolerance. Each test gets its own copies (a run does not change them, but tests run in
// parallel with others).
func suitedScenarios(t *testing.T, n int) []*scenarios.Scenario {
	t.Helper()
	suitedOnce.Do(func() { suited, _ = RealtimeSeeds(1, 4, 2000, testTolerance, DefaultRealtimeBudget, nil) })
	if len(suited) < n {
		t.Fatalf("only %d generated scenarios are suited to real time", len(suited))
	}
	return suited[:n]
}

func TestRealtimeHostOnItsOwnTimers(t *testing.T) {
	for _, s := range suitedScenarios(t, 4) {
		t.Run(s.Name+" a host on its own timers runs as the reference does", func(t *testing.T) {
			clk := steppingMock{clock.NewMock()}
			r := realtimeRun(s, timersFactory(clk, "", nil), clk, testTolerance)
			if r.Result.Status != StatusPass {
				t.Fatalf("status %s: %s %v\n%s", r.Result.Status, r.Result.Lost, r.Result.Failures, r.Result.Divergence)
			}
			if r.MaxSlackMs != 0 {
				t.Errorf("largest slack %dms on a clock both sides read exactly, want 0", r.MaxSlackMs)
			}
			if r.Result.Replay != "" {
				t.Errorf("a real-time run has a replay command: %s", r.Result.Replay)
			}
		})
	}
}

func TestRealtimeHostTimingFailures(t *testing.T) {
	s := suitedScenarios(t, 1)[0]
	cases := []struct {
		name  string
		tweak func(*timersHost)
		want  []string
	}{
		{"a host whose clock reads 80ms ahead lands its times late", func(h *timersHost) { h.t0 = h.t0.Add(-80 * time.Millisecond) },
			[]string{"timing: step ", "+80ms from the reference's", "largest timing slack seen: 80ms", "not replayable (real time); run it again with: rerun " + s.Name}},
		{"a host whose timers fire 80ms late has not fired them at the tick", func(h *timersHost) { h.lateMs = 80 },
			[]string{"had not all fired 50ms after it (tolerance: early 5ms, late 50ms)", "the run's observable behaviour differs from the reference engine's"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			clk := steppingMock{clock.NewMock()}
			r := realtimeRun(s, timersFactory(clk, "", c.tweak), clk, testTolerance)
			if r.Result.Status != StatusFail {
				t.Fatalf("status %s (%s), want a failure", r.Result.Status, r.Result.Lost)
			}
			all := strings.Join(r.Result.Failures, "\n")
			for _, w := range c.want {
				if !strings.Contains(all, w) {
					t.Errorf("the failures do not say %q:\n%s", w, all)
				}
			}
		})
	}
	t.Run("a host 30ms ahead stays within the tolerance: passes, and the slack is reported", func(t *testing.T) {
		clk := steppingMock{clock.NewMock()}
		r := realtimeRun(s, timersFactory(clk, "", func(h *timersHost) { h.t0 = h.t0.Add(-30 * time.Millisecond) }), clk, testTolerance)
		if r.Result.Status != StatusPass || r.MaxSlackMs != 30 {
			t.Fatalf("status %s, slack %dms, want a pass with 30ms: %v\n%s", r.Result.Status, r.MaxSlackMs, r.Result.Failures, r.Result.Divergence)
		}
	})
}

func TestRealtimeHostMutantIsCaught(t *testing.T) {
	// WAIT-4: a claim's frame is the full timeout instead of what remains. On real timers
	// the remainingMs it reports is farther from the reference's than the tolerance.
	for _, s := range suitedScenarios(t, 1) {
		clk := steppingMock{clock.NewMock()}
		r := realtimeRun(s, timersFactory(clk, "claim-frame-full-timeout", nil), clk, testTolerance)
		if r.Result.Status != StatusFail || !strings.Contains(strings.Join(r.Result.Failures, "\n"), "the remaining time of wait") {
			t.Fatalf("WAIT-4 mutant: status %s: %v", r.Result.Status, r.Result.Failures)
		}
	}
}

func TestRealtimeHostNoVerdict(t *testing.T) {
	s := suitedScenarios(t, 1)[0]
	t.Run("a runner that oversleeps gives no verdict, never a failure", func(t *testing.T) {
		m := clock.NewMock()
		clk := oversleeper{m, 60 * time.Millisecond}
		r := realtimeRun(s, timersFactory(clk, "", nil), clk, testTolerance)
		if r.Result.Status != StatusBroken || !strings.Contains(r.Result.Lost, "no verdict: the runner sent step ") || !strings.Contains(r.Result.Lost, "60ms after its time") {
			t.Fatalf("status %s: %q", r.Result.Status, r.Result.Lost)
		}
	})
	t.Run("a step within the tolerance before a host timer gives no verdict", func(t *testing.T) {
		wide := Tolerance{Early: 5 * time.Millisecond, Late: 5 * time.Second}
		why := RealtimeScreen(s, wide, 0)
		if !strings.Contains(why, "before a host timer due at") {
			t.Fatalf("the screen says %q, want a step too close to a timer", why)
		}
		clk := steppingMock{clock.NewMock()}
		r := realtimeRun(s, timersFactory(clk, "", nil), clk, wide)
		if r.Result.Status != StatusBroken || !strings.Contains(r.Result.Lost, "no verdict: step ") || !strings.Contains(r.Result.Lost, "whether it is applied before the timer fires depends on the machine") {
			t.Fatalf("status %s: %q", r.Result.Status, r.Result.Lost)
		}
	})
}

func TestRealtimeScreen(t *testing.T) {
	s := suitedScenarios(t, 1)[0]
	if why := RealtimeScreen(s, testTolerance, time.Millisecond); !strings.Contains(why, "more than the budget (1ms)") {
		t.Errorf("a 1ms budget: the screen says %q", why)
	}
	if why := RealtimeScreen(s, testTolerance, DefaultRealtimeBudget); why != "" {
		t.Errorf("a suited scenario is screened out: %s", why)
	}
}

func TestRefhostRealTimersIgnoresNow(t *testing.T) {
	// conform refhost --real-timers: the times it reports are its clock's since its start,
	// whatever "now" the runner sends, and it serves the host profile only.
	m := clock.NewMock()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan error, 1)
	go func() { done <- ServeRealTimers(inR, outW, "", "test", m); outW.Close() }()
	replies := bufio.NewReader(outR)
	ask := func(line string) string {
		t.Helper()
		if _, err := io.WriteString(inW, line+"\n"); err != nil {
			t.Fatal(err)
		}
		got, err := replies.ReadString('\n')
		if err != nil {
			t.Fatal(err)
		}
		return got
	}
	ask(`{"type":"hello","protocol":"twosettle-conform/1","runner":"test"}`)
	ask(`{"type":"start","n":1,"config":{"toolMode":"timed"}}`)
	m.Add(250 * time.Millisecond)
	got := ask(`{"type":"apply","n":2,"now":999999,"command":{"kind":"open-session","session":"s1"}}`)
	got = ask(`{"type":"apply","n":3,"now":5,"command":{"kind":"send","session":"s1","target":"next-turn","text":"hi"}}`)
	if !strings.Contains(got, `"time":250`) || strings.Contains(got, `"time":5,`) || strings.Contains(got, "999999") {
		t.Errorf("the events are not at the host's own time (250):\n%s", got)
	}
	io.WriteString(inW, `{"type":"bye"}`+"\n")
	if err := <-done; err != nil {
		t.Fatal(err)
	}

	var out strings.Builder
	err := ServeRealTimers(strings.NewReader(`{"type":"hello","protocol":"twosettle-conform/1","runner":"test","profile":"wait"}`+"\n"), &out, "", "test", m)
	if err == nil || !strings.Contains(err.Error(), "--real-timers serves the host profile only") {
		t.Errorf("the wait profile on real timers: %v", err)
	}
}

func TestRealtimeHostLibrary(t *testing.T) {
	// Every library scenario short enough for real time runs on its own timers as it does
	// on the runner's time: the snapping, the ticks sent late and the order of the steps
	// of one instant leave nothing for the comparison or the oracle to find.
	ran := 0
	for _, e := range harness.Library("") {
		s, err := scenarios.Decode(e.Path, e.Data)
		if err != nil {
			t.Fatal(err)
		}
		if RealtimeLength(s) > DefaultRealtimeBudget {
			continue
		}
		ran++
		clk := steppingMock{clock.NewMock()}
		r := realtimeRun(s, timersFactory(clk, "", nil), clk, testTolerance)
		if r.Result.Status != StatusPass {
			t.Errorf("%s: status %s: %s %v\n%s", s.Name, r.Result.Status, r.Result.Lost, r.Result.Failures, r.Result.Divergence)
		}
	}
	if ran < 50 {
		t.Errorf("only %d library scenarios are short enough for real time", ran)
	}
}

func TestRealtimeSeedsFitTheHostsFeatures(t *testing.T) {
	// A host gets generated scenarios it can run, not ones it could only report not
	// applicable: here a host whose one feature is the write-behind window.
	feats := []string{FeatureWriteWindow}
	got, screened := RealtimeSeeds(1, 2, 5000, testTolerance, DefaultRealtimeBudget, feats)
	if len(got) < 2 {
		t.Fatalf("%d scenarios for a host with only %v (%d screened out)", len(got), feats, screened)
	}
	for _, s := range got {
		plan := harness.Compile(s, 0)
		if miss := missing(Needs(&plan.Sim, plan.Host), feats); len(miss) > 0 {
			t.Errorf("%s needs %v", s.Name, miss)
		}
	}
	first := suitedScenarios(t, 1)[0]
	plan := harness.Compile(first, 0)
	if len(missing(Needs(&plan.Sim, plan.Host), feats)) == 0 || got[0].Name == first.Name {
		t.Errorf("the first suited scenario (%s) needs only %v: the test shows no filtering", first.Name, feats)
	}
}
