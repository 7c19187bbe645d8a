package conform

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"github.com/twosettle/twosettle/internal/rapidseed"
	"io"
	"os"
	"os/signal"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/twosettle/twosettle/conform/variant"
	"github.com/twosettle/twosettle/engine/mutant"
	"github.com/twosettle/twosettle/harness"
	"github.com/twosettle/twosettle/scenarios"
)

// The test binary is also every host these tests drive: with CONFORM_TEST_HOST set it
// plays that host on its stdin and stdout instead of running tests. "refhost[:MUTANT]"
// is conform refhost; the other kinds are deliberately broken hosts.
func TestMain(m *testing.M) {
	if kind := os.Getenv("CONFORM_TEST_HOST"); kind != "" {
		os.Exit(playHost(kind))
	}
	if kind := os.Getenv("CONFORM_TEST_AS_CONFORM"); kind != "" {
		// the conform command itself (cmd/conform), its hosts played by this binary
		os.Unsetenv("CONFORM_TEST_AS_CONFORM")
		os.Exit(Command(os.Args[1:], []string{"CONFORM_TEST_HOST=" + kind}))
	}
	rapidseed.Fix() // the property tests start from a fixed seed (internal/rapidseed)
	os.Exit(m.Run())
}

func playHost(kind string) int {
	if strings.HasPrefix(kind, "wait-") {
		return playWaitHost(kind)
	}
	if mutant, ok := strings.CutPrefix(kind, "refclient"); ok {
		if err := ServeClient(os.Stdin, os.Stdout, strings.TrimPrefix(mutant, ":"), "test"); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 2
		}
		return 0
	}
	if strings.HasPrefix(kind, "projection-") {
		return playProjectionHost(kind)
	}
	if without, ok := strings.CutPrefix(kind, "refhost-without="); ok {
		return playRefhostWithout(strings.Split(without, ","))
	}
	if k, ok := strings.CutPrefix(kind, "lingering-"); ok {
		return playLingeringHost(k)
	}
	if mutant, ok := strings.CutPrefix(kind, "refhost"); ok {
		// "refhost[:MUTANT][+VARIANT,...]": conform refhost [--mutant M] [--variant V,...]
		mutant, spec, _ := strings.Cut(mutant, "+")
		variants, err := variant.Parse(spec)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 2
		}
		if err := ServeVariants(os.Stdin, os.Stdout, strings.TrimPrefix(mutant, ":"), variants, "test", nil); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 2
		}
		return 0
	}
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(nil, 1<<20)
	out := os.Stdout
	hello := `{"type":"hello","protocol":"twosettle-conform/1","name":"broken","version":"1","features":["crash-cut","direct","fork","inbox-faults","introspection","ptc","restart","sleep","source","write-window"]}` + "\n"
	fmt.Fprintln(os.Stderr, "broken host", kind, "starting")
	switch kind {
	case "no-hello":
		in.Scan()
		out.WriteString(`{"type":"started","n":1}` + "\n")
		time.Sleep(time.Hour)
	case "old-protocol":
		in.Scan()
		out.WriteString(`{"type":"hello","protocol":"twosettle-conform/0","name":"old","features":[]}` + "\n")
		time.Sleep(time.Hour)
	case "exit-at-hello":
		fmt.Fprintln(os.Stderr, "panic: something went wrong")
		return 3
	}
	in.Scan()
	out.WriteString(hello)
	for in.Scan() {
		var req struct {
			Type string
			N    int64
		}
		json.Unmarshal(in.Bytes(), &req)
		switch req.Type {
		case "start":
			if kind == "crash-at-start" {
				fmt.Fprintln(os.Stderr, "fatal: cannot open the database")
				return 4
			}
			fmt.Fprintf(out, `{"type":"started","n":%d}`+"\n", req.N)
			continue
		case "bye":
			if kind == "ignore-term" {
				signal.Ignore(syscall.SIGTERM)
				time.Sleep(time.Hour)
			}
			return 0
		}
		switch kind {
		case "crash":
			fmt.Fprintln(os.Stderr, "fatal: the host crashed on", req.Type)
			return 7
		case "hang":
			time.Sleep(time.Hour)
		case "ignore-term":
			signal.Ignore(syscall.SIGTERM)
			time.Sleep(time.Hour)
		case "malformed":
			out.WriteString("{this is not json\n")
		case "unknown-type":
			fmt.Fprintf(out, `{"type":"surprise","n":%d}`+"\n", req.N)
		case "wrong-n":
			fmt.Fprintf(out, `{"type":"applied","n":%d,"effects":[]}`+"\n", req.N+5)
		case "huge-line":
			out.WriteString(`{"type":"applied","n":1,"effects":[],"pad":"` + strings.Repeat("x", 2<<20) + "\"}\n")
		case "out-of-turn":
			fmt.Fprintf(out, `{"type":"applied","n":%d,"effects":[]}`+"\n", req.N)
			fmt.Fprintf(out, `{"type":"applied","n":%d,"effects":[]}`+"\n", req.N)
		case "bad-effect":
			fmt.Fprintf(out, `{"type":"applied","n":%d,"effects":[{"kind":"teleport"}]}`+"\n", req.N)
		}
	}
	return 0
}

