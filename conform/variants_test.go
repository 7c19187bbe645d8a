package conform

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"text/tabwriter"
	"time"

	"github.com/twosettle/twosettle/conform/variant"
	"github.com/twosettle/twosettle/engine/mutant"
	"github.com/twosettle/twosettle/engine/wire"
	"github.com/twosettle/twosettle/explore"
	"github.com/twosettle/twosettle/harness"
	"github.com/twosettle/twosettle/scenarios"
)

// The evidence that the judge is fair (docs/PROTOCOL.md "How a run is judged"):
// correct-but-different hosts (the reference host behind each variant of package
// conform/variant, alone and composed) must pass the library, and the same variants around
// mutant hosts must still fail it. With -v it prints a summary per variant:
//
//	go test -run TestVariants -v ./conform/

// variantCases are the hosts judged: every variant alone and two compositions.
func variantCases(t *testing.T) []variant.List {
	var out []variant.List
	for _, v := range variant.All() {
		out = append(out, variant.List{v})
	}
	for _, spec := range []string{"ids-uuid,reorder,persist-late,refusal-words", "ids-numbers,minimal,json-style"} {
		l, err := variant.Parse(spec)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, l)
	}
	return out
}

// variantOptions are the runner's options for l around the reference host with mutant
// ("" none): in-process, or over the protocol (this test binary as conform refhost
// --variant) when l restyles the protocol's JSON.
func variantOptions(t *testing.T, l variant.List, mutant string) Options {
	command := "conform refhost --variant " + l.Name()
	if mutant != "" {
		command += " --mutant " + mutant
	}
	if l.JSONStyle() {
		kind := "refhost"
		if mutant != "" {
			kind += ":" + mutant
		}
		pool := testHost(t, kind+"+"+l.Name(), 5*time.Second)
		info, err := pool.Hello()
		if err != nil {
			t.Fatal(err)
		}
		return Options{Pool: pool, Info: info, Command: command}
	}
	return Options{
		Info:    HostInfo{Name: "variant " + l.Name(), Features: l.Features(KnownFeatures())},
		Command: command,
		hosts:   l.Factory(harness.ReferenceHost(mutant)),
	}
}

// tally counts a variant's library results.
type tally struct {
	pass, fail, skip, broken int
	// onlyTranscript counts failures whose one complaint is the transcript comparison.
	onlyTranscript int
	failing        []string
}

func (c *tally) add(r ScenarioResult) {
	switch r.Status {
	case StatusPass:
		c.pass++
	case StatusNotApplicable:
		c.skip++
	case StatusBroken:
		c.broken++
		c.failing = append(c.failing, r.Name+" (lost: "+r.Lost+")")
	default:
		c.fail++
		if len(r.Failures) == 1 && len(r.Violated) == 0 && r.Divergence != "" {
			c.onlyTranscript++
		}
		c.failing = append(c.failing, r.Name)
	}
}

func TestVariantsPassTheLibraryAndMutantsBehindThemStillFail(t *testing.T) {
	scs := library(t)
	cases := variantCases(t)
	mutants := caughtHostMutants(t, scs)

	var table strings.Builder
	tw := tabwriter.NewWriter(&table, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "variant\tfeatures\tpass\tfail\t(transcript only)\tnot applicable\tbroken\tmutants still caught")
	for _, l := range cases {
		opts := variantOptions(t, l, "")
		var c tally
		passed := map[string]bool{}
		for _, s := range scs {
			r := RunScenario(s, "", opts)
			c.add(r.Result)
			if r.Result.Status == StatusPass {
				passed[s.Name] = true
			}
		}
		if c.fail+c.broken > 0 {
			t.Errorf("%s: %d of %d library scenarios fail (a correct host): %s", l.Name(), c.fail+c.broken, len(scs), strings.Join(c.failing, ", "))
		}

		// The same variant around each mutant: judged on the scenarios the variant
		// passes around the correct host, some must fail.
		caught := 0
		var judged []string
		for _, m := range mutants {
			mopts := variantOptions(t, l, m.name)
			n, failed := 0, false
			for _, s := range m.scenarios {
				if !passed[s.Name] {
					continue
				}
				n++
				if r := RunScenario(s, "", mopts); r.Result.Status != StatusPass {
					failed = true
					break
				}
			}
			switch {
			case failed:
				caught++
				judged = append(judged, m.name)
			case n == 0:
				// nothing to judge it on while the variant fails those scenarios itself
			case !caughtUnder(m, l.Config):
				// the variant's own configuration makes the bug harmless (a write-through
				// host has nothing to flush before an acknowledgement): nothing to catch
				t.Logf("%s: mutant %s is no bug under its configuration (the reference oracle passes it in-process)", l.Name(), m.name)
			default:
				t.Errorf("%s around mutant %s passes every scenario that catches the mutant", l.Name(), m.name)
				judged = append(judged, m.name)
			}
		}
		feats := strings.Join(opts.Info.Features, ",")
		if len(opts.Info.Features) == len(KnownFeatures()) {
			feats = "all"
		} else if feats == "" {
			feats = "none"
		}
		fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%d\t%d\t%d\t%d of %d judged (%d mutants)\n", l.Name(), feats, c.pass, c.fail, c.onlyTranscript, c.skip, c.broken, caught, len(judged), len(mutants))
	}
	tw.Flush()
	t.Logf("library of %d scenarios, per variant:\n%s", len(scs), table.String())
}

// caughtUnder reports whether the library scenarios that catch m in-process still catch
// it when the host runs with config's changes (a variant's configuration).
func caughtUnder(m hostMutant, config func(wire.HostConfig) wire.HostConfig) bool {
	for _, s := range m.scenarios {
		r := &harness.Result{}
		hosts := func(cfg wire.HostConfig) (wire.HostPort, error) { return harness.ReferenceHost(m.name)(config(cfg)) }
		harness.RunScenario(r, s, harness.Options{Oracle: harness.ReferenceOracle, Host: hosts})
		if r.Status() != harness.Passed {
			return true
		}
	}
	return false
}

