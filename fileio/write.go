package fileio

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// Mode is the mode of every file WriteAtomic writes: files to read and share, not
// CreateTemp's private 0600.
const Mode = 0o644

// WriteAtomic writes data to path so that a reader sees either the old file or the
// whole new one: a temporary file in the same directory (so the rename never crosses a
// file system), chmod 0644, write, fsync, close, rename. On every error the temporary
// file is removed and the error names path, never the temporary file.
func WriteAtomic(path string, data []byte) (err error) {
	dir := filepath.Dir(path)
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp-*")
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
	if err = os.Rename(tmp, path); err != nil {
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

// CheckFile makes sure path can be written by WriteAtomic later: its directory exists
// and takes new files, and path itself is not a directory.
func CheckFile(path string) error {
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		return fmt.Errorf("cannot write %s: it is a directory", path)
	}
	dir := filepath.Dir(path)
	st, err := os.Stat(dir)
	if err != nil {
		return fmt.Errorf("cannot write %s: %w", path, unwrapPath(err))
	}
	if !st.IsDir() {
		return fmt.Errorf("cannot write %s: %s is not a directory", path, dir)
	}
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".write-check-*")
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
