package scenarios

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// kindFiles maps each file prefix_<name>.go of this package (tests aside) to its kind name.
func kindFiles(t *testing.T, prefix string) map[string]bool {
	t.Helper()
	names, err := filepath.Glob(prefix + "_*.go")
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]bool{}
	for _, n := range names {
		if strings.HasSuffix(n, "_test.go") {
			continue
		}
		out[strings.ReplaceAll(strings.TrimSuffix(strings.TrimPrefix(n, prefix+"_"), ".go"), "_", "-")] = true
	}
	return out
}

// TestKindFiles: each kind is declared in its own file, named after it, and every such
// file declares a kind of the lists (kinds.go), so a kind cannot be half-added here.
func TestKindFiles(t *testing.T) {
	files := kindFiles(t, "expect")
	for _, name := range ExpectKinds() {
		if !files[name] {
			t.Errorf("the %s expectation has no file expect_%s.go", name, strings.ReplaceAll(name, "-", "_"))
		}
		delete(files, name)
	}
	for name := range files {
		t.Errorf("expect_%s.go declares no expectation kind of expectKinds (add it to the list in kinds.go)", strings.ReplaceAll(name, "-", "_"))
	}
	steps := kindFiles(t, "step")
	for _, name := range StepKinds() {
		if !steps[name] {
			t.Errorf("the %s step kind has no file step_%s.go", name, name)
		}
		delete(steps, name)
	}
	for name := range steps {
		t.Errorf("step_%s.go declares no step kind of stepKinds (add it to the list in kinds.go)", name)
	}
}

// TestKindsAreInFormat: each kind has its entry in FORMAT.md: a step kind its paragraph
// (**model** — ..., **a client's name** — ... for a client's user), an expectation kind
// its row of the expectations table.
func TestKindsAreInFormat(t *testing.T) {
	data, err := os.ReadFile("FORMAT.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(data)
	for _, k := range stepKinds {
		want := "\n**" + k.name + "** — "
		if k.byClient {
			want = "\n**a client's name** — "
		}
		if !strings.Contains(doc, want) {
			t.Errorf("FORMAT.md has no paragraph %q for the %s step kind", strings.TrimSpace(want), k.name)
		}
	}
	for _, name := range ExpectKinds() {
		if want := "\n| `" + name + "` |"; !strings.Contains(doc, want) {
			t.Errorf("FORMAT.md has no row %q for the %s expectation", strings.TrimSpace(want), name)
		}
	}
}

// TestGeneratorDrawsEveryKind: the random scenarios of the round-trip and schema
// properties draw every step kind and every expectation kind, so a kind added to the
// lists without its generator case is not left out of those properties.
func TestGeneratorDrawsEveryKind(t *testing.T) {
	steps, expects := map[string]bool{}, map[string]bool{}
	gen := genScenario()
	for seed := 0; seed < 300; seed++ {
		s := gen.Example(seed)
		for i := range s.Steps {
			steps[s.Steps[i].Kind()] = true
		}
		for _, e := range s.Expect {
			expects[e.Kind] = true
		}
	}
	for _, name := range StepKinds() {
		if !steps[name] {
			t.Errorf("300 generated scenarios have no %s step (gen_test.go)", name)
		}
	}
	for _, name := range ExpectKinds() {
		if !expects[name] {
			t.Errorf("300 generated scenarios have no %s expectation (gen_test.go)", name)
		}
	}
}
