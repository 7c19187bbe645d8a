package fileio

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
)

// Mode is the mode of every file WriteAtomic writes: files to read and share, not
// CreateTemp's private 0600.
const Mode = 0o644

// WriteAtomic writes data to path so that a reader sees either the old file or the
// whole new one: a temporary file in the same directory (so the rename never crosses a
// file system), chmod 0644, write, fsync, close, rename. On every error the temporary
// file is removed and the error names path, never the temporary file.
//
// Only a regular file (or a name not yet taken) is replaced that way. What path names is
// never replaced by a regular file (see Resolve):
//   - a symbolic link is followed: its target is written (replaced atomically when it is
//     a regular file or does not exist yet), the link itself stays;
//   - a character device or a named pipe (/dev/null, /dev/stdout on a pipe, a FIFO with a
//     reader) is written through: opened for writing and written, never renamed over;
//   - a descriptor (/dev/stdout, /dev/fd/N, /proc/self/fd/N) is written through whatever
//     it is, appending when it is a regular file (the shell's `> file`);
//   - a directory, a socket, a block device and a named pipe with no reader are refused.
//
// Any write that fails (a full device, a closed pipe) is an error.
func WriteAtomic(path string, data []byte) error {
	t, err := Resolve(path)
	if err != nil {
		return err
	}
	if t.Through {
		return writeThrough(path, t, data)
	}
	return replace(path, t.Path, data)
}

// A Target is where a write to a path goes.
type Target struct {
	// Path is the file written: the path given, or the end of its symbolic links.
	Path string
	// Through: the file is opened and written, not replaced (a device, a named pipe, a
	// descriptor).
	Through bool
	// Mode is the file's type when it exists.
	Mode fs.FileMode
	// Descriptor: path goes through /dev/fd or /proc (/dev/stdout is one).
	Descriptor bool
}

// Resolve says where a write to path goes (see WriteAtomic), or why path cannot be
// written: a directory, a socket, a block device, a loop of links.
func Resolve(path string) (Target, error) {
	p := path
	for hops := 0; ; hops++ {
		if hops > 40 {
			return Target{}, fmt.Errorf("cannot write %s: too many levels of symbolic links", path)
		}
		if isDescriptor(p) {
			st, err := os.Stat(path)
			if err != nil {
				return Target{}, fmt.Errorf("cannot write %s: %w", path, unwrapPath(err))
			}
			if !st.Mode().IsRegular() {
				if err := writable(path, st.Mode()); err != nil {
					return Target{}, err
				}
			}
			return Target{Path: path, Through: true, Mode: st.Mode(), Descriptor: true}, nil
		}
		st, err := os.Lstat(p)
		if errors.Is(err, fs.ErrNotExist) {
			return Target{Path: p}, nil
		}
		if err != nil {
			return Target{}, fmt.Errorf("cannot write %s: %w", path, unwrapPath(err))
		}
		m := st.Mode()
		switch {
		case m&fs.ModeSymlink != 0:
			l, err := os.Readlink(p)
			if err != nil {
				return Target{}, fmt.Errorf("cannot write %s: %w", path, unwrapPath(err))
			}
			if !filepath.IsAbs(l) {
				l = filepath.Join(filepath.Dir(p), l)
			}
			p = l
			continue
		case m.IsRegular():
			return Target{Path: p, Mode: m}, nil
		}
		if err := writable(path, m); err != nil {
			return Target{}, err
		}
		return Target{Path: p, Through: true, Mode: m}, nil
	}
}

// writable refuses what cannot be written through: only a character device and a named
// pipe can.
func writable(path string, m fs.FileMode) error {
	if m&fs.ModeNamedPipe != 0 || (m&fs.ModeCharDevice != 0 && m&fs.ModeDevice != 0) {
		return nil
	}
	what := notRegular(m)
	if m&fs.ModeDevice != 0 {
		what = fmt.Errorf("%w: it is a block device", ErrNotRegular)
	}
	return fmt.Errorf("cannot write %s: %w", path, what)
}

// isDescriptor reports whether p names an open descriptor (/dev/stdout's target, /dev/fd/N,
// /proc/self/fd/N): reopening it is how a write reaches that descriptor.
func isDescriptor(p string) bool {
	p = filepath.Clean(p)
	switch p {
	case "/dev/stdout", "/dev/stderr":
		return true
	}
	return strings.HasPrefix(p, "/dev/fd/") || strings.HasPrefix(p, "/proc/")
}

