package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/twosettle/twosettle/conform"
	"github.com/twosettle/twosettle/explore"
)

// The CI recipes of docs/recipes (docs/ci.md, "From one machine to N") are kept working
// here: every simrun and conform command and flag they name exists, and their shell
// lines, run as processes (this test binary is simrun or conform through a wrapper on
// PATH: TestMain, SIMRUN_TEST_MAIN), run a sharded campaign that merges.

const (
	ghRecipe  = "../../docs/recipes/github-actions.yml"
	k8sRecipe = "../../docs/recipes/kubernetes-job.yaml"
)

// --- the workflow and the manifest, as far as the tests read them

type ghWorkflow struct {
	Env      map[string]string `yaml:"env"`
	Defaults struct {
		Run struct {
			Shell string `yaml:"shell"`
		} `yaml:"run"`
	} `yaml:"defaults"`
	Jobs map[string]ghJob `yaml:"jobs"`
}

type ghJob struct {
	Needs    any `yaml:"needs"`
	Strategy struct {
		Matrix map[string][]any `yaml:"matrix"`
	} `yaml:"strategy"`
	Steps []ghStep `yaml:"steps"`
}

type ghStep struct {
	Name string            `yaml:"name"`
	Uses string            `yaml:"uses"`
	With map[string]string `yaml:"with"`
	Run  string            `yaml:"run"`
}

type k8sJob struct {
	Kind     string `yaml:"kind"`
	Metadata struct {
		Name string `yaml:"name"`
	} `yaml:"metadata"`
	Spec struct {
		CompletionMode string `yaml:"completionMode"`
		Completions    int    `yaml:"completions"`
		Template       struct {
			Spec struct {
				Containers []struct {
					Command []string `yaml:"command"`
					Args    []string `yaml:"args"`
					Env     []struct {
						Name  string `yaml:"name"`
						Value string `yaml:"value"`
					} `yaml:"env"`
					VolumeMounts []struct {
						Name      string `yaml:"name"`
						MountPath string `yaml:"mountPath"`
					} `yaml:"volumeMounts"`
				} `yaml:"containers"`
			} `yaml:"spec"`
		} `yaml:"template"`
	} `yaml:"spec"`
}

func readWorkflow(t *testing.T) ghWorkflow {
	t.Helper()
	var w ghWorkflow
	if err := yaml.Unmarshal(readFile(t, ghRecipe), &w); err != nil {
		t.Fatalf("%s: %v", ghRecipe, err)
	}
	if len(w.Jobs) == 0 {
		t.Fatalf("%s: no jobs", ghRecipe)
	}
	return w
}

func readManifest(t *testing.T) []k8sJob {
	t.Helper()
	dec := yaml.NewDecoder(bytes.NewReader(readFile(t, k8sRecipe)))
	var jobs []k8sJob
	for {
		var j k8sJob
		err := dec.Decode(&j)
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("%s: %v", k8sRecipe, err)
		}
		if j.Kind != "Job" || len(j.Spec.Template.Spec.Containers) != 1 {
			t.Fatalf("%s: %s %q is not a Job of one container", k8sRecipe, j.Kind, j.Metadata.Name)
		}
		jobs = append(jobs, j)
	}
	if len(jobs) != 2 || jobs[0].Spec.CompletionMode != "Indexed" || jobs[1].Spec.CompletionMode != "" {
		t.Fatalf("%s: want an Indexed Job and a merge Job", k8sRecipe)
	}
	return jobs
}

// --- the commands and flags the recipes name

