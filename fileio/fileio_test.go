package fileio

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

func TestReadLimitedRefusesWhatIsNotARegularFile(t *testing.T) {
	t.Run("/dev/zero is a device, refused before any byte is read", func(t *testing.T) {
		if _, err := os.Stat("/dev/zero"); err != nil {
			t.Skip("no /dev/zero")
		}
		_, err := ReadLimited("/dev/zero", 1<<20)
		if !errors.Is(err, ErrNotRegular) || !strings.Contains(err.Error(), "a device") {
			t.Fatalf("err = %v, want not a regular file: a device", err)
		}
	})
	t.Run("a FIFO with no writer is refused at once, not waited on", func(t *testing.T) {
		p := filepath.Join(t.TempDir(), "fifo.yaml")
		if err := syscall.Mkfifo(p, 0o644); err != nil {
			t.Skip("no mkfifo:", err)
		}
		done := make(chan error, 1)
		go func() { _, err := ReadLimited(p, 1<<20); done <- err }()
		select {
		case err := <-done:
			if !errors.Is(err, ErrNotRegular) || !strings.Contains(err.Error(), "named pipe") {
				t.Fatalf("err = %v, want not a regular file: a named pipe", err)
			}
		case <-time.After(5 * time.Second):
			t.Fatal("ReadLimited blocked on a FIFO")
		}
	})
	t.Run("a directory", func(t *testing.T) {
		_, err := ReadLimited(t.TempDir(), 1<<20)
		if !errors.Is(err, ErrNotRegular) {
			t.Fatalf("err = %v", err)
		}
	})
}

func TestReadLimitedRefusesALargeFileWithoutReadingIt(t *testing.T) {
	p := filepath.Join(t.TempDir(), "big.yaml")
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	// A sparse 50 MB file: its size is refused from Stat, before it is opened.
	if err := f.Truncate(50 << 20); err != nil {
		t.Fatal(err)
	}
	f.Close()
	_, err = ReadLimited(p, 1<<20)
	var tl *TooLargeError
	if !errors.As(err, &tl) || tl.Limit != 1<<20 {
		t.Fatalf("err = %v, want TooLargeError", err)
	}
	small := filepath.Join(t.TempDir(), "ok.yaml")
	os.WriteFile(small, []byte("abc"), 0o644)
	if b, err := ReadLimited(small, 3); err != nil || string(b) != "abc" {
		t.Fatalf("a file at the limit: %q, %v", b, err)
	}
	if _, err := ReadLimited(small, 2); !errors.As(err, &tl) {
		t.Fatalf("a file one byte over the limit: %v", err)
	}
}

func TestWriteAtomic(t *testing.T) {
	t.Run("0644, whole content, nothing left behind", func(t *testing.T) {
		dir := t.TempDir()
		p := filepath.Join(dir, "out.yaml")
		old := syscall.Umask(0o022)
		defer syscall.Umask(old)
		if err := WriteAtomic(p, []byte("one")); err != nil {
			t.Fatal(err)
		}
		if err := WriteAtomic(p, []byte("two")); err != nil {
			t.Fatal(err)
		}
		st, err := os.Stat(p)
		if err != nil || st.Mode().Perm() != 0o644 {
			t.Fatalf("mode %v, %v; want 0644", st.Mode(), err)
		}
		if b, _ := os.ReadFile(p); string(b) != "two" {
			t.Fatalf("content %q", b)
		}
		onlyFiles(t, dir, "out.yaml")
	})
	t.Run("a failed rename removes the temporary file and names the target", func(t *testing.T) {
		dir := t.TempDir()
		target := filepath.Join(dir, "taken")
		if err := os.Mkdir(target, 0o755); err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(target, "x"), nil, 0o644) // a non-empty directory cannot be renamed over
		err := WriteAtomic(target, []byte("data"))
		if err == nil || !strings.HasPrefix(err.Error(), "cannot write "+target+": ") || strings.Contains(err.Error(), ".tmp-") {
			t.Fatalf("err = %v, want one naming %s and not the temporary file", err, target)
		}
		onlyFiles(t, dir, "taken")
	})
	t.Run("a missing directory names the target, not a temporary file", func(t *testing.T) {
		p := filepath.Join(t.TempDir(), "missing", "run.html")
		err := WriteAtomic(p, []byte("x"))
		if err == nil || !strings.HasPrefix(err.Error(), "cannot write "+p+": ") || strings.Contains(err.Error(), ".tmp") {
			t.Fatalf("err = %v", err)
		}
	})
}

func TestCheckDirAndCheckFile(t *testing.T) {
	dir := t.TempDir()
	if err := CheckDir(filepath.Join(dir, "a", "b")); err != nil {
		t.Fatalf("a new directory: %v", err)
	}
	os.Mkdir(filepath.Join(dir, "a"), 0o755) // CheckDir creates nothing: the listing below expects a
	file := filepath.Join(dir, "f")
	os.WriteFile(file, nil, 0o644)
	if err := CheckDir(filepath.Join(file, "sub")); err == nil {
		t.Fatal("a directory under a file was accepted")
	}
	if err := CheckFile(filepath.Join(dir, "missing", "x.xml")); err == nil {
		t.Fatal("a file in a missing directory was accepted")
	}
	if err := CheckFile(dir); err == nil {
		t.Fatal("a directory as the output file was accepted")
	}
	if err := CheckFile(filepath.Join(dir, "x.xml")); err != nil {
		t.Fatal(err)
	}
	if os.Geteuid() != 0 {
		ro := filepath.Join(dir, "ro")
		os.Mkdir(ro, 0o555)
		if err := CheckDir(ro); err == nil {
			t.Fatal("a read-only directory was accepted")
		}
		if err := CheckFile(filepath.Join(ro, "x")); err == nil {
			t.Fatal("a file in a read-only directory was accepted")
		}
	}
	if os.Geteuid() != 0 {
		onlyFiles(t, dir, "a", "f", "ro")
	} else {
		onlyFiles(t, dir, "a", "f")
	}
}

func onlyFiles(t *testing.T, dir string, want ...string) {
	t.Helper()
	es, _ := os.ReadDir(dir)
	var got []string
	for _, e := range es {
		got = append(got, e.Name())
	}
	if strings.Join(got, ",") != strings.Join(want, ",") {
		t.Fatalf("%s holds %v, want %v", dir, got, want)
	}
}
