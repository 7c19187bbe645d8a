package sim

import (
	"github.com/twosettle/twosettle/engine/wire"
	"github.com/twosettle/twosettle/trace"
)

// Ports builds fresh ports for one run (a host and one client per configured name).
type Ports func() (wire.HostPort, map[string]wire.ClientPort, error)

// DivergenceError reports that two runs of the same configuration differed.
type DivergenceError struct {
	Seed uint64
	At   trace.Divergence
}

func (e *DivergenceError) Error() string {
	return "sim: self-check: seed " + uitoa(e.Seed) + " is not deterministic: " + e.At.String()
}

func uitoa(u uint64) string {
	var b [20]byte
	i := len(b)
	for {
		i--
		b[i] = byte('0' + u%10)
		u /= 10
		if u == 0 {
			break
		}
	}
	return string(b[i:])
}

// SelfCheck runs cfg twice on fresh ports and compares the traces record by record and
// then their final states. It returns the first run's trace, and a *DivergenceError
// naming the first divergent record when the runs differ.
func SelfCheck(cfg Config, ports Ports) (*trace.Trace, error) {
	run := func() (*trace.Trace, error) {
		h, cs, err := ports()
		if err != nil {
			return nil, err
		}
		return Simulate(cfg, h, cs)
	}
	a, errA := run()
	if a == nil {
		return nil, errA
	}
	b, errB := run()
	if b == nil {
		return a, errB
	}
	if d, diff := trace.Diverge(a, b); diff {
		return a, &DivergenceError{Seed: cfg.Seed, At: d}
	}
	if errA != nil {
		return a, errA
	}
	if (errB == nil) != (errA == nil) {
		return a, errB
	}
	return a, nil
}