// words splits a shell script into commands of words: quotes and backslash-newlines
// are taken as sh takes them; ;, &&, ||, | and newlines end a command; $VAR, "$VAR" and
// $((...)) stay words (they are values, not flags).
func words(script string) [][]string {
	script = strings.ReplaceAll(script, "\\\n", " ")
	var cmds [][]string
	var cmd []string
	var w strings.Builder
	inWord := false
	end := func() {
		if inWord {
			cmd = append(cmd, w.String())
			w.Reset()
			inWord = false
		}
	}
	endCmd := func() {
		end()
		if len(cmd) > 0 {
			cmds = append(cmds, cmd)
			cmd = nil
		}
	}
	for i := 0; i < len(script); i++ {
		c := script[i]
		switch {
		case c == '\'' || c == '"':
			j := strings.IndexByte(script[i+1:], c)
			if j < 0 {
				j = len(script) - i - 1
			}
			w.WriteString(script[i+1 : i+1+j])
			inWord = true
			i += j + 1
		case c == '$' && strings.HasPrefix(script[i:], "$(("):
			j := strings.Index(script[i:], "))")
			w.WriteString(script[i : i+j+2])
			inWord = true
			i += j + 1
		case c == ' ' || c == '\t':
			end()
		case c == '\n' || c == ';' || c == '|' || c == '&':
			endCmd()
		case c == '#' && !inWord:
			j := strings.IndexByte(script[i:], '\n')
			if j < 0 {
				j = len(script) - i
			}
			i += j - 1
		default:
			w.WriteByte(c)
			inWord = true
		}
	}
	endCmd()
	return cmds
}

// flagSet is a command's flags, from its own help (the flag package's PrintDefaults):
// each name and whether it takes a value.
type flagSet map[string]bool

var helpFlag = regexp.MustCompile(`(?m)^  -([a-z][a-z0-9-]*)( \S+)?$`)

func flagsOf(t *testing.T, prog, sub string) flagSet {
	t.Helper()
	var out, errs bytes.Buffer
	var code int
	if prog == "simrun" {
		code = Main([]string{"help", sub}, &out, &errs)
	} else {
		code = conform.Main([]string{"help", sub}, nil, &out, &errs, nil)
	}
	if code != 0 {
		t.Fatalf("%s help %s: exit %d (no such command?)\n%s", prog, sub, code, errs.String())
	}
	fs := flagSet{}
	for _, m := range helpFlag.FindAllStringSubmatch(out.String(), -1) {
		fs[m[1]] = m[2] != ""
	}
	if len(fs) == 0 {
		t.Fatalf("%s help %s lists no flags", prog, sub)
	}
	return fs
}

// checkCommands checks every simrun or conform command line of script (and of a
// --host/--client value that is one): its command exists and takes every flag given, a
// flag's value is there. It returns the command lines it checked, as "prog sub".
func checkCommands(t *testing.T, where, script string) []string {
	t.Helper()
	var seen []string
	for _, cmd := range words(script) {
		seen = append(seen, checkCommand(t, where, cmd)...)
	}
	return seen
}

func checkCommand(t *testing.T, where string, cmd []string) []string {
	for i, w := range cmd[:1] { // a command's first word names what it runs
		prog := filepath.Base(w)
		if prog != "simrun" && prog != "conform" {
			continue
		}
		if i+1 >= len(cmd) || strings.HasPrefix(cmd[i+1], "-") {
			t.Fatalf("%s: %s without a command: %q", where, prog, cmd)
		}
		sub := cmd[i+1]
		fs := flagsOf(t, prog, sub)
		seen := []string{prog + " " + sub}
		args := cmd[i+2:]
		for j := 0; j < len(args); j++ {
			a := args[j]
			if !strings.HasPrefix(a, "-") {
				continue
			}
			name, _, hasValue := strings.Cut(strings.TrimLeft(a, "-"), "=")
			takes, ok := fs[name]
			if !ok {
				t.Fatalf("%s: %s %s has no flag -%s (%q)", where, prog, sub, name, cmd)
			}
			if takes && !hasValue {
				if j+1 >= len(args) {
					t.Fatalf("%s: %s %s -%s without its value", where, prog, sub, name)
				}
				j++
				if name == "host" || name == "client" {
					seen = append(seen, checkCommand(t, where+" --"+name, words(args[j])[0])...)
				}
			}
		}
		return seen
	}
	return nil
}

