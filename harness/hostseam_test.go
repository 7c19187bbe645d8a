package harness

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/twosettle/twosettle/engine/wire"
)

// lostAfterRun is a host whose every Apply succeeds but which reports itself lost when
// asked after the run (an external host whose State or NextDeadline broke the protocol:
// those cannot return an error, so only wire.LostOf tells).
type lostAfterRun struct {
	wire.HostPort
	closes int
}

func (l *lostAfterRun) Lost() *wire.PortLost {
	return &wire.PortLost{Err: errors.New("the state came back malformed")}
}
func (l *lostAfterRun) Close() error { l.closes++; return nil }

// adHocEntry writes the pending-at-deadline scenario and its golden (from a reference
// run) into a temporary directory and returns its entry.
func adHocEntry(t *testing.T) Entry {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "pending-at-deadline.yaml"), []byte(pendingScenario), 0o644); err != nil {
		t.Fatal(err)
	}
	es, err := Load([]string{dir})
	if err != nil || len(es) != 1 {
		t.Fatalf("%v %+v", err, es)
	}
	if g := Update(RunEntry(es[0], DefaultOptions())); g.State != "updated" {
		t.Fatalf("update: %+v", g)
	}
	return es[0]
}

// A run whose host is lost is not compared with the golden, and --update does not write
// the broken run over it; each source of a loss (the factory, an Apply, wire.LostOf after
// the run) sets Result.Lost with a "the host was lost" failure, and the port is closed
// once.
func TestALostHostIsABrokenRunThatWritesNoGolden(t *testing.T) {
	e := adHocEntry(t)
	want, _ := os.ReadFile(e.GoldenPath)
	var closes func() int
	cases := map[string]HostFactory{
		"factory": func(cfg wire.HostConfig) (wire.HostPort, error) {
			h, _ := ReferenceHost("")(cfg)
			c := &countingHost{HostPort: h} // a process started, then lost at its start
			closes = func() int { return c.closes }
			return c, &wire.PortLost{Err: errors.New("the host exited at start")}
		},
		"apply": func(cfg wire.HostConfig) (wire.HostPort, error) {
			h, err := ReferenceHost("")(cfg)
			c := &countingHost{HostPort: h, lose: 2}
			closes = func() int { return c.closes }
			return c, err
		},
		"after the run": func(cfg wire.HostConfig) (wire.HostPort, error) {
			h, err := ReferenceHost("")(cfg)
			l := &lostAfterRun{HostPort: h}
			closes = func() int { return l.closes }
			return l, err
		},
	}
	for name, hosts := range cases {
		t.Run(name, func(t *testing.T) {
			opts := DefaultOptions()
			opts.Host = hosts
			r := RunEntry(e, opts)
			if r.Lost == nil || r.Status() != Failed || r.Invalid != nil {
				t.Fatalf("lost %v, status %s, invalid %v", r.Lost, r.Status(), r.Invalid)
			}
			if len(r.Failures) != 1 || !strings.HasPrefix(r.Failures[0].Msg, "the host was lost: ") {
				t.Fatalf("failures %v", r.Failures)
			}
			if r.Golden.State != "" || r.Trace == nil || r.Trace.Seed != r.Seed {
				t.Fatalf("golden %+v, trace %v: a lost run is compared with no golden", r.Golden, r.Trace)
			}
			if g := Update(r); g.State == "updated" {
				t.Fatalf("update wrote a lost run's golden: %+v", g)
			}
			if got, _ := os.ReadFile(e.GoldenPath); string(got) != string(want) {
				t.Fatal("the golden changed")
			}
			if n := closes(); n != 1 {
				t.Fatalf("closed %d times", n)
			}
		})
	}
}

// TOOL-3: a host that refuses its configuration but returns a port anyway (a process it
// started) has that port closed, once, like every other run's.
func TestAPortReturnedWithARefusalIsClosedOnce(t *testing.T) {
	var c *countingHost
	opts := DefaultOptions()
	opts.Host = func(cfg wire.HostConfig) (wire.HostPort, error) {
		h, _ := ReferenceHost("")(cfg)
		c = &countingHost{HostPort: h}
		return c, errors.New("default timeout 0 is not allowed")
	}
	r := RunEntry(firstLibraryScenario(t), opts)
	if r.HostConfigErr == nil || r.Lost != nil || c.closes != 1 || c.applies != 0 {
		t.Fatalf("config error %v, lost %v, closes %d, applies %d", r.HostConfigErr, r.Lost, c.closes, c.applies)
	}
	if !strings.Contains(string(r.Transcript), "host refused its configuration: default timeout 0 is not allowed") {
		t.Fatalf("the transcript does not record the refusal:\n%s", r.Transcript)
	}
}
