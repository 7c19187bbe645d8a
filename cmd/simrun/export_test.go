package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/twosettle/twosettle/engine/wire"
	"github.com/twosettle/twosettle/schemacheck"
	"github.com/twosettle/twosettle/sessionlog"
)

func TestExportWritesOneNeutralLogPerSession(t *testing.T) {
	dir := t.TempDir()
	src := write(t, dir, "ok.yaml", okScenario)
	out := filepath.Join(dir, "logs")
	code, stdout, stderr := run("export", src, "--out", out)
	if code != 0 {
		t.Fatalf("exit %d: %s%s", code, stdout, stderr)
	}
	file := filepath.Join(out, "ok-scenario.s1.jsonl")
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatalf("%v (stdout %s)", err, stdout)
	}
	l, err := sessionlog.Decode(file, data)
	if err != nil {
		t.Fatal(err)
	}
	if l.Session != "s1" || len(l.Events) == 0 {
		t.Fatalf("log of %q with %d events", l.Session, len(l.Events))
	}
	// PROJ-12: the exported log folds to the view the run ended with (the call pending).
	views := sessionlog.Views(l)
	last := views[len(views)-1].View
	if r, ok := last.Row("c1"); !ok || r.State != wire.StateContinued {
		t.Fatalf("the exported log folds to %s", last)
	}
	if !strings.Contains(stdout, "1 Session logs from 1 runs") {
		t.Fatalf("summary: %s", stdout)
	}
	// The same seed writes the same bytes.
	again := filepath.Join(dir, "again")
	if code, _, _ := run("export", src, "--out", again); code != 0 {
		t.Fatal("second export failed")
	}
	if b, _ := os.ReadFile(filepath.Join(again, "ok-scenario.s1.jsonl")); string(b) != string(data) {
		t.Fatal("two exports of the same run differ")
	}
}

func TestExportRefusesBadInput(t *testing.T) {
	dir := t.TempDir()
	bad := write(t, dir, "bad.yaml", "name: x\nsumary: typo\n")
	if code, _, stderr := run("export", bad, "--out", dir); code != 2 || !strings.Contains(stderr, "bad.yaml:") {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if code, _, _ := run("export", "--seed", "x"); code != 2 {
		t.Fatalf("bad seed: exit %d", code)
	}
}

// Every line simrun export writes for the whole library is what the documented schema
// says (docs/protocol/session-log.schema.json: the header, then events as event.schema.json
// has them), so a team can validate its own logs against the same file.
func TestExportOfTheLibraryMatchesTheSessionLogSchema(t *testing.T) {
	out := t.TempDir()
	if code, stdout, stderr := run("export", "--out", out); code != 0 {
		t.Fatalf("exit %d: %s%s", code, stdout, stderr)
	}
	files, _ := filepath.Glob(filepath.Join(out, "*.jsonl"))
	if len(files) < 100 {
		t.Fatalf("%d log files from the library", len(files))
	}
	schemas := schemacheck.New(filepath.Join("..", "..", "docs", "protocol"))
	lines := 0
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
			msg, err := schemas.ValidateJSON("session-log.schema.json", []byte(line))
			if err != nil {
				t.Fatalf("%s:%d: %v", f, i+1, err)
			}
			if msg != "" {
				t.Errorf("%s:%d: %s\n  %s", filepath.Base(f), i+1, msg, line)
			}
			lines++
		}
	}
	t.Logf("%d lines of %d files valid", lines, len(files))
}
