package twosettle_test

// The import rules of docs/ARCHITECTURE.md §1, enforced on the module's own source: each package's
// direct imports, and its module-internal dependencies transitively. The checker is a
// plain function over an import graph so that the tests below can prove it catches each
// kind of violation on a synthetic graph, not only that today's tree is clean.

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
)

const module = "github.com/twosettle/twosettle"

// pkgInfo is what the rules need of one package: its direct imports and the forbidden
// constructs found in its non-test files.
type pkgInfo struct {
	imports   []string
	goStmts   []string // positions of go statements
	chanTypes []string // positions of channel types
	strings   []string // string literals, for GW-2's event-name rule
	selectors []string // qualified identifiers such as wire.QuestionRequest
	funcs     []string // top-level functions (not methods) the package declares
}

// impureStd are standard-library packages the engine may not import directly: clocks,
// global randomness, I/O, the network, locks (docs/ARCHITECTURE.md §1, §2).
var impureStd = map[string]bool{
	"time": true, "math/rand": true, "math/rand/v2": true, "os": true, "os/exec": true,
	"os/signal": true, "net": true, "net/http": true, "sync": true, "sync/atomic": true,
	"crypto/rand": true, "syscall": true, "io/ioutil": true, "unsafe": true, "runtime": true,
	"log": true, "flag": true,
}

func isStd(path string) bool {
	first := strings.SplitN(path, "/", 2)[0]
	return !strings.Contains(first, ".")
}

