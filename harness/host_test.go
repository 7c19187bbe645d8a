package harness

import (
	"errors"
	"strings"
	"testing"

	"github.com/twosettle/twosettle/engine/wire"
	"github.com/twosettle/twosettle/trace"
)

// countingHost wraps a host: it counts Apply calls and Close calls, and can be lost at
// its lose-th Apply.
type countingHost struct {
	wire.HostPort
	applies, closes, lose int
	lost                  *wire.PortLost
}

func (c *countingHost) Apply(at wire.Time, cmd wire.Command) ([]wire.Effect, error) {
	c.applies++
	if c.lost != nil || c.lose > 0 && c.applies >= c.lose {
		c.lost = &wire.PortLost{Err: errors.New("the test host went away")}
		return nil, c.lost
	}
	return c.HostPort.Apply(at, cmd)
}
func (c *countingHost) Close() error         { c.closes++; return nil }
func (c *countingHost) Lost() *wire.PortLost { return c.lost }

func firstLibraryScenario(t *testing.T) Entry {
	t.Helper()
	for _, e := range Library("") {
		if strings.Contains(e.Path, "ask-no-provider.yaml") {
			return e
		}
	}
	t.Fatal("no ask-no-provider in the library")
	return Entry{}
}

func TestHostFactoryIsTheOneRunPath(t *testing.T) {
	e := firstLibraryScenario(t)
	ref := RunEntry(e, DefaultOptions())
	t.Run("a custom factory runs the scenario and is closed once", func(t *testing.T) {
		var hosts []*countingHost
		opts := DefaultOptions()
		opts.Host = func(cfg wire.HostConfig) (wire.HostPort, error) {
			h, err := ReferenceHost("")(cfg)
			c := &countingHost{HostPort: h}
			hosts = append(hosts, c)
			return c, err
		}
		r := RunEntry(e, opts)
		if r.Status() != Passed || string(r.Transcript) != string(ref.Transcript) {
			t.Fatalf("status %s; transcript same as the reference: %v", r.Status(), string(r.Transcript) == string(ref.Transcript))
		}
		if len(hosts) != 1 || hosts[0].applies == 0 || hosts[0].closes != 1 {
			t.Fatalf("hosts %d, applies %d, closes %d", len(hosts), hosts[0].applies, hosts[0].closes)
		}
	})
	t.Run("a host lost mid-run is a broken run, closed once, never a pass", func(t *testing.T) {
		var c *countingHost
		opts := DefaultOptions()
		opts.Host = func(cfg wire.HostConfig) (wire.HostPort, error) {
			h, err := ReferenceHost("")(cfg)
			c = &countingHost{HostPort: h, lose: 3}
			return c, err
		}
		r := RunEntry(e, opts)
		if r.Lost == nil || r.Status() == Passed || c.closes != 1 || c.applies != 3 {
			t.Fatalf("lost %v, status %s, closes %d, applies %d (the run must stop at the lost Apply)", r.Lost, r.Status(), c.closes, c.applies)
		}
		for _, rec := range r.Trace.Records {
			if rec.Kind == trace.Reject {
				t.Fatalf("a lost host's error was recorded as a refusal: %s", rec)
			}
		}
	})
	t.Run("a factory that cannot reach its host is a broken run", func(t *testing.T) {
		opts := DefaultOptions()
		opts.Host = func(wire.HostConfig) (wire.HostPort, error) {
			return nil, &wire.PortLost{Err: errors.New("no such host")}
		}
		r := RunEntry(e, opts)
		if r.Lost == nil || r.Status() == Passed || r.HostConfigErr != nil {
			t.Fatalf("lost %v, status %s, config error %v", r.Lost, r.Status(), r.HostConfigErr)
		}
	})
	t.Run("TOOL-3 a factory's plain error is the host refusing its configuration", func(t *testing.T) {
		opts := DefaultOptions()
		opts.Host = func(wire.HostConfig) (wire.HostPort, error) { return nil, errors.New("bad default timeout") }
		r := RunEntry(e, opts)
		if r.Lost != nil || r.HostConfigErr == nil {
			t.Fatalf("lost %v, config error %v", r.Lost, r.HostConfigErr)
		}
	})
}
