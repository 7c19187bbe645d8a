package conform

import (
	"bytes"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// playLingeringHost plays the hosts that test what is left when conform exits; each
// appends its pid to $CONFORM_TEST_PIDS. "slow": the reference host taking 3 ms a
// request; "stubborn": the reference host ignoring SIGTERM and staying after bye;
// "escape": the reference host with a child that left its process group (setsid) and
// ignores SIGTERM; "sleeper": that child.
func playLingeringHost(kind string) int {
	if kind != "sleeper" {
		notePid(os.Getpid())
	}
	var in io.Reader = os.Stdin
	switch kind {
	case "sleeper":
		signal.Ignore(syscall.SIGTERM)
		time.Sleep(time.Hour)
		return 0
	case "slow":
		in = slowReader{os.Stdin}
	case "stubborn":
		signal.Ignore(syscall.SIGTERM)
		defer time.Sleep(time.Hour)
	case "escape":
		c := exec.Command(os.Args[0])
		c.Env = append(os.Environ(), "CONFORM_TEST_HOST=lingering-sleeper")
		c.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
		if err := c.Start(); err != nil {
			return 2
		}
		notePid(c.Process.Pid)
	}
	if err := Serve(in, os.Stdout, "", "test"); err != nil {
		return 2
	}
	return 0
}

type slowReader struct{ r io.Reader }

func (s slowReader) Read(b []byte) (int, error) {
	time.Sleep(3 * time.Millisecond)
	return s.r.Read(b)
}

func notePid(pid int) {
	if p := os.Getenv("CONFORM_TEST_PIDS"); p != "" {
		f, err := os.OpenFile(p, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
		if err == nil {
			f.WriteString(strconv.Itoa(pid) + "\n")
			f.Close()
		}
	}
}

// conformProcess is the conform command (Command, as cmd/conform runs it) in a process of
// its own, its hosts played by this test binary as kind; pids is where they note theirs.
func conformProcess(t *testing.T, kind string, args ...string) (c *exec.Cmd, stdout, stderr *bytes.Buffer, pids string) {
	t.Helper()
	pids = filepath.Join(t.TempDir(), "pids")
	c = exec.Command(testBinary(), args...)
	var env []string
	for _, e := range os.Environ() {
		if !strings.HasPrefix(e, "CONFORM_TEST_") {
			env = append(env, e)
		}
	}
	c.Env = append(env, "CONFORM_TEST_AS_CONFORM=lingering-"+kind, "CONFORM_TEST_PIDS="+pids)
	stdout, stderr = new(bytes.Buffer), new(bytes.Buffer)
	c.Stdout, c.Stderr = stdout, stderr
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Process.Kill(); c.Wait() })
	return c, stdout, stderr, pids
}

// waitFor waits until cond holds, for at most d.
func waitFor(d time.Duration, cond func() bool) bool {
	for end := time.Now().Add(d); time.Now().Before(end); time.Sleep(10 * time.Millisecond) {
		if cond() {
			return true
		}
	}
	return cond()
}

// notedPids are the pids the hosts noted.
func notedPids(t *testing.T, path string) []int {
	t.Helper()
	b, _ := os.ReadFile(path)
	var ps []int
	for _, l := range strings.Fields(string(b)) {
		if p, err := strconv.Atoi(l); err == nil {
			ps = append(ps, p)
		}
	}
	return ps
}

// alive reports whether pid is a live process (a zombie is dead, only not yet reaped
// by whoever adopted it).
func alive(pid int) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return syscall.Kill(pid, 0) == nil
	}
	s := string(b)
	f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
	return len(f) > 0 && f[0] != "Z" && f[0] != "X"
}

// exitCode waits for c, for at most d.
func exitCode(t *testing.T, c *exec.Cmd, d time.Duration) int {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- c.Wait() }()
	select {
	case <-done:
	case <-time.After(d):
		t.Fatalf("conform did not exit within %s", d)
	}
	return c.ProcessState.ExitCode()
}

func requireGone(t *testing.T, pidFile string, atLeast int) {
	t.Helper()
	ps := notedPids(t, pidFile)
	if len(ps) < atLeast {
		t.Fatalf("%d host processes noted, want at least %d", len(ps), atLeast)
	}
	for _, p := range ps {
		if alive(p) {
			syscall.Kill(p, syscall.SIGKILL)
			t.Errorf("process %d outlived conform", p)
		}
	}
}