// rule violations over a whole graph, sorted.
func checkRules(graph map[string]pkgInfo) []string {
	var bad []string
	reach := func(from string) map[string]bool {
		seen := map[string]bool{}
		var walk func(p string)
		walk = func(p string) {
			for _, imp := range graph[p].imports {
				if strings.HasPrefix(imp, module) && !seen[imp] {
					seen[imp] = true
					walk(imp)
				}
			}
		}
		walk(from)
		return seen
	}
	under := func(p, dir string) bool { return p == module+"/"+dir || strings.HasPrefix(p, module+"/"+dir+"/") }
	for p, info := range graph {
		if under(p, "engine") {
			for _, imp := range info.imports {
				switch {
				case strings.HasPrefix(imp, module):
					if !under(imp, "engine") {
						bad = append(bad, p+": engine package imports non-engine package "+imp)
					}
				case !isStd(imp):
					bad = append(bad, p+": engine package imports third-party package "+imp)
				case impureStd[imp]:
					bad = append(bad, p+": engine package imports impure standard package "+imp)
				}
			}
			for _, pos := range info.goStmts {
				bad = append(bad, p+": go statement at "+pos)
			}
			for _, pos := range info.chanTypes {
				bad = append(bad, p+": channel type at "+pos)
			}
		}
		r := reach(p)
		if under(p, "engine/gateway") {
			for dep := range r {
				if under(dep, "engine/questions") || under(dep, "engine/agent") || under(dep, "engine/host") || under(dep, "engine/client") {
					bad = append(bad, p+": gateway reaches "+dep+" (GW-2)")
				}
			}
			for _, s := range info.strings {
				if strings.Contains(s, "question") || strings.Contains(s, "ask_user") {
					bad = append(bad, p+": gateway names a question event "+strconv.Quote(s)+" (GW-2)")
				}
			}
			for _, sel := range info.selectors {
				if strings.HasPrefix(sel, "wire.") && (strings.Contains(sel, "Question") || strings.Contains(sel, "Answer") || sel == "wire.Wait" || strings.HasPrefix(sel, "wire.Ask")) {
					bad = append(bad, p+": gateway uses question vocabulary "+sel+" (GW-2)")
				}
			}
		}
		if under(p, "engine/host") && (r[module+"/engine/client"] || hasPrefixKey(r, module+"/engine/client/")) {
			bad = append(bad, p+": engine/host reaches engine/client")
		}
		if under(p, "engine/client") && (r[module+"/engine/host"] || hasPrefixKey(r, module+"/engine/host/")) {
			bad = append(bad, p+": engine/client reaches engine/host")
		}
		if under(p, "oracle") {
			for dep := range r {
				if under(dep, "sim") {
					bad = append(bad, p+": oracle reaches "+dep)
				}
				// issue 12: the oracle judges the engine with its own models; of the engine
				// it may use only the vocabulary (engine/wire, engine/session's event types)
				// (engine/jsonx only through engine/wire, whose codec reads with it)
				if under(dep, "engine") && dep != module+"/engine/wire" && dep != module+"/engine/session" && dep != module+"/engine/jsonx" {
					bad = append(bad, p+": oracle reaches "+dep+" (the oracle keeps its own models: only engine/wire and engine/session's event types)")
				}
			}
			for _, imp := range info.imports {
				if imp == module+"/engine/jsonx" {
					bad = append(bad, p+": oracle imports "+imp+" (the oracle reads JSON with its own readers, not the engine's)")
				}
			}
			for _, sel := range info.selectors {
				if sel == "wire.ReadPendingResult" || sel == "wire.ReadAnswers" || sel == "wire.AnswersOf" {
					bad = append(bad, p+": oracle calls "+sel+" (the oracle reads result texts with its own readers, not the engine's)")
				}
			}
			sessionFuncs := map[string]bool{}
			for _, f := range graph[module+"/engine/session"].funcs {
				sessionFuncs[f] = true
			}
			for _, sel := range info.selectors {
				if name, ok := strings.CutPrefix(sel, "session."); ok && sessionFuncs[name] {
					bad = append(bad, p+": oracle calls engine/session's "+sel+" (the oracle keeps its own models: only engine/session's event types)")
				}
			}
		}
		if under(p, "timeline") {
			for dep := range r {
				for _, no := range []string{"sim", "harness", "engine/host", "engine/client", "engine/agent", "engine/gateway", "engine/questions"} {
					if under(dep, no) {
						bad = append(bad, p+": timeline reaches "+dep+" (it draws any trace, from the records and final state only)")
					}
				}
			}
		}
		// the trace model (tracemodel) reads any trace from the vocabulary alone, and the
		// oracle never reads it: the oracle keeps its own independent models
		if under(p, "tracemodel") {
			for dep := range r {
				for _, no := range []string{"sim", "harness", "oracle", "explore", "timeline", "engine/host", "engine/client", "engine/agent", "engine/gateway", "engine/questions"} {
					if under(dep, no) {
						bad = append(bad, p+": tracemodel reaches "+dep+" (it folds any trace from the vocabulary only)")
					}
				}
			}
		}
		// the judge of an external host (judge) does not share the code it judges: it
		// reads the vocabulary and traces only (docs/PROTOCOL.md "How a run is judged")
		if under(p, "judge") {
			for dep := range r {
				for _, no := range []string{"sim", "harness", "oracle", "explore", "tracemodel", "golden", "conform", "engine/host", "engine/client", "engine/agent", "engine/gateway", "engine/questions"} {
					if under(dep, no) {
						bad = append(bad, p+": judge reaches "+dep+" (it reads the vocabulary and traces only)")
					}
				}
			}
		}
		if under(p, "oracle") && (r[module+"/tracemodel"] || hasPrefixKey(r, module+"/tracemodel/")) {
			bad = append(bad, p+": oracle reaches "+module+"/tracemodel (the oracle keeps its own independent models)")
		}
		if under(p, "sim") {
			for dep := range r {
				for _, internal := range []string{"engine/host", "engine/client", "engine/agent", "engine/gateway", "engine/questions"} {
					if under(dep, internal) {
						bad = append(bad, p+": sim reaches engine internals "+dep+" (drive hosts through the ports)")
					}
				}
			}
		}
	}
	sort.Strings(bad)
	return bad
}

func hasPrefixKey(m map[string]bool, prefix string) bool {
	for k := range m {
		if strings.HasPrefix(k, prefix) {
			return true
		}
	}
	return false
}

