package conform

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/twosettle/twosettle/sessionlog"
)

// A full stdout (/dev/full) is lost output, not success: conform --host and conform
// projection --log exit 2 and say so on stderr.
func TestFullStdoutIsNotSuccess(t *testing.T) {
	full, err := os.OpenFile("/dev/full", os.O_WRONLY, 0)
	if err != nil {
		t.Skip("no /dev/full:", err)
	}
	defer full.Close()
	dir := t.TempDir()
	l := EdgeLog(7)
	l.Inherited, l.Parent = 0, ""
	logFile := filepath.Join(dir, "s.jsonl")
	b, _ := sessionlog.Append(nil, l)
	os.WriteFile(logFile, b, 0o644)
	env := []string{"CONFORM_TEST_HOST=refhost"}
	for _, args := range [][]string{
		{"--host", testBinary(), "../scenarios/library/ask-no-provider.yaml"},
		{"--host", testBinary(), "--json", "-", "../scenarios/library/ask-no-provider.yaml"},
		{"projection", "--log", logFile},
	} {
		t.Run(strings.Join(args[:1], " "), func(t *testing.T) {
			var errb strings.Builder
			code := Main(args, nil, full, &errb, env)
			if code != 2 || !strings.Contains(errb.String(), "conform: cannot write the output: ") || !strings.Contains(errb.String(), "no space left") {
				t.Fatalf("exit %d, want 2 with the write error:\n%s", code, errb.String())
			}
		})
	}
}
