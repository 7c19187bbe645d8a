package sim

import (
	"errors"
	"testing"

	"github.com/twosettle/twosettle/engine/wire"
	"github.com/twosettle/twosettle/trace"
)

// losingHost is the fake host whose port is lost at its lose-th Apply (an external host
// process that died): that Apply and every later one return a wire.PortLost, the first
// one together with an effect that must not be routed.
type losingHost struct {
	*fakeHost
	lose, applies int
	cause         error
}

func (h *losingHost) Apply(at wire.Time, cmd wire.Command) ([]wire.Effect, error) {
	h.applies++
	if h.applies >= h.lose {
		return []wire.Effect{wire.SendFrame{Client: "c1", Gen: 1, Frame: wire.Ready{}}}, &wire.PortLost{Err: h.cause}
	}
	return h.fakeHost.Apply(at, cmd)
}

// A PortLost from the host's Apply stops the run at once: the command is not recorded as
// a Reject (nor as taken), nothing returned with it is routed, no later command reaches
// the host, and the run's error wraps the PortLost (errors.As finds it, the trace so far
// comes back with it).
func TestHostLostAtItsThirdApplyStopsTheRun(t *testing.T) {
	h, ports, _ := fakePorts(0, map[string]int64{"c1": 1000, "c2": 1000}, "c1", "c2")
	cause := errors.New("the host process exited")
	lh := &losingHost{fakeHost: h, lose: 3, cause: cause}
	cfg := raceConfig(1)
	r := NewRunner()
	tr := &trace.Trace{}
	err := r.Run(&cfg, lh, ports, tr)
	var lost *wire.PortLost
	if !errors.As(err, &lost) || !errors.Is(err, cause) {
		t.Fatalf("run error %v: want one that wraps the PortLost", err)
	}
	if lh.applies != 3 {
		t.Fatalf("the host got %d Applies: the run must stop at the lost 3rd", lh.applies)
	}
	in := 0
	for _, rec := range tr.Records {
		switch {
		case rec.Kind == trace.Reject:
			t.Fatalf("the lost Apply was recorded as a refusal: %s", rec)
		case rec.Actor == trace.ActorHost && rec.Kind == trace.In:
			in++
		}
	}
	if in != 2 || len(tr.Records) == 0 {
		t.Fatalf("%d host commands taken in %d records; want the 2 before the loss\n%s", in, len(tr.Records), tr.Text())
	}
	if last := tr.Records[len(tr.Records)-1]; last.Actor == trace.ActorHost && last.Kind == trace.Out {
		if _, ok := last.Payload.(wire.SendFrame); ok {
			t.Fatalf("an effect returned with the PortLost was routed: %s", last)
		}
	}

	// The same Runner runs the next configuration as if nothing had been lost.
	h2, ports2, _ := fakePorts(0, map[string]int64{"c1": 1000, "c2": 1000}, "c1", "c2")
	if err := r.Run(&cfg, h2, ports2, tr); err != nil {
		t.Fatalf("the run after a lost host: %v", err)
	}
}
