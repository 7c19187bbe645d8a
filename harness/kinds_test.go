package harness

import (
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"github.com/twosettle/twosettle/scenarios"
)

// TestEveryKindHasItsHarnessFile: each step kind the format declares
// (scenarios/step_<kind>.go) has its compiler here and each expectation kind
// (scenarios/expect_<kind>.go) its check, each in the file of the same name, so a kind
// cannot be added to the format without what it means at run time.
func TestEveryKindHasItsHarnessFile(t *testing.T) {
	for _, name := range scenarios.StepKinds() {
		t.Run("step "+name, func(t *testing.T) {
			if stepCompilers[name] == nil {
				t.Fatalf("no compiler for the %s step (registerCompiler)", name)
			}
			want := "step_" + strings.ReplaceAll(name, "-", "_") + ".go"
			if got := funcFile(stepCompilers[name]); got != want {
				t.Errorf("the %s step's compiler is in %s, not in its own file %s", name, got, want)
			}
		})
	}
	if len(stepCompilers) != len(scenarios.StepKinds()) {
		t.Errorf("%d compilers for %d step kinds", len(stepCompilers), len(scenarios.StepKinds()))
	}
	for _, name := range scenarios.ExpectKinds() {
		t.Run("expect "+name, func(t *testing.T) {
			if expectChecks[name] == nil {
				t.Fatalf("no check for the %s expectation (registerCheck)", name)
			}
			want := "expect_" + strings.ReplaceAll(name, "-", "_") + ".go"
			if got := funcFile(expectChecks[name]); got != want {
				t.Errorf("the %s expectation's check is in %s, not in its own file %s", name, got, want)
			}
		})
	}
	if len(expectChecks) != len(scenarios.ExpectKinds()) {
		t.Errorf("%d checks for %d expectation kinds", len(expectChecks), len(scenarios.ExpectKinds()))
	}
}

// funcFile is the base name of the file that defines f ("" for nil).
func funcFile(f any) string {
	v := reflect.ValueOf(f)
	if !v.IsValid() || v.IsNil() {
		return ""
	}
	file, _ := runtime.FuncForPC(v.Pointer()).FileLine(v.Pointer())
	return filepath.Base(file)
}