// loadGraph parses every non-test Go file of the module.
func loadGraph(t *testing.T, root string) map[string]pkgInfo {
	t.Helper()
	graph := map[string]pkgInfo{}
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			name := d.Name()
			if path != root && (strings.HasPrefix(name, ".") || name == "testdata" || name == "vendor") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, filepath.Dir(path))
		pkg := module
		if rel != "." {
			pkg = module + "/" + filepath.ToSlash(rel)
		}
		info := graph[pkg]
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			info.imports = append(info.imports, p)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.GoStmt:
				info.goStmts = append(info.goStmts, fset.Position(n.Pos()).String())
			case *ast.ChanType:
				info.chanTypes = append(info.chanTypes, fset.Position(n.Pos()).String())
			case *ast.BasicLit:
				if n.Kind == token.STRING {
					s, _ := strconv.Unquote(n.Value)
					info.strings = append(info.strings, s)
				}
			case *ast.FuncDecl:
				if n.Recv == nil {
					info.funcs = append(info.funcs, n.Name.Name)
				}
			case *ast.SelectorExpr:
				if id, ok := n.X.(*ast.Ident); ok {
					info.selectors = append(info.selectors, id.Name+"."+n.Sel.Name)
				}
			}
			return true
		})
		graph[pkg] = info
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return graph
}

func TestImportRules(t *testing.T) {
	root, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	graph := loadGraph(t, root)
	if _, ok := graph[module+"/engine/wire"]; !ok {
		t.Fatalf("loader found no engine/wire package under %s: the rule test would check nothing", root)
	}
	for _, v := range checkRules(graph) {
		t.Error(v)
	}
}

