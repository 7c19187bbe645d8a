package scenarios

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"
)

var updateRequirements = flag.Bool("update-requirements", false, "rewrite requirements_gen.go from docs/REQUIREMENTS.md")

// requirementsFile is the normative list of requirement ids, in the repository: the test
// is mandatory (it never skips), so the generated table cannot drift from the file.
const requirementsFile = "../docs/REQUIREMENTS.md"

func TestRequirementsMatchFile(t *testing.T) {
	path := requirementsFile
	md, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	reqs, err := ParseRequirements(md)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	src, err := RequirementsSource(reqs)
	if err != nil {
		t.Fatal(err)
	}
	if *updateRequirements {
		if err := os.WriteFile("requirements_gen.go", src, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	have, err := os.ReadFile("requirements_gen.go")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(have, src) {
		abs, _ := filepath.Abs(path)
		t.Fatalf("requirements_gen.go does not match %s: run go test ./scenarios -run TestRequirementsMatchFile -update-requirements", abs)
	}
	if len(Requirements()) != len(reqs) {
		t.Fatalf("Requirements() has %d ids, the file %d", len(Requirements()), len(reqs))
	}
}

func TestParseRequirementsRejectsBadFiles(t *testing.T) {
	cases := map[string]string{
		"empty":            "# nothing\n",
		"id outside group": "## WAIT: x (H)\n- TOOL-1 text\n",
		"duplicate":        "## WAIT: x (H)\n- WAIT-1 a\n- WAIT-1 b\n",
	}
	for name, md := range cases {
		t.Run(name, func(t *testing.T) {
			if _, err := ParseRequirements([]byte(md)); err == nil {
				t.Fatal("accepted")
			}
		})
	}
	got, err := ParseRequirements([]byte("## CLAIM: c (C, with H)\n- CLAIM-1 one\n- CLAIM-2 Accepted limitation: two\n"))
	if err != nil || len(got) != 2 || got[0].Side != "C" || got[1].Limitation() != true || got[0].Limitation() {
		t.Fatalf("got %+v, %v", got, err)
	}
}
