package sessionlog

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"strconv"

	"github.com/twosettle/twosettle/engine/session"
	"github.com/twosettle/twosettle/engine/wire"
	"github.com/twosettle/twosettle/fileio"
)

// MaxLineSize is the longest line a log or view file may hold, its newline excluded (the
// same bound as a host's line under conform, --max-line's default): a line is held in
// memory whole, the file never is.
const MaxLineSize = 16 << 20

// lineReader reads a file's lines one at a time (the lines rule: each ends with '\n', the
// last may not, a '\r' before it is dropped, a byte order mark at the start is not part
// of the first line), each at most max bytes. A line too long is reported as soon as the
// bound is passed, without reading the rest of it.
type lineReader struct {
	name string
	r    *bufio.Reader
	max  int
	n    int // the line last returned, 1-based
}

func newLineReader(name string, r io.Reader, max int) *lineReader {
	return &lineReader{name: name, r: bufio.NewReaderSize(r, 64<<10), max: max}
}

// next returns the next line, a slice of its own (decoders may keep it); io.EOF after
// the last line.
func (lr *lineReader) next() ([]byte, error) {
	var line []byte
	for {
		frag, err := lr.r.ReadSlice('\n')
		if len(line)+len(frag) > lr.max+2 { // room for "\r\n"
			lr.n++
			return nil, &Error{lr.name, lr.n, "the line is longer than " + strconv.Itoa(lr.max) + " bytes"}
		}
		line = append(line, frag...)
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		if err != nil && err != io.EOF {
			return nil, err
		}
		if lr.n == 0 {
			line = bytes.TrimPrefix(line, []byte("\xef\xbb\xbf"))
		}
		if len(line) == 0 {
			return nil, io.EOF
		}
		lr.n++
		line = bytes.TrimSuffix(line, []byte{'\n'})
		line = bytes.TrimSuffix(line, []byte{'\r'})
		if len(line) > lr.max {
			return nil, &Error{lr.name, lr.n, "the line is longer than " + strconv.Itoa(lr.max) + " bytes"}
		}
		return line, nil
	}
}

// LogReader reads a Session log file event by event, judging each line as it is read:
// a malformed line is reported (a *Error, file:line) when it is reached, whatever
// follows it, and only one line is held at a time.
type LogReader struct {
	lr     *lineReader
	header wire.LogHeader
	last   int // the last event's seq
	events int
	closer io.Closer
}

// NewLogReader reads the header line of the log r, named name (for errors).
func NewLogReader(name string, r io.Reader) (*LogReader, error) {
	lr := newLineReader(name, r, MaxLineSize)
	line, err := lr.next()
	if err == io.EOF {
		return nil, &Error{name, 1, "empty file: a Session log starts with its header line {\"format\":\"" + wire.LogFormat + "\",…}"}
	}
	if err != nil {
		return nil, err
	}
	h, err := wire.DecodeLogHeader(line)
	if err != nil {
		return nil, &Error{name, 1, err.Error()}
	}
	return &LogReader{lr: lr, header: h}, nil
}

// OpenLog opens the log file at path as ReadFile reads it (a regular file only, at most
// MaxFileSize bytes) and reads its header; Close closes it.
func OpenLog(path string) (*LogReader, error) {
	f, err := fileio.OpenLimited(path, MaxFileSize)
	if err != nil {
		return nil, err
	}
	r, err := NewLogReader(path, f)
	if err != nil {
		f.Close()
		return nil, err
	}
	r.closer = f
	return r, nil
}

// Header is the log's header line.
func (r *LogReader) Header() wire.LogHeader { return r.header }

// Next returns the next event; io.EOF after the last.
func (r *LogReader) Next() (session.Event, error) {
	line, err := r.lr.next()
	if err != nil {
		return session.Event{}, err
	}
	n := r.lr.n
	if len(bytes.TrimSpace(line)) == 0 {
		return session.Event{}, &Error{r.lr.name, n, "empty line (one event per line, no blank lines)"}
	}
	e, err := wire.DecodeEvent(line)
	if err != nil {
		return session.Event{}, &Error{r.lr.name, n, err.Error()}
	}
	if r.events > 0 && e.Seq <= r.last {
		return session.Event{}, &Error{r.lr.name, n, "event.seq: " + strconv.Itoa(e.Seq) + " after " + strconv.Itoa(r.last) + " (seqs must increase)"}
	}
	if e.Seq < 0 {
		return session.Event{}, &Error{r.lr.name, n, "event.seq: negative seq " + strconv.Itoa(e.Seq)}
	}
	r.last = e.Seq
	r.events++
	return e, nil
}

// Close closes the file OpenLog opened (nothing for NewLogReader's).
func (r *LogReader) Close() error {
	if r.closer == nil {
		return nil
	}
	return r.closer.Close()
}

// ReadAll reads the rest of the log into a Log.
func (r *LogReader) ReadAll() (*Log, error) {
	l := &Log{Session: r.header.Session, Parent: r.header.Parent, Inherited: r.header.Inherited}
	for {
		e, err := r.Next()
		if err == io.EOF {
			return l, nil
		}
		if err != nil {
			return nil, err
		}
		l.Events = append(l.Events, e)
	}
}

// ViewReader reads a view file line by line, as LogReader does a log.
type ViewReader struct {
	lr     *lineReader
	closer io.Closer
}

// NewViewReader reads the view file r, named name (for errors).
func NewViewReader(name string, r io.Reader) *ViewReader {
	return &ViewReader{lr: newLineReader(name, r, MaxLineSize)}
}

// OpenViews opens the view file at path as ReadViewFile reads it; Close closes it.
func OpenViews(path string) (*ViewReader, error) {
	f, err := fileio.OpenLimited(path, MaxFileSize)
	if err != nil {
		return nil, err
	}
	r := NewViewReader(path, f)
	r.closer = f
	return r, nil
}

// Next returns the next view line; io.EOF after the last.
func (r *ViewReader) Next() (wire.ViewLine, error) {
	line, err := r.lr.next()
	if err != nil {
		return wire.ViewLine{}, err
	}
	if len(bytes.TrimSpace(line)) == 0 {
		return wire.ViewLine{}, &Error{r.lr.name, r.lr.n, "empty line (one view per line, no blank lines)"}
	}
	v, err := wire.DecodeViewLine(line)
	if err != nil {
		return wire.ViewLine{}, &Error{r.lr.name, r.lr.n, err.Error()}
	}
	return v, nil
}

// Close closes the file OpenViews opened (nothing for NewViewReader's).
func (r *ViewReader) Close() error {
	if r.closer == nil {
		return nil
	}
	return r.closer.Close()
}
