package gateway

import (
	"strconv"
	"strings"
	"testing"

	"github.com/twosettle/twosettle/engine/mutant"
	"github.com/twosettle/twosettle/engine/wire"
)

// The mutants of this package (engine/mutant): each case observes one rule with the
// correct gateway (the zero set) and with the mutant on; each mutant flips it.

func mutantHarness(t *testing.T, s mutant.Set) *harness {
	h := newHarness(t)
	h.g = New(Config{Emit: func(e wire.Effect) { h.effects = append(h.effects, e) }, Mutants: s})
	return h
}

func TestMutantsFlipTheirRule(t *testing.T) {
	cases := []struct {
		id      mutant.ID
		rule    string
		observe func(h *harness) string
		correct string
	}{
		{mutant.DisconnectIsNext, "GW-6 a disconnect is not a next: the request stays pending", func(h *harness) string {
			h.connect("a")
			id := h.forward("ev", nil)
			if err := h.g.Disconnect("a"); err != nil {
				return err.Error()
			}
			return "settled=" + strings.Repeat("x", len(h.settled[id])) + " pending=" + strconv.Itoa(len(h.g.pending))
		}, "settled= pending=1"},
		{mutant.ReplayNewEventID, "GW-5 a replay keeps the original event id", func(h *harness) string {
			id := h.forward("ev", nil)
			h.take()
			h.connect("a")
			return strings.Join(h.take(), "; ") + " (event " + id + ")"
		}, ""},
		{mutant.CancelToWinner, "GW-1 the winner gets no cancel", func(h *harness) string {
			ga, gb := h.connect("a"), h.connect("b")
			id := h.forward("ev", nil)
			h.take()
			h.g.Result("a", ga, "r1", id, result(`{"v":1}`))
			_ = gb
			var cancels []string
			for _, l := range h.take() {
				if strings.Contains(l, "cancel") {
					cancels = append(cancels, l)
				}
			}
			return strings.Join(cancels, "; ")
		}, ""},
	}
	// correct "" means the correct text is checked by the switch below.
	for _, c := range cases {
		t.Run(c.rule+" ("+c.id.String()+")", func(t *testing.T) {
			correct := c.observe(mutantHarness(t, 0))
			if c.correct != "" && correct != c.correct {
				t.Fatalf("correct gateway: %q, want %q", correct, c.correct)
			}
			switch c.id {
			case mutant.ReplayNewEventID:
				if !strings.Contains(correct, "ev=e1") {
					t.Fatalf("correct replay %q does not keep e1", correct)
				}
			case mutant.CancelToWinner:
				if strings.Contains(correct, "a.1") || !strings.Contains(correct, "b.1") {
					t.Fatalf("correct cancels %q: want b's only", correct)
				}
			}
			if got := c.observe(mutantHarness(t, mutant.Of(c.id))); got == correct {
				t.Fatalf("mutant %s: %q, the same as the correct gateway", c.id, got)
			}
			if got := c.observe(mutantHarness(t, mutant.Of(mutant.LegacyTracked, mutant.TakeTimeIgnored))); got != correct {
				t.Fatalf("unrelated mutants: %q, want %q", got, correct)
			}
		})
	}
}
