package explore

import (
	"slices"
	"strings"

	"github.com/twosettle/twosettle/scenarios"
)

// GenOptions say which optional parts of the host protocol (docs/PROTOCOL.md, "Features") a
// generated scenario may use. The zero value uses them all: the campaign as it always was,
// seed for seed. A host that lacks a feature gets scenarios that never need it: the
// generator does not draw the steps that would (it does not draw them and throw the
// scenario away), so the same seeds give the same scenarios for the same options.
type GenOptions struct {
	// Lacks lists the features the host does not declare, by their protocol names (ptc,
	// restart, crash-cut, ...; GenFeatures lists those the generator can leave out).
	Lacks []string
}

// Protocol features the generator can leave out (the names of conform's hello features).
const (
	GenPTC         = "ptc"
	GenSleep       = "sleep"
	GenRestart     = "restart"
	GenCrashCut    = "crash-cut"
	GenWriteWindow = "write-window"
	GenFork        = "fork"
	GenDirect      = "direct"
	GenInboxFaults = "inbox-faults"
	GenSource      = "source"
	GenAppendEvent = "append-event"
	// GenIntrospection is not a generator option: the generator draws the same without
	// it, but the situations seen only in a host's wait-notes and volatile state
	// (situationNeeds) cannot be observed, so a campaign cannot count them reached.
	GenIntrospection = "introspection"
)

// genOff is what the generator leaves out without each feature, in GenOptions.Off's
// order.
var genOff = []struct{ feature, what string }{
	{GenPTC, "no run_code"},
	{GenSleep, "no sleep tool calls"},
	{GenRestart, "no crashes or restarts"},
	{GenCrashCut, "crashes only between commands"},
	{GenWriteWindow, "write-through only (write-window: 0s)"},
	{GenFork, "no forks"},
	{GenDirect, "no direct service calls"},
	{GenInboxFaults, "no inbox write faults"},
	{GenSource, "no messages with a source"},
	{GenAppendEvent, "no events appended or replies claimed by hand"},
}

// GenFeatures lists the protocol features the generator can leave out, sorted.
func GenFeatures() []string {
	var out []string
	for _, o := range genOff {
		out = append(out, o.feature)
	}
	slices.Sort(out)
	return out
}

// GenOptionsFor are the options for a host that declares features: every feature of
// GenFeatures it does not declare is left out (and introspection, when it lacks that, is
// noted for the situations it hides).
func GenOptionsFor(features []string) GenOptions {
	var o GenOptions
	for _, f := range append(GenFeatures(), GenIntrospection) {
		if !slices.Contains(features, f) {
			o.Lacks = append(o.Lacks, f)
		}
	}
	return o
}

// Off says what the options leave out and why, one entry per missing feature (nil: every
// option is on), e.g. "no run_code (host lacks ptc)".
func (o GenOptions) Off() []string {
	var out []string
	for _, x := range genOff {
		if slices.Contains(o.Lacks, x.feature) {
			out = append(out, x.what+" (host lacks "+x.feature+")")
		}
	}
	return out
}

// String is the summary line's account of the options: "every option" or what is off.
func (o GenOptions) String() string {
	off := o.Off()
	if len(off) == 0 {
		return "every option"
	}
	return strings.Join(off, ", ")
}

// genFlags is GenOptions as the generator reads it (one bit per feature it may use).
type genFlags struct {
	ptc, sleep, restart, crashCut, writeWindow, fork, direct, inboxFaults, source, appendEvent bool
}

func (o GenOptions) flags() genFlags {
	on := func(f string) bool { return !slices.Contains(o.Lacks, f) }
	return genFlags{ptc: on(GenPTC), sleep: on(GenSleep), restart: on(GenRestart), crashCut: on(GenCrashCut),
		writeWindow: on(GenWriteWindow), fork: on(GenFork), direct: on(GenDirect), inboxFaults: on(GenInboxFaults),
		source: on(GenSource), appendEvent: on(GenAppendEvent)}
}

// GenerateWith is Generate for a host with options o: the same seed and options always give
// the same scenario, and the zero options give Generate's.
func GenerateWith(seed uint64, o GenOptions) *scenarios.Scenario {
	s := generateFrom(SeedRand(seed), o.flags())
	s.Seed = seed
	s.Name = SeedName(seed)
	return s
}

// allFlags: every option on.
var allFlags = GenOptions{}.flags()

// restrictSwarm switches off the swarm's parts a host without the features cannot run. It
// runs after the whole swarm is drawn, so the draws after it are what they are with every
// option on.
func (f genFlags) restrictSwarm(w *Swarm) {
	if !f.restart {
		w.Rates[FaultCrash], w.Rates[FaultRestart] = 0, 0
	}
	if !f.crashCut {
		w.Points = []string{"now"} // a crash between commands: a restart with cutAfter -1
	}
	if !f.direct {
		w.Service = false
	}
}

// restrictFeatures switches off the seed's features the host cannot run.
func (f genFlags) restrictFeatures(w *Swarm) {
	if !f.fork {
		w.Features[FeatureFork] = false
	}
	if !f.inboxFaults {
		w.Features[FeatureWriteFault] = false
	}
}

// callKind maps the draw of a model call's kind (0..99, gen.call) to one the host runs: a
// run_code (60..75) or a sleep (76..85) the host lacks becomes a plain ask.
func (f genFlags) callKind(x int) int {
	if (!f.ptc && x >= 60 && x < 76) || (!f.sleep && x >= 76 && x < 86) {
		return 0
	}
	return x
}
