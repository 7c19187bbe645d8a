package fileio

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
)

// ErrNotRegular is returned by ReadLimited for a path that is not a regular file (a
// device, a FIFO, a socket, a directory).
var ErrNotRegular = errors.New("not a regular file")

// TooLargeError is returned by ReadLimited for a file larger than its limit.
type TooLargeError struct {
	Path  string
	Limit int64
}

func (e *TooLargeError) Error() string {
	return fmt.Sprintf("%s: the file is larger than %d bytes", e.Path, e.Limit)
}

// ReadLimited reads the regular file at path, refusing anything else before opening it
// (a FIFO is never opened, so it cannot block) and reading at most limit+1 bytes (a file
// larger than limit is a *TooLargeError, found without reading it whole, even when it
// grows after the check).
func ReadLimited(path string, limit int64) ([]byte, error) {
	f, err := OpenLimited(path, limit)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(f)
}

// OpenLimited opens the regular file at path for reading as ReadLimited reads it, for a
// reader that judges its input as it goes (a JSON Lines file, line by line) instead of
// reading it whole first: what it refuses it refuses before opening, and reading past
// limit bytes is a *TooLargeError (a file that grew after the check).
func OpenLimited(path string, limit int64) (io.ReadCloser, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, &fs.PathError{Op: "read", Path: path, Err: notRegular(st.Mode())}
	}
	if st.Size() > limit {
		return nil, &TooLargeError{Path: path, Limit: limit}
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	// The path may have been replaced between Stat and Open: check what was opened.
	if st, err = f.Stat(); err != nil {
		f.Close()
		return nil, err
	}
	if !st.Mode().IsRegular() {
		f.Close()
		return nil, &fs.PathError{Op: "read", Path: path, Err: notRegular(st.Mode())}
	}
	return &limitedFile{f: f, path: path, limit: limit, left: limit}, nil
}

// limitedFile reads a file up to a limit; one byte past it is a *TooLargeError.
type limitedFile struct {
	f           *os.File
	path        string
	limit, left int64
}

func (l *limitedFile) Read(b []byte) (int, error) {
	if l.left < 0 {
		return 0, &TooLargeError{Path: l.path, Limit: l.limit}
	}
	if int64(len(b)) > l.left+1 {
		b = b[:l.left+1]
	}
	n, err := l.f.Read(b)
	l.left -= int64(n)
	if l.left < 0 {
		return 0, &TooLargeError{Path: l.path, Limit: l.limit}
	}
	return n, err
}

func (l *limitedFile) Close() error { return l.f.Close() }

func notRegular(m fs.FileMode) error {
	what := "a special file"
	switch {
	case m.IsDir():
		what = "a directory"
	case m&fs.ModeNamedPipe != 0:
		what = "a named pipe (FIFO)"
	case m&fs.ModeDevice != 0 || m&fs.ModeCharDevice != 0:
		what = "a device"
	case m&fs.ModeSocket != 0:
		what = "a socket"
	}
	return fmt.Errorf("%w: it is %s", ErrNotRegular, what)
}
