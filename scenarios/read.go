package scenarios

import (
	"errors"

	"github.com/twosettle/twosettle/fileio"
)

// ReadFile reads the scenario file at path for Decode: a regular file only (a device
// such as /dev/zero, a FIFO or a directory is refused before it is opened), through
// MaxFileSize (a larger file is refused at path:1:1 without being read whole). The
// errors are Errors values, so commands print them like Decode's and exit 2.
func ReadFile(path string) ([]byte, error) {
	data, err := fileio.ReadLimited(path, MaxFileSize)
	var tl *fileio.TooLargeError
	switch {
	case errors.As(err, &tl):
		return nil, Errors{{Pos: Pos{File: path, Line: 1, Col: 1}, Msg: tooLarge, Hint: tooLargeHint}}
	case errors.Is(err, fileio.ErrNotRegular):
		return nil, Errors{{Pos: Pos{File: path}, Msg: errors.Unwrap(err).Error(), Hint: "give the path of a scenario file (.yaml)"}}
	}
	return data, err
}
