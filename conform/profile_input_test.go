package conform

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/twosettle/twosettle/sessionlog"
)

// Bad input to each profile is exit 2 with what is wrong and, where there is one, the
// file and line (and column for a wait script's JSON): a missing file, a malformed JSON
// Lines line, a host that does not serve the profile. None of it is a failure of the host.
func TestProfilesRefuseBadInputWithExit2(t *testing.T) {
	dir := t.TempDir()
	good, _ := sessionlog.Append(nil, EdgeLog(3))
	logFile := filepath.Join(dir, "s.jsonl")
	os.WriteFile(logFile, good, 0o644)
	badLog := filepath.Join(dir, "bad-log.jsonl")
	os.WriteFile(badLog, append(append([]byte(nil), good...), "{\"seq\":999,\"time\":0,\"type\":\"turn/start\"\n"...), 0o644)
	badScript := filepath.Join(dir, "bad-script.jsonl")
	os.WriteFile(badScript, []byte("{\"now\":0,\"op\":\"create\",\"wait\":\"w\",\"timeoutMs\":5}\n{\"now\":1,\"op\":\"pull\",\"claim\":}\n"), 0o644)
	views := filepath.Join(dir, "views.jsonl")
	os.WriteFile(views, []byte("{\"seq\":0,\"view\":{\"active\":[],\"settled\":[]}}\nnot json\n"), 0o644)
	missing := filepath.Join(dir, "missing.jsonl")
	lines := strings.Count(string(good), "\n")
	for _, c := range []struct {
		name string
		args []string
		host string
		want string
	}{
		{"projection: a missing log file", []string{"--profile", "projection", "--host", testBinary(), missing}, "refhost", "conform: stat " + missing + ": no such file"},
		{"projection: a malformed log line", []string{"--profile", "projection", "--host", testBinary(), badLog}, "refhost", "bad-log.jsonl:" + strconv.Itoa(lines+1) + ": event: invalid JSON"},
		{"projection: a host that serves only the wait profile", []string{"--profile", "projection", "--host", testBinary(), logFile}, "wait-ok", "does not serve the projection profile: its hello offers wait"},
		{"conform projection: a missing log file", []string{"projection", "--log", missing}, "", "conform: stat " + missing + ": no such file"},
		{"conform projection: a missing view file", []string{"projection", "--log", logFile, "--view", missing}, "", "conform: stat " + missing + ": no such file"},
		{"conform projection: a malformed view line", []string{"projection", "--log", logFile, "--view", views}, "", "views.jsonl:2: line: invalid JSON"},
		{"wait: a missing script", []string{"--profile", "wait", "--host", testBinary(), missing}, "wait-ok", "conform: stat " + missing + ": no such file"},
		{"wait: a malformed script line", []string{"--profile", "wait", "--host", testBinary(), badScript}, "wait-ok", "bad-script.jsonl:2:"},
		{"wait: a host that serves only the projection profile", []string{"--profile", "wait", "--host", testBinary(), "--seeds", "1", "--no-library"}, "projection-empty", "does not serve the wait profile: its hello offers projection"},
	} {
		t.Run(c.name, func(t *testing.T) {
			var out, errb bytes.Buffer
			code := Main(c.args, nil, &out, &errb, testEnv(c.host))
			if code != 2 || !strings.Contains(errb.String(), c.want) {
				t.Fatalf("exit %d, want 2 and %q on stderr:\n%s\n%s", code, c.want, errb.String(), out.String())
			}
		})
	}
}

// A wait script is judged line by line as it is read: a malformed first line of a
// 256 MiB script is reported at once, without reading the file whole first.
func TestWaitScriptIsJudgedLineByLine(t *testing.T) {
	huge := filepath.Join(t.TempDir(), "huge.jsonl")
	if err := os.WriteFile(huge, []byte("{\"now\":0,\"op\":\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(huge, MaxWaitScriptSize); err != nil { // sparse: the file system writes it lazily
		t.Skip("no sparse file:", err)
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	var out, errb bytes.Buffer
	code := Main([]string{"--profile", "wait", "--host", testBinary(), huge}, nil, &out, &errb, testEnv("wait-ok"))
	runtime.ReadMemStats(&after)
	if code != 2 || !strings.HasPrefix(errb.String(), huge+":1:1: ") {
		t.Fatalf("exit %d, want 2 and %s:1:1: on stderr:\n%s\n%s", code, huge, errb.String(), out.String())
	}
	if n := after.TotalAlloc - before.TotalAlloc; n > 16<<20 {
		t.Fatalf("allocated %d bytes to judge the first line of a %d-byte script", n, MaxWaitScriptSize)
	}
	// A line that never ends is refused at its bound.
	os.WriteFile(huge, []byte("{\"now\":0,\"op\":\"create\",\"wait\":\"w\",\"timeoutMs\":5}\n"+strings.Repeat(" ", MaxWaitScriptLine+1)+"\n"), 0o644)
	errb.Reset()
	if code := Main([]string{"--profile", "wait", "--host", testBinary(), huge}, nil, &out, &errb, testEnv("wait-ok")); code != 2 || !strings.Contains(errb.String(), huge+":2:1: the line is longer than") {
		t.Fatalf("exit %d:\n%s", code, errb.String())
	}
}