func TestRecipesNameOnlyCommandsAndFlagsThatExist(t *testing.T) {
	var gh []string
	for name, job := range readWorkflow(t).Jobs {
		for _, s := range job.Steps {
			gh = append(gh, checkCommands(t, ghRecipe+" job "+name, s.Run)...)
		}
	}
	var k8s []string
	for _, j := range readManifest(t) {
		c := j.Spec.Template.Spec.Containers[0]
		k8s = append(k8s, checkCommands(t, k8sRecipe+" "+j.Metadata.Name, strings.Join(c.Args, "\n"))...)
		for _, e := range c.Env {
			if e.Name == "HOST" { // the --host "$HOST" command line
				k8s = append(k8s, checkCommands(t, k8sRecipe+" "+j.Metadata.Name+" env HOST", e.Value)...)
			}
		}
	}
	slices.Sort(gh)
	slices.Sort(k8s)
	if got := strings.Join(slices.Compact(gh), ", "); got != "simrun fuzz, simrun merge" {
		t.Fatalf("the workflow runs %s", got)
	}
	if got := strings.Join(slices.Compact(k8s), ", "); got != "conform fuzz, conform refhost, simrun merge" {
		t.Fatalf("the manifest runs %s", got)
	}
	// the checker itself: a flag that does not exist is caught
	if fs := flagsOf(t, "simrun", "fuzz"); fs["shard"] != true || fs["no-shrink"] != false || fs["frobnicate"] {
		t.Fatalf("simrun fuzz flags %v", fs)
	}
}

// --- running them

