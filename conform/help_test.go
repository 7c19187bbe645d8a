package conform

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/twosettle/twosettle/explore"
)

func TestHelpAndVersion(t *testing.T) {
	for _, c := range []struct {
		args []string
		flag string // a flag the command's help must list
	}{
		{[]string{"-h"}, "-junit"},
		{[]string{"run", "--help"}, "-junit"},
		{[]string{"help", "run"}, "-seed"},
		{[]string{"fuzz", "-h"}, "-shard"},
		{[]string{"help", "fuzz"}, "-no-shrink"},
		{[]string{"refhost", "-h"}, "-mutant"},
	} {
		var out, errb bytes.Buffer
		code := Main(c.args, strings.NewReader(""), &out, &errb, nil)
		if code != 0 || !strings.Contains(out.String(), c.flag) || !strings.HasPrefix(out.String(), "usage:") {
			t.Errorf("%v: exit %d, want 0 with %s\n%s%s", c.args, code, c.flag, out.String(), errb.String())
		}
	}
	var out bytes.Buffer
	if code := Main([]string{"--version"}, nil, &out, &out, nil); code != 0 || !strings.HasPrefix(out.String(), "conform ") {
		t.Errorf("--version: %d %q", code, out.String())
	}
	if code := Main([]string{"help", "nope"}, nil, &out, &out, nil); code != 2 {
		t.Errorf("help of an unknown command: %d", code)
	}
}

func TestOutputLocationsCheckedBeforeTheHostStarts(t *testing.T) {
	dir := t.TempDir()
	missing := dir + "/missing/r.xml"
	file := dir + "/a-file"
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"--host", "no-such-host-command", "--junit", missing},
		{"--host", "no-such-host-command", "--json", missing},
		{"fuzz", "--host", "no-such-host-command", "--out", file + "/x"},
		{"fuzz", "--host", "no-such-host-command", "--out", dir, "--junit", missing},
	} {
		var out, errb bytes.Buffer
		code := Main(args, strings.NewReader(""), &out, &errb, nil)
		if code != 2 || !strings.Contains(errb.String(), "cannot write") {
			t.Errorf("%v: exit %d, want 2 naming the output:\n%s", args, code, errb.String())
		}
	}
}

func TestFuzzJSON(t *testing.T) {
	env := []string{"CONFORM_TEST_HOST=refhost"}
	var out, errb bytes.Buffer
	code := Main([]string{"fuzz", "--host", os.Args[0], "--seeds", "3", "--workers", "1", "--out", t.TempDir(), "--json", "-"}, nil, &out, &errb, env)
	i := strings.Index(out.String(), "{")
	var j struct {
		SeedsRun     uint64              `json:"seeds_run"`
		Failures     []json.RawMessage   `json:"failures"`
		GeneratorOff []string            `json:"generator_off"`
		Requirements []string            `json:"requirements_judged"`
		Reachable    int                 `json:"situations_reachable"`
		CannotReach  map[string][]string `json:"cannot_reach"`
	}
	if code != 0 || i < 0 || json.Unmarshal([]byte(out.String()[i:]), &j) != nil || j.SeedsRun != 3 || j.Failures == nil {
		t.Fatalf("exit %d, %+v\n%s%s", code, j, out.String(), errb.String())
	}
	// the reference host declares every feature: the whole campaign, every situation reachable
	if j.GeneratorOff == nil || len(j.GeneratorOff) > 0 || len(j.CannotReach) > 0 || j.Reachable != len(explore.Situations()) || len(j.Requirements) == 0 {
		t.Fatalf("a host with every feature: %+v", j)
	}
	if !strings.Contains(out.String(), "generator: every option\n") {
		t.Fatalf("the summary does not say the generator is whole:\n%s", out.String())
	}
}

// conform fuzz --junit: a testcase per failing seed whose text carries conform's own replay
// line (the host command and the written file), and one for the campaign, as simrun fuzz.
func TestFuzzJUnit(t *testing.T) {
	env := []string{"CONFORM_TEST_HOST=refhost:legacy-tracked"}
	dir := t.TempDir()
	x := filepath.Join(dir, "fuzz.xml")
	var out, errb bytes.Buffer
	code := Main([]string{"fuzz", "--host", os.Args[0], "--seeds", "3", "--workers", "1", "--no-shrink", "--out", filepath.Join(dir, "ff"), "--junit", x}, nil, &out, &errb, env)
	if code != 1 {
		t.Fatalf("exit %d, want 1 (legacy-tracked fails these seeds)\n%s%s", code, out.String(), errb.String())
	}
	raw, err := os.ReadFile(x)
	if err != nil {
		t.Fatal(err)
	}
	doc := parseJUnit(t, raw)
	if len(doc.Suites) != 1 || doc.Suites[0].Failures == 0 {
		t.Fatalf("suites: %+v", doc.Suites)
	}
	s := doc.Suites[0]
	last := s.Cases[len(s.Cases)-1]
	if last.Name != "campaign" || last.Classname != "conform.fuzz" || last.Error != nil {
		t.Errorf("campaign case: %+v", last)
	}
	first := s.Cases[0]
	if !strings.HasPrefix(first.Name, "seed ") || first.Failure == nil || !strings.Contains(first.Failure.Text, "replay: conform --host ") {
		t.Errorf("failing seed case: %+v", first)
	}
}
