package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestTimeline(t *testing.T) {
	dir := t.TempDir()
	p := write(t, dir, "ok-scenario.yaml", okScenario)
	html := filepath.Join(dir, "ok.html")
	code, out, errOut := run("timeline", p, "-o", html)
	if code != 0 || out != "" || !strings.Contains(errOut, "wrote "+html) {
		t.Fatalf("exit %d %q %q", code, out, errOut)
	}
	page, err := os.ReadFile(html)
	if err != nil || !bytes.HasPrefix(page, []byte("<!DOCTYPE html>")) || !bytes.Contains(page, []byte(`class="verdict ok"`)) ||
		!bytes.Contains(page, []byte(`data-call="s1/c1"`)) {
		t.Fatalf("%v\n%.400s", err, page)
	}
	// -o - is stdout, byte-identical to the file
	code, out, _ = run("timeline", "-o", "-", p)
	if code != 0 || out != string(page) {
		t.Fatalf("-o -: exit %d, same bytes %v", code, out == string(page))
	}
	// --seed draws another run; the page says which
	if code, out, _ = run("timeline", "-o", "-", "--seed", "7", p); code != 0 || !strings.Contains(out, "seed 7") {
		t.Fatalf("--seed: exit %d", code)
	}
}

func TestTimelineOfAFailureIsWrittenThenExits1(t *testing.T) {
	dir := t.TempDir()
	html := filepath.Join(dir, "w.html")
	code, _, errOut := run("timeline", "--mutant", "cancel-to-winner", "../../killmatrix/testdata/witness/cancel-to-winner.yaml", "-o", html)
	if code != 1 || !strings.Contains(errOut, "FAIL") {
		t.Fatalf("exit %d %q", code, errOut)
	}
	page, err := os.ReadFile(html)
	if err != nil || !bytes.Contains(page, []byte(`class="verdict violation"`)) || !bytes.Contains(page, []byte("INV-GW-CANCEL")) {
		t.Fatalf("%v", err)
	}
	// a failed expectation is shown in the header too
	failing := write(t, dir, "failing.yaml", strings.Replace(strings.Replace(okScenario, "pending: true", "none: true", 1), "ok-scenario", "failing", 1))
	code, out, _ := run("timeline", failing, "-o", "-")
	if code != 1 || !strings.Contains(out, "FAILED "+failing+":11:5") {
		t.Fatalf("exit %d", code)
	}
}

func TestTimelineUsage(t *testing.T) {
	dir := t.TempDir()
	ok := write(t, dir, "ok-scenario.yaml", okScenario)
	bad := write(t, dir, "bad.yaml", "name: bad\nsummary: x\ntiemout: 3\n")
	code, out, errOut := run("timeline", bad, "-o", filepath.Join(dir, "bad.html"))
	if code != 2 || out != "" || !strings.Contains(errOut, "bad.yaml:3:1: unknown key \"tiemout\"") {
		t.Fatalf("invalid scenario: exit %d %q", code, errOut)
	}
	if _, err := os.Stat(filepath.Join(dir, "bad.html")); err == nil {
		t.Fatal("an invalid scenario got a page")
	}
	if code, _, errOut := run("timeline", ok); code != 2 || !strings.Contains(errOut, "-o FILE.html is required") {
		t.Fatalf("missing -o: exit %d %q", code, errOut)
	}
	for _, args := range [][]string{
		{"timeline", "-o", "x.html"},
		{"timeline", ok, ok, "-o", "-"},
		{"timeline", filepath.Join(dir, "missing.yaml"), "-o", "-"},
		{"timeline", "--mutant", "no-such-bug", ok, "-o", "-"},
		{"timeline", "--seed", "x", ok, "-o", "-"},
		{"timeline", ok, "-o", filepath.Join(dir, "no", "such", "dir.html")},
	} {
		if code, _, _ := run(args...); code != 2 {
			t.Errorf("%v: exit %d, want 2", args, code)
		}
	}
	// the usage line lists both new commands
	_, out, _ = run("help")
	if !strings.Contains(out, "  timeline ") || !strings.Contains(out, "  shrink ") {
		t.Fatalf("usage:\n%s", out)
	}
}

func TestTimelineAgainst(t *testing.T) {
	dir := t.TempDir()
	witness := "../../killmatrix/testdata/witness/cancel-to-winner.yaml"
	html := filepath.Join(dir, "against.html")
	// with and without a mutant: they differ, exit 1, the page marks where
	code, _, errOut := run("timeline", witness, "--against-mutant", "cancel-to-winner", "-o", html)
	if code != 1 || !strings.Contains(errOut, "the runs differ") {
		t.Fatalf("exit %d %q", code, errOut)
	}
	page, err := os.ReadFile(html)
	if err != nil || !bytes.Contains(page, []byte(`class="divrule"`)) || !bytes.Contains(page, []byte("mutant cancel-to-winner")) {
		t.Fatalf("%v", err)
	}
	// the same file against itself: identical, exit 0
	p := write(t, dir, "ok-scenario.yaml", okScenario)
	code, out, errOut := run("timeline", p, "--against", p, "-o", "-")
	if code != 0 || !strings.Contains(errOut, "the runs are identical") || !strings.Contains(out, `class="divergence same"`) {
		t.Fatalf("identical: exit %d %q", code, errOut)
	}
	// another seed: B says which
	code, out, _ = run("timeline", witness, "--against-seed", "9", "-o", "-")
	if code != 0 && code != 1 || !strings.Contains(out, "seed 9") {
		t.Fatalf("--against-seed: exit %d", code)
	}
	// bad usage: exit 2, nothing written
	for _, args := range [][]string{
		{"timeline", p, "--against-mutant", "no-such-bug", "-o", filepath.Join(dir, "x.html")},
		{"timeline", p, "--against", filepath.Join(dir, "missing.yaml"), "-o", filepath.Join(dir, "x.html")},
		{"timeline", p, "--against-seed", "0", "-o", filepath.Join(dir, "x.html")},
	} {
		if code, _, _ := run(args...); code != 2 {
			t.Errorf("%v: exit %d, want 2", args, code)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "x.html")); err == nil {
		t.Fatal("bad usage wrote a page")
	}
	// simrun help timeline documents the flags
	code, out, _ = run("help", "timeline")
	if code != 0 || !strings.Contains(out, "--against-seed N") || !strings.Contains(out, "--against-mutant NAME") || !strings.Contains(out, "Exit 1 when the runs differ") {
		t.Fatalf("help timeline: exit %d\n%s", code, out)
	}
}
