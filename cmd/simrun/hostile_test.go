package main

import (
	"fmt"
	"io"
	"net"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/twosettle/twosettle/explore"
)

// The hostile-input tests: every command that reads a scenario refuses what is not a
// scenario file with exit 2 and a position, quickly and in little memory (.ci/run runs
// them on their own).

func TestHostileInputIsRefusedWithExit2(t *testing.T) {
	dir := t.TempDir()
	big := filepath.Join(dir, "big.yaml")
	f, _ := os.Create(big)
	f.Truncate(50 << 20)
	f.Close()
	fifo := filepath.Join(dir, "fifo.yaml")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skip("no mkfifo:", err)
	}
	html := filepath.Join(dir, "t.html")
	inputs := []struct{ path, want string }{
		{"/dev/zero", "/dev/zero: not a regular file: it is a device"},
		{fifo, fifo + ": not a regular file: it is a named pipe (FIFO)"},
		{big, big + ":1:1: the file is larger than 1048576 bytes (1 MiB)"},
	}
	commands := [][]string{{"run"}, {"check"}, {"replay"}, {"shrink"}, {"timeline", "-o", html}, {"coverage"}, {"record", "-o", html + ".run"}}
	for _, in := range inputs {
		for _, c := range commands {
			args := append(append([]string{}, c...), in.path)
			t.Run(strings.Join(args, " "), func(t *testing.T) {
				type res struct {
					code     int
					out, err string
				}
				done := make(chan res, 1)
				go func() { c, o, e := run(args...); done <- res{c, o, e} }()
				select {
				case r := <-done:
					if r.code != 2 || !strings.Contains(r.out+r.err, in.want) {
						t.Fatalf("exit %d, want 2 with %q:\n%s%s", r.code, in.want, r.out, r.err)
					}
				case <-time.After(20 * time.Second):
					t.Fatal("the command hangs")
				}
			})
		}
	}
}

// Lost output: every output location is checked before the work starts (exit 2), a
// write that fails later is not reported as success, and nothing reports work it did
// not do.
func TestHostileOutputLocations(t *testing.T) {
	dir := t.TempDir()
	scen := write(t, dir, "ok-scenario.yaml", okScenario)
	file := write(t, dir, "plain-file", "x")
	under := filepath.Join(file, "sub") // a directory under a file: nothing can be written there
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"fuzz", "--seeds", "100000", "--out", under}, "simrun fuzz: --out: cannot write to " + under},
		{[]string{"mutants", "--only", "legacy-tracked", "--no-library", "--out", under}, "simrun mutants: --out: cannot write to " + under},
		{[]string{"timeline", scen, "-o", filepath.Join(dir, "missing", "run.html")}, "simrun timeline: -o: cannot write " + filepath.Join(dir, "missing", "run.html")},
		{[]string{"shrink", scen, "--out", filepath.Join(dir, "missing", "s.yaml")}, "simrun shrink: cannot write " + filepath.Join(dir, "missing", "s.yaml")},
		{[]string{"record", scen, "-o", filepath.Join(dir, "missing", "r.jsonl")}, "simrun record: -o: cannot write " + filepath.Join(dir, "missing", "r.jsonl")},
	}
	for _, c := range cases {
		t.Run(strings.Join(c.args[:1], " "), func(t *testing.T) {
			begin := time.Now()
			code, out, errs := run(c.args...)
			if code != 2 || !strings.Contains(errs, c.want) || strings.Contains(errs, ".tmp") {
				t.Fatalf("exit %d, want 2 with %q:\n%s%s", code, c.want, out, errs)
			}
			if d := time.Since(begin); d > 5*time.Second {
				t.Fatalf("refused only after %s of work", d)
			}
		})
	}
}

