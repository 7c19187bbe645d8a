package conform

import (
	"bytes"
	"strings"
	"testing"

	"github.com/twosettle/twosettle/engine/wire"
	"github.com/twosettle/twosettle/harness"
	"github.com/twosettle/twosettle/scenarios"
)

// libraryReport runs the whole library in-process against hosts, declaring features.
func libraryReport(t *testing.T, hosts harness.HostFactory, features []string) *Report {
	t.Helper()
	rep := &Report{Protocol: Protocol, Host: HostInfo{Name: "test", Features: features}, NotChecked: NotChecked(features), Floor: Floor}
	for _, f := range scenarios.Library() {
		s, err := scenarios.Decode(f.Path, f.Data)
		if err != nil {
			t.Fatal(err)
		}
		rep.Scenarios = append(rep.Scenarios, RunScenario(s, f.Path, Options{Info: rep.Host, Command: "test", hosts: hosts}).Result)
	}
	return rep
}

func TestFloorIsWhatAHostWithNoFeaturesIsJudgedOn(t *testing.T) {
	rep := libraryReport(t, harness.ReferenceHost(""), nil)
	judged := map[string]bool{}
	for _, s := range rep.Scenarios {
		if s.Status == StatusPass {
			for _, id := range s.Covers {
				judged[id] = true
			}
		}
		if s.Status == StatusFail || s.Status == StatusBroken {
			t.Errorf("the reference with no optional feature fails %s: %v %s", s.Name, s.Failures, s.Divergence)
		}
	}
	var want []string
	for _, q := range scenarios.Requirements() {
		if q.Side != "C" && judged[q.ID] {
			want = append(want, q.ID)
		}
	}
	if strings.Join(want, " ") != strings.Join(Floor, " ") {
		t.Fatalf("Floor is stale: the library judges these host and runtime ids on a host with no optional feature:\n%q", want)
	}
	if v := rep.Vacuous(); v != "" || !rep.Conformant() {
		t.Fatalf("the reference with no optional feature is not conformant: %s", v)
	}
	pass, _, na, _ := rep.Summary()
	if pass < 100 {
		t.Fatalf("only %d scenarios judged a host with no optional feature (%d not applicable)", pass, na)
	}
}

func TestWriteThroughHostRunsTheScenariosThatDoNotTestTheWindow(t *testing.T) {
	var got wire.HostConfig
	hosts := func(cfg wire.HostConfig) (wire.HostPort, error) {
		got = cfg
		return harness.ReferenceHost("")(cfg)
	}
	features := without(KnownFeatures(), FeatureWriteWindow)
	run := func(name string) ScenarioResult {
		for _, f := range scenarios.Library() {
			if strings.HasSuffix(f.Path, "/"+name+".yaml") {
				s, err := scenarios.Decode(f.Path, f.Data)
				if err != nil {
					t.Fatal(err)
				}
				return RunScenario(s, f.Path, Options{Info: HostInfo{Features: features}, hosts: hosts}).Result
			}
		}
		t.Fatalf("no library scenario %s", name)
		return ScenarioResult{}
	}
	t.Run("AGENT-6 a scenario that does not name a window runs write-through on both sides", func(t *testing.T) {
		r := run("card-hide-keeps-claim-and-countdown")
		if r.Status != StatusPass || !r.WriteThrough || got.WriteWindowMs != -1 {
			t.Fatalf("status %s write-through %v config %+v: %v", r.Status, r.WriteThrough, got, r.Failures)
		}
	})
	t.Run("AGENT-6 a scenario about the window itself is not applicable, and says why", func(t *testing.T) {
		r := run("crash-inside-the-write-window")
		if r.Status != StatusNotApplicable || !has(r.Missing, FeatureWriteWindow) {
			t.Fatalf("status %s missing %v", r.Status, r.Missing)
		}
	})
}

// idleHost accepts every command and does nothing: no effect, no state.
type idleHost struct{}

func (idleHost) Apply(wire.Time, wire.Command) ([]wire.Effect, error) { return nil, nil }
func (idleHost) NextDeadline() (wire.Time, bool)                      { return 0, false }
func (idleHost) State() wire.HostState                                { return wire.HostState{} }

func TestNoVacuousVerdict(t *testing.T) {
	t.Run("a host that declares nothing and does nothing fails the library", func(t *testing.T) {
		rep := libraryReport(t, func(wire.HostConfig) (wire.HostPort, error) { return idleHost{}, nil }, nil)
		pass, fail, _, _ := rep.Summary()
		if rep.Conformant() || fail < 100 || pass > 0 {
			t.Fatalf("an idle host: %d passed, %d failed, conformant %v", pass, fail, rep.Conformant())
		}
	})
	t.Run("a run in which every scenario was not applicable is no verdict", func(t *testing.T) {
		rep := &Report{Protocol: Protocol, Scenarios: []ScenarioResult{{Name: "a", Status: StatusNotApplicable, Missing: []string{FeaturePTC}}}}
		if rep.Conformant() || !strings.Contains(rep.Vacuous(), "no scenario was judged") {
			t.Fatalf("vacuous %q conformant %v", rep.Vacuous(), rep.Conformant())
		}
		var b bytes.Buffer
		rep.WriteText(&b)
		if !strings.Contains(b.String(), "NO VERDICT: no scenario was judged") || !strings.HasSuffix(b.String(), "0 passed, 0 failed, 1 skipped\n") {
			t.Fatalf("text:\n%s", b.String())
		}
	})
	t.Run("a library run that judged fewer ids than the floor is no verdict unless partial is allowed", func(t *testing.T) {
		rep := &Report{Protocol: Protocol, Floor: Floor, Scenarios: []ScenarioResult{{Name: "a", Status: StatusPass, Covers: []string{"TOOL-1"}}}}
		if rep.Conformant() || !strings.Contains(rep.Vacuous(), "--allow-partial") {
			t.Fatalf("vacuous %q", rep.Vacuous())
		}
		rep.AllowPartial = true
		if v := rep.Vacuous(); v != "" {
			t.Fatalf("with --allow-partial: %q", v)
		}
	})
}

func TestAFailureNamesTheIdsItJudges(t *testing.T) {
	rep := &Report{Protocol: Protocol, Scenarios: []ScenarioResult{
		{Name: "a", Status: StatusFail, Covers: []string{"WAIT-4", "LATE-1"}, FailedIDs: []string{"WAIT-4"}, Failures: []string{"x"}},
	}}
	for _, row := range rep.Requirements() {
		switch row.ID {
		case "WAIT-4":
			if row.Status != StatusFail {
				t.Errorf("WAIT-4 is %s", row.Status)
			}
		case "LATE-1":
			if has(row.Failed, "a") {
				t.Errorf("LATE-1 failed by a failure that judges WAIT-4 only")
			}
		}
	}
}
