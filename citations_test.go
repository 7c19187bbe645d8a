package twosettle_test

// Every citation of the project's documents resolves inside the repository: a
// `docs/NAME.md §N` (or `docs/NAME.md#anchor`) in Go source, README, the scenario files or
// the documents themselves names a file of docs/ and a numbered heading (or a heading's
// anchor) in it, and nothing cites the design, requirements or peer texts the project was
// built from in their old forms ("DESIGN §6", "spec §5.2", "peer-runtime Q11",
// a relative path that climbs out of the repository, "../NAME/..." where NAME is not an
// entry of the repository's root). A bare "§N" refers to the last document cited before it in the same
// paragraph (a comment block, a Markdown paragraph); one with no document before it is an
// error. The checker is a plain function over file contents so that the tests below prove it
// catches each kind of bad citation, not only that today's tree is clean.

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
)

var (
	// citeToken finds, in order: a document reference (docs/NAME.md, or NAME.md inside
	// docs/ itself, with an optional #anchor), an old form, or a section sign.
	citeToken = regexp.MustCompile(`(?:(docs/)([A-Za-z0-9_-]+\.md)|(\b[A-Z][A-Z0-9-]*\.md))(#[A-Za-z0-9_-]+)?` +
		`|((?:\.\./)+[A-Za-z0-9_-][A-Za-z0-9_.-]*|\bshared/(?:DESIGN|REQUIREMENTS|decision|spec)\b|\bspec/peer-(?:runtime|behaviour)\.md|\b(?:DESIGN|spec|peer-runtime|peer-behaviour|peer spec|peer)(?:\.md)?\s*§|\bpeer-runtime\s+(?:open question\s+)?Q[0-9]+)` +
		`|§\s*([0-9]+(?:\.[0-9]+)*)`)
	headingNumber = regexp.MustCompile(`^#+\s+(?:§\s*)?([0-9]+(?:\.[0-9]+)*)\.?\s`)
	headingLine   = regexp.MustCompile(`^#+\s+(.*?)\s*$`)
	anchorDrop    = regexp.MustCompile(`[^a-z0-9 _-]`)
)

// repositoryNames is every file and directory name of the repository (the test runs at
// its root), read once.
var repositoryNames = sync.OnceValue(func() map[string]bool {
	names := map[string]bool{}
	filepath.WalkDir(".", func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.IsDir() && d.Name() == ".git" {
			return filepath.SkipDir
		}
		names[filepath.Base(p)] = true
		return nil
	})
	return names
})

// insideRepository reports whether "../name" can name something of the repository: the
// repository has an entry of that name (../docs from a package directory, ../schema.json
// from scenarios/library or in the YAML the encoder writes there). A name the repository
// does not have is a text outside it.
func insideRepository(name string) bool { return repositoryNames()[name] }

// missing stands for a cited document that does not exist.
const missing = "\x00"

// docIndex is what a citation can resolve to in one document: its numbered sections and
// its headings' anchors.
type docIndex struct {
	sections map[string]bool
	anchors  map[string]bool
}

func indexDoc(md string) docIndex {
	ix := docIndex{sections: map[string]bool{}, anchors: map[string]bool{}}
	fence := false
	for _, line := range strings.Split(md, "\n") {
		if strings.HasPrefix(line, "```") {
			fence = !fence
			continue
		}
		if fence {
			continue
		}
		if m := headingNumber.FindStringSubmatch(line); m != nil {
			ix.sections[m[1]] = true
		}
		if m := headingLine.FindStringSubmatch(line); m != nil {
			// GitHub's anchor: lower case, punctuation dropped, spaces as hyphens.
			a := anchorDrop.ReplaceAllString(strings.ToLower(m[1]), "")
			ix.anchors[strings.ReplaceAll(a, " ", "-")] = true
		}
	}
	return ix
}

// paragraph is a run of text lines joined by spaces, with the line each part came from.
type paragraph struct {
	text   string
	starts []int // offset in text where each line begins
	lines  []int // that line's number in the file
}

func (p paragraph) lineAt(off int) int {
	i := sort.SearchInts(p.starts, off+1) - 1
	if i < 0 {
		i = 0
	}
	return p.lines[i]
}

