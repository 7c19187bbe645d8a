package conform

import (
	"bytes"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/twosettle/twosettle/engine/mutant"
	"github.com/twosettle/twosettle/harness"
)

func TestRefclientPassesTheLibraryOverTheProtocol(t *testing.T) {
	pool := testHost(t, "refclient", 5*time.Second)
	info, err := pool.Hello()
	if err != nil {
		t.Fatal(err)
	}
	if info.Name != RefClientName {
		t.Fatalf("hello: %+v", info)
	}
	opts := Options{Pool: pool, Info: info, Command: "conform refclient"}
	ran := 0
	for _, s := range library(t) {
		r := RunClientScenario(s, "", opts)
		uis := 0
		for _, c := range s.Clients {
			if !c.Hold {
				uis++
			}
		}
		switch {
		case uis == 0:
			if r.Result.Status != StatusNotApplicable {
				t.Errorf("%s has no client: %s", s.Name, r.Result.Status)
			}
		case r.Result.Status != StatusPass:
			t.Errorf("%s: %s: %v %s\n%s", s.Name, r.Result.Status, r.Result.Failures, r.Result.Lost, r.Result.Divergence)
		default:
			ran++
		}
	}
	if ran < 100 {
		t.Errorf("only %d library scenarios ran with the client process", ran)
	}
}

// Each client-side mutant that the library catches in-process, served by refclient
// --mutant, is caught over the protocol too (a failed scenario, never a pass of every
// one), and every scenario it fails names a divergence, an expectation or an invariant.
// A mutant only the fuzz budget kills in-process is skipped here.
func TestClientMutantsOverTheProtocolAreCaught(t *testing.T) {
	scs := library(t)
	for _, info := range mutant.All() {
		if info.Side != mutant.Client {
			continue
		}
		t.Run(info.Name, func(t *testing.T) {
			caught := false
			for _, s := range scs {
				in := &harness.Result{}
				harness.RunScenario(in, s, harness.Options{Oracle: harness.ReferenceOracle, Mutant: info.Name})
				caught = caught || in.Status() != harness.Passed
			}
			if !caught {
				t.Skipf("no library scenario fails with %s in-process (the fuzz budget kills it)", info.Name)
			}
			pool := testHost(t, "refclient:"+info.Name, 5*time.Second)
			hello, err := pool.Hello()
			if err != nil {
				t.Fatal(err)
			}
			opts := Options{Pool: pool, Info: hello, Command: "conform refclient --mutant " + info.Name}
			rep := &Report{}
			for _, s := range scs {
				r := RunClientScenario(s, "", opts)
				if r.Result.Status == StatusBroken {
					t.Fatalf("%s: lost: %s", s.Name, r.Result.Lost)
				}
				if r.Result.Status == StatusFail && len(r.Result.Failures) == 0 {
					t.Errorf("%s failed with no reason", s.Name)
				}
				rep.Scenarios = append(rep.Scenarios, r.Result)
			}
			if rep.Conformant() {
				t.Fatalf("mutant %s passes the library over the protocol", info.Name)
			}
		})
	}
}

func TestBrokenClientsAreLostNeverPassed(t *testing.T) {
	var s = library(t)[0]
	for _, c := range library(t) {
		if len(c.Clients) > 0 {
			s = c
			break
		}
	}
	for _, tc := range []struct{ kind, want string }{
		{"crash", "exit status 7"},
		{"hang", "did not answer"},
		{"malformed", "not a protocol message"},
		{"wrong-n", "answered the wrong request"},
		{"bad-effect", `effects[0]: effect.kind: unknown client effect kind "teleport"`},
	} {
		t.Run(tc.kind, func(t *testing.T) {
			pool := testHost(t, tc.kind, 2*time.Second)
			info, err := pool.Hello()
			if err != nil {
				t.Fatal(err)
			}
			r := RunClientScenario(s, "x.yaml", Options{Pool: pool, Info: info, Command: "broken"})
			if r.Result.Status != StatusBroken || !strings.Contains(r.Result.Lost, tc.want) {
				t.Fatalf("status %s, lost %q; want broken with %q", r.Result.Status, r.Result.Lost, tc.want)
			}
			if rep := (&Report{Scenarios: []ScenarioResult{r.Result}}); rep.Conformant() {
				t.Error("a lost client is reported conformant")
			}
		})
	}
	t.Run("a host is no client", func(t *testing.T) {
		pool := testHost(t, "refhost", 2*time.Second)
		info, _ := pool.Hello()
		r := RunClientScenario(s, "x.yaml", Options{Pool: pool, Info: info})
		if r.Result.Status != StatusBroken || !strings.Contains(r.Result.Lost, "bad start config") {
			t.Fatalf("status %s, lost %q", r.Result.Status, r.Result.Lost)
		}
	})
}

func TestClientMainExitCodes(t *testing.T) {
	var out, errb bytes.Buffer
	file := "../scenarios/library/take-time-on-one-client.yaml"
	if code := Main([]string{"--client", os.Args[0], file}, nil, &out, &errb, []string{"CONFORM_TEST_HOST=refclient"}); code != 0 {
		t.Fatalf("exit %d\n%s%s", code, out.String(), errb.String())
	}
	if !strings.HasSuffix(out.String(), "1 passed, 0 failed\n") {
		t.Errorf("last line: %q", out.String())
	}
	if strings.Contains(out.String(), "not checked") {
		t.Errorf("the reference host runs with the client, every invariant is checked:\n%s", out.String())
	}
	out.Reset()
	if code := Main([]string{"--client", os.Args[0], file}, nil, &out, &errb, []string{"CONFORM_TEST_HOST=refclient:take-time-ignored"}); code != 1 {
		t.Errorf("a client mutant: exit %d\n%s", code, out.String())
	}
	errb.Reset()
	if code := Main([]string{"--client", os.Args[0], "--host", os.Args[0], file}, nil, &out, &errb, nil); code != 2 || !strings.Contains(errb.String(), "give one of them") {
		t.Errorf("--host with --client: exit %d, %s", code, errb.String())
	}
	errb.Reset()
	if code := Main([]string{"refclient", "--mutant", "no-reservation"}, strings.NewReader(""), &out, &errb, nil); code != 2 || !strings.Contains(errb.String(), "host-side") {
		t.Errorf("a host mutant for refclient: exit %d, %s", code, errb.String())
	}
}
