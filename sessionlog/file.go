package sessionlog

import (
	"github.com/twosettle/twosettle/engine/wire"
)

// MaxFileSize is the largest log or view file ReadFile and ReadViewFile read: months of
// one Session's events fit far below it.
const MaxFileSize = 1 << 30

// ReadFile reads and decodes the log file at path: a regular file only, through
// MaxFileSize (fileio.OpenLimited), judged line by line as it is read (LogReader), so a
// malformed line is reported when it is reached, not after the whole file was read.
func ReadFile(path string) (*Log, error) {
	r, err := OpenLog(path)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	return r.ReadAll()
}

// ReadViewFile reads and decodes the view file at path, as ReadFile does a log.
func ReadViewFile(path string) ([]wire.ViewLine, error) {
	r, err := OpenViews(path)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	return readViews(r)
}
