package sim

import (
	"errors"
	"testing"

	"github.com/twosettle/twosettle/engine/wire"
	"github.com/twosettle/twosettle/trace"
)

// losingClient is a client port lost at its lose-th Apply (an external client process
// that died): that Apply and every later one return a wire.PortLost, the first one
// together with an effect that must not be routed.
type losingClient struct {
	wire.ClientPort
	lose, applies int
	cause         error
}

func (c *losingClient) Apply(at wire.Time, in wire.ClientInput) ([]wire.ClientEffect, error) {
	c.applies++
	if c.applies >= c.lose {
		return []wire.ClientEffect{wire.Dial{}}, &wire.PortLost{Err: c.cause}
	}
	return c.ClientPort.Apply(at, in)
}

// A PortLost from a client's Apply stops the run as a lost host does: no Reject is
// recorded, nothing returned with it is routed, no port gets anything after it, the run's
// error wraps the PortLost and LostClient names the client.
func TestClientLostAtItsSecondApplyStopsTheRun(t *testing.T) {
	h, ports, _ := fakePorts(0, map[string]int64{"c1": 1000, "c2": 1000}, "c1", "c2")
	cause := errors.New("the client process exited")
	lc := &losingClient{ClientPort: ports["c1"], lose: 2, cause: cause}
	ports["c1"] = lc
	cfg := raceConfig(1)
	tr := &trace.Trace{}
	err := NewRunner().Run(&cfg, h, ports, tr)
	var lost *wire.PortLost
	if !errors.As(err, &lost) || !errors.Is(err, cause) {
		t.Fatalf("run error %v: want one that wraps the PortLost", err)
	}
	if LostClient(err) != "c1" {
		t.Fatalf("LostClient(%v) = %q", err, LostClient(err))
	}
	if lc.applies != 2 {
		t.Fatalf("the client got %d Applies: the run must stop at the lost 2nd", lc.applies)
	}
	for _, rec := range tr.Records {
		if rec.Kind == trace.Reject {
			t.Fatalf("the lost Apply was recorded as a refusal: %s", rec)
		}
	}
	if last := tr.Records[len(tr.Records)-1]; last.Actor == "c1" && last.Kind == trace.Out {
		t.Fatalf("an effect returned with the PortLost was routed: %s", last)
	}
	if LostClient(errors.New("other")) != "" || LostClient(nil) != "" {
		t.Fatal("LostClient names a client of an error that is no client's loss")
	}
}
