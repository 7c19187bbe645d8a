package conform

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/benbjohnson/clock"
)

// steppingMock is the library's mock clock, moved by whoever sleeps on it: the runner's
// pacing then takes no real time and every reading is exact.
type steppingMock struct{ *clock.Mock }

func (m steppingMock) Sleep(d time.Duration) { m.Add(d) }

// clockHost is a host on its own timers, read from clk: it ignores the runner's now and
// takes its time from the clock since its reset. Its wait fires lateMs late.
type clockHost struct {
	clk  clock.Clock
	t0   time.Time
	m    *waitModel
	drop bool // it never reports a closed event
	// endsLast: inside an instant it reports its claim streams' ends last (endsLast)
	endsLast bool
}

func (h *clockHost) WaitStep(s WaitStep) (WaitReply, error) {
	if s.Op == WaitOpReset {
		h.t0 = h.clk.Now()
		return h.m.Step(WaitStep{Op: WaitOpReset}), nil
	}
	s.Now = h.clk.Since(h.t0).Milliseconds()
	rep := h.m.Step(s)
	if h.endsLast {
		endsLastOrder(rep.Events)
	}
	if h.drop {
		var kept []WaitEvent
		for _, e := range rep.Events {
			if e.Event != WaitEventClosed {
				kept = append(kept, e)
			}
		}
		rep.Events = kept
	}
	return rep, nil
}

var testTolerance = Tolerance{Early: 5 * time.Millisecond, Late: 50 * time.Millisecond}

func mockRun() (waitRun, *clock.Mock) {
	m := clock.NewMock()
	return waitRun{rt: &testTolerance, clk: steppingMock{m}}, m
}

func TestRealtimePacing(t *testing.T) {
	wr, m := mockRun()
	start := m.Now()
	h := &clockHost{clk: wr.clk, m: newWaitModel(0)}
	var seen []int64
	steps := []WaitStep{{Now: 0, Op: WaitOpCreate, Wait: "w1", TimeoutMs: 60}, {Now: 240, Op: WaitOpAdvance}, {Now: 360, Op: WaitOpAdvance}}
	o := wr.run(stepperFunc(func(s WaitStep) (WaitReply, error) {
		seen = append(seen, m.Now().Sub(start).Milliseconds())
		return h.WaitStep(s)
	}), steps)
	if o.failed || o.lost != nil {
		t.Fatalf("%s", o.message)
	}
	// the reset at 0, then each step at its virtual time on the clock
	if want := []int64{0, 0, 240, 360}; !slicesEqual(seen, want) {
		t.Fatalf("steps sent at %v ms, want %v", seen, want)
	}
}

// oversleeper is a mock clock whose sleeps last over longer than asked.
type oversleeper struct {
	*clock.Mock
	over time.Duration
}

func (m oversleeper) Sleep(d time.Duration) { m.Add(d + m.over) }

type stepperFunc func(WaitStep) (WaitReply, error)

func (f stepperFunc) WaitStep(s WaitStep) (WaitReply, error) { return f(s) }

