package session

import "fmt"

// Log is one Session's event log: a persisted prefix followed by an unpersisted suffix.
type Log struct {
	id        string
	parent    string
	inherited int
	events    []Event
	persisted int
}

// New returns an empty log for a root Session (with room for a short run's events).
func New(id string) *Log { return &Log{id: id, events: make([]Event, 0, 32)} }

// Fork returns a new log for Session id whose first events are a copy of parent's events
// with seq <= through (through = -1 copies nothing). The copied prefix counts as inherited
// and as persisted: a fork is created from durable history.
func Fork(id string, parent *Log, through int) (*Log, error) {
	if through < -1 || through >= len(parent.events) {
		return nil, fmt.Errorf("fork of %s through seq %d: the log has seqs 0..%d", parent.id, through, len(parent.events)-1)
	}
	n := through + 1
	l := &Log{id: id, parent: parent.id, inherited: n, persisted: n}
	l.events = make([]Event, n, n+16)
	copy(l.events, parent.events[:n])
	return l, nil
}

// Restore rebuilds a log from durable events (a cold load): every event is persisted.
func Restore(id, parent string, inherited int, events []Event) *Log {
	l := &Log{id: id, parent: parent, inherited: inherited}
	l.events = append(make([]Event, 0, len(events)+16), events...)
	l.persisted = len(l.events)
	return l
}

// ID is the Session id.
func (l *Log) ID() string { return l.id }

// Parent is the Session this one was forked from, or "".
func (l *Log) Parent() string { return l.parent }

// Inherited is the number of events copied from the parent at fork time.
func (l *Log) Inherited() int { return l.inherited }

// Len is the number of events, persisted or not.
func (l *Log) Len() int { return len(l.events) }

// NextSeq is the seq the next appended event gets.
func (l *Log) NextSeq() int { return len(l.events) }

// Events returns every event, persisted or not. Read-only. The events of a returned slice
// never change: appends go past its end and a crash does not reuse its storage, so the
// slice may be kept (shared with a client update or a snapshot) without a copy.
func (l *Log) Events() []Event { return l.events[:len(l.events):len(l.events)] }

// Since returns the events with seq >= from. Read-only.
func (l *Log) Since(from int) []Event {
	if from >= len(l.events) {
		return nil
	}
	if from < 0 {
		from = 0
	}
	return l.events[from:len(l.events):len(l.events)]
}

// Append adds an event at time t and returns it.
func (l *Log) Append(t int64, d Data) Event {
	e := Event{Seq: len(l.events), Time: t, Data: d}
	l.events = append(l.events, e)
	return e
}

// Persisted is the number of durable events: seqs 0..Persisted()-1 survive a crash.
func (l *Log) Persisted() int { return l.persisted }

// Dirty reports whether some events are not yet durable.
func (l *Log) Dirty() bool { return l.persisted < len(l.events) }

// Persist makes every appended event durable and reports whether anything changed.
func (l *Log) Persist() bool {
	if l.persisted == len(l.events) {
		return false
	}
	l.persisted = len(l.events)
	return true
}

// PersistThrough makes the first n events durable (n is clamped to the log); it never
// moves the durable prefix backwards.
func (l *Log) PersistThrough(n int) {
	if n > len(l.events) {
		n = len(l.events)
	}
	if n > l.persisted {
		l.persisted = n
	}
}

// Durable returns the persisted prefix. Read-only.
func (l *Log) Durable() []Event { return l.events[:l.persisted:l.persisted] }

// Crash drops the unpersisted suffix, as a host crash does (AGENT-6), and returns how many
// events were lost. The dropped events are not overwritten: the log's capacity is cut to
// the kept prefix, so the next Append copies it into new storage and a slice returned by
// Events, Since or Durable before the crash keeps its events for good.
func (l *Log) Crash() int {
	lost := len(l.events) - l.persisted
	l.events = l.events[:l.persisted:l.persisted]
	return lost
}

// CrashAt truncates the durable prefix to n events (n <= Persisted) and drops everything
// after it. It models a crash that landed before a persist the host reported later.
func (l *Log) CrashAt(n int) int {
	if n < l.inherited {
		n = l.inherited
	}
	if n < l.persisted {
		l.persisted = n
	}
	return l.Crash()
}
