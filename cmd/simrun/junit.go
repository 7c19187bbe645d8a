package main

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/twosettle/twosettle/fileio"
	"github.com/twosettle/twosettle/harness"
	"github.com/twosettle/twosettle/junit"
	"github.com/twosettle/twosettle/killmatrix"
)

// The --junit reports of simrun run, fuzz and mutants (package junit: the Jenkins
// junit-10.xsd dialect GitHub, GitLab, Jenkins and most CI reporters render). Each
// command checks the file can be written before it starts (fileio.CheckFile) and
// writes it with fileio.WriteAtomic.

// checkJUnit is the up-front check of a --junit FILE ("" none): false is bad usage.
func checkJUnit(cmd, path string, stderr io.Writer) bool {
	if path == "" {
		return true
	}
	if err := fileio.CheckFile(path); err != nil {
		fmt.Fprintf(stderr, "%s: --junit: %v\n", cmd, err)
		return false
	}
	return true
}

// writeJUnit writes doc to path; false (reported on stderr) means the report was lost,
// which the command exits 2 for.
func writeJUnit(cmd, path string, doc junit.Suites, stderr io.Writer) bool {
	var b bytes.Buffer
	err := junit.Write(&b, doc)
	if err == nil {
		err = fileio.WriteAtomic(path, b.Bytes())
	}
	if err != nil {
		fmt.Fprintf(stderr, "%s: --junit: %v\n", cmd, err)
		return false
	}
	return true
}

func suites(name string, s junit.Suite) junit.Suites {
	return junit.Suites{Name: name, Tests: s.Tests, Failures: s.Failures, Errors: s.Errors, Time: s.Time, Suites: []junit.Suite{s}}
}

// runJUnit: a testcase per scenario (classname simrun.scenarios); a failed one has a
// <failure> with every failed check, an invalid one or one whose host was lost an
// <error>; the transcript's path and the replay line are its <system-out>.
func runJUnit(results []*harness.Result, elapsed time.Duration) junit.Suites {
	s := junit.Suite{Name: "scenarios", Time: junit.Seconds(elapsed.Milliseconds())}
	for _, r := range results {
		c := junit.Case{Name: junit.Safe(r.Name()), Classname: "simrun.scenarios", Time: "0.000"}
		details := strings.Join(append([]string{r.Line()}, r.Details()...), "\n")
		out := junit.Text(junit.Safe(r.Entry.Path + "\nreplay: simrun replay " + r.Entry.Path))
		c.SystemOut = &out
		switch {
		case r.Status() == harness.Invalid || r.Lost != nil:
			c.Error = &junit.Outcome{Message: junit.ShortMessage(r.Line()), Type: "invalid", Text: details}
			s.Errors++
		case r.Status() == harness.Failed:
			c.Failure = &junit.Outcome{Message: junit.ShortMessage(firstOr(r.Details(), r.Line())), Type: "fail", Text: details}
			s.Failures++
		}
		s.Cases = append(s.Cases, c)
	}
	s.Tests = len(s.Cases)
	return suites("simrun run", s)
}

func firstOr(ls []string, def string) string {
	if len(ls) > 0 {
		return strings.TrimSpace(ls[0])
	}
	return def
}

// mutantsJUnit: a testcase per mutant (classname simrun.mutants); one the oracle did not
// kill has a <failure> naming its verdict.
func mutantsJUnit(m *killmatrix.Matrix) junit.Suites {
	s := junit.Suite{Name: "mutants", Time: "0.000"}
	for _, r := range m.Rows {
		c := junit.Case{Name: junit.Safe(r.Name), Classname: "simrun.mutants", Time: junit.Seconds(r.FuzzTime.Milliseconds())}
		out := junit.Text(junit.Safe(fmt.Sprintf("verdict %s; seeds run %d; %s", r.Verdict, r.SeedsRun, r.Doc)))
		if r.Verdict == killmatrix.KilledByOracle {
			out = junit.Text(junit.Safe(fmt.Sprintf("killed at seed %d by %s: %s", r.Seed, r.Invariant, r.Message)))
		} else {
			c.Failure = &junit.Outcome{Message: junit.ShortMessage(r.Name + " " + r.Verdict), Type: r.Verdict, Text: r.Doc}
			s.Failures++
		}
		c.SystemOut = &out
		s.Cases = append(s.Cases, c)
	}
	s.Tests = len(s.Cases)
	return suites("simrun mutants", s)
}
