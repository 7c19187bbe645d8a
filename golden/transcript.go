package golden

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"

	"github.com/twosettle/twosettle/trace"
)

// Banner is the first line of every transcript.
const Banner = "# twosettle transcript: lines starting with # are diagnostics, ignored by comparison"

// Transcript is one run's canonical text, in its parts.
type Transcript struct {
	Scenario string
	Seed     uint64
	// Records are the trace's canonical lines, in order.
	Records []string
	// Final is the final state (trace.Final.Lines), starting with "final t=".
	Final []string
	// Verdict is the oracle's verdict (oracle.Verdict.String split into lines); nil when
	// no oracle ran.
	Verdict []string
	// Comments are diagnostic lines (without their "# "), written after the verdict.
	Comments []string
}

// FromTrace builds the transcript of a trace. verdict is the oracle's rendered verdict
// ("" for none).
func FromTrace(scenario string, tr *trace.Trace, verdict string) Transcript {
	t := Transcript{Scenario: scenario, Seed: tr.Seed, Records: make([]string, len(tr.Records)), Final: tr.Final.Lines()}
	var b []byte
	for i, r := range tr.Records {
		b = r.AppendTo(b[:0])
		t.Records[i] = string(b)
	}
	if verdict != "" {
		t.Verdict = strings.Split(verdict, "\n")
	}
	return t
}

// Render writes the transcript's bytes. Every line ends with a newline; comment lines are
// prefixed with "# " (a comment's own newlines start new comment lines).
func (t Transcript) Render() []byte {
	var b bytes.Buffer
	n := len(Banner) + len(t.Scenario) + 40
	for _, part := range [][]string{t.Records, t.Final, t.Verdict, t.Comments} {
		for _, l := range part {
			n += len(l) + 3 // the newline, and "# " for a comment line
		}
	}
	b.Grow(n) // one allocation for a large run's transcript, not a doubling series of them
	b.WriteString(Banner)
	b.WriteByte('\n')
	b.WriteString("scenario ")
	b.WriteString(t.Scenario)
	b.WriteString(" seed=")
	b.WriteString(strconv.FormatUint(t.Seed, 10))
	b.WriteByte('\n')
	for _, part := range [][]string{t.Records, t.Final, t.Verdict} {
		for _, l := range part {
			b.WriteString(l)
			b.WriteByte('\n')
		}
	}
	for _, c := range t.Comments {
		for _, l := range strings.Split(c, "\n") {
			b.WriteString("# ")
			b.WriteString(l)
			b.WriteByte('\n')
		}
	}
	return b.Bytes()
}

var (
	headerRe = regexp.MustCompile(`^scenario (\S+) seed=([0-9]+)$`)
	recordRe = regexp.MustCompile(`^[0-9]{4,} t=-?[0-9]+ `)
)

// VerdictPrefix starts the first line of an oracle verdict.
const VerdictPrefix = "oracle: "

// Parse reads a transcript back into its parts. It reports the first line that does not
// fit the format.
func Parse(data []byte) (Transcript, error) {
	var t Transcript
	lines := strings.Split(string(data), "\n")
	if len(lines) > 0 && lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	section := 0 // 0 header, 1 records, 2 final, 3 verdict
	for i, l := range lines {
		n := i + 1
		if strings.HasPrefix(l, "#") {
			t.Comments = append(t.Comments, strings.TrimPrefix(strings.TrimPrefix(l, "#"), " "))
			continue
		}
		switch section {
		case 0:
			m := headerRe.FindStringSubmatch(l)
			if m == nil {
				return t, fmt.Errorf("line %d: a transcript starts with \"scenario NAME seed=N\", not %q", n, l)
			}
			t.Scenario = m[1]
			seed, err := strconv.ParseUint(m[2], 10, 64)
			if err != nil {
				return t, fmt.Errorf("line %d: seed: %v", n, err)
			}
			t.Seed = seed
			section = 1
		case 1:
			if strings.HasPrefix(l, "final t=") {
				t.Final = append(t.Final, l)
				section = 2
				continue
			}
			if !recordRe.MatchString(l) {
				return t, fmt.Errorf("line %d: expected a trace record (SEQ t=TIME ...) or the final state, not %q", n, l)
			}
			t.Records = append(t.Records, l)
		case 2:
			if strings.HasPrefix(l, VerdictPrefix) {
				t.Verdict = append(t.Verdict, l)
				section = 3
				continue
			}
			t.Final = append(t.Final, l)
		case 3:
			t.Verdict = append(t.Verdict, l)
		}
	}
	if section == 0 {
		return t, fmt.Errorf("not a transcript: no \"scenario NAME seed=N\" line")
	}
	if section == 1 {
		return t, fmt.Errorf("the transcript has no final state (\"final t=...\")")
	}
	return t, nil
}

// WriteTrace writes the transcript of a trace, as FromTrace with comments then Render
// would, but record by record through a buffer: the memory is one record's, not the
// transcript's (a run whose every record shows every open card has a transcript that
// grows with the square of the open asks). verdict is the oracle's ("" for none).
func WriteTrace(w io.Writer, scenario string, tr *trace.Trace, verdict string, comments []string) error {
	bw := bufio.NewWriterSize(w, 64<<10)
	bw.WriteString(Banner)
	bw.WriteString("\nscenario ")
	bw.WriteString(scenario)
	bw.WriteString(" seed=")
	bw.WriteString(strconv.FormatUint(tr.Seed, 10))
	bw.WriteByte('\n')
	var b []byte
	for _, r := range tr.Records {
		b = append(r.AppendTo(b[:0]), '\n')
		if _, err := bw.Write(b); err != nil {
			return err
		}
	}
	for _, l := range tr.Final.Lines() {
		bw.WriteString(l)
		bw.WriteByte('\n')
	}
	if verdict != "" {
		bw.WriteString(verdict)
		bw.WriteByte('\n')
	}
	for _, c := range comments {
		for _, l := range strings.Split(c, "\n") {
			bw.WriteString("# ")
			bw.WriteString(l)
			bw.WriteByte('\n')
		}
	}
	return bw.Flush()
}