// paragraphs splits a file into paragraphs: a blank line, or a comment line with nothing
// after its marker, ends one. Comment markers and indentation are stripped, so a citation
// wrapped across comment lines reads as one.
func paragraphs(content string) []paragraph {
	var out []paragraph
	var cur paragraph
	flush := func() {
		if cur.text != "" {
			out = append(out, cur)
		}
		cur = paragraph{}
	}
	for i, line := range strings.Split(content, "\n") {
		t := strings.TrimSpace(line)
		t = strings.TrimSpace(strings.TrimPrefix(t, "//"))
		if t == "" {
			flush()
			continue
		}
		if cur.text != "" {
			cur.text += " "
		}
		cur.starts = append(cur.starts, len(cur.text))
		cur.lines = append(cur.lines, i+1)
		cur.text += t
	}
	flush()
	return out
}

// checkCitations returns every citation of files (path → content) that does not resolve
// against docs (file name in docs/ → content), as "path:line: problem", sorted.
func checkCitations(files, docs map[string]string) []string {
	index := map[string]docIndex{}
	for name, md := range docs {
		index[name] = indexDoc(md)
	}
	var bad []string
	for path, content := range files {
		inDocs := strings.HasPrefix(path, "docs/")
		self := ""
		if inDocs {
			self = strings.TrimPrefix(path, "docs/")
		}
		for _, p := range paragraphs(content) {
			cur := self
			for _, m := range citeToken.FindAllStringSubmatchIndex(p.text, -1) {
				at := path + ":" + strconv.Itoa(p.lineAt(m[0])) + ": "
				group := func(k int) string {
					if m[2*k] < 0 {
						return ""
					}
					return p.text[m[2*k]:m[2*k+1]]
				}
				switch {
				case group(2) != "" || group(3) != "":
					name := group(2)
					if name == "" {
						// NAME.md without docs/: a document only inside docs/ itself.
						name = group(3)
						if _, ok := index[name]; !ok || !inDocs {
							cur = ""
							continue
						}
					}
					ix, ok := index[name]
					if !ok {
						bad = append(bad, at+"docs/"+name+" does not exist")
						cur = missing // its sections are not reported again
						continue
					}
					cur = name
					if a := group(4); a != "" && !ix.anchors[a[1:]] {
						bad = append(bad, at+"docs/"+name+" has no heading with anchor "+a)
					}
				case group(5) != "":
					if up := strings.TrimLeft(group(5), "./"); strings.HasPrefix(group(5), "../") && insideRepository(up) {
						continue // ../docs from a package directory: still the repository
					}
					bad = append(bad, at+"cites "+strconv.Quote(group(5))+", a text outside the repository: cite docs/ instead")
				default:
					sec := group(6)
					if cur == missing {
						continue
					}
					if cur == "" {
						bad = append(bad, at+"§"+sec+" names no document: write docs/NAME.md §"+sec)
						continue
					}
					if !index[cur].sections[sec] {
						bad = append(bad, at+"docs/"+cur+" has no section "+sec)
					}
				}
			}
		}
	}
	sort.Strings(bad)
	return bad
}

