// Package junit writes JUnit XML in the dialect of Jenkins' junit-10.xsd, which
// GitLab's and GitHub's test reporters (and most CI systems) read: <testsuites> of
// <testsuite>s of <testcase>s with <failure>, <error>, <skipped>, <system-out> and
// <system-err>. Every string goes through encoding/xml (so <, &, " are escaped) after
// the characters XML 1.0 cannot carry at all (NUL and the other C0 controls but tab,
// newline and carriage return; U+FFFE, U+FFFF) are removed and invalid UTF-8 is
// replaced by U+FFFD (Safe), so no input can make the file unreadable. conform's report
// and simrun's run, fuzz and mutants commands write through it. Standard library only.
package junit

import (
	"encoding/xml"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Suites is the <testsuites> document.
type Suites struct {
	XMLName  xml.Name `xml:"testsuites"`
	Name     string   `xml:"name,attr"`
	Tests    int      `xml:"tests,attr"`
	Failures int      `xml:"failures,attr"`
	Errors   int      `xml:"errors,attr"`
	Time     string   `xml:"time,attr"`
	Suites   []Suite  `xml:"testsuite"`
}

// Suite is one <testsuite>; Tests, Failures, Errors and Skipped count its cases.
type Suite struct {
	Name       string      `xml:"name,attr"`
	Tests      int         `xml:"tests,attr"`
	Failures   int         `xml:"failures,attr"`
	Errors     int         `xml:"errors,attr"`
	Skipped    int         `xml:"skipped,attr"`
	Time       string      `xml:"time,attr"`
	Properties *Properties `xml:"properties"`
	Cases      []Case      `xml:"testcase"`
}

// Properties are a suite's <properties>.
type Properties struct {
	Props []Property `xml:"property"`
}

// Property is one <property name= value=>.
type Property struct {
	Name  string `xml:"name,attr"`
	Value string `xml:"value,attr"`
}

// Case is one <testcase>: passed, or with one of Skipped, Error, Failure.
type Case struct {
	Name      string   `xml:"name,attr"`
	Classname string   `xml:"classname,attr"`
	Time      string   `xml:"time,attr"`
	Skipped   *Outcome `xml:"skipped"`
	Error     *Outcome `xml:"error"`
	Failure   *Outcome `xml:"failure"`
	SystemOut *Text    `xml:"system-out"`
	SystemErr *Text    `xml:"system-err"`
}

// Outcome is a <failure>, <error> or <skipped> element: a message and a type
// attribute and, for failures and errors, the details as text.
type Outcome struct {
	Message string
	Type    string
	Text    string
}

// MarshalXML writes the text as character data in which newlines stay newlines
// (encoding/xml's struct chardata would write them as &#xA;), escaped all the same.
func (o *Outcome) MarshalXML(e *xml.Encoder, start xml.StartElement) error {
	start.Attr = []xml.Attr{{Name: xml.Name{Local: "message"}, Value: Safe(o.Message)}}
	if o.Type != "" {
		start.Attr = append(start.Attr, xml.Attr{Name: xml.Name{Local: "type"}, Value: Safe(o.Type)})
	}
	return encodeText(e, start, o.Text)
}

// Text is <system-out> or <system-err>.
type Text string

// MarshalXML writes the text, cleaned by Safe, as character data.
func (t *Text) MarshalXML(e *xml.Encoder, start xml.StartElement) error {
	return encodeText(e, start, string(*t))
}

func encodeText(e *xml.Encoder, start xml.StartElement, text string) error {
	if err := e.EncodeToken(start); err != nil {
		return err
	}
	if text = Safe(text); text != "" {
		if err := e.EncodeToken(xml.CharData(text)); err != nil {
			return err
		}
	}
	return e.EncodeToken(start.End())
}

// Seconds formats milliseconds as seconds with three decimals ("1.250").
func Seconds(ms int64) string {
	if ms < 0 {
		ms = 0
	}
	return strconv.FormatInt(ms/1000, 10) + "." + fmt.Sprintf("%03d", ms%1000)
}

// ShortMessage is a message attribute: the first line of s, at most 300 characters.
func ShortMessage(s string) string {
	if i := strings.IndexAny(s, "\r\n"); i >= 0 {
		s = s[:i] + " …"
	}
	if utf8.RuneCountInString(s) > 300 {
		rs := []rune(s)
		s = string(rs[:300]) + "…"
	}
	return Safe(s)
}

// Safe returns s as text XML 1.0 can carry: invalid UTF-8 replaced by U+FFFD, and
// the characters outside XML's Char production (C0 controls but tab, newline and
// carriage return; U+FFFE and U+FFFF) removed. encoding/xml escapes the rest.
func Safe(s string) string {
	ok := utf8.ValidString(s)
	if ok {
		for _, c := range s {
			if !xmlChar(c) {
				ok = false
				break
			}
		}
	}
	if ok {
		return s
	}
	s = strings.ToValidUTF8(s, "\uFFFD")
	return strings.Map(func(c rune) rune {
		if xmlChar(c) {
			return c
		}
		return -1
	}, s)
}

func xmlChar(c rune) bool {
	return c == '\t' || c == '\n' || c == '\r' ||
		(c >= 0x20 && c <= 0xD7FF) || (c >= 0xE000 && c <= 0xFFFD) || (c >= 0x10000 && c <= 0x10FFFF)
}

// Write writes doc as an XML document (header, two-space indentation, final newline).
func Write(w io.Writer, doc Suites) error {
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(doc); err != nil {
		return err
	}
	if err := enc.Close(); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n")
	return err
}
