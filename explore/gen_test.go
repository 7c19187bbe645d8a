package explore

import (
	"bytes"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/twosettle/twosettle/scenarios"
)

var ignorePos = cmpopts.IgnoreTypes(scenarios.Pos{})

func TestGeneratedScenariosAreValidAndRoundTrip(t *testing.T) {
	for seed := uint64(1); seed <= 400; seed++ {
		s := Generate(seed)
		if err := scenarios.Validate(s); err != nil {
			t.Fatalf("seed %d: invalid: %v\n%s", seed, err, scenarios.Encode(s))
		}
		y := scenarios.Encode(s)
		back, err := scenarios.Decode("gen.yaml", y)
		if err != nil {
			t.Fatalf("seed %d: the YAML does not decode: %v\n%s", seed, err, y)
		}
		if d := cmp.Diff(s, back, ignorePos); d != "" {
			t.Fatalf("seed %d: decode(encode(s)) differs (-generated +decoded):\n%s", seed, d)
		}
		if s.Seed != seed || s.Name != SeedName(seed) {
			t.Fatalf("seed %d: the scenario says seed %d name %s", seed, s.Seed, s.Name)
		}
	}
}

func TestGenerationIsDeterministicPerSeed(t *testing.T) {
	for seed := uint64(1); seed <= 50; seed++ {
		a, b := scenarios.Encode(Generate(seed)), scenarios.Encode(Generate(seed))
		if !bytes.Equal(a, b) {
			t.Fatalf("seed %d: two generations differ", seed)
		}
	}
	if bytes.Equal(scenarios.Encode(Generate(1)), scenarios.Encode(Generate(2))) {
		t.Fatal("seeds 1 and 2 gave the same scenario")
	}
}

// The generator's draws reach every actor and every fault kind across seeds.
func TestGenerationCoversEveryActor(t *testing.T) {
	seen := map[string]bool{}
	for seed := uint64(1); seed <= 300; seed++ {
		s := Generate(seed)
		users := 0
		for _, c := range s.Clients {
			if c.Hold {
				seen["hold client"] = true
			} else {
				users++
			}
		}
		if users < 1 || users > 4 {
			t.Fatalf("seed %d: %d clients with a user", seed, users)
		}
		for _, st := range s.Steps {
			switch {
			case st.Model != nil:
				seen["model "+st.Model.Kind] = true
				if st.Model.Source.Kind != "" {
					seen["source "+st.Model.Source.Kind] = true
				}
				if st.Model.Kind == scenarios.ModelRun {
					for _, c := range st.Model.Calls {
						seen["sub "+c.Kind] = true
					}
				}
			case st.Host != nil:
				seen["host "+st.Host.Kind] = true
				if st.Host.Kind == scenarios.HostOpen && st.Host.Fork != "" {
					seen["fork"] = true
				}
				if st.Host.Kind == scenarios.HostCrash {
					seen["crash "+st.Host.Point] = true
				}
			case st.Service != nil:
				seen["service "+st.Service.Kind] = true
			case st.Net != nil:
				seen["net "+st.Net.Kind] = true
			case st.User != nil:
				seen["user "+st.User.Kind] = true
			case st.Inject != nil:
				switch {
				case st.Inject.Attach != "":
					seen["inject attach"] = true
				case st.Inject.Next:
					seen["inject next"] = true
				case st.Inject.HasAns:
					seen["inject answer"] = true
				default:
					seen["inject rejected"] = true
				}
			}
		}
		for _, x := range s.Sessions {
			if x.Owner != "" {
				seen["child session"] = true
			}
		}
		if s.Mode == scenarios.ModeLegacy {
			seen["legacy"] = true
		}
	}
	want := []string{"model prompt", "model steer", "model header", "model ask", "model run", "model sleep", "model tool",
		"model end-step", "model end-turn", "model cancel", "sub ask", "sub sleep", "sub tool",
		"host crash", "host restart", "host close", "host open", "fork", "host fail-inbox-write",
		"source user-question-reply", "source agent-message", "service ask", "service ask-timed", "service answer",
		"net disconnect", "net reconnect", "net partition", "net delay", "net lose",
		"user focus", "user blur", "user type", "user choose", "user skip", "user take-time", "user submit", "user hide",
		"user reopen", "user close", "user discard", "user reload", "user delegate", "user crash", "user clock", "user drift",
		"child session", "legacy",
		// the steps of the scenario language no episode writes (inputs_steps.go)
		"user continue", "user toggle-row", "user unbind", "user bind", "user input",
		"host append", "host claim-reply", "host stall", "hold client",
		"inject attach", "inject next", "inject answer", "inject rejected"}
	for _, p := range scenarios.CrashPoints {
		want = append(want, "crash "+p)
	}
	for _, w := range want {
		if !seen[w] {
			t.Errorf("300 seeds never drew %s", w)
		}
	}
}

func TestBytesRandAlwaysGivesAScenario(t *testing.T) {
	for _, data := range [][]byte{nil, {}, make([]byte, 64), bytes.Repeat([]byte{0xff}, 100), []byte("twosettle")} {
		s := GenerateFrom(BytesRand(data))
		if err := scenarios.Validate(s); err != nil {
			t.Fatalf("%q: %v", data, err)
		}
	}
	a, b := scenarios.Encode(GenerateFrom(BytesRand([]byte("abc")))), scenarios.Encode(GenerateFrom(BytesRand([]byte("abc"))))
	if !bytes.Equal(a, b) {
		t.Fatal("the same bytes gave different scenarios")
	}
}

// A model names its own calls; the host names a run_code call's sub-calls
// PARENT:ptc:N (docs/PEER-RUNTIME.md §6). A model call under such an id makes two calls
// of one Session under one id, an input the decision does not define, so the generator
// never draws one (seed 542921 did, re-asking a continued sub-call's id for DRAFT-2).
func TestGeneratedModelCallsNeverTakeASubCallID(t *testing.T) {
	t.Run("PROJ-7 no model call is named like a run_code sub-call", func(t *testing.T) {
		seeds := []uint64{542921}
		for seed := uint64(1); seed <= 1500; seed++ {
			seeds = append(seeds, seed)
		}
		for _, seed := range seeds {
			for _, st := range Generate(seed).Steps {
				if st.Model != nil && strings.Contains(st.Model.Call, ":ptc:") {
					t.Fatalf("seed %d: at %s the model calls %s %q, a run_code sub-call's id", seed, st.At, st.Model.Kind, st.Model.Call)
				}
			}
		}
	})
}
