package fileio

import (
	"errors"
	"fmt"
	"io"
	"net"
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

// mknod makes a character device like /dev/null (1,3) or /dev/full (1,7) in a temporary
// directory, so the real ones are never at stake; it skips where devices cannot be made.
func mknod(t *testing.T, name string, minor int) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := syscall.Mknod(p, syscall.S_IFCHR|0o666, 1<<8|minor); err != nil {
		t.Skip("cannot make a device here:", err)
	}
	return p
}

func TestWriteAtomicNeverReplacesWhatIsNotARegularFile(t *testing.T) {
	isChar := func(t *testing.T, p string) {
		t.Helper()
		st, err := os.Lstat(p)
		if err != nil || st.Mode()&os.ModeCharDevice == 0 {
			t.Fatalf("%s is no longer a character device: %v, %v", p, st.Mode(), err)
		}
	}
	t.Run("a device like /dev/null is written through", func(t *testing.T) {
		p := mknod(t, "null", 3)
		if err := WriteAtomic(p, []byte("report")); err != nil {
			t.Fatal(err)
		}
		isChar(t, p)
		if err := CheckFile(p); err != nil {
			t.Fatal(err)
		}
	})
	t.Run("a full device is an error, and stays a device", func(t *testing.T) {
		p := mknod(t, "full", 7)
		err := WriteAtomic(p, []byte("report"))
		if !errors.Is(err, syscall.ENOSPC) || !strings.HasPrefix(err.Error(), "cannot write "+p) {
			t.Fatalf("err = %v, want no space left naming %s", err, p)
		}
		isChar(t, p)
	})
	t.Run("a FIFO with a reader gets the data and stays a FIFO", func(t *testing.T) {
		p := filepath.Join(t.TempDir(), "fifo")
		if err := syscall.Mkfifo(p, 0o644); err != nil {
			t.Skip(err)
		}
		got := make(chan string, 1)
		// read-write: open at once, and a reader that never sees the end of the data early
		r, err := os.OpenFile(p, os.O_RDWR, 0)
		if err != nil {
			t.Fatal(err)
		}
		go func() {
			defer r.Close()
			var all []byte
			buf := make([]byte, 1<<16)
			deadline := time.Now().Add(5 * time.Second)
			r.SetReadDeadline(deadline)
			for len(all) < 1<<17 {
				n, err := r.Read(buf)
				all = append(all, buf[:n]...)
				if err != nil {
					break
				}
			}
			got <- string(all)
		}()
		data := strings.Repeat("x", 1<<17) // more than a pipe holds: the write waits for the reader
		if err := WriteAtomic(p, []byte(data)); err != nil {
			t.Fatal(err)
		}
		if s := <-got; s != data {
			t.Fatalf("the reader got %d bytes, want %d", len(s), len(data))
		}
		if st, _ := os.Lstat(p); st.Mode()&os.ModeNamedPipe == 0 {
			t.Fatalf("the FIFO was replaced: %v", st.Mode())
		}
		onlyFiles(t, filepath.Dir(p), "fifo")
	})
	t.Run("a FIFO with no reader is refused at once", func(t *testing.T) {
		p := filepath.Join(t.TempDir(), "fifo")
		if err := syscall.Mkfifo(p, 0o644); err != nil {
			t.Skip(err)
		}
		done := make(chan error, 1)
		go func() { done <- WriteAtomic(p, []byte("x")) }()
		select {
		case err := <-done:
			if err == nil || !strings.Contains(err.Error(), "no reader") {
				t.Fatalf("err = %v, want a named pipe with no reader", err)
			}
		case <-time.After(5 * time.Second):
			t.Fatal("WriteAtomic waited on a FIFO with no reader")
		}
		if st, _ := os.Lstat(p); st.Mode()&os.ModeNamedPipe == 0 {
			t.Fatalf("the FIFO was replaced: %v", st.Mode())
		}
	})
	t.Run("a symlink: its target is replaced, the link stays", func(t *testing.T) {
		dir := t.TempDir()
		os.Mkdir(filepath.Join(dir, "real"), 0o755)
		target := filepath.Join(dir, "real", "report.xml")
		os.WriteFile(target, []byte("old"), 0o644)
		link := filepath.Join(dir, "report.xml")
		if err := os.Symlink("real/report.xml", link); err != nil {
			t.Fatal(err)
		}
		if err := CheckFile(link); err != nil {
			t.Fatal(err)
		}
		if err := WriteAtomic(link, []byte("new")); err != nil {
			t.Fatal(err)
		}
		if st, _ := os.Lstat(link); st.Mode()&os.ModeSymlink == 0 {
			t.Fatalf("the link was replaced: %v", st.Mode())
		}
		if b, _ := os.ReadFile(target); string(b) != "new" {
			t.Fatalf("target holds %q", b)
		}
		onlyFiles(t, filepath.Join(dir, "real"), "report.xml")
	})
	t.Run("a dangling symlink: its target is created", func(t *testing.T) {
		dir := t.TempDir()
		link := filepath.Join(dir, "out")
		os.Symlink(filepath.Join(dir, "made"), link)
		if err := WriteAtomic(link, []byte("new")); err != nil {
			t.Fatal(err)
		}
		if b, _ := os.ReadFile(filepath.Join(dir, "made")); string(b) != "new" {
			t.Fatalf("target holds %q", b)
		}
		if st, _ := os.Lstat(link); st.Mode()&os.ModeSymlink == 0 {
			t.Fatal("the link was replaced")
		}
	})
	t.Run("a loop of links is refused", func(t *testing.T) {
		dir := t.TempDir()
		a, b := filepath.Join(dir, "a"), filepath.Join(dir, "b")
		os.Symlink(b, a)
		os.Symlink(a, b)
		if err := WriteAtomic(a, []byte("x")); err == nil || !strings.Contains(err.Error(), "symbolic links") {
			t.Fatalf("err = %v", err)
		}
	})
	t.Run("a descriptor on a pipe, as /dev/stdout is in CI", func(t *testing.T) {
		r, w, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		defer r.Close()
		p := fmt.Sprintf("/dev/fd/%d", w.Fd())
		if _, err := os.Stat(p); err != nil {
			t.Skip("no /dev/fd:", err)
		}
		if err := CheckFile(p); err != nil {
			t.Fatal(err)
		}
		if err := WriteAtomic(p, []byte("to the pipe")); err != nil {
			t.Fatal(err)
		}
		w.Close()
		if b, _ := io.ReadAll(r); string(b) != "to the pipe" {
			t.Fatalf("the pipe got %q", b)
		}
	})
	t.Run("a descriptor on a file appends to that file, never replaces it", func(t *testing.T) {
		p := filepath.Join(t.TempDir(), "stdout.txt")
		f, err := os.OpenFile(p, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		f.WriteString("before\n")
		fd := fmt.Sprintf("/dev/fd/%d", f.Fd())
		if _, err := os.Stat(fd); err != nil {
			t.Skip("no /dev/fd:", err)
		}
		before, _ := os.Stat(p)
		if err := WriteAtomic(fd, []byte("report\n")); err != nil {
			t.Fatal(err)
		}
		f.WriteString("after\n")
		after, _ := os.Stat(p)
		if !os.SameFile(before, after) {
			t.Fatal("the file behind the descriptor was replaced")
		}
		if b, _ := os.ReadFile(p); string(b) != "before\nreport\nafter\n" {
			t.Fatalf("the file holds %q", b)
		}
	})
	t.Run("a socket is refused", func(t *testing.T) {
		p := filepath.Join(t.TempDir(), "sock")
		l, err := net.Listen("unix", p)
		if err != nil {
			t.Skip(err)
		}
		defer l.Close()
		for _, err := range []error{CheckFile(p), WriteAtomic(p, []byte("x"))} {
			if !errors.Is(err, ErrNotRegular) || !strings.Contains(err.Error(), "socket") {
				t.Fatalf("err = %v, want a socket refused", err)
			}
		}
		if st, _ := os.Lstat(p); st.Mode()&os.ModeSocket == 0 {
			t.Fatal("the socket was replaced")
		}
	})
}
