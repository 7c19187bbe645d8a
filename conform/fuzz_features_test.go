package conform

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/twosettle/twosettle/scenarios"

	"github.com/twosettle/twosettle/engine/wire"
	"github.com/twosettle/twosettle/explore"
	"github.com/twosettle/twosettle/harness"
	"github.com/twosettle/twosettle/sim"
)

// featureFilter makes a host one that declares only features, as such a host would be
// seen: without write-window it is write-through (it refuses a configuration with a
// write-behind window), without introspection it sends no wait-notes and shows no
// volatile state, and every command that needs a feature it lacks is noted (the fuzzer
// must never send one).
type featureFilter struct {
	features []string
	mu       sync.Mutex
	sent     []string // commands that needed a missing feature
}

func (f *featureFilter) factory(inner harness.HostFactory) harness.HostFactory {
	return func(cfg wire.HostConfig) (wire.HostPort, error) {
		if cfg.WriteWindowMs != -1 && !has(f.features, FeatureWriteWindow) {
			return nil, fmt.Errorf("a write-through host: writeWindowMs %d", cfg.WriteWindowMs)
		}
		h, err := inner(cfg)
		if err != nil {
			return h, err
		}
		return &filteredHost{HostPort: h, f: f, intro: has(f.features, FeatureIntrospection)}, nil
	}
}

type filteredHost struct {
	wire.HostPort
	f     *featureFilter
	intro bool
	effs  []wire.Effect
	notes []bool // which of the last apply's effects were wait-notes the filter left out
}

func (h *filteredHost) Apply(at wire.Time, cmd wire.Command) ([]wire.Effect, error) {
	if miss := missing(Needs(&sim.Config{Steps: []sim.Step{{Host: cmd}}}, wire.HostConfig{WriteWindowMs: -1}), h.f.features); len(miss) > 0 {
		h.f.mu.Lock()
		h.f.sent = append(h.f.sent, fmt.Sprintf("%s needs %v", cmd, miss))
		h.f.mu.Unlock()
	}
	if r, ok := cmd.(wire.Restart); ok && r.CutAfter >= 0 && !h.intro {
		// The cut counts the effects the host reported: the inner host counts its
		// wait-notes too.
		k, seen := 0, 0
		for k < len(h.notes) && seen < r.CutAfter {
			if !h.notes[k] {
				seen++
			}
			k++
		}
		r.CutAfter = k
		cmd = r
	}
	effs, err := h.HostPort.Apply(at, cmd)
	if h.intro {
		return effs, err
	}
	h.effs, h.notes = h.effs[:0], h.notes[:0]
	for _, e := range effs {
		_, note := e.(wire.WaitNote)
		h.notes = append(h.notes, note)
		if !note {
			h.effs = append(h.effs, e)
		}
	}
	return h.effs, err
}

func (h *filteredHost) State() wire.HostState {
	s := h.HostPort.State()
	if !h.intro {
		s.Waits, s.Reservations, s.Pending, s.Clients = nil, nil, nil, nil
	}
	return s
}

// fuzzFiltered runs a campaign of seeds 1..n against the reference host (mutant "" or a
// named bug) behind a filter declaring features, as conform fuzz runs one: the generator
// options and the unchecked invariants from the features (FuzzGen).
func fuzzFiltered(t *testing.T, features []string, mutant string, n uint64, stopAtFirst bool) (*explore.Report, *featureFilter, []string) {
	t.Helper()
	f := &featureFilter{features: features}
	gen, skip := FuzzGen(RoleHost, features)
	c := explore.Campaign{Seeds: n, Workers: 2, Gen: gen, NoShrink: true, StopAtFirst: stopAtFirst,
		Options: explore.Options{Host: f.factory(harness.ReferenceHost(mutant)), Skip: skip}}
	rep, err := c.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return rep, f, skip
}

func withoutFeatures(drop ...string) []string {
	var out []string
	for _, f := range KnownFeatures() {
		if !slices.Contains(drop, f) {
			out = append(out, f)
		}
	}
	return out
}

// TestGenFeaturesAreTheFeaturesScenariosNeed: the generator can leave out every feature a
// scenario can need (Needs), and nothing else; introspection and reference-runtime are
// judged, not generated.
func TestGenFeaturesAreTheFeaturesScenariosNeed(t *testing.T) {
	if got, want := explore.GenFeatures(), withoutFeatures(FeatureIntrospection, FeatureReferenceRuntime); !slices.Equal(got, want) {
		t.Fatalf("explore.GenFeatures() = %v, want the known features less introspection and reference-runtime %v", got, want)
	}
}

