package harness

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/twosettle/twosettle/golden"
	"github.com/twosettle/twosettle/scenarios"
)

// Entry is one scenario file to run and where its golden is.
type Entry struct {
	// Path names the file in messages (the embedded library's files are named by their
	// place in the source tree).
	Path string
	Data []byte
	// Embedded: the entry is the embedded library's (its golden is embedded too).
	Embedded bool
	// GoldenPath is where the golden is read and written on disk ("" for an embedded
	// entry outside a source tree).
	GoldenPath string
	// GoldenRequired: a missing golden is a failure (library scenarios).
	GoldenRequired bool
}

// Library returns the embedded scenario library. When root is a source tree (the module
// root, or "" to look upward from the working directory), the goldens are read from and
// written to its golden/library directory; otherwise the embedded goldens are used.
func Library(root string) []Entry {
	if root == "" {
		root = FindRoot()
	}
	var out []Entry
	for _, f := range scenarios.Library() {
		e := Entry{Path: f.Path, Data: f.Data, Embedded: true, GoldenRequired: true}
		if root != "" {
			e.GoldenPath = filepath.Join(root, golden.LibraryDir, nameOf(f.Path)+golden.Suffix)
		}
		out = append(out, e)
	}
	return out
}

func nameOf(path string) string { return strings.TrimSuffix(filepath.Base(path), ".yaml") }