// writeThrough opens path for writing and writes data (a named pipe with no reader is
// refused at once, not waited on).
func writeThrough(path string, t Target, data []byte) error {
	flags := os.O_WRONLY
	if t.Mode.IsRegular() {
		flags |= os.O_APPEND // a descriptor on a file: after what it holds, as `>` and `>>` write
	}
	if t.Mode&fs.ModeNamedPipe != 0 {
		flags |= syscall.O_NONBLOCK
	}
	f, err := os.OpenFile(path, flags, 0)
	if err != nil {
		if errors.Is(err, syscall.ENXIO) && t.Mode&fs.ModeNamedPipe != 0 {
			return fmt.Errorf("cannot write %s: it is a named pipe (FIFO) with no reader", path)
		}
		return writeErr(path, err)
	}
	st, err := f.Stat()
	if err == nil && st.Mode().IsRegular() && !t.Mode.IsRegular() {
		err = errors.New("it was replaced by a regular file while being opened")
	}
	if err == nil {
		_, err = f.Write(data)
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return writeErr(path, err)
	}
	return nil
}

// replace writes data to a temporary file beside target and renames it over target;
// errors name path.
func replace(path, target string, data []byte) (err error) {
	dir := filepath.Dir(target)
	f, err := os.CreateTemp(dir, "."+filepath.Base(target)+".tmp-*")
	if err != nil {
		return writeErr(path, err)
	}
	tmp := f.Name()
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(tmp)
			err = writeErr(path, err)
		}
	}()
	if err = f.Chmod(Mode); err != nil {
		return err
	}
	if _, err = f.Write(data); err != nil {
		return err
	}
	if err = f.Sync(); err != nil {
		return err
	}
	if err = f.Close(); err != nil {
		return err
	}
	if err = os.Rename(tmp, target); err != nil {
		return err
	}
	syncDir(dir)
	return nil
}

// writeErr names path and the underlying cause without the temporary file's name.
func writeErr(path string, err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	var le *os.LinkError
	if errors.As(err, &le) {
		err = le.Err
	}
	return fmt.Errorf("cannot write %s: %w", path, err)
}

// syncDir makes the rename durable where the system allows it (best effort: some file
// systems refuse to sync a directory, and the data itself is already synced).
func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
}

// CheckDir makes sure files can be written into dir later (WriteAtomic after
// os.MkdirAll): dir, or the nearest of its parents that exists, is a directory that takes
// new files (a probe file is created and removed; nothing else is left behind). A command
// calls it before its work starts, so an unwritable output is bad usage (exit 2), not a
// campaign's result lost at its end.
func CheckDir(dir string) error {
	d := filepath.Clean(dir)
	for {
		st, err := os.Stat(d)
		if err == nil {
			if !st.IsDir() {
				return fmt.Errorf("cannot write to %s: %s is not a directory", dir, d)
			}
			break
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("cannot write to %s: %w", dir, unwrapPath(err))
		}
		parent := filepath.Dir(d)
		if parent == d {
			return fmt.Errorf("cannot write to %s: %w", dir, unwrapPath(err))
		}
		d = parent
	}
	f, err := os.CreateTemp(d, ".write-check-*")
	if err != nil {
		return fmt.Errorf("cannot write to %s: %w", dir, unwrapPath(err))
	}
	f.Close()
	os.Remove(f.Name())
	return nil
}

// CheckFile makes sure path can be written by WriteAtomic later: what it names can be
// written through (a character device, a named pipe, a descriptor), or the file it
// names (at the end of its symbolic links) is not a directory and its directory exists
// and takes new files.
func CheckFile(path string) error {
	t, err := Resolve(path)
	if err != nil {
		return err
	}
	if t.Through {
		return nil
	}
	if st, err := os.Stat(t.Path); err == nil && st.IsDir() {
		return fmt.Errorf("cannot write %s: it is a directory", path)
	}
	dir := filepath.Dir(t.Path)
	st, err := os.Stat(dir)
	if err != nil {
		return fmt.Errorf("cannot write %s: %w", path, unwrapPath(err))
	}
	if !st.IsDir() {
		return fmt.Errorf("cannot write %s: %s is not a directory", path, dir)
	}
	f, err := os.CreateTemp(dir, "."+filepath.Base(t.Path)+".write-check-*")
	if err != nil {
		return fmt.Errorf("cannot write %s: %w", path, unwrapPath(err))
	}
	f.Close()
	os.Remove(f.Name())
	return nil
}

func unwrapPath(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
