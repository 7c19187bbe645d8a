package explore

import (
	"github.com/twosettle/twosettle/engine/host"
	"github.com/twosettle/twosettle/engine/session"
	"github.com/twosettle/twosettle/engine/wire"
)

// droppingHost is the reference host with a planted bug for the campaign's own tests: it
// never reports the tool/result of a sleep call (the Appended effect is dropped, though
// the event is in its log), which the oracle catches (INV-LOG-REPORTED at the end). In
// legacy mode only, so some seeds fail and others pass.
type droppingHost struct {
	*host.Host
	sleeps map[string]bool
	buf    []wire.Effect
}

func newDroppingHost(cfg wire.HostConfig) (wire.HostPort, error) {
	h, err := host.New(host.Config{ToolMode: cfg.ToolMode, DefaultTimeoutSec: cfg.DefaultTimeoutSec, WriteWindowMs: cfg.WriteWindowMs.Ms()})
	if err != nil {
		return nil, err
	}
	if cfg.ToolMode != "legacy" {
		return h, nil
	}
	return &droppingHost{Host: h, sleeps: map[string]bool{}}, nil
}

func (d *droppingHost) Apply(at wire.Time, cmd wire.Command) ([]wire.Effect, error) {
	effs, err := d.Host.Apply(at, cmd)
	d.buf = d.buf[:0]
	for _, e := range effs {
		if a, ok := e.(wire.Appended); ok {
			switch x := a.Event.Data.(type) {
			case session.ToolCall:
				if x.Name == "sleep" {
					d.sleeps[x.CallID] = true
				}
			case session.ToolResult:
				if d.sleeps[x.CallID] {
					continue
				}
			}
		}
		d.buf = append(d.buf, e)
	}
	return d.buf, err
}

var buggy = Options{Host: newDroppingHost}
