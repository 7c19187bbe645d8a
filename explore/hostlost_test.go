package explore

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/twosettle/twosettle/engine/host"
	"github.com/twosettle/twosettle/engine/wire"
)

// lostAfter is the reference host that is lost at its n-th Apply (an external host that
// crashed mid-run).
type lostAfter struct {
	*host.Host
	n, applies int
	lost       *wire.PortLost
}

func (l *lostAfter) Apply(at wire.Time, cmd wire.Command) ([]wire.Effect, error) {
	l.applies++
	if l.applies >= l.n {
		l.lost = &wire.PortLost{Err: errors.New("the test host crashed")}
		return nil, l.lost
	}
	return l.Host.Apply(at, cmd)
}

func (l *lostAfter) Lost() *wire.PortLost { return l.lost }

// A host lost mid-run is its own failure kind, HOST-LOST: reported with its reason,
// written as generated (a broken run is no verdict to shrink), never a pass.
func TestCampaignReportsALostHostUnshrunk(t *testing.T) {
	dir := t.TempDir()
	lose := func(cfg wire.HostConfig) (wire.HostPort, error) {
		h, err := host.New(host.Config{ToolMode: cfg.ToolMode, DefaultTimeoutSec: cfg.DefaultTimeoutSec, WriteWindowMs: cfg.WriteWindowMs.Ms()})
		if err != nil {
			return nil, err
		}
		return &lostAfter{Host: h, n: 4}, nil
	}
	rep, err := Campaign{Seeds: 5, Workers: 2, Options: Options{Host: lose}, OutDir: dir}.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Failures) != 5 {
		t.Fatalf("%d failures of 5 seeds", len(rep.Failures))
	}
	for _, f := range rep.Failures {
		if f.Invariant != HostLost || !strings.Contains(f.Message, "the test host crashed") || f.ShrunkTo != f.Steps {
			t.Errorf("seed %d: %s %q, %d -> %d steps", f.Seed, f.Invariant, f.Message, f.Steps, f.ShrunkTo)
		}
		if _, err := os.Stat(filepath.Join(dir, filepath.Base(f.File))); f.File == "" || err != nil {
			t.Errorf("seed %d: not written (%q): %v", f.Seed, f.File, err)
		}
	}
}