// Nothing is left running when conform exits: not a host that ignores SIGTERM (killed
// after the grace period, and waited for: Pool.Close is not cut short by the exit), not a
// host's child that left its process group with setsid (adopted as subreaper, Linux).
func TestConformLeavesNoProcessBehind(t *testing.T) {
	lib := "../scenarios/library/ask-no-provider.yaml"
	for _, tc := range []struct {
		kind  string
		args  []string
		procs int
	}{
		{"stubborn", []string{"--host", testBinary(), lib}, 1},
		{"stubborn", []string{"fuzz", "--host", testBinary(), "--seeds", "4", "--workers", "2", "--no-shrink", "--out", t.TempDir()}, 2},
		{"escape", []string{"--host", testBinary(), lib}, 2},
		{"stubborn", []string{"--profile", "projection", "--host", testBinary(), "--library=false", "--seeds", "0", "--edge", "3"}, 1},
	} {
		t.Run(tc.kind+" "+tc.args[0], func(t *testing.T) {
			c, out, errb, pids := conformProcess(t, tc.kind, tc.args...)
			if code := exitCode(t, c, 20*time.Second); code != 0 {
				t.Fatalf("exit %d\n%s%s", code, out, errb)
			}
			if tc.kind == "escape" && runtime.GOOS != "linux" {
				t.Skip("no subreaper on this system")
			}
			requireGone(t, pids, tc.procs)
		})
	}
}

// Ctrl-C or SIGTERM during a run against a correct host: exit 130, "interrupted", no run
// reported or written as a host failure, and no host left running; a second signal
// closes the hosts at once, and the runs it cuts short are not reported either.
func TestConformInterruptedBlamesNoHost(t *testing.T) {
	for _, tc := range []struct {
		name    string
		args    []string
		signals []syscall.Signal
	}{
		{"--host SIGINT", []string{"--host", testBinary()}, []syscall.Signal{syscall.SIGINT}},
		{"--host SIGTERM twice", []string{"--host", testBinary()}, []syscall.Signal{syscall.SIGTERM, syscall.SIGTERM}},
		{"fuzz SIGTERM", []string{"fuzz", "--host", testBinary(), "--seeds", "100000", "--workers", "2"}, []syscall.Signal{syscall.SIGTERM}},
		{"fuzz SIGINT twice", []string{"fuzz", "--host", testBinary(), "--seeds", "100000", "--workers", "2"}, []syscall.Signal{syscall.SIGINT, syscall.SIGINT}},
		{"--profile projection SIGINT", []string{"--profile", "projection", "--host", testBinary(), "--library=false", "--seeds", "0", "--edge", "300"}, []syscall.Signal{syscall.SIGINT}},
		{"--profile projection SIGTERM twice", []string{"--profile", "projection", "--host", testBinary(), "--library=false", "--seeds", "0", "--edge", "300"}, []syscall.Signal{syscall.SIGTERM, syscall.SIGTERM}},
		{"--profile projection SIGINT, a stubborn host", []string{"--profile", "projection", "--host", testBinary(), "--library=false", "--seeds", "0", "--edge", "300"}, []syscall.Signal{syscall.SIGINT}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "failures")
			args := tc.args
			if args[0] != "--host" {
				args = append(args, "--out", out)
			}
			kind := "slow"
			if strings.HasSuffix(tc.name, "a stubborn host") {
				kind = "stubborn" // it ignores SIGTERM and stays after bye: conform waits until it is killed and reaped
			}
			c, stdout, stderr, pids := conformProcess(t, kind, args...)
			if !waitFor(10*time.Second, func() bool { return len(notedPids(t, pids)) > 0 }) {
				t.Fatal("no host started")
			}
			time.Sleep(300 * time.Millisecond) // runs are in progress
			for _, s := range tc.signals {
				c.Process.Signal(s) // back to back: the second comes while runs are in progress
			}
			code := exitCode(t, c, 20*time.Second)
			text := stdout.String() + stderr.String()
			if code != ExitInterrupted || !strings.Contains(stderr.String(), "interrupted") {
				t.Fatalf("exit %d, want %d with \"interrupted\":\n%s", code, ExitInterrupted, text)
			}
			for _, bad := range []string{"LOST ", "FAIL ", "the host was lost", "cannot write to the host", "host-lost"} {
				if strings.Contains(text, bad) {
					t.Fatalf("the interruption is blamed on the host (%q):\n%s", bad, text)
				}
			}
			if es, _ := os.ReadDir(out); len(es) > 0 {
				t.Fatalf("--out holds %d files after an interruption", len(es))
			}
			requireGone(t, pids, 1)
		})
	}
}