func TestHostileMutantsWitnessNotWrittenIsNotSuccess(t *testing.T) {
	out := t.TempDir()
	// A non-empty directory where the witness goes: the location passes the check, the
	// rename into place fails.
	os.MkdirAll(filepath.Join(out, "legacy-tracked.yaml", "x"), 0o755)
	code, stdout, errs := run("mutants", "--only", "legacy-tracked", "--seeds", "20", "--no-library", "--out", out)
	if code != 2 || !strings.Contains(errs, "1 witnesses could not be written") || !strings.Contains(errs, "cannot write "+filepath.Join(out, "legacy-tracked.yaml")) {
		t.Fatalf("exit %d, want 2:\n%s%s", code, stdout, errs)
	}
	es, _ := os.ReadDir(out)
	if len(es) != 1 {
		t.Fatalf("left behind: %v", es)
	}
	// and a witness that is written is 0644
	out2 := t.TempDir()
	if code, o, e := run("mutants", "--only", "legacy-tracked", "--seeds", "20", "--no-library", "--out", out2); code != 0 {
		t.Fatalf("exit %d\n%s%s", code, o, e)
	}
	st, err := os.Stat(filepath.Join(out2, "legacy-tracked.yaml"))
	if err != nil || st.Mode().Perm() != 0o644 {
		t.Fatalf("witness mode %v %v, want 0644", st, err)
	}
}

func TestHostileFuzzNoShrinkDoesNotClaimShrinking(t *testing.T) {
	code, out, errs := run("fuzz", "--mutant", "legacy-tracked", "--seeds", "20", "--no-shrink", "--workers", "1", "--out", t.TempDir())
	if code != 1 || !strings.Contains(out, "not shrunk (") || strings.Contains(out, "shrunk ") && strings.Contains(out, " -> ") {
		t.Fatalf("exit %d:\n%s%s", code, out, errs)
	}
}

func TestHostileInterruptedCampaignIsNotAPass(t *testing.T) {
	for _, c := range []struct {
		rep  explore.Report
		want int
	}{
		{explore.Report{SeedsRun: 10}, 0},
		{explore.Report{SeedsRun: 3, Interrupted: true}, ExitInterrupted},
		{explore.Report{SeedsRun: 3, Interrupted: true, Failures: []explore.Failure{{Seed: 2}}}, 1},
		{explore.Report{SeedsRun: 10, Failures: []explore.Failure{{Seed: 2}}}, 1},
	} {
		if got := campaignExit(&c.rep); got != c.want {
			t.Errorf("%+v: exit %d, want %d", c.rep, got, c.want)
		}
	}
	if ExitInterrupted == 0 {
		t.Fatal("an interrupted campaign exits 0")
	}
}

func TestHostileFuzzInterruptedBySignalExits130(t *testing.T) {
	type res struct {
		code     int
		out, err string
	}
	// The test's own handler keeps a SIGTERM that arrives before the campaign's from
	// ending the test binary; the signal is repeated until the campaign has taken one.
	mine := make(chan os.Signal, 8)
	signal.Notify(mine, syscall.SIGTERM)
	defer signal.Stop(mine)
	done := make(chan res, 1)
	go func() {
		c, o, e := run("fuzz", "--duration", "2m", "--workers", "1", "--out", t.TempDir())
		done <- res{c, o, e}
	}()
	time.Sleep(time.Second) // the campaign is running
	tick := time.NewTicker(500 * time.Millisecond)
	defer tick.Stop()
	deadline := time.After(60 * time.Second)
	for {
		if err := syscall.Kill(os.Getpid(), syscall.SIGTERM); err != nil {
			t.Skip("cannot signal the test process:", err)
		}
		select {
		case r := <-done:
			if r.code != ExitInterrupted || !strings.Contains(r.out, ", interrupted,") || !strings.Contains(r.err, "exit 130") {
				t.Fatalf("exit %d, want %d:\n%s%s", r.code, ExitInterrupted, r.out, r.err)
			}
			return
		case <-deadline:
			t.Fatal("the campaign did not stop on SIGTERM")
		case <-tick.C:
		}
	}
}

func TestHostileExpectRefusesARunFileThatIsNotARegularFile(t *testing.T) {
	scen := write(t, t.TempDir(), "ok-scenario.yaml", okScenario)
	for _, args := range [][]string{{"expect", scen, "/dev/zero"}, {"expect", "/dev/zero", scen}} {
		code, out, errs := run(args...)
		if code != 2 || !strings.Contains(out+errs, "/dev/zero: not a regular file") {
			t.Fatalf("%v: exit %d\n%s%s", args, code, out, errs)
		}
	}
}

