package wire

import "strconv"

// The neutral Session log file (docs/PROTOCOL.md, "Session log files";
// docs/protocol/session-log.schema.json) is JSON Lines: a header line, then one event per
// line in the form of AppendEventJSON. A view file is one view line per event. This file
// holds the codec of the two line kinds of its own; package sessionlog reads and writes
// whole files with line numbers.
//
//	{"format":"twosettle-session-log/1","session":"s2","parent":"s1","inherited":4}
//	{"seq":5,"view":{"active":[…],"settled":[…]}}
//
// parent is omitted when the Session is not a fork; inherited (how many of the first
// events were copied from the fork parent, PROJ-11) is always written.

// LogFormat names the format and its version in a log file's header line.
const LogFormat = "twosettle-session-log/1"

// LogHeader is the first line of a Session log file.
type LogHeader struct {
	Session   string
	Parent    string // "" when the Session is not a fork
	Inherited int    // events copied from the fork parent (ignored by the projection)
}

// AppendLogHeaderJSON appends the header line's JSON (without a newline).
func AppendLogHeaderJSON(b []byte, h LogHeader) []byte {
	b = append(b, `{"format":`...)
	b = AppendJSONString(b, LogFormat)
	b = append(b, `,"session":`...)
	b = AppendJSONString(b, h.Session)
	if h.Parent != "" {
		b = append(b, `,"parent":`...)
		b = AppendJSONString(b, h.Parent)
	}
	b = append(b, `,"inherited":`...)
	b = strconv.AppendInt(b, int64(h.Inherited), 10)
	return append(b, '}')
}

// DecodeLogHeader decodes a header line strictly: the format must be LogFormat, the
// session a non-empty string and inherited a non-negative integer.
func DecodeLogHeader(data []byte) (LogHeader, error) {
	o, err := parseTop(data, "header")
	if err != nil {
		return LogHeader{}, err
	}
	o.what = "log header"
	var h LogHeader
	if f := o.str("format"); o.err == nil && f != LogFormat {
		o.fail("format", "unknown format "+strconv.Quote(f)+" (this reader reads "+strconv.Quote(LogFormat)+")")
	}
	h.Session = o.str("session")
	if o.err == nil && h.Session == "" {
		o.fail("session", "empty Session id")
	}
	h.Parent, _ = o.optStr("parent")
	h.Inherited = o.int("inherited")
	if o.err == nil && h.Inherited < 0 {
		o.fail("inherited", "negative count "+strconv.Itoa(h.Inherited))
	}
	if err := o.done(); err != nil {
		return LogHeader{}, err
	}
	return h, nil
}

// ViewLine is one line of a view file: the userQuestions view after the event Seq.
type ViewLine struct {
	Seq  int
	View QuestionsView
}

// AppendViewLineJSON appends a view line's JSON (without a newline).
func AppendViewLineJSON(b []byte, l ViewLine) []byte {
	b = append(b, `{"seq":`...)
	b = strconv.AppendInt(b, int64(l.Seq), 10)
	b = append(b, `,"view":`...)
	b = appendQuestionsView(b, l.View)
	return append(b, '}')
}

// DecodeViewLine decodes a view line strictly.
func DecodeViewLine(data []byte) (ViewLine, error) {
	o, err := parseTop(data, "line")
	if err != nil {
		return ViewLine{}, err
	}
	o.what = "view line"
	var l ViewLine
	l.Seq = o.int("seq")
	if vo := o.obj("view"); vo != nil {
		l.View = decodeQuestionsView(vo)
		o.close(vo)
	}
	if err := o.done(); err != nil {
		return ViewLine{}, err
	}
	return l, nil
}
