package golden

import (
	"embed"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
)

//go:embed library
var library embed.FS

// Suffix is the file suffix of golden files.
const Suffix = ".golden"

// LibraryDir is where the library's goldens live in the source tree, relative to the
// module root.
const LibraryDir = "golden/library"

// Library returns the embedded golden of library scenario name.
func Library(name string) ([]byte, bool) {
	b, err := fs.ReadFile(library, "library/"+name+Suffix)
	return b, err == nil
}

// Read reads a golden file; a missing file is (nil, false, nil).
func Read(path string) ([]byte, bool, error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, false, nil
	}
	return b, err == nil, err
}

// Write writes a golden file atomically (a temporary file renamed over it), so an
// interrupted update never leaves half a golden.
func Write(path string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return err
	}
	_, werr := tmp.Write(data)
	cerr := tmp.Close()
	if werr != nil || cerr != nil {
		os.Remove(tmp.Name())
		return errors.Join(werr, cerr)
	}
	if err := os.Chmod(tmp.Name(), 0o644); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	return os.Rename(tmp.Name(), path)
}
