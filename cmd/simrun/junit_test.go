package main

import (
	"encoding/xml"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

type junitDoc struct {
	Tests    int `xml:"tests,attr"`
	Failures int `xml:"failures,attr"`
	Errors   int `xml:"errors,attr"`
	Suites   []struct {
		Name  string `xml:"name,attr"`
		Tests int    `xml:"tests,attr"`
		Cases []struct {
			Name    string `xml:"name,attr"`
			Failure *struct {
				Message string `xml:"message,attr"`
				Text    string `xml:",chardata"`
			} `xml:"failure"`
			Error *struct {
				Message string `xml:"message,attr"`
			} `xml:"error"`
		} `xml:"testcase"`
	} `xml:"testsuite"`
}

func readJUnit(t *testing.T, path string) junitDoc {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var d junitDoc
	if err := xml.Unmarshal(b, &d); err != nil {
		t.Fatalf("not JUnit XML: %v\n%s", err, b)
	}
	if len(d.Suites) != 1 || d.Suites[0].Tests != len(d.Suites[0].Cases) || d.Tests != d.Suites[0].Tests {
		t.Fatalf("counts do not match the testcases: %+v", d)
	}
	return d
}

func TestJUnitReports(t *testing.T) {
	dir := t.TempDir()
	ok := write(t, dir, "ok-scenario.yaml", okScenario)
	failing := write(t, dir, "failing.yaml", strings.Replace(strings.Replace(okScenario, "pending: true", "none: true", 1), "ok-scenario", "failing", 1))
	bad := write(t, dir, "bad.yaml", "name: bad\nsummary: x\ntiemout: 3\n")
	t.Run("run: a testcase per scenario, failed and invalid ones marked", func(t *testing.T) {
		x := filepath.Join(dir, "run.xml")
		code, out, errs := run("run", ok, failing, bad, "--junit", x)
		if code != 2 {
			t.Fatalf("exit %d\n%s%s", code, out, errs)
		}
		d := readJUnit(t, x)
		if d.Tests != 3 || d.Failures != 1 || d.Errors != 1 {
			t.Fatalf("%+v", d)
		}
		f := d.Suites[0].Cases[1]
		if f.Name != "failing" || f.Failure == nil || !strings.Contains(f.Failure.Text, "failing.yaml:11:5") {
			t.Fatalf("failing case %+v", f)
		}
	})
	t.Run("fuzz: a testcase per failing seed and one for the campaign", func(t *testing.T) {
		x := filepath.Join(dir, "fuzz.xml")
		code, out, errs := run("fuzz", "--mutant", "legacy-tracked", "--seeds", "3", "--no-shrink", "--out", filepath.Join(dir, "ff"), "--junit", x)
		if code != 1 {
			t.Fatalf("exit %d\n%s%s", code, out, errs)
		}
		d := readJUnit(t, x)
		cases := d.Suites[0].Cases
		if d.Failures < 1 || len(cases) != d.Failures+1 || cases[0].Name != "seed 1" || !strings.Contains(cases[0].Failure.Text, "replay: simrun replay --mutant legacy-tracked ") || cases[len(cases)-1].Name != "campaign" {
			t.Fatalf("%+v", d)
		}
	})
	t.Run("mutants: a testcase per mutant", func(t *testing.T) {
		x := filepath.Join(dir, "mutants.xml")
		code, out, errs := run("mutants", "--only", "legacy-tracked,no-reservation", "--seeds", "2", "--no-library", "--junit", x)
		if code != 1 {
			t.Fatalf("exit %d\n%s%s", code, out, errs)
		}
		d := readJUnit(t, x)
		if d.Tests != 2 || d.Failures != 1 {
			t.Fatalf("%+v", d)
		}
	})
	t.Run("an unwritable --junit is refused before the work", func(t *testing.T) {
		x := filepath.Join(dir, "missing", "r.xml")
		for _, args := range [][]string{{"run", ok}, {"fuzz", "--seeds", "100000"}, {"mutants"}} {
			code, _, errs := run(append(args, "--junit", x)...)
			if code != 2 || !strings.Contains(errs, "--junit: cannot write "+x) {
				t.Fatalf("%v: exit %d %q", args, code, errs)
			}
		}
	})
}