func slicesEqual(a, b []int64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestRealtimeTolerance(t *testing.T) {
	// grid for early 5ms, late 50ms: as runWaitProfile chooses it
	grid := 2*(testTolerance.Early.Milliseconds()+testTolerance.Late.Milliseconds()) + 10
	expiring := []WaitStep{{Now: 0, Op: WaitOpCreate, Wait: "w1", TimeoutMs: grid + grid/2}, {Now: 3 * grid, Op: WaitOpAdvance}}
	t.Run("WAIT-1 WAIT-8 a host on time passes every generated script with no slack", func(t *testing.T) {
		for seed := uint64(1); seed <= 40; seed++ {
			wr, _ := mockRun()
			o := wr.run(&clockHost{clk: wr.clk, m: newWaitModel(0)}, GenerateWaitScript(seed, grid).Steps)
			if o.failed || o.lost != nil || o.maxSlack != 0 {
				t.Fatalf("seed %d: %s (slack %d)", seed, o.message, o.maxSlack)
			}
		}
	})
	t.Run("CLAIM-3 WAIT-10 a host that reports a claim's end after its wait's closed in one instant passes", func(t *testing.T) {
		reordered := 0
		for seed := uint64(1); seed <= 60; seed++ {
			sc := GenerateWaitScript(seed, grid)
			if reorderedScripts(t, func() interface{ Step(WaitStep) WaitReply } { return endsLast{newWaitModel(0)} }, []WaitScript{sc}) > 0 {
				reordered++
			}
			wr, _ := mockRun()
			o := wr.run(&clockHost{clk: wr.clk, m: newWaitModel(0), endsLast: true}, sc.Steps)
			if o.failed || o.lost != nil || o.maxSlack != 0 {
				t.Fatalf("seed %d: %s (slack %d)", seed, o.message, o.maxSlack)
			}
		}
		if reordered < 5 {
			t.Fatalf("only %d scripts have an end after a closed: the test proves little", reordered)
		}
	})
	t.Run("CLAIM-3 a claim's end that is never reported fails and judges CLAIM-3", func(t *testing.T) {
		wr, _ := mockRun()
		ref := newWaitModel(0)
		h := stepperFunc(func(s WaitStep) (WaitReply, error) {
			rep := ref.Step(s)
			if s.Op == WaitOpClose {
				rep.Events = slices.DeleteFunc(rep.Events, func(e WaitEvent) bool { return e.Event == WaitEventEnd })
			}
			return rep, nil
		})
		steps := []WaitStep{{Now: 0, Op: WaitOpCreate, Wait: "w1", TimeoutMs: 10 * grid}, {Now: 0, Op: WaitOpAttach, Claim: "k", Wait: "w1"}, {Now: 0, Op: WaitOpPull, Claim: "k"},
			{Now: grid, Op: WaitOpClose, Wait: "w1", Reason: "ASK_ABORTED"}, {Now: 3 * grid, Op: WaitOpAdvance}}
		o := wr.run(h, steps)
		if !o.failed || !strings.Contains(o.message, `{"event":"end","claim":"k","at":120}, due at 120 (virtual 120), was not reported`) || !slices.Equal(o.ids, []string{"CLAIM-3"}) ||
			!strings.HasSuffix(o.message, "; this comparison judges CLAIM-3") {
			t.Fatalf("failed %v: %s (judges %v)", o.failed, o.message, o.ids)
		}
	})
	t.Run("WAIT-1 a deadline 30ms late is within a 50ms tolerance and its slack is reported", func(t *testing.T) {
		wr, _ := mockRun()
		o := wr.run(&clockHost{clk: wr.clk, m: lateModel(30)}, expiring)
		if o.failed || o.maxSlack != 30 {
			t.Fatalf("failed %v (%s), slack %d, want a pass with slack 30", o.failed, o.message, o.maxSlack)
		}
	})
	t.Run("WAIT-1 a deadline 80ms late fails and says how much slack it saw", func(t *testing.T) {
		wr, _ := mockRun()
		o := wr.run(&clockHost{clk: wr.clk, m: lateModel(80)}, expiring)
		want := `{"event":"closed","wait":"w1","reason":"ASK_TIMED_OUT","at":260} landed +80ms from its time 180 (virtual 180; tolerance: early 5ms, late 50ms); largest timing slack seen: 80ms`
		if !o.failed || !strings.Contains(o.message, want) || o.maxSlack != 80 || !slices.Equal(o.ids, []string{"WAIT-1", "WAIT-8"}) {
			t.Fatalf("failed %v, slack %d, message %q", o.failed, o.maxSlack, o.message)
		}
	})
	t.Run("WAIT-8 an expiry that is never reported fails once it is overdue", func(t *testing.T) {
		wr, _ := mockRun()
		steps := append(expiring, WaitStep{Now: 4 * grid, Op: WaitOpAdvance})
		o := wr.run(&clockHost{clk: wr.clk, m: newWaitModel(0), drop: true}, steps)
		if !o.failed || !strings.Contains(o.message, `{"event":"closed","wait":"w1","reason":"ASK_TIMED_OUT","at":180}, due at 180 (virtual 180), was not reported by 360, 180ms after it was due`) || o.maxSlack != 180 || !slices.Equal(o.ids, []string{"WAIT-1", "WAIT-8"}) {
			t.Fatalf("failed %v: %s", o.failed, o.message)
		}
	})
	t.Run("a runner that oversleeps past the tolerance gives no verdict", func(t *testing.T) {
		m := clock.NewMock()
		wr := waitRun{rt: &testTolerance, clk: oversleeper{m, 70 * time.Millisecond}}
		o := wr.run(&clockHost{clk: wr.clk, m: newWaitModel(0)}, expiring)
		if o.failed || o.noVerdict == "" || !strings.Contains(o.noVerdict, "70ms after its virtual time") {
			t.Fatalf("failed %v (%s), no verdict %q", o.failed, o.message, o.noVerdict)
		}
	})
	t.Run("WAIT-4 a frame's remainingMs beyond the tolerance fails", func(t *testing.T) {
		wr, _ := mockRun()
		ref := newWaitModel(0)
		h := stepperFunc(func(s WaitStep) (WaitReply, error) {
			rep := ref.Step(s)
			for i := range rep.Events {
				rep.Events[i].RemainingMs += 70
			}
			return rep, nil
		})
		steps := []WaitStep{{Now: 0, Op: WaitOpCreate, Wait: "w1", TimeoutMs: 180}, {Now: 0, Op: WaitOpAttach, Claim: "k", Wait: "w1"}, {Now: 0, Op: WaitOpPull, Claim: "k"}}
		o := wr.run(h, steps)
		if !o.failed || !strings.Contains(o.message, "event 1 differs") || !slices.Equal(o.ids, []string{"WAIT-4"}) {
			t.Fatalf("failed %v: %s", o.failed, o.message)
		}
	})
}

func TestRealtimeRunIsNotReplayableInEveryReport(t *testing.T) {
	defer func(c func() clock.Clock) { realtimeClock = c }(realtimeClock)
	realtimeClock = func() clock.Clock { return steppingMock{clock.NewMock()} }
	var out, errb bytes.Buffer
	code := Main([]string{"--profile", "wait", "--realtime", "--seeds", "2", "--late", "20ms", "--early", "5ms", "--host", testBinary(), "--json", "-"}, nil, &out, &errb, testEnv("refhost"))
	if code != 0 {
		t.Fatalf("exit %d: %s %s", code, out.String(), errb.String())
	}
	var rep struct {
		Replayable bool
		Realtime   *struct{ EarlyMs, LateMs, MaxSlackMs int64 }
		Scenarios  []struct{ Replay string }
	}
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
		t.Fatal(err)
	}
	if rep.Replayable || rep.Realtime == nil || rep.Realtime.LateMs != 20 || rep.Realtime.EarlyMs != 5 || len(rep.Scenarios) != 2 || rep.Scenarios[0].Replay != "" {
		t.Fatalf("JSON: %+v", rep)
	}
	r := &Report{Protocol: Protocol, Host: HostInfo{Name: "h"}, Judged: WaitRequirementIDs,
		Realtime:  &RealtimeInfo{Tolerance: testTolerance, MaxSlackMs: 80},
		Scenarios: []ScenarioResult{{Name: "wait seed 1", Status: StatusFail, Failures: []string{"x landed +80ms", "not replayable (real time); run it again with: conform …"}}}}
	var text, junit bytes.Buffer
	r.WriteText(&text)
	r.WriteJUnit(&junit)
	if !strings.Contains(text.String(), "timing:      real time, NOT REPLAYABLE (tolerance early 5ms, late 50ms; largest slack seen 80ms)") {
		t.Errorf("text:\n%s", text.String())
	}
	if !strings.Contains(junit.String(), `<property name="replayable" value="false">`) || !strings.Contains(junit.String(), "not replayable: tolerance early 5ms, late 50ms; largest slack seen 80ms") {
		t.Errorf("junit:\n%s", junit.String())
	}
}
