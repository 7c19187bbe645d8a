package main

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

func TestExploreCommand(t *testing.T) {
	var out, errb bytes.Buffer
	if code := Main([]string{"explore", "small", "--depth", "-1", "--deviations", "1", "--json"}, &out, &errb); code != 0 {
		t.Fatalf("exit %d\n%s%s", code, out.String(), errb.String())
	}
	var doc exploreJSON
	if err := json.Unmarshal(out.Bytes(), &doc); err != nil || !doc.Stats.Exhausted || doc.Stats.Runs == 0 || len(doc.Violations) != 0 {
		t.Fatalf("json %v: %s", err, out.String())
	}
	// a mutant: a violation, written as a scenario that simrun replay reproduces
	dir := t.TempDir()
	out.Reset()
	if code := Main([]string{"explore", "small", "--depth", "-1", "--deviations", "2", "--mutant", "disconnect-is-next", "--out", dir}, &out, &errb); code != 1 {
		t.Fatalf("exit %d, want 1\n%s%s", code, out.String(), errb.String())
	}
	text := out.String()
	if !strings.Contains(text, "FAIL INV-GW-REPLAY") || !strings.Contains(text, "replay: simrun replay --mutant disconnect-is-next") || !strings.Contains(text, "--path ") {
		t.Fatalf("text:\n%s", text)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.yaml"))
	if len(files) != 1 {
		t.Fatalf("files %v", files)
	}
	out.Reset()
	if code := Main([]string{"replay", "--mutant", "disconnect-is-next", files[0]}, &out, &errb); code != 1 {
		t.Errorf("replay of the witness exits %d, want 1 (it fails)\n%s", code, out.String())
	}
	// the exact path replays to the same violation
	i := strings.Index(text, "--path ")
	path := strings.Fields(text[i+len("--path "):])[0]
	out.Reset()
	if code := Main([]string{"explore", "small", "--mutant", "disconnect-is-next", "--path", path}, &out, &errb); code != 1 || !strings.Contains(out.String(), "FAIL INV-GW-REPLAY") {
		t.Errorf("--path exits %d\n%s", code, out.String())
	}
	for _, args := range [][]string{
		{"explore"},
		{"explore", "no-such-world"},
		{"explore", "small", "--depth", "-2"},
		{"explore", "small", "--mutant", "no-such-bug"},
		{"explore", "small", "--path", "x"},
	} {
		out.Reset()
		errb.Reset()
		if code := Main(args, &out, &errb); code != 2 {
			t.Errorf("%v: exit %d, want 2", args, code)
		}
	}
}
