package host

import (
	"strconv"
	"testing"

	"github.com/twosettle/twosettle/engine/mutant"
	"github.com/twosettle/twosettle/engine/questions"
	"github.com/twosettle/twosettle/engine/session"
	"github.com/twosettle/twosettle/engine/wire"
)

// The host-level mutants (engine/mutant): each case observes one rule with the correct
// host and with the mutant on; each mutant flips it, and unrelated mutants do not.

func turnEnded(effs []wire.Effect) bool {
	for _, e := range effs {
		if a, ok := e.(wire.Appended); ok {
			if _, ok := a.Event.Data.(session.TurnEnd); ok {
				return true
			}
		}
	}
	return false
}

func TestMutantsFlipTheirRule(t *testing.T) {
	cases := []struct {
		id      mutant.ID
		rule    string
		observe func(t *testing.T, m string) string
		correct string
	}{
		{mutant.ExpiryAbortsTurn, "WAIT-8 unattended expiry leaves the turn running", func(t *testing.T, m string) string {
			r := timedRun(t, Config{Mutant: m})
			r.do(0, ask("c1", "1"))
			effs := r.do(1000, wire.Tick{})
			res, _, _ := result(effs, "c1")
			return "pending=" + strconv.FormatBool(res.Text == string(questions.PendingText("c1"))) + " turn-ended=" + strconv.FormatBool(turnEnded(effs))
		}, "pending=true turn-ended=false"},
		{mutant.DeliveryIsClaim, "WAIT-3 a delivered but unclaimed wait expires at its deadline", func(t *testing.T, m string) string {
			r := timedRun(t, Config{Mutant: m})
			r.do(0, ask("c1", "1"))
			_, _, ok := result(r.do(1000, wire.Tick{}), "c1")
			return "result-at-deadline=" + strconv.FormatBool(ok)
		}, "result-at-deadline=true"},
		{mutant.AckBeforeFlush, "AGENT-6 an accepted late reply is persisted before the true reply", func(t *testing.T, m string) string {
			r := timedRun(t, Config{Mutant: m, WriteWindowMs: 200})
			r.do(0, ask("c1", "1"))
			r.do(1000, wire.Tick{})
			effs := r.do(1500, answerCall("r1", "c1", batchA))
			env, at := reply(effs, "r1")
			splice, persisted := -1, -1
			for i, e := range effs {
				if a, ok := e.(wire.Appended); ok {
					if _, ok := a.Event.Data.(session.InboxSpliced); ok && splice < 0 {
						splice = a.Event.Seq
					}
				}
				if p, ok := e.(wire.Persisted); ok && p.Session == "s1" && splice >= 0 && p.Through > splice && persisted < 0 {
					persisted = i
				}
			}
			return "reply=" + string(env.Value) + " persisted-first=" + strconv.FormatBool(persisted >= 0 && persisted < at)
		}, "reply=true persisted-first=true"},
	}
	for _, c := range cases {
		t.Run(c.rule+" ("+c.id.String()+")", func(t *testing.T) {
			if got := c.observe(t, ""); got != c.correct {
				t.Fatalf("correct host: %s, want %s", got, c.correct)
			}
			if got := c.observe(t, c.id.String()); got == c.correct {
				t.Fatalf("mutant %s: %s, the same as the correct host", c.id, got)
			}
			if got := c.observe(t, "take-time-ignored,cancel-to-winner"); got != c.correct {
				t.Fatalf("unrelated mutants: %s, want %s", got, c.correct)
			}
		})
	}
}