// wrappers puts simrun and conform on PATH in dir: this test binary as each command.
func wrappers(t *testing.T, dir string) string {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	os.MkdirAll(dir, 0o755)
	for _, prog := range []string{"simrun", "conform"} {
		script := "#!/bin/sh\nSIMRUN_TEST_MAIN=" + prog + " exec " + strconv.Quote(exe) + ` "$@"` + "\n"
		if err := os.WriteFile(filepath.Join(dir, prog), []byte(script), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// shell runs script with bash (the workflow's shell: -eo pipefail) or sh -c in dir with
// env, and returns its exit code and output.
func shell(t *testing.T, argv []string, dir string, env []string) (int, string) {
	t.Helper()
	c := exec.Command(argv[0], argv[1:]...)
	c.Dir, c.Env = dir, env
	out, err := c.CombinedOutput()
	if ee, ok := err.(*exec.ExitError); ok {
		return ee.ExitCode(), string(out)
	}
	if err != nil {
		t.Fatal(err)
	}
	return 0, string(out)
}

func copyTree(t *testing.T, from, to string) {
	t.Helper()
	st, err := os.Stat(from)
	if err != nil {
		t.Fatal(err)
	}
	if !st.IsDir() {
		os.MkdirAll(filepath.Dir(to), 0o755)
		// an artifact keeps no file mode: the recipe restores the executable bit
		if err := os.WriteFile(to, readFile(t, from), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	es, _ := os.ReadDir(from)
	os.MkdirAll(to, 0o755)
	for _, e := range es {
		copyTree(t, filepath.Join(from, e.Name()), filepath.Join(to, e.Name()))
	}
}

// corpusFixture writes a failure corpus (the shrunk failures of a campaign against a
// mutant, which the correct engine passes) into dir.
func corpusFixture(t *testing.T, dir string) {
	t.Helper()
	tmp := t.TempDir()
	if code, _, errs := run("fuzz", "--seeds", "30", "--no-shrink", "--mutant", mergeMutant, "--workers", "2", "--out", tmp); code != 1 {
		t.Fatalf("exit %d %s", code, errs)
	}
	ys, _ := filepath.Glob(filepath.Join(tmp, "*.yaml"))
	os.MkdirAll(dir, 0o755)
	for _, y := range ys {
		os.WriteFile(filepath.Join(dir, filepath.Base(y)), readFile(t, y), 0o644)
	}
}

var ghExpr = regexp.MustCompile(`\$\{\{\s*([^}]*?)\s*\}\}`)

// The workflow's jobs, step by step, on this machine: checkout is a copy of a fixture
// repository (the corpus), setup-go and the test reporter are no-ops (the reporter's
// file must exist), the go build of simrun is the wrapper, artifacts are directories;
// every run: step is the workflow's own shell lines with its env (SEEDS and TIME_BOX
// made small).
func TestGitHubActionsRecipeRunsAndMerges(t *testing.T) {
	w := readWorkflow(t)
	root := t.TempDir()
	bin := wrappers(t, filepath.Join(root, "bin"))
	repo := filepath.Join(root, "repo")
	corpusFixture(t, filepath.Join(repo, w.Env["CORPUS"]))
	arts := filepath.Join(root, "artifacts")
	env := os.Environ()
	for k, v := range w.Env {
		env = append(env, k+"="+v)
	}
	const seeds = 24
	env = append(env, "SEEDS="+strconv.Itoa(seeds), "TIME_BOX=5m")
	if w.Defaults.Run.Shell != "bash" {
		t.Fatalf("the workflow's shell is %q: its lines are checked with bash -eo pipefail", w.Defaults.Run.Shell)
	}
	runJob := func(name string, matrix map[string]string) {
		dir := filepath.Join(root, "job-"+name+"-"+matrix["shard"])
		os.MkdirAll(dir, 0o755)
		summary := filepath.Join(dir, "summary.md")
		expand := func(s string) string {
			return ghExpr.ReplaceAllStringFunc(s, func(e string) string {
				k := ghExpr.FindStringSubmatch(e)[1]
				v, ok := matrix[strings.TrimPrefix(k, "matrix.")]
				if !strings.HasPrefix(k, "matrix.") || !ok {
					t.Fatalf("job %s: the test does not know ${{ %s }}", name, k)
				}
				return v
			})
		}
		for _, s := range w.Jobs[name].Steps {
			with := map[string]string{}
			for k, v := range s.With {
				with[k] = expand(v)
			}
			action, _, _ := strings.Cut(s.Uses, "@")
			switch {
			case action == "actions/checkout":
				copyTree(t, repo, dir)
			case action == "actions/setup-go":
			case action == "actions/upload-artifact":
				for _, p := range strings.Fields(with["path"]) {
					if _, err := os.Stat(filepath.Join(dir, p)); err != nil {
						continue // a path with nothing to upload (no failure: no failures directory)
					}
					copyTree(t, filepath.Join(dir, p), filepath.Join(arts, with["name"], filepath.Base(filepath.Clean(p))))
				}
			case action == "actions/download-artifact" && with["name"] != "":
				es, _ := os.ReadDir(filepath.Join(arts, with["name"]))
				for _, e := range es {
					copyTree(t, filepath.Join(arts, with["name"], e.Name()), filepath.Join(dir, with["path"], e.Name()))
				}
			case action == "actions/download-artifact":
				// several artifacts: each into path/NAME/
				ms, _ := filepath.Glob(filepath.Join(arts, with["pattern"]))
				for _, m := range ms {
					es, _ := os.ReadDir(m)
					for _, e := range es {
						src := filepath.Join(m, e.Name())
						if st, _ := os.Stat(src); st.IsDir() { // a directory's artifact holds its contents
							copyTree(t, src, filepath.Join(dir, with["path"], filepath.Base(m)))
						} else {
							copyTree(t, src, filepath.Join(dir, with["path"], filepath.Base(m), e.Name()))
						}
					}
				}
			case action == "mikepenz/action-junit-report":
				if _, err := os.Stat(filepath.Join(dir, with["report_paths"])); err != nil {
					t.Fatalf("job %s: the test reporter has no report: %v", name, err)
				}
			case s.Uses != "":
				t.Fatalf("job %s: the test does not know the action %s", name, s.Uses)
			case strings.HasPrefix(s.Run, "go build -o simrun ./cmd/simrun"):
				copyTree(t, filepath.Join(bin, "simrun"), filepath.Join(dir, "simrun"))
			default:
				code, out := shell(t, []string{"bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", expand(s.Run)}, dir,
					append(env, "PATH="+bin+":"+os.Getenv("PATH"), "GITHUB_STEP_SUMMARY="+summary))
				if code != 0 {
					t.Fatalf("job %s %v, step %q: exit %d\n%s", name, matrix, s.Name, code, out)
				}
				t.Logf("job %s %v, step %q:\n%s", name, matrix, s.Name, out)
			}
		}
	}
	runJob("build", nil)
	shardsList := w.Jobs["fuzz"].Strategy.Matrix["shard"]
	if fmt.Sprint(len(shardsList)) != w.Env["SHARDS"] {
		t.Fatalf("the matrix has %d shards, SHARDS is %s", len(shardsList), w.Env["SHARDS"])
	}
	for _, k := range shardsList {
		runJob("fuzz", map[string]string{"shard": fmt.Sprint(k)})
	}
	runJob("merge", nil)
	// the merged report: every seed of the campaign, once, from every shard
	report := filepath.Join(arts, "fuzz-report", "fuzz.json")
	var j fuzzJSON
	if err := json.Unmarshal(readFile(t, report), &j); err != nil {
		t.Fatal(err)
	}
	if j.SeedsRun != seeds || explore.RangesString(j.Covered) != fmt.Sprintf("1-%d", seeds) || j.Merged == nil ||
		len(j.Merged.From) != len(shardsList) || len(j.Corpus) == 0 || len(j.Failures) != 0 {
		t.Fatalf("merged: %+v", j)
	}
	if x := string(readFile(t, filepath.Join(arts, "fuzz-report", "fuzz.xml"))); !strings.Contains(x, `<property name="covered" value="1-24">`) {
		t.Fatalf("merged JUnit:\n%s", x)
	}
	summary := string(readFile(t, filepath.Join(root, "job-merge-", "summary.md")))
	if !strings.Contains(summary, fmt.Sprintf("merged %d of %d shards of simrun fuzz", len(shardsList), len(shardsList))) {
		t.Fatalf("step summary:\n%s", summary)
	}
}

// The manifest's Jobs on this machine: every index of the Indexed Job runs the
// container's command (sh -c and its script) with the container's env,
// JOB_COMPLETION_INDEX and RESULTS in a directory (SEEDS and TIME_BOX made small); then
// the merge Job's.
func TestKubernetesRecipeRunsAndMerges(t *testing.T) {
	jobs := readManifest(t)
	root := t.TempDir()
	bin := wrappers(t, filepath.Join(root, "bin"))
	results := filepath.Join(root, "results")
	corpus := filepath.Join(root, "corpus")
	corpusFixture(t, corpus)
	os.MkdirAll(results, 0o755)
	const seeds = 16
	runJob := func(j k8sJob, index int) {
		c := j.Spec.Template.Spec.Containers[0]
		env := append(os.Environ(), "PATH="+bin+":"+os.Getenv("PATH"))
		mounts := map[string]string{}
		for _, m := range c.VolumeMounts {
			mounts[m.MountPath] = m.Name
		}
		for _, e := range c.Env {
			v := e.Value
			if mounts[v] != "" { // a mounted volume: a directory here
				v = map[string]string{"results": results, "corpus": corpus}[mounts[v]]
				if v == "" {
					t.Fatalf("%s: the test does not know the volume %s", j.Metadata.Name, mounts[e.Value])
				}
			}
			env = append(env, e.Name+"="+v)
		}
		env = append(env, "SEEDS="+strconv.Itoa(seeds), "TIME_BOX=5m")
		if j.Spec.CompletionMode == "Indexed" {
			env = append(env, "JOB_COMPLETION_INDEX="+strconv.Itoa(index))
		}
		code, out := shell(t, append(append([]string{}, c.Command...), c.Args...), root, env)
		if code != 0 {
			t.Fatalf("%s index %d: exit %d\n%s", j.Metadata.Name, index, code, out)
		}
		t.Logf("%s index %d:\n%s", j.Metadata.Name, index, out)
	}
	for i := 0; i < jobs[0].Spec.Completions; i++ {
		runJob(jobs[0], i)
	}
	runJob(jobs[1], 0)
	var j struct {
		Role     string              `json:"role"`
		SeedsRun uint64              `json:"seeds_run"`
		Covered  []explore.SeedRange `json:"covered"`
		Corpus   []explore.CorpusResult
		Merged   *explore.MergeInfo
		Campaign *explore.Identity
	}
	if err := json.Unmarshal(readFile(t, filepath.Join(results, "merged.json")), &j); err != nil {
		t.Fatal(err)
	}
	if j.Role != "host" || j.SeedsRun != seeds || explore.RangesString(j.Covered) != fmt.Sprintf("1-%d", seeds) || j.Merged == nil ||
		len(j.Merged.From) != jobs[0].Spec.Completions || len(j.Merged.Missing) != 0 || len(j.Corpus) == 0 || j.Campaign.Command != "conform fuzz" {
		t.Fatalf("merged: %+v", j)
	}
	if _, err := os.Stat(filepath.Join(results, "merged.xml")); err != nil {
		t.Fatal(err)
	}
}
