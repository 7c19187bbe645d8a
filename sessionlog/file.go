package sessionlog

import (
	"github.com/twosettle/twosettle/engine/wire"
	"github.com/twosettle/twosettle/fileio"
)

// MaxFileSize is the largest log or view file ReadFile and ReadViewFile read: months of
// one Session's events fit far below it.
const MaxFileSize = 1 << 30

// ReadFile reads and decodes the log file at path: a regular file only, through
// MaxFileSize (fileio.ReadLimited), decoded by Decode.
func ReadFile(path string) (*Log, error) {
	data, err := fileio.ReadLimited(path, MaxFileSize)
	if err != nil {
		return nil, err
	}
	return Decode(path, data)
}

// ReadViewFile reads and decodes the view file at path, as ReadFile does a log.
func ReadViewFile(path string) ([]wire.ViewLine, error) {
	data, err := fileio.ReadLimited(path, MaxFileSize)
	if err != nil {
		return nil, err
	}
	return DecodeViews(path, data)
}
