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
	defer f.Close()
	// The path may have been replaced between Stat and Open: check what was opened.
	if st, err = f.Stat(); err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, &fs.PathError{Op: "read", Path: path, Err: notRegular(st.Mode())}
	}
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > limit {
		return nil, &TooLargeError{Path: path, Limit: limit}
	}
	return data, nil
}

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