// testHost is a pool over this test binary playing kind.
func testHost(t *testing.T, kind string, timeout time.Duration) *Pool {
	t.Helper()
	pool := NewPool([]string{testBinary()}, ProcessOptions{Timeout: timeout, MaxLine: 1 << 20, KillGrace: 300 * time.Millisecond, Env: []string{"CONFORM_TEST_HOST=" + kind}})
	t.Cleanup(pool.Close)
	return pool
}

func library(t *testing.T) []*scenarios.Scenario {
	t.Helper()
	var out []*scenarios.Scenario
	for _, e := range harness.Library("") {
		s, err := scenarios.Decode(e.Path, e.Data)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, s)
	}
	return out
}

func TestRefhostPassesTheLibraryOverTheProtocol(t *testing.T) {
	pool := testHost(t, "refhost", 5*time.Second)
	info, err := pool.Hello()
	if err != nil {
		t.Fatal(err)
	}
	if info.Name != RefHostName || len(info.Features) != len(KnownFeatures()) {
		t.Fatalf("hello: %+v", info)
	}
	opts := Options{Pool: pool, Info: info, Command: "conform refhost"}
	for _, s := range library(t) {
		r := RunScenario(s, "", opts)
		if r.Result.Status != StatusPass {
			t.Errorf("%s: %s: %v\n%s", s.Name, r.Result.Status, r.Result.Failures, r.Result.Divergence)
		}
	}
}

// The protocol path loses nothing: with every engine mutant, each library scenario the
// mutant makes fail in-process gives the same transcript (records, final state and the
// oracle's verdict, so the same invariant) when the mutant host is served over the
// protocol. The clients get the mutant in both runs.
func TestEveryMutantOverTheProtocolIsCaughtAsInProcess(t *testing.T) {
	scs := library(t)
	for _, info := range mutant.All() {
		m := info.Name
		t.Run(m, func(t *testing.T) {
			var failing []*scenarios.Scenario
			var want [][]byte
			for _, s := range scs {
				in := &harness.Result{}
				harness.RunScenario(in, s, harness.Options{Oracle: harness.ReferenceOracle, Mutant: m})
				if in.Status() != harness.Passed {
					failing = append(failing, s)
					want = append(want, in.Transcript)
				}
			}
			if len(failing) == 0 {
				t.Skipf("no library scenario fails with %s in-process (the fuzz budget kills it)", m)
			}
			pool := testHost(t, "refhost:"+m, 5*time.Second)
			for i, s := range failing {
				over := &harness.Result{}
				harness.RunScenario(over, s, harness.Options{Oracle: harness.ReferenceOracle, Mutant: m, Host: pool.Factory})
				if over.Lost != nil {
					t.Fatalf("%s: lost: %v", s.Name, over.Lost)
				}
				if !bytes.Equal(want[i], over.Transcript) {
					t.Errorf("%s: transcripts differ in-process and over the protocol:\n%s", s.Name, Divergence(want[i], over.Transcript))
				}
			}
		})
	}
}

