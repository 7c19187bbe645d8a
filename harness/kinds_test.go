package harness

import (
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"github.com/twosettle/twosettle/scenarios"
)

// TestEveryKindHasItsHarnessFile: each expectation kind the format declares
// (scenarios/expect_<kind>.go) has its check here, in the file of the same name, so a
// kind cannot be added to the format without what it means at run time.
func TestEveryKindHasItsHarnessFile(t *testing.T) {
	for _, name := range scenarios.ExpectKinds() {
		t.Run("expect "+name, func(t *testing.T) {
			if expectChecks[name] == nil {
				t.Errorf("no check for the %s expectation (registerCheck)", name)
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
