package harness

import (
	"github.com/twosettle/twosettle/engine/wire"
	"github.com/twosettle/twosettle/scenarios"
)

// A scenario writes every time as a scenarios.Duration (milliseconds with a unit in YAML);
// the simulator and the ports take virtual time as wire.Time (an instant) and
// wire.Duration (a span). These are the one place where the first becomes the others.

// instant is a scenario's "at" (a duration from the start of the run) as virtual time.
func instant(d scenarios.Duration) wire.Time { return wire.Time(d) }

// span is a scenario's duration (a latency, a skew, a backoff, a fault's length) as a
// span of virtual time.
func span(d scenarios.Duration) wire.Duration { return wire.Duration(d) }