func TestBrokenHostsAreLostNeverPassed(t *testing.T) {
	s := library(t)[0]
	for _, tc := range []struct {
		kind, want string
		hello      bool // the failure is at the hello
	}{
		{"no-hello", "did not say hello", true},
		{"old-protocol", `speaks protocol "twosettle-conform/0"`, true},
		{"exit-at-hello", "exit status 3", true},
		{"crash", "exit status 7", false},
		{"hang", "did not answer", false},
		{"malformed", "not a protocol message", false},
		{"unknown-type", `unknown message type "surprise"`, false},
		{"wrong-n", "answered the wrong request", false},
		{"huge-line", "longer than", false},
		{"out-of-turn", "out of turn", false},
		{"bad-effect", "effects[0]", false},
		{"ignore-term", "did not answer", false},
	} {
		t.Run(tc.kind, func(t *testing.T) {
			// 2 s: the host is this test binary, whose start under the race detector on a
			// loaded machine took longer than 400 ms (a hello timeout, not the host's fault)
			pool := testHost(t, tc.kind, 2*time.Second)
			start := time.Now()
			info, err := pool.Hello()
			if tc.hello {
				if err == nil || !strings.Contains(err.Error(), tc.want) {
					t.Fatalf("hello: %v, want an error with %q", err, tc.want)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			r := RunScenario(s, "x.yaml", Options{Pool: pool, Info: info, Command: "broken"})
			if r.Result.Status != StatusBroken || !strings.Contains(r.Result.Lost, tc.want) {
				t.Fatalf("status %s, lost %q; want broken with %q", r.Result.Status, r.Result.Lost, tc.want)
			}
			if tc.kind == "crash" && !strings.Contains(r.Result.HostLog, "the host crashed") {
				t.Errorf("the report lacks the host's stderr: %q", r.Result.HostLog)
			}
			pool.Close()
			if d := time.Since(start); d > 8*time.Second {
				t.Errorf("took %s", d)
			}
			rep := &Report{Scenarios: []ScenarioResult{r.Result}}
			if rep.Conformant() {
				t.Error("a lost host is reported conformant")
			}
		})
	}
}

func TestMainExitCodes(t *testing.T) {
	env := []string{"CONFORM_TEST_HOST=refhost"}
	var out, errb bytes.Buffer
	if code := Main([]string{"--host", os.Args[0], "../scenarios/library/ask-no-provider.yaml"}, nil, &out, &errb, env); code != 0 {
		t.Fatalf("exit %d\n%s%s", code, out.String(), errb.String())
	}
	if !strings.HasSuffix(out.String(), "1 passed, 0 failed\n") {
		t.Errorf("last line: %q", out.String())
	}
	if code := Main([]string{"../scenarios/library/ask-no-provider.yaml"}, nil, &out, &errb, env); code != 2 {
		t.Errorf("no --host: exit %d", code)
	}
	errb.Reset()
	if code := Main([]string{"--host", os.Args[0]}, nil, &out, &errb, []string{"CONFORM_TEST_HOST=no-hello"}); code != 2 || !strings.Contains(errb.String(), "cannot be used") {
		t.Errorf("a host that does not speak the protocol: exit %d, %s", code, errb.String())
	}
	out.Reset()
	if code := Main([]string{"--host", os.Args[0], "../scenarios/library/crash-answer-durable-before-ack.yaml"}, nil, &out, &errb, []string{"CONFORM_TEST_HOST=refhost:ack-before-flush"}); code != 1 || !strings.Contains(out.String(), "INV-ACK-AFTER-PERSIST") {
		t.Errorf("a mutant: exit %d\n%s", code, out.String())
	}
}

func TestSplitCommand(t *testing.T) {
	for in, want := range map[string][]string{
		`conform refhost`:             {"conform", "refhost"},
		`node 'my host.js' --x="a b"`: {"node", "my host.js", "--x=a b"},
		`a\ b "c\"d"`:                 {"a b", `c"d`},
	} {
		got, err := SplitCommand(in)
		if err != nil || strings.Join(got, "|") != strings.Join(want, "|") {
			t.Errorf("%s: %q %v", in, got, err)
		}
	}
	for _, bad := range []string{"", "  ", `'open`, `"open`, `end\`} {
		if _, err := SplitCommand(bad); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}

func testBinary() string { return os.Args[0] }

// playRefhostWithout is conform refhost whose hello leaves out the features drop (a host
// that declares less: fuzz_features_test.go); it still accepts whatever it is sent.
func playRefhostWithout(drop []string) int {
	pr, pw := io.Pipe()
	go func() { pw.CloseWithError(Serve(os.Stdin, pw, "", "test")) }()
	in := bufio.NewReader(pr)
	hello, err := in.ReadBytes('\n')
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	var m map[string]any
	if err := json.Unmarshal(hello, &m); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	kept := []any{}
	for _, f := range m["features"].([]any) {
		if !slices.Contains(drop, f.(string)) {
			kept = append(kept, f)
		}
	}
	m["features"] = kept
	b, _ := json.Marshal(m)
	os.Stdout.Write(append(b, '\n'))
	io.Copy(os.Stdout, in)
	return 0
}
