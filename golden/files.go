package golden

import (
	"embed"
	"errors"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/twosettle/twosettle/fileio"
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

// MaxFileSize is the largest golden file Read reads (a transcript of the largest run the
// scenario limits allow is far below it).
const MaxFileSize = 1 << 30

// Read reads a golden file, a regular file only (fileio.ReadLimited: a FIFO or a device
// put where a golden goes is refused, not waited on or read forever); a missing file is
// (nil, false, nil).
func Read(path string) ([]byte, bool, error) {
	b, err := fileio.ReadLimited(path, MaxFileSize)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, false, nil
	}
	return b, err == nil, err
}

// Write writes a golden file atomically (fileio.WriteAtomic: a temporary file, 0644,
// fsynced and renamed over it), so an interrupted update never leaves half a golden.
func Write(path string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return fileio.WriteAtomic(path, data)
}
