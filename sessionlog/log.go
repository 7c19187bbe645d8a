package sessionlog

import (
	"bytes"
	"io"
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

// Decode reads a log file named name (for errors), line by line (LogReader).
func Decode(name string, data []byte) (*Log, error) {
	r, err := NewLogReader(name, bytes.NewReader(data))
	if err != nil {
		return nil, err
	}
	return r.ReadAll()
}

// AppendViews appends a view file: one line per view.
func AppendViews(b []byte, views []wire.ViewLine) []byte {
	for _, v := range views {
		b = wire.AppendViewLineJSON(b, v)
		b = append(b, '\n')
	}
	return b
}

// DecodeViews reads a view file named name (for errors), line by line (ViewReader).
func DecodeViews(name string, data []byte) ([]wire.ViewLine, error) {
	return readViews(NewViewReader(name, bytes.NewReader(data)))
}

func readViews(r *ViewReader) ([]wire.ViewLine, error) {
	var out []wire.ViewLine
	for {
		v, err := r.Next()
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
}
