package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

func TestMutantsCommand(t *testing.T) {
	var out, errb bytes.Buffer
	if code := Main([]string{"mutants", "--only", "legacy-tracked,cancel-to-winner", "--seeds", "20", "--no-library"}, &out, &errb); code != 0 {
		t.Fatalf("exit %d\n%s%s", code, out.String(), errb.String())
	}
	if !strings.Contains(out.String(), "2 of 2 mutants killed by the oracle") {
		t.Errorf("text:\n%s", out.String())
	}
	out.Reset()
	if code := Main([]string{"mutants", "--json", "--only", "no-reservation", "--seeds", "2", "--no-library"}, &out, &errb); code != 1 {
		t.Errorf("a survivor exits %d, want 1\n%s", code, out.String())
	}
	var doc struct {
		Mutants []map[string]any `json:"mutants"`
	}
	if err := json.Unmarshal(out.Bytes(), &doc); err != nil || len(doc.Mutants) != 1 || doc.Mutants[0]["verdict"] != "survived" {
		t.Errorf("json %v: %s", err, out.String())
	}
	for _, args := range [][]string{
		{"mutants", "--only", "no-such-bug"},
		{"mutants", "--seeds", "0"},
		{"mutants", "--budget", "-1s"},
		{"mutants", "stray"},
		{"mutants", "--bogus"},
	} {
		out.Reset()
		errb.Reset()
		if code := Main(args, &out, &errb); code != 2 {
			t.Errorf("%v: exit %d, want 2", args, code)
		}
	}
}
