package junit

import (
	"bytes"
	"encoding/xml"
	"strings"
	"testing"
)

func TestWriteParsesBackWithHostileText(t *testing.T) {
	out := Text("stdout \x00 with a NUL and \xff bad UTF-8 <tag> & \"quotes\"")
	doc := Suites{Name: "n", Tests: 1, Failures: 1, Suites: []Suite{{Name: "s", Tests: 1, Failures: 1, Cases: []Case{{
		Name: Safe("case\x01"), Classname: "c", Time: Seconds(1250),
		Failure:   &Outcome{Message: ShortMessage("first line\nsecond"), Type: "fail", Text: "line 1\nline 2 \x00 </failure>"},
		SystemOut: &out,
	}}}}}
	var b bytes.Buffer
	if err := Write(&b, doc); err != nil {
		t.Fatal(err)
	}
	var back struct {
		Suites []struct {
			Cases []struct {
				Name    string `xml:"name,attr"`
				Time    string `xml:"time,attr"`
				Failure struct {
					Message string `xml:"message,attr"`
					Text    string `xml:",chardata"`
				} `xml:"failure"`
				Out string `xml:"system-out"`
			} `xml:"testcase"`
		} `xml:"testsuite"`
	}
	if err := xml.Unmarshal(b.Bytes(), &back); err != nil {
		t.Fatalf("%v\n%s", err, b.String())
	}
	c := back.Suites[0].Cases[0]
	if c.Name != "case" || c.Time != "1.250" || c.Failure.Message != "first line …" || c.Failure.Text != "line 1\nline 2  </failure>" ||
		!strings.Contains(c.Out, "\ufffd bad UTF-8 <tag> & \"quotes\"") {
		t.Fatalf("%+v", c)
	}
}
