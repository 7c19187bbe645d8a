package main

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
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
	commands := [][]string{{"run"}, {"check"}, {"replay"}, {"shrink"}, {"timeline", "-o", html}, {"coverage"}}
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
