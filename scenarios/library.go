package scenarios

import (
	"embed"
	"io/fs"
	"path"
	"sort"
	"strings"
)

//go:embed library
var library embed.FS

// File is one scenario file: its path (for messages) and its bytes.
type File struct {
	Path string
	Data []byte
}

// LibraryDir is where the library's files live in the source tree, relative to the
// module root; their embedded paths are reported under it.
const LibraryDir = "scenarios/library"

// Library returns the embedded scenario library (scenarios/library/*.yaml), sorted by
// file name, so an installed binary runs it from any directory.
func Library() []File {
	entries, err := fs.ReadDir(library, "library")
	if err != nil {
		return nil
	}
	var out []File
	for _, e := range entries {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".yaml") {
			continue
		}
		data, err := fs.ReadFile(library, "library/"+e.Name())
		if err != nil {
			continue
		}
		out = append(out, File{Path: path.Join(LibraryDir, e.Name()), Data: data})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out
}
