package sessionlog

import (
	"bytes"
	"strconv"

	"github.com/twosettle/twosettle/engine/session"
	"github.com/twosettle/twosettle/engine/wire"
)

// Log is one Session's log: the header's fields and its events in order.
type Log struct {
	Session   string
	Parent    string // fork parent, "" for none
	Inherited int    // the first Inherited events were copied from the parent (PROJ-11)
	Events    []session.Event
}

// Header is the log's header line value.
func (l *Log) Header() wire.LogHeader {
	return wire.LogHeader{Session: l.Session, Parent: l.Parent, Inherited: l.Inherited}
}

// FromState is the log of a Session as a host state holds it.
func FromState(ss wire.SessionState) *Log {
	return &Log{Session: ss.ID, Parent: ss.Parent, Inherited: ss.Inherited, Events: ss.Log}
}

// Error is a malformed file: its name, the 1-based line and what is wrong.
type Error struct {
	File string
	Line int
	Msg  string
}

func (e *Error) Error() string { return e.File + ":" + strconv.Itoa(e.Line) + ": " + e.Msg }

// Append appends the whole file of l: the header line and one line per event.
func Append(b []byte, l *Log) ([]byte, error) {
	b = wire.AppendLogHeaderJSON(b, l.Header())
	b = append(b, '\n')
	for _, e := range l.Events {
		var err error
		if b, err = wire.AppendEventJSON(b, e); err != nil {
			return b, err
		}
		b = append(b, '\n')
	}
	return b, nil
}

// lines splits a file into its lines: each ends with '\n' (the last may not), and a
// '\r' before it is dropped. A file that ends with a newline has no empty last line.
//
// A UTF-8 byte order mark at the start of the file (which some editors on Windows
// write) is not part of the first line: JSON allows a reader to ignore it, and it was
// reported as "invalid character 'ï'".
func lines(data []byte) [][]byte {
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	var out [][]byte
	for len(data) > 0 {
		i := bytes.IndexByte(data, '\n')
		var line []byte
		if i < 0 {
			line, data = data, nil
		} else {
			line, data = data[:i], data[i+1:]
		}
		out = append(out, bytes.TrimSuffix(line, []byte{'\r'}))
	}
	return out
}

// Decode reads a log file named name (for errors).
func Decode(name string, data []byte) (*Log, error) {
	ls := lines(data)
	if len(ls) == 0 {
		return nil, &Error{name, 1, "empty file: a Session log starts with its header line {\"format\":\"" + wire.LogFormat + "\",…}"}
	}
	h, err := wire.DecodeLogHeader(ls[0])
	if err != nil {
		return nil, &Error{name, 1, err.Error()}
	}
	l := &Log{Session: h.Session, Parent: h.Parent, Inherited: h.Inherited}
	for i, line := range ls[1:] {
		n := i + 2
		if len(bytes.TrimSpace(line)) == 0 {
			return nil, &Error{name, n, "empty line (one event per line, no blank lines)"}
		}
		e, err := wire.DecodeEvent(line)
		if err != nil {
			return nil, &Error{name, n, err.Error()}
		}
		if k := len(l.Events); k > 0 && e.Seq <= l.Events[k-1].Seq {
			return nil, &Error{name, n, "event.seq: " + strconv.Itoa(e.Seq) + " after " + strconv.Itoa(l.Events[k-1].Seq) + " (seqs must increase)"}
		}
		if e.Seq < 0 {
			return nil, &Error{name, n, "event.seq: negative seq " + strconv.Itoa(e.Seq)}
		}
		l.Events = append(l.Events, e)
	}
	return l, nil
}

// AppendViews appends a view file: one line per view.
func AppendViews(b []byte, views []wire.ViewLine) []byte {
	for _, v := range views {
		b = wire.AppendViewLineJSON(b, v)
		b = append(b, '\n')
	}
	return b
}

// DecodeViews reads a view file named name (for errors).
func DecodeViews(name string, data []byte) ([]wire.ViewLine, error) {
	var out []wire.ViewLine
	for i, line := range lines(data) {
		if len(bytes.TrimSpace(line)) == 0 {
			return nil, &Error{name, i + 1, "empty line (one view per line, no blank lines)"}
		}
		v, err := wire.DecodeViewLine(line)
		if err != nil {
			return nil, &Error{name, i + 1, err.Error()}
		}
		out = append(out, v)
	}
	return out, nil
}