// TestImportRulesCatchViolations proves each rule fires on a graph that breaks it.
func TestImportRulesCatchViolations(t *testing.T) {
	m := func(p string) string { return module + "/" + p }
	cases := []struct {
		name  string
		graph map[string]pkgInfo
		want  string
	}{
		{"engine imports time", map[string]pkgInfo{m("engine/questions"): {imports: []string{"time"}}}, "impure standard package time"},
		{"engine imports math/rand", map[string]pkgInfo{m("engine/agent"): {imports: []string{"math/rand/v2"}}}, "impure standard package math/rand/v2"},
		{"engine imports sync", map[string]pkgInfo{m("engine/host"): {imports: []string{"sync"}}}, "impure standard package sync"},
		{"engine imports os", map[string]pkgInfo{m("engine/session"): {imports: []string{"os"}}}, "impure standard package os"},
		{"engine imports net", map[string]pkgInfo{m("engine/gateway"): {imports: []string{"net"}}}, "impure standard package net"},
		{"engine imports crypto/rand", map[string]pkgInfo{m("engine/client"): {imports: []string{"crypto/rand"}}}, "impure standard package crypto/rand"},
		{"engine imports sim", map[string]pkgInfo{m("engine/host"): {imports: []string{m("sim")}}, m("sim"): {}}, "non-engine package"},
		{"engine imports third party", map[string]pkgInfo{m("engine/host"): {imports: []string{"pgregory.net/rapid"}}}, "third-party"},
		{"engine starts a goroutine", map[string]pkgInfo{m("engine/host"): {goStmts: []string{"x.go:1"}}}, "go statement"},
		{"engine uses a channel", map[string]pkgInfo{m("engine/client"): {chanTypes: []string{"x.go:1"}}}, "channel type"},
		{"gateway reaches questions transitively", map[string]pkgInfo{
			m("engine/gateway"):   {imports: []string{m("engine/wire")}},
			m("engine/wire"):      {imports: []string{m("engine/questions")}},
			m("engine/questions"): {},
		}, "gateway reaches " + m("engine/questions")},
		{"gateway names the question event", map[string]pkgInfo{m("engine/gateway"): {strings: []string{"user-questions/request"}}}, "names a question event"},
		{"gateway uses question vocabulary", map[string]pkgInfo{m("engine/gateway"): {selectors: []string{"wire.QuestionRequest"}}}, "question vocabulary"},
		{"host reaches client", map[string]pkgInfo{
			m("engine/host"): {imports: []string{m("engine/agent")}}, m("engine/agent"): {imports: []string{m("engine/client")}}, m("engine/client"): {},
		}, "engine/host reaches engine/client"},
		{"client reaches host", map[string]pkgInfo{m("engine/client"): {imports: []string{m("engine/host")}}, m("engine/host"): {}}, "engine/client reaches engine/host"},
		{"judge reaches the reference engine", map[string]pkgInfo{m("judge"): {imports: []string{m("engine/wire")}}, m("engine/wire"): {imports: []string{m("engine/host")}}, m("engine/host"): {}}, "judge reaches " + m("engine/host")},
		{"oracle reaches sim", map[string]pkgInfo{m("oracle"): {imports: []string{m("golden")}}, m("golden"): {imports: []string{m("sim")}}, m("sim"): {}}, "oracle reaches"},
		{"oracle reaches the engine's projection", map[string]pkgInfo{m("oracle"): {imports: []string{m("engine/questions")}}, m("engine/questions"): {}}, "oracle reaches " + m("engine/questions")},
		{"oracle reaches the engine through the vocabulary", map[string]pkgInfo{
			m("oracle"): {imports: []string{m("engine/wire")}}, m("engine/wire"): {imports: []string{m("engine/agent")}}, m("engine/agent"): {},
		}, "oracle reaches " + m("engine/agent")},
		{"oracle imports the engine's JSON reader", map[string]pkgInfo{m("oracle"): {imports: []string{m("engine/jsonx")}}, m("engine/jsonx"): {}}, "oracle imports " + m("engine/jsonx")},
		{"oracle asks the engine whether a result is pending", map[string]pkgInfo{
			m("oracle"): {imports: []string{m("engine/wire")}, selectors: []string{"wire.ReadPendingResult"}}, m("engine/wire"): {},
		}, "oracle calls wire.ReadPendingResult"},
		{"oracle calls the engine's repair", map[string]pkgInfo{
			m("oracle"):         {imports: []string{m("engine/session")}, selectors: []string{"session.Event", "session.InterruptedTurnClosers"}},
			m("engine/session"): {funcs: []string{"InterruptedTurnClosers", "RepairTime"}},
		}, "oracle calls engine/session's session.InterruptedTurnClosers"},
		{"timeline reaches sim", map[string]pkgInfo{m("timeline"): {imports: []string{m("trace")}}, m("trace"): {imports: []string{m("sim")}}, m("sim"): {}}, "timeline reaches " + m("sim")},
		{"timeline reaches the host", map[string]pkgInfo{m("timeline"): {imports: []string{m("engine/host")}}, m("engine/host"): {}}, "timeline reaches " + m("engine/host")},
		{"oracle reads the trace model", map[string]pkgInfo{m("oracle"): {imports: []string{m("tracemodel")}}, m("tracemodel"): {}}, "oracle reaches " + m("tracemodel")},
		{"the trace model reaches the projection", map[string]pkgInfo{m("tracemodel"): {imports: []string{m("engine/questions")}}, m("engine/questions"): {}}, "tracemodel reaches " + m("engine/questions")},
		{"sim reaches host internals", map[string]pkgInfo{m("sim"): {imports: []string{m("engine/host")}}, m("engine/host"): {}}, "sim reaches engine internals"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := checkRules(c.graph)
			found := false
			for _, v := range got {
				if strings.Contains(v, c.want) {
					found = true
				}
			}
			if !found {
				t.Fatalf("checkRules missed the violation %q; got %q", c.want, got)
			}
		})
	}
	clean := map[string]pkgInfo{
		m("engine/host"):    {imports: []string{m("engine/wire"), "strings", "encoding/json"}},
		m("engine/wire"):    {imports: []string{m("engine/session"), m("engine/jsonx"), "strconv"}},
		m("engine/jsonx"):   {imports: []string{"strings"}},
		m("engine/session"): {imports: []string{"strconv"}},
		m("sim"):            {imports: []string{m("engine/wire"), "math/rand/v2"}},
		m("oracle"):         {imports: []string{m("engine/wire"), m("engine/session"), m("trace")}, selectors: []string{"session.Event", "session.ToolOutcomeUnknown"}},
		m("trace"):          {imports: []string{m("engine/wire")}},
	}
	if got := checkRules(clean); len(got) != 0 {
		t.Fatalf("a clean graph was reported: %q", got)
	}
}
