package explore

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/twosettle/twosettle/engine/wire"
	"github.com/twosettle/twosettle/harness"
	"github.com/twosettle/twosettle/scenarios"
)

// closingHost is a reference host that counts its Close calls and, when lose > 0, is lost
// at its lose-th Apply.
type closingHost struct {
	wire.HostPort
	lose, applies int
	closes        *atomic.Int64
	lost          *wire.PortLost
}

func (h *closingHost) Apply(at wire.Time, cmd wire.Command) ([]wire.Effect, error) {
	h.applies++
	if h.lost != nil || h.lose > 0 && h.applies >= h.lose {
		h.lost = &wire.PortLost{Err: errors.New("the test host process exited")}
		return nil, h.lost
	}
	return h.HostPort.Apply(at, cmd)
}
func (h *closingHost) Lost() *wire.PortLost { return h.lost }
func (h *closingHost) Close() error         { h.closes.Add(1); return nil }

// losingFactory builds closingHosts, lost at their 5th Apply when lose says so for the
// configuration (a host that crashes on some seeds: the configuration is the seed's).
type losingFactory struct {
	built, closes atomic.Int64
	lose          func(wire.HostConfig) bool
}

func (f *losingFactory) hosts(cfg wire.HostConfig) (wire.HostPort, error) {
	f.built.Add(1)
	h, err := harness.ReferenceHost("")(cfg)
	if err != nil {
		return nil, err
	}
	c := &closingHost{HostPort: h, closes: &f.closes}
	if f.lose(cfg) {
		c.lose = 5
	}
	return c, nil
}

// A campaign whose host is lost on some seeds (those drawing the legacy tool mode)
// reports exactly those as HOST-LOST with the loss's reason, runs each of them once (not
// shrunk), writes the generated scenario alone (no transcript to compare a retry with)
// with a replay line naming the same host, passes every other seed, and closes every
// host it built exactly once.
func TestCampaignReportsHostLostOnTheSeedsThatLoseItUnshrunk(t *testing.T) {
	const seeds = 40
	f := &losingFactory{lose: func(c wire.HostConfig) bool { return c.ToolMode == "legacy" }}
	want := map[uint64]bool{}
	for seed := uint64(1); seed <= seeds; seed++ {
		if harness.Compile(Generate(seed), 0).Host.ToolMode == "legacy" {
			want[seed] = true
		}
	}
	if len(want) == 0 || len(want) == seeds {
		t.Fatalf("%d of %d seeds draw legacy: the test needs some of each", len(want), seeds)
	}
	dir := t.TempDir()
	rep, err := Campaign{Seeds: seeds, Workers: 2, OutDir: dir,
		Options: Options{Host: f.hosts, ReplayHost: "'conform refhost'"}}.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Failures) != len(want) {
		t.Fatalf("%d failures, want %d (the seeds drawing legacy): %v", len(rep.Failures), len(want), summary(rep))
	}
	for _, fl := range rep.Failures {
		if !want[fl.Seed] || fl.Invariant != HostLost || !strings.Contains(fl.Message, "the test host process exited") || fl.ShrunkTo != fl.Steps {
			t.Fatalf("seed %d: %s %q, %d -> %d steps", fl.Seed, fl.Invariant, fl.Message, fl.Steps, fl.ShrunkTo)
		}
		if fl.Transcript != "" || fl.WriteErr != "" || fl.Replay != "simrun replay --host 'conform refhost' "+fl.File {
			t.Fatalf("seed %d: transcript %q, write error %q, replay %q", fl.Seed, fl.Transcript, fl.WriteErr, fl.Replay)
		}
		if _, err := os.Stat(filepath.Join(dir, SeedName(fl.Seed)+".golden")); !os.IsNotExist(err) {
			t.Fatalf("seed %d: a transcript was written beside a lost host's scenario", fl.Seed)
		}
		data, err := os.ReadFile(fl.File)
		if err != nil {
			t.Fatal(err)
		}
		s, err := scenarios.Decode(fl.File, data)
		if err != nil || s.Seed != fl.Seed || len(s.Steps) != fl.Steps {
			t.Fatalf("seed %d: the written scenario (%v): seed %d, %d steps", fl.Seed, err, s.Seed, len(s.Steps))
		}
	}
	if b, c := f.built.Load(), f.closes.Load(); b != seeds || c != b {
		t.Fatalf("%d hosts built for %d seeds (a lost seed runs once), %d closed", b, seeds, c)
	}
}

// simrun shrink of a scenario whose host is lost is an error, after one run: shrinking a
// crashed process would keep whatever still crashes it.
func TestShrinkScenarioRefusesALostHost(t *testing.T) {
	f := &losingFactory{lose: func(wire.HostConfig) bool { return true }}
	_, err := ShrinkScenario(Generate(3), Options{Host: f.hosts}, ShrinkBudget{MaxRuns: 50})
	if err == nil || !strings.Contains(err.Error(), "the host was lost") {
		t.Fatalf("err %v", err)
	}
	if n := f.built.Load(); n != 1 {
		t.Fatalf("%d runs: a lost host is not shrunk", n)
	}
}

// A run whose factory cannot reach its host leaves nothing of the runner's previous run
// in its outcome's trace.
func TestALostFactoryLeavesNoStaleTrace(t *testing.T) {
	lostAtStart := false
	r := NewRunner(Options{Host: func(cfg wire.HostConfig) (wire.HostPort, error) {
		if lostAtStart {
			return nil, &wire.PortLost{Err: errors.New("cannot start")}
		}
		return harness.ReferenceHost("")(cfg)
	}})
	if out, _ := r.Run(Generate(1)); out.Failed() || len(out.Trace.Records) == 0 {
		t.Fatalf("the first run: %s, %d records", out.Invariant(), len(out.Trace.Records))
	}
	lostAtStart = true
	out, reached := r.Run(Generate(2))
	if out.Kind != HostLost || len(out.Trace.Records) != 0 || reached != (Reached{}) || out.Trace.Seed != 2 {
		t.Fatalf("%s, %d records, reached %v, seed %d", out.Kind, len(out.Trace.Records), reached, out.Trace.Seed)
	}
}
