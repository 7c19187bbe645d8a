package explore

import (
	"strconv"
	"strings"

	"github.com/twosettle/twosettle/scenarios"
)

// Fault kinds the swarm switches on and off. Every fault becomes a scripted step of the
// scenario (not a rate the simulator draws from), so the shrinker can delete faults one by
// one and the YAML shows exactly what happened.
const (
	FaultCrash       = iota // host crash at a named point (then a cold restart)
	FaultRestart            // orderly cold restart between commands
	FaultDisconnect         // a client's link drops
	FaultPartition          // a client's links are cut for a while
	FaultDelay              // a client's next HTTP message is delayed
	FaultLose               // a client's next HTTP message is lost
	FaultReload             // a client reloads
	FaultClockJump          // a client's clock jumps
	FaultDrift              // a client's clock drift changes
	FaultClientCrash        // a client is gone for good
	FaultCancel             // the model's turn is cancelled
	numFaults
)

var faultNames = [numFaults]string{"crash", "restart", "disconnect", "partition", "delay", "lose", "reload", "clock-jump", "drift", "client-crash", "cancel"}

// Swarm is the configuration a seed draws before its scenario (swarm testing: each seed
// leaves most features out, so the few it keeps interact more).
type Swarm struct {
	Clients int
	Mode    string // scenarios.ModeTimed or ModeLegacy
	// Timeout is the configured default timeout in seconds; 0 leaves it out (120 s).
	Timeout int64
	// Rates are the faults per simulated minute of each kind (0: off).
	Rates [numFaults]int
	// Points are the crash points a crash fault picks from.
	Points []string
	// AnswerPct is the chance (percent) that a client takes part in answering a question;
	// LatePct that it answers only after the timeout.
	AnswerPct, LatePct int
	// Service: the harness also calls the question service directly.
	Service bool
	// Child: a child Session owned by s1 (DELEGATED_CALLER); Second: a second root.
	Child, Second bool
	// Episodes is how many model turns the scenario drives.
	Episodes int
	// Features are the Session-level steps a seed switches on in a second draw, after the
	// rest of its scenario is drawn (features.go): most seeds leave each off, and a seed
	// with none has the scenario it had before they existed.
	Features [numFeatures]bool
}

// Features: host and model steps the swarm switches on per seed, each emitted as ordinary
// scripted steps (so the shrinker can delete them and the YAML shows them).
const (
	FeatureFork         = iota // {open: fN, fork: S, through: N}, the fork's own turn, its answers to the parent's calls
	FeatureClose               // {close: S} after a question went continued, then a late answer or a prompt resumes S
	FeatureWriteFault          // {fail-inbox-write: S} before a late answer (LATE-5) or a prompt, then a resubmission
	FeatureSteer               // a steer into a running turn, some with a user-question-reply source (NODE-1, PROJ-8)
	FeatureDoubleAnswer        // two late answers for one continued call in quick succession (LATE-2)
	numFeatures
)

var featureNames = [numFeatures]string{"fork", "close", "write-fault", "steer", "double-answer"}

// featurePct is the share of seeds (percent) that switch each feature on.
var featurePct = [numFeatures]int{18, 15, 15, 15, 15}

// drawFeatures draws the features of a seed.
func drawFeatures(r Rand, w *Swarm) {
	for k := range w.Features {
		w.Features[k] = chance(r, featurePct[k])
	}
}

// String is a one-line summary, written in the generated scenario's summary.
func (w Swarm) String() string {
	var b strings.Builder
	b.WriteString(strconv.Itoa(w.Clients))
	b.WriteString(" clients, ")
	b.WriteString(w.Mode)
	var on []string
	for k, r := range w.Rates {
		if r > 0 {
			on = append(on, faultNames[k]+"="+strconv.Itoa(r)+"/min")
		}
	}
	if len(on) == 0 {
		b.WriteString(", no faults")
	} else {
		b.WriteString(", faults ")
		b.WriteString(strings.Join(on, " "))
	}
	var fs []string
	for k, f := range w.Features {
		if f {
			fs = append(fs, featureNames[k])
		}
	}
	if len(fs) > 0 {
		b.WriteString(", features ")
		b.WriteString(strings.Join(fs, " "))
	}
	return b.String()
}

// drawSwarm draws the configuration.
func drawSwarm(r Rand) Swarm {
	var w Swarm
	w.Clients = pick(r, []int{1, 1, 2, 2, 2, 3, 3, 4})
	w.Mode = scenarios.ModeTimed
	if r.IntN(100) < 12 {
		w.Mode = scenarios.ModeLegacy
	}
	switch x := r.IntN(100); {
	case x < 8:
		w.Timeout = 0
	case x < 13:
		w.Timeout = -1
	default:
		w.Timeout = int64(1 + r.IntN(6))
	}
	if r.IntN(100) >= 15 { // 15% of seeds run without any fault
		for k := range w.Rates {
			if r.IntN(100) < 35 {
				w.Rates[k] = pick(r, []int{2, 4, 8, 15, 30})
			}
		}
		w.Rates[FaultClientCrash] /= 2
	}
	for _, p := range scenarios.CrashPoints {
		if r.IntN(2) == 0 {
			w.Points = append(w.Points, p)
		}
	}
	if len(w.Points) == 0 {
		w.Points = []string{pick(r, scenarios.CrashPoints)}
	}
	w.AnswerPct = pick(r, []int{30, 60, 80, 95})
	w.LatePct = pick(r, []int{0, 15, 35, 60})
	w.Service = r.IntN(100) < 15
	w.Child = r.IntN(100) < 20
	w.Second = r.IntN(100) < 10
	w.Episodes = 1 + r.IntN(4)
	return w
}

func pick[T any](r Rand, xs []T) T { return xs[r.IntN(len(xs))] }

// between draws uniformly from [lo, hi].
func between(r Rand, lo, hi int64) int64 {
	if hi <= lo {
		return lo
	}
	return lo + int64(r.IntN(int(hi-lo+1)))
}

func chance(r Rand, pct int) bool { return r.IntN(100) < pct }