// hostMutant is a host-side mutant and the library scenarios that catch it in-process.
type hostMutant struct {
	name      string
	scenarios []*scenarios.Scenario
}

// caughtHostMutants picks a few host-side mutants the library catches in-process (on the
// reference host), with the scenarios that catch each.
func caughtHostMutants(t *testing.T, scs []*scenarios.Scenario) []hostMutant {
	t.Helper()
	var out []hostMutant
	for _, name := range []string{"ack-before-flush", "no-reservation", "replay-new-event-id", "expiry-aborts-turn", "discard-keeps-reservation", "waterfall-after-pending"} {
		info, ok := mutant.Lookup(name)
		if !ok || info.Side != mutant.Host {
			t.Fatalf("%s is not a host-side mutant", name)
		}
		m := hostMutant{name: name}
		for _, s := range scs {
			r := &harness.Result{}
			harness.RunScenario(r, s, harness.Options{Oracle: harness.ReferenceOracle, Mutant: name})
			if r.Status() != harness.Passed {
				m.scenarios = append(m.scenarios, s)
			}
		}
		if len(m.scenarios) == 0 {
			t.Fatalf("the library no longer catches %s in-process: pick another mutant", name)
		}
		out = append(out, m)
	}
	return out
}

// The variant package spells the feature names it changes as conform does.
func TestVariantFeatureNames(t *testing.T) {
	if variant.FeatureWriteWindow != FeatureWriteWindow || variant.FeatureIntrospection != FeatureIntrospection || variant.FeatureReferenceRuntime != FeatureReferenceRuntime {
		t.Fatal("conform/variant's feature names differ from conform's")
	}
	for _, v := range variant.All() {
		for _, f := range v.Features(KnownFeatures()) {
			if !knownFeature(f) {
				t.Errorf("%s declares unknown feature %q", v.Name, f)
			}
		}
	}
}

// conform refhost --variant declares the variants' features in its hello and serves a
// run behind them; json-style writes other JSON that the runner reads all the same.
func TestRefhostVariantOverTheProtocol(t *testing.T) {
	s := func() *scenarios.Scenario {
		for _, s := range library(t) {
			if s.Name == "ask-no-provider" {
				return s
			}
		}
		t.Fatal("no scenario ask-no-provider")
		return nil
	}()
	all := KnownFeatures()
	for _, tc := range []struct {
		spec   string
		want   []string
		status string // "": any verdict
	}{
		{"json-style", all, StatusPass}, // other JSON, the same values: nothing to tell apart
		{"refusal-words,json-style", all, StatusPass},
		{"ids-uuid,reorder,json-style", all, ""},
		{"write-through", slices.DeleteFunc(slices.Clone(all), func(f string) bool { return f == FeatureWriteWindow }), StatusPass}, // run write-through on both sides
		{"minimal", nil, StatusNotApplicable},
	} {
		t.Run(tc.spec, func(t *testing.T) {
			pool := testHost(t, "refhost+"+tc.spec, 5*time.Second)
			info, err := pool.Hello()
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(info.Features, tc.want) {
				t.Fatalf("hello declares %v, want %v", info.Features, tc.want)
			}
			r := RunScenario(s, "", Options{Pool: pool, Info: info, Command: "conform refhost --variant " + tc.spec})
			if r.Result.Status == StatusBroken {
				t.Fatalf("lost: %s\n%s", r.Result.Lost, r.Result.HostLog)
			}
			if tc.status != "" && r.Result.Status != tc.status {
				t.Errorf("%s, want %s: %v\n%s", r.Result.Status, tc.status, r.Result.Failures, r.Result.Divergence)
			}
		})
	}
	var out, errb strings.Builder
	if code := Main([]string{"refhost", "--variant", "nope"}, strings.NewReader(""), &out, &errb, nil); code != 2 || !strings.Contains(errb.String(), "ids-uuid") {
		t.Errorf("an unknown variant: exit %d, %s", code, errb.String())
	}
}

// The same correct-but-different hosts pass a fuzz budget as conform fuzz judges them (the
// generator drawing only what each declares, the invariants it cannot be judged on left
// out), and a mutant behind each is still caught within it.
func TestVariantsPassAFuzzBudgetAndMutantsBehindThemStillFail(t *testing.T) {
	const seeds = 150
	for _, l := range variantCases(t) {
		if l.JSONStyle() {
			continue // a wire-only variant: the same host in-process
		}
		features := l.Features(KnownFeatures())
		gen, skip := FuzzGen(RoleHost, features)
		campaign := func(mutant string, stop bool) *explore.Report {
			c := explore.Campaign{Seeds: seeds, Workers: 2, Gen: gen, NoShrink: true, StopAtFirst: stop,
				Options: explore.Options{Host: harness.HostFactory(l.Factory(variant.Factory(harness.ReferenceHost(mutant)))), Skip: skip}}
			rep, err := c.Run(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			return rep
		}
		if rep := campaign("", false); len(rep.Failures) > 0 {
			f := rep.Failures[0]
			t.Errorf("%s (a correct host) fails %d of %d fuzz seeds; seed %d: %s %s", l.Name(), len(rep.Failures), seeds, f.Seed, f.Invariant, f.Message)
		}
		if rep := campaign("release-restarts-timeout", true); len(rep.Failures) == 0 {
			t.Errorf("%s around mutant release-restarts-timeout passes %d fuzz seeds", l.Name(), seeds)
		}
	}
}