// citingFiles reads the files that cite documents: Go source, Markdown and YAML anywhere
// in the module (docs/ included), and the CI script.
func citingFiles(t *testing.T) (files, docs map[string]string) {
	files, docs = map[string]string{}, map[string]string{}
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if path != "." && strings.HasPrefix(d.Name(), ".") && d.Name() != ".ci" {
				return filepath.SkipDir
			}
			return nil
		}
		ext := filepath.Ext(path)
		if path == "citations_test.go" { // the checker itself: its examples are bad on purpose
			return nil
		}
		if ext != ".go" && ext != ".md" && ext != ".yaml" && ext != ".yml" && path != filepath.Join(".ci", "run") {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		slash := filepath.ToSlash(path)
		files[slash] = string(data)
		if dir, name := filepath.Split(slash); dir == "docs/" && ext == ".md" {
			docs[name] = string(data)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files, docs
}

func TestCitationsResolveInsideTheRepository(t *testing.T) {
	files, docs := citingFiles(t)
	for _, name := range []string{"ARCHITECTURE.md", "REQUIREMENTS.md", "DECISION.md", "PEER.md", "PEER-RUNTIME.md", "PROTOCOL.md"} {
		if _, ok := docs[name]; !ok {
			t.Errorf("docs/%s is missing", name)
		}
	}
	// ARCHITECTURE.md keeps ten numbered sections: others cite docs/ARCHITECTURE.md §N.
	arch := indexDoc(docs["ARCHITECTURE.md"])
	for n := 1; n <= 10; n++ {
		if !arch.sections[strconv.Itoa(n)] {
			t.Errorf("docs/ARCHITECTURE.md has no section %d", n)
		}
	}
	for _, b := range checkCitations(files, docs) {
		t.Error(b)
	}
}

func TestCheckCitationsCatchesBadCitations(t *testing.T) {
	docs := map[string]string{
		"A.md": "# A\n\n## 1. One\n\n### 1.2 Detail\n\n## 2. Two: the end\n\n```\n## 9. not a heading\n```\n",
		"B.md": "# B\n\nSee [A.md](A.md) §1.2 and §2; this file's own §1.\n\n## 1. Only\n",
	}
	cases := []struct {
		name, content, want string
	}{
		{"resolves", "// see docs/A.md §1.2, §2 and docs/B.md §1\n", ""},
		{"wrapped across comment lines", "// the rule (docs/A.md\n// §1–§2)\n", ""},
		{"bare section after a citation in the paragraph", "// docs/A.md §1: as in §1.2\n", ""},
		{"anchor", "see [x](docs/A.md#2-two-the-end)\n", ""},
		{"missing section", "// docs/A.md §3\n", "x.go:1: docs/A.md has no section 3"},
		{"section inside a code fence", "// docs/A.md §9\n", "x.go:1: docs/A.md has no section 9"},
		{"missing document", "// docs/C.md §1\n", "x.go:1: docs/C.md does not exist"},
		{"missing anchor", "see docs/A.md#three\n", "x.go:1: docs/A.md has no heading with anchor #three"},
		{"bare section", "// one\n//\n// as §1.2 says\n", "x.go:3: §1.2 names no document: write docs/NAME.md §1.2"},
		{"bare section in a new paragraph", "// docs/A.md §1\n//\n// and §2\n", "x.go:3: §2 names no document: write docs/NAME.md §2"},
		{"old DESIGN form", "// DESIGN §6\n", `x.go:1: cites "DESIGN §", a text outside the repository: cite docs/ instead`},
		{"old spec form", "// (spec §5.2)\n", `x.go:1: cites "spec §", a text outside the repository: cite docs/ instead`},
		{"old peer-runtime question", "// peer-runtime Q11\n", `x.go:1: cites "peer-runtime Q11", a text outside the repository: cite docs/ instead`},
		{"path outside", "See `../elsewhere/DESIGN.md`\n", `x.go:1: cites "../elsewhere", a text outside the repository: cite docs/ instead`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := checkCitations(map[string]string{"x.go": c.content}, docs)
			want := []string(nil)
			if c.want != "" {
				want = []string{c.want}
			}
			if strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Fatalf("got %q, want %q", got, want)
			}
		})
	}
	// "../" up to a name the repository has is no citation of an outside text.
	if got := checkCitations(map[string]string{"scenarios/x.go": "// read ../docs/A.md\n", "scenarios/library/x.yaml": "# $schema=../schema.json\n"}, docs); len(got) != 0 {
		t.Fatalf("paths up into the repository: %q", got)
	}
	// Inside docs/, NAME.md and a bare § resolve against the documents themselves.
	if got := checkCitations(map[string]string{"docs/B.md": docs["B.md"]}, docs); len(got) != 0 {
		t.Fatalf("docs/B.md: %q", got)
	}
	if got := checkCitations(map[string]string{"docs/B.md": "as §4 says\n"}, docs); len(got) != 1 {
		t.Fatalf("docs/B.md §4 resolved: %q", got)
	}
}