// FindRoot returns the module root above the working directory (a directory with a go.mod
// naming this module and a scenarios/library directory), or "".
func FindRoot() string {
	dir, err := os.Getwd()
	if err != nil {
		return ""
	}
	for {
		if b, err := os.ReadFile(filepath.Join(dir, "go.mod")); err == nil && strings.Contains(string(b), "module github.com/twosettle/twosettle\n") {
			if st, err := os.Stat(filepath.Join(dir, scenarios.LibraryDir)); err == nil && st.IsDir() {
				return dir
			}
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}

// Load reads scenario files and directories (every *.yaml in it, not recursive). A file
// in a scenarios/library directory has its golden in the sibling golden/library; any
// other file's golden sits beside it as <name>.golden.
func Load(paths []string) ([]Entry, error) {
	var out []Entry
	for _, p := range paths {
		st, err := os.Stat(p)
		if err != nil {
			return nil, err
		}
		files := []string{p}
		if st.IsDir() {
			files = nil
			entries, err := os.ReadDir(p)
			if err != nil {
				return nil, err
			}
			for _, e := range entries {
				if !e.IsDir() && (strings.HasSuffix(e.Name(), ".yaml") || strings.HasSuffix(e.Name(), ".yml")) {
					files = append(files, filepath.Join(p, e.Name()))
				}
			}
			sort.Strings(files)
			if len(files) == 0 {
				return nil, fmt.Errorf("%s: no .yaml scenario files in the directory", p)
			}
		}
		for _, f := range files {
			data, err := scenarios.ReadFile(f)
			if err != nil {
				return nil, err
			}
			out = append(out, FileEntry(f, data))
		}
	}
	return out, nil
}

// FileEntry is the entry of a scenario file at path with its golden where Load says.
func FileEntry(path string, data []byte) Entry {
	e := Entry{Path: path, Data: data}
	dir := filepath.Dir(path)
	name := strings.TrimSuffix(strings.TrimSuffix(filepath.Base(path), ".yaml"), ".yml")
	if filepath.Base(dir) == "library" && filepath.Base(filepath.Dir(dir)) == "scenarios" {
		e.GoldenPath = filepath.Join(filepath.Dir(filepath.Dir(dir)), golden.LibraryDir, name+golden.Suffix)
		e.GoldenRequired = true
	} else {
		e.GoldenPath = filepath.Join(dir, name+golden.Suffix)
	}
	return e
}

// GoldenOutcome is what happened to a golden comparison.
type GoldenOutcome struct {
	// State: match, mismatch, missing (required but absent), none (not required and
	// absent), skipped (another seed than the scenario's), updated, unchanged (update
	// wrote nothing new).
	State    string
	Mismatch *golden.Mismatch
	Path     string
	Err      error
}

// Failed reports whether the outcome fails the run.
func (g GoldenOutcome) Failed() bool {
	return g.State == "mismatch" || g.State == "missing" || g.Err != nil
}

func (g GoldenOutcome) String() string {
	switch g.State {
	case "mismatch":
		return "golden " + g.Path + " differs: " + g.Mismatch.String()
	case "missing":
		return "no golden at " + g.Path + ": review the transcript (simrun run -v) and write it with simrun run --update"
	}
	if g.Err != nil {
		return "golden " + g.Path + ": " + g.Err.Error()
	}
	return "golden " + g.State
}

// readGolden returns the entry's golden: from disk when it has a path there, else the
// embedded one.
func readGolden(e Entry, name string) ([]byte, bool, error) {
	if e.GoldenPath != "" {
		b, ok, err := golden.Read(e.GoldenPath)
		if ok || err != nil || !e.Embedded {
			return b, ok, err
		}
	}
	if e.Embedded {
		b, ok := golden.Library(name)
		return b, ok, nil
	}
	return nil, false, nil
}

func compareGolden(e Entry, r *Result, opts Options) GoldenOutcome {
	s := r.Scenario
	own := s.Seed
	if own == 0 {
		own = scenarios.DefaultSeed
	}
	out := GoldenOutcome{Path: e.GoldenPath}
	if out.Path == "" {
		out.Path = golden.LibraryDir + "/" + s.Name + golden.Suffix + " (embedded)"
	}
	if r.Seed != own {
		out.State = "skipped"
		return out
	}
	if e.Embedded || e.GoldenRequired {
		if base := nameOf(e.Path); base != s.Name {
			r.Failures = append(r.Failures, Failure{Pos: s.Pos, Msg: fmt.Sprintf("the library file %s holds scenario %q: name the file after the scenario (%s.yaml)", e.Path, s.Name, s.Name)})
		}
	}
	want, ok, err := readGolden(e, s.Name)
	if err != nil {
		out.Err = err
		return out
	}
	switch {
	case !ok && (e.GoldenRequired || e.Embedded):
		out.State = "missing"
	case !ok:
		out.State = "none"
	default:
		if m := golden.Compare(want, r.transcriptBytes()); m != nil {
			out.State, out.Mismatch = "mismatch", m
		} else {
			out.State = "match"
		}
	}
	return out
}

// ErrNoSourceTree is returned by Update for embedded entries outside a source tree.
var ErrNoSourceTree = errors.New("--update writes the goldens of the source tree: run it from inside the repository")

// Update writes r's transcript as its golden (only at the scenario's own seed, and only
// for a run that was neither invalid nor broken by a lost host). It returns the new
// outcome.
func Update(r *Result) GoldenOutcome {
	g := r.Golden
	if r.Invalid != nil || r.Trace == nil || r.Lost != nil || g.State == "skipped" {
		return g
	}
	if r.Entry.GoldenPath == "" {
		return GoldenOutcome{State: g.State, Path: g.Path, Err: ErrNoSourceTree}
	}
	if g.State == "match" {
		// Rewrite anyway when only comments changed, so the file shows the latest notes.
		old, _, _ := golden.Read(r.Entry.GoldenPath)
		if string(old) == string(r.transcriptBytes()) {
			return GoldenOutcome{State: "unchanged", Path: r.Entry.GoldenPath}
		}
	}
	if err := golden.Write(r.Entry.GoldenPath, r.transcriptBytes()); err != nil {
		return GoldenOutcome{State: g.State, Path: r.Entry.GoldenPath, Err: err}
	}
	return GoldenOutcome{State: "updated", Path: r.Entry.GoldenPath}
}