// TestGeneratedScenariosFitTheFeatures: for a host lacking any one feature, lacking
// write-window and introspection (write-through), and with no optional feature, 300 seeds
// of the generator never need a feature the host lacks, and the same seeds give the same
// scenarios.
func TestGeneratedScenariosFitTheFeatures(t *testing.T) {
	sets := [][]string{{}, withoutFeatures(FeatureWriteWindow, FeatureIntrospection)}
	for _, f := range explore.GenFeatures() {
		sets = append(sets, withoutFeatures(f))
	}
	for _, features := range sets {
		gen, _ := FuzzGen(RoleHost, features)
		for seed := uint64(1); seed <= 300; seed++ {
			s := explore.GenerateWith(seed, gen)
			plan := harness.Compile(s, 0)
			if miss := missing(Needs(&plan.Sim, plan.Host), features); len(miss) > 0 {
				t.Fatalf("features %v: seed %d needs %v\n%s", features, seed, miss, scenarios.Encode(s))
			}
			if seed <= 20 && !bytes.Equal(scenarios.Encode(s), scenarios.Encode(explore.GenerateWith(seed, gen))) {
				t.Fatalf("features %v: seed %d gives two scenarios", features, seed)
			}
		}
	}
}

// TestFuzzWriteThroughHost: a correct write-through host (every feature but write-window
// and introspection) passes 300 seeds of the fuzzer, which sends it only write-through
// configurations and nothing else it lacks, and says so.
func TestFuzzWriteThroughHost(t *testing.T) {
	features := withoutFeatures(FeatureWriteWindow, FeatureIntrospection)
	rep, f, skip := fuzzFiltered(t, features, "", 300, false)
	for _, x := range rep.Failures {
		t.Errorf("seed %d: %s", x.Seed, x.Message)
	}
	if len(f.sent) > 0 {
		t.Errorf("the fuzzer sent %d commands the host lacks, the first: %s", len(f.sent), f.sent[0])
	}
	checkSituationNeeds(t, fullCampaign(t, 300), rep)
	var b bytes.Buffer
	newFuzzCoverage(rep, skip).write(&b, RoleHost)
	for _, want := range []string{"generator: write-through only (write-window: 0s) (host lacks write-window)\n", "not checked: the host lacks introspection", "two-claims                           (host lacks introspection)\n"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("the summary does not say %q:\n%s", want, b.String())
		}
	}
	t.Logf("%d seeds\n%s", rep.SeedsRun, b.String())
}

// coreSituations are situations of the core of the decision a host with no optional
// feature must still be judged in: waits and claims (CLAIM-7, CD-9, CD-10), projection and
// late answers (LATE-4, LATE-7, PROJ-8, PROJ-2), multi-client races (GW-1, GW-5), callers
// (CALLER-2), rejections (ASK-5).
var coreSituations = []string{
	"local-expiry", "local-expiry-settles", "take-time-while-other-expires", "clock-jump-during-countdown",
	"two-clients-answer-within-latency", "outcome-lost-settlement-race",
	"late-answer-accepted", "late-answer-admitted", "waterfall-replayed", "delegated-caller",
	"reply-lookalike-message", "probe-continued-card", "header-tools-not-array", "foreign-rejection-restored",
	"held-delivery", "injected-claim-refused",
}

// checkSituationNeeds checks the report's account of situations against the campaign: a
// situation it rules out for a missing feature (introspection among them: the wait-notes
// and state the scanner reads) is never reached, and one the reference campaign full
// reaches at least 10 times that this one never reaches is one it rules out.
func checkSituationNeeds(t *testing.T, full, rep *explore.Report) {
	t.Helper()
	ruled := map[string][]string{}
	for _, n := range rep.CannotReach() {
		ruled[n.Name] = n.Lacks
	}
	a, b := full.SituationCounts(), rep.SituationCounts()
	for i := range b {
		lacks, out := ruled[b[i].Name]
		switch {
		case out && b[i].Runs > 0:
			t.Errorf("%s is ruled out (the host lacks %v) but %d runs reached it", b[i].Name, lacks, b[i].Runs)
		case !out && b[i].Runs == 0 && a[i].Runs >= 10:
			t.Errorf("%s is never reached (%d runs with every feature) and not ruled out: the table misses a need", b[i].Name, a[i].Runs)
		}
	}
}