// A full stdout (/dev/full) is lost output, not success: every command that reports on
// stdout exits 2 and says so on stderr.
func TestHostileFullStdoutIsNotSuccess(t *testing.T) {
	full, err := os.OpenFile("/dev/full", os.O_WRONLY, 0)
	if err != nil {
		t.Skip("no /dev/full:", err)
	}
	defer full.Close()
	scen := write(t, t.TempDir(), "ok-scenario.yaml", okScenario)
	for _, args := range [][]string{
		{"run", scen},
		{"run", "--json", scen},
		{"check", scen},
		{"fuzz", "--seeds", "3", "--workers", "1", "--json", "--out", t.TempDir()},
		{"fuzz", "--seeds", "3", "--workers", "1", "--out", t.TempDir()},
	} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			var errb strings.Builder
			code := Main(args, full, &errb)
			if code != 2 || !strings.Contains(errb.String(), "simrun: cannot write the output: ") || !strings.Contains(errb.String(), "no space left") {
				t.Fatalf("exit %d, want 2 with the write error:\n%s", code, errb.String())
			}
		})
	}
}

// --junit on what is not a regular file: written through a device, a FIFO with a reader
// or a descriptor (/dev/stdout), to the target of a symlink; never replaced by a file.
func TestHostileJUnitOnANonRegularFileIsWrittenThrough(t *testing.T) {
	dir := t.TempDir()
	scen := write(t, dir, "ok-scenario.yaml", okScenario)
	t.Run("a device like /dev/null", func(t *testing.T) {
		dev := filepath.Join(t.TempDir(), "null")
		if err := syscall.Mknod(dev, syscall.S_IFCHR|0o666, 1<<8|3); err != nil {
			t.Skip("cannot make a device here:", err)
		}
		if code, out, errs := run("run", scen, "--junit", dev); code != 0 {
			t.Fatalf("exit %d\n%s%s", code, out, errs)
		}
		if st, err := os.Lstat(dev); err != nil || st.Mode()&os.ModeCharDevice == 0 {
			t.Fatalf("the device was replaced: %v %v", st.Mode(), err)
		}
	})
	t.Run("a full device exits 2", func(t *testing.T) {
		dev := filepath.Join(t.TempDir(), "full")
		if err := syscall.Mknod(dev, syscall.S_IFCHR|0o666, 1<<8|7); err != nil {
			t.Skip("cannot make a device here:", err)
		}
		if code, out, errs := run("run", scen, "--junit", dev); code != 2 || !strings.Contains(errs, "no space left") {
			t.Fatalf("exit %d, want 2\n%s%s", code, out, errs)
		}
	})
	t.Run("a descriptor on a pipe, as --junit /dev/stdout", func(t *testing.T) {
		r, w, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		defer r.Close()
		got := make(chan string, 1)
		go func() { b, _ := io.ReadAll(r); got <- string(b) }()
		fd := fmt.Sprintf("/dev/fd/%d", w.Fd())
		code, out, errs := run("run", scen, "--junit", fd)
		w.Close()
		if code != 0 || !strings.Contains(<-got, "<testsuites") {
			t.Fatalf("exit %d, the pipe got no report\n%s%s", code, out, errs)
		}
	})
	t.Run("a symlink", func(t *testing.T) {
		target := filepath.Join(t.TempDir(), "report.xml")
		link := filepath.Join(t.TempDir(), "link.xml")
		os.Symlink(target, link)
		if code, out, errs := run("run", scen, "--junit", link); code != 0 {
			t.Fatalf("exit %d\n%s%s", code, out, errs)
		}
		if st, err := os.Lstat(link); err != nil || st.Mode()&os.ModeSymlink == 0 {
			t.Fatal("the link was replaced")
		}
		if b, _ := os.ReadFile(target); !strings.Contains(string(b), "<testsuites") {
			t.Fatalf("the target holds %q", b)
		}
	})
	t.Run("a socket exits 2 before the work", func(t *testing.T) {
		sock := filepath.Join(t.TempDir(), "sock")
		l, err := net.Listen("unix", sock)
		if err != nil {
			t.Skip(err)
		}
		defer l.Close()
		if code, out, errs := run("run", scen, "--junit", sock); code != 2 || !strings.Contains(errs, "it is a socket") {
			t.Fatalf("exit %d, want 2\n%s%s", code, out, errs)
		}
	})
}
