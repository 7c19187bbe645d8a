package sim

import (
	"bytes"
	"math/rand/v2"
	"testing"

	"github.com/twosettle/twosettle/trace"
)

// streamChooser picks from the schedule stream of seed, as the runner does without a
// Chooser, and injects nothing; it counts its calls and keeps every state text.
type streamChooser struct {
	r       *rand.Rand
	runner  *Runner
	befores int
	states  map[string]bool
}

func (c *streamChooser) Before(now int64, n int) (*Step, bool) {
	c.befores++
	var b bytes.Buffer
	c.runner.WriteState(&b)
	c.states[b.String()] = true
	return nil, true
}
func (c *streamChooser) Pick(n int) int { return c.r.IntN(n) }

// A Chooser that takes the same picks as the schedule stream reproduces the run record
// for record (the explorer's replays rest on it, and on its Before seeing every event).
func TestChooserWithTheStreamsPicksIsTheSameRun(t *testing.T) {
	for seed := uint64(0); seed < 20; seed++ {
		want := runJitter(t, seed)
		cfg := jitterConfig(seed)
		names := []string{}
		for _, c := range cfg.Clients {
			names = append(names, c.Name)
		}
		h, ports, _ := fakePorts(100, map[string]int64{"c1": 400, "c2": 400}, names...)
		r := NewRunner()
		a, b := streamSeed(seed, StreamSchedule)
		ch := &streamChooser{r: rand.New(rand.NewPCG(a, b)), runner: r, states: map[string]bool{}}
		r.Chooser = ch
		got := &trace.Trace{}
		if err := r.Run(&cfg, h, ports, got); err != nil {
			t.Fatal(err)
		}
		if d, diff := trace.Diverge(want, got); diff {
			t.Fatalf("seed %d: %s", seed, d)
		}
		if ch.befores == 0 || len(ch.states) < 2 {
			t.Fatalf("seed %d: Before called %d times, %d states", seed, ch.befores, len(ch.states))
		}
	}
}

// stopChooser stops the run at its first Before.
type stopChooser struct{}

func (stopChooser) Before(int64, int) (*Step, bool) { return nil, false }
func (stopChooser) Pick(int) int                    { return 0 }

func TestChooserStopsTheRun(t *testing.T) {
	cfg := jitterConfig(1)
	h, ports, _ := fakePorts(100, map[string]int64{"c1": 400, "c2": 400}, "c1", "c2")
	r := NewRunner()
	r.Chooser = stopChooser{}
	tr := &trace.Trace{}
	if err := r.Run(&cfg, h, ports, tr); err != nil {
		t.Fatal(err)
	}
	if !r.Stopped() {
		t.Fatal("the run was not stopped")
	}
}
