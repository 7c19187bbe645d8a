package explore

import (
	"testing"

	"github.com/twosettle/twosettle/scenarios"
	"pgregory.net/rapid"
)

// rapidRand draws the generator's choices through rapid, so rapid records them and can
// shrink a failing sequence of actions.
type rapidRand struct{ t *rapid.T }

func (r rapidRand) IntN(n int) int {
	if n <= 1 {
		return 0
	}
	return rapid.IntRange(0, n-1).Draw(r.t, "n")
}

// knownFindings are violations the campaign found on the reference engine and reported,
// that the property tolerates until they are fixed (none is open: the oracle's false
// positives of the issue-6 exploration report, INV-CLIENT-EXPIRY, INV-WAIT-EXPIRES-ON-TIME,
// INV-GW-REPLAY and INV-GW-NEXT-ONLY, are fixed). The property checks every invariant
// not named here; add a name only with a reported finding, remove it once it is fixed.
var knownFindings = map[string]bool{}

// scriptMachine builds a scenario action by action with the generator's own actions
// (a model turn with its tool calls and the users' answers, a fault, a direct service
// call, a feature: a fork, a close, an inbox write fault, a steer, a double late answer). After each action
// the script so far must be a valid scenario; after every fourth action, and at the end,
// the script so far (healed and run to its end) must pass the oracle. rapid shrinks a
// failing sequence of actions and their draws.
type scriptMachine struct {
	g      *gen
	now    scenarios.Duration
	r      *Runner
	checks int
}

func (m *scriptMachine) episode(t *rapid.T) {
	m.now = m.g.episode(m.now) + scenarios.Duration(rapid.IntRange(0, 4000).Draw(t, "gap"))
}

func (m *scriptMachine) fault(t *rapid.T) {
	k := rapid.IntRange(0, numFaults-1).Draw(t, "fault")
	m.g.fault(k, m.now+scenarios.Duration(rapid.IntRange(0, 3000).Draw(t, "at")))
}

func (m *scriptMachine) service(t *rapid.T) {
	if e := m.g.service(m.now); e > m.now {
		m.now = e
	}
}

// feature scripts one of the swarm's features (features.go) up to now; the script goes on
// from its last step, so nothing later addresses a fork before it opens.
func (m *scriptMachine) feature(t *rapid.T) {
	var end scenarios.Duration
	switch rapid.IntRange(0, numFeatures-1).Draw(t, "feature") {
	case FeatureFork:
		end = m.g.fork(m.now)
	case FeatureClose:
		end = m.g.closeSession(m.now)
	case FeatureWriteFault:
		end = m.g.writeFault(m.now)
	case FeatureSteer:
		end = m.g.steer(m.now)
	case FeatureDoubleAnswer:
		end = m.g.doubleAnswer(m.now)
	}
	m.now = max(m.now, end)
}

func (m *scriptMachine) check(t *rapid.T) {
	m.checks++
	m.run(t, m.checks%4 == 0)
}

func (m *scriptMachine) run(t *rapid.T, oracle bool) {
	g := *m.g
	g.s = clone(m.g.s)
	h := m.now
	if g.maxEnd > h {
		h = g.maxEnd
	}
	g.heal(h)
	s := g.finish()
	if err := scenarios.Validate(s); err != nil {
		t.Fatalf("the actions built an invalid scenario: %v\n%s", err, scenarios.Encode(s))
	}
	if !oracle {
		return
	}
	out, _ := m.r.Run(s)
	if out.Failed() && !knownFindings[out.Invariant()] {
		t.Fatalf("%s\n%s", out.Message(), scenarios.Encode(s))
	}
}

func TestPropertyScriptedActionsKeepTheOracle(t *testing.T) {
	r := NewRunner(Options{})
	rapid.Check(t, func(t *rapid.T) {
		rr := rapidRand{t}
		m := &scriptMachine{g: newGen(rr, drawSwarm(rr)), r: r}
		m.g.config()
		t.Repeat(map[string]func(*rapid.T){
			"episode": m.episode,
			"fault":   m.fault,
			"service": m.service,
			"feature": m.feature,
			"":        m.check,
		})
		m.run(t, true)
	})
}