// A host that crashes at its hello or at start keeps its stderr in the report: the
// reason it crashed is there, not only "the host closed its output".
func TestACrashBeforeTheRunKeepsTheHostsStderr(t *testing.T) {
	t.Run("at hello", func(t *testing.T) {
		_, err := testHost(t, "exit-at-hello", 2*time.Second).Hello()
		if err == nil || !strings.Contains(err.Error(), "panic: something went wrong") {
			t.Fatalf("err = %v, want the host's stderr", err)
		}
		var out, errb bytes.Buffer
		code := Main([]string{"--host", testBinary(), "../scenarios/library/ask-no-provider.yaml"}, nil, &out, &errb, []string{"CONFORM_TEST_HOST=exit-at-hello"})
		if code != 2 || !strings.Contains(errb.String(), "panic: something went wrong") {
			t.Fatalf("exit %d, want 2 with the host's stderr:\n%s", code, errb.String())
		}
	})
	t.Run("at start", func(t *testing.T) {
		pool := testHost(t, "crash-at-start", 2*time.Second)
		info, err := pool.Hello()
		if err != nil {
			t.Fatal(err)
		}
		r := RunScenario(library(t)[0], "x.yaml", Options{Pool: pool, Info: info, Command: "broken"})
		if r.Result.Status != StatusBroken || !strings.Contains(r.Result.HostLog, "fatal: cannot open the database") {
			t.Fatalf("status %s, lost %q, host log %q; want the host's stderr", r.Result.Status, r.Result.Lost, r.Result.HostLog)
		}
	})
}

// A duplicate key in a reply's envelope is refused, as in an effect: which "n" or
// "deadline" the host meant is no guess.
func TestReplyEnvelopeRefusesADuplicateKey(t *testing.T) {
	for _, line := range []string{
		`{"type":"applied","n":1,"n":2,"effects":[]}`,
		`{"type":"applied","n":1,"effects":[],"deadline":5,"deadline":9}`,
		`{"type":"applied","n":1,"effects":[],"d\u0065adline":5,"deadline":9}`,
	} {
		if _, err := decodeHostMessage([]byte(line)); err == nil || !strings.Contains(err.Error(), "duplicate key") {
			t.Errorf("%s: err = %v, want a duplicate key", line, err)
		}
	}
	for _, line := range []string{
		`{"type":"applied","n":1,"effects":[{"kind":"x","n":1},{"kind":"y","n":2}],"error":"a \"n\": b"}`,
		`{"type":"state","n":3,"state":{"n":{"n":1},"a":["n","n"]}}`,
	} {
		if _, err := decodeHostMessage([]byte(line)); err != nil && strings.Contains(err.Error(), "duplicate") {
			t.Errorf("%s: %v: nested or quoted keys are not the envelope's", line, err)
		}
	}
}

// Limits that cannot be met are bad usage: a --max-line near 2^63 (it overflowed the
// check against a line's length), thousands of --workers (a host process each).
func TestLimitsAreBounded(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--host", testBinary(), "--max-line", "9223372036854775807"}, "--max-line between 1 and"},
		{[]string{"--profile", "projection", "--host", testBinary(), "--max-line", "9223372036854775807"}, "--max-line between 1 and"},
		{[]string{"fuzz", "--host", testBinary(), "--workers", "100000", "--out", t.TempDir()}, "--workers is 0 to 256"},
	} {
		var out, errb bytes.Buffer
		if code := Main(tc.args, nil, &out, &errb, []string{"CONFORM_TEST_HOST=refhost"}); code != 2 || !strings.Contains(errb.String(), tc.want) {
			t.Errorf("%v: exit %d, want 2 with %q:\n%s", tc.args, code, tc.want, errb.String())
		}
	}
	if o := (ProcessOptions{MaxLine: 1<<63 - 1}).normalised(); o.MaxLine != MaxLineLimit {
		t.Errorf("MaxLine %d kept, want %d", o.MaxLine, MaxLineLimit)
	}
}