// fullCampaign is the campaign of seeds 1..n against the reference host with every feature.
func fullCampaign(t *testing.T, n uint64) *explore.Report {
	t.Helper()
	rep, err := explore.Campaign{Seeds: n, Workers: 2, NoShrink: true}.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

// TestFuzzNoFeaturesHost: a host with no optional feature gets a verdict that is not
// vacuous: 300 seeds pass, nothing it lacks is sent, the core situations are reached, and
// the invariants checked guard requirement ids of every part of the core (TOOL, ASK, WAIT,
// CLAIM, PROJ, LATE, GW); the summary names what the generator left out and the
// situations a missing feature rules out.
func TestFuzzNoFeaturesHost(t *testing.T) {
	rep, f, skip := fuzzFiltered(t, []string{}, "", 300, false)
	for _, x := range rep.Failures {
		t.Errorf("seed %d: %s", x.Seed, x.Message)
	}
	if len(f.sent) > 0 {
		t.Errorf("the fuzzer sent %d commands the host lacks, the first: %s", len(f.sent), f.sent[0])
	}
	cov := newFuzzCoverage(rep, skip)
	for _, s := range coreSituations {
		if cov.Situations[s] == 0 {
			t.Errorf("situation %s is never reached", s)
		}
	}
	for _, fam := range []string{"TOOL-", "ASK-", "WAIT-", "CLAIM-", "PROJ-", "LATE-", "GW-"} {
		if !slices.ContainsFunc(cov.Requirements, func(id string) bool { return strings.HasPrefix(id, fam) }) {
			t.Errorf("no requirement id %s* is judged", fam)
		}
	}
	if cov.Reached < 30 || len(cov.Requirements) < 60 {
		t.Errorf("%d situations reached, %d requirement ids judged: a thin verdict", cov.Reached, len(cov.Requirements))
	}
	if cov.CannotReach["ptc-sub-call-pending"] == nil || cov.CannotReach["restart-during-claim"] == nil {
		t.Errorf("the report does not rule out situations that need ptc or restart: %v", cov.CannotReach)
	}
	if _, ok := cov.CannotReach["local-expiry"]; ok {
		t.Errorf("local-expiry is ruled out: it needs no feature")
	}
	checkSituationNeeds(t, fullCampaign(t, 300), rep)
	var b bytes.Buffer
	cov.write(&b, RoleHost)
	for _, want := range []string{"no run_code (host lacks ptc)", "no crashes or restarts (host lacks restart)", "write-through only", "not reachable without a missing feature:\n", "(host lacks restart)\n"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("the summary does not say %q:\n%s", want, b.String())
		}
	}
	t.Logf("%d seeds\n%s", rep.SeedsRun, b.String())
}

// TestFuzzFilteredMutantsFail: the same filters around a mutant of the reference host
// still fail, each within 400 seeds: a host with fewer features is judged, not excused.
func TestFuzzFilteredMutantsFail(t *testing.T) {
	for _, c := range []struct {
		features []string
		mutant   string
	}{
		{[]string{}, "waterfall-after-pending"},                                              // GW-1
		{[]string{}, "release-restarts-timeout"},                                             // WAIT-1, WAIT-5
		{[]string{}, "discard-keeps-reservation"},                                            // LATE-7
		{[]string{}, "settle-on-splice"},                                                     // PROJ-9
		{[]string{}, "tool-error-drops-name"},                                                // TOOL-9
		{[]string{}, "claim-frame-full-timeout"},                                             // WAIT-4
		{withoutFeatures(FeatureWriteWindow, FeatureIntrospection), "late-answer-open-call"}, // LATE-1
		{withoutFeatures(FeatureWriteWindow, FeatureIntrospection), "no-reservation"},        // LATE-2
	} {
		rep, _, _ := fuzzFiltered(t, c.features, c.mutant, 400, true)
		if len(rep.Failures) == 0 {
			t.Errorf("mutant %s behind features %v passes 400 seeds", c.mutant, c.features)
		}
	}
}

// TestFuzzMainHostWithoutFeatures: conform fuzz runs a host process that declares neither
// ptc, restart nor write-window (it refused it with exit 2 before), generating from its hello,
// and its summary says what was left out and why and which situations that rules out.
func TestFuzzMainHostWithoutFeatures(t *testing.T) {
	var out, errb bytes.Buffer
	env := []string{"CONFORM_TEST_HOST=refhost-without=ptc,restart,write-window"}
	code := Main([]string{"fuzz", "--host", os.Args[0], "--seeds", "40", "--workers", "1", "--out", t.TempDir()}, nil, &out, &errb, env)
	if code != 0 {
		t.Fatalf("exit %d:\n%s%s", code, out.String(), errb.String())
	}
	for _, want := range []string{
		"generator: no run_code (host lacks ptc), no crashes or restarts (host lacks restart), write-through only (write-window: 0s) (host lacks write-window)\n",
		"not reachable without a missing feature:\n", "  ptc-sub-call-pending ", "  restart-loses-unpersisted ",
		"judged: ", "40 passed, 0 failed",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("the summary does not say %q:\n%s", want, out.String())
		}
	}
}
