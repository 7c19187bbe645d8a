package golden

import (
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

func TestReadRefusesAFIFO(t *testing.T) {
	p := filepath.Join(t.TempDir(), "x.golden")
	if err := syscall.Mkfifo(p, 0o644); err != nil {
		t.Skip(err)
	}
	done := make(chan error, 1)
	go func() { _, _, err := Read(p); done <- err }()
	select {
	case err := <-done:
		if err == nil {
			t.Fatal("a FIFO was read as a golden")
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Read waits on a FIFO")
	}
}
