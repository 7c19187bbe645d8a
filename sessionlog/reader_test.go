package sessionlog

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// endless is an input that never ends: fill repeated forever, counting what was read.
type endless struct {
	fill string
	read int
}

func (e *endless) Read(b []byte) (int, error) {
	for i := range b {
		b[i] = e.fill[(e.read+i)%len(e.fill)]
	}
	e.read += len(b)
	return len(b), nil
}

// A malformed line is reported when it is reached, whatever follows it: the readers judge
// a file line by line instead of reading it whole first (a 1 GB input was read whole
// before its first line was judged).
func TestReadersJudgeAMalformedLineBeforeReadingTheRest(t *testing.T) {
	body := &endless{fill: `{"seq":1,"view":{"questions":[]}}` + "\n"}
	_, err := NewLogReader("big.jsonl", io.MultiReader(strings.NewReader("not a header\n"), body))
	var bad *Error
	if !errors.As(err, &bad) || bad.Line != 1 {
		t.Fatalf("got %v, want big.jsonl:1", err)
	}
	if body.read > 0 {
		t.Fatalf("read %d bytes past the malformed first line", body.read)
	}

	views := NewViewReader("big.view.jsonl", io.MultiReader(strings.NewReader("{\"seq\":0}\n"), body))
	if _, err := views.Next(); !errors.As(err, &bad) || bad.Line != 1 {
		t.Fatalf("got %v, want big.view.jsonl:1", err)
	}
	if body.read > 0 {
		t.Fatalf("read %d bytes past the malformed first line", body.read)
	}

	// A line that never ends is refused once it passes MaxLineSize, not read to its end.
	long := &endless{fill: "x"}
	l, err := NewLogReader("long.jsonl", io.MultiReader(strings.NewReader(`{"format":"twosettle-session-log/1","session":"s1","parent":"","inherited":0}`+"\n"), long))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := l.Next(); !errors.As(err, &bad) || bad.Line != 2 || !strings.Contains(bad.Msg, "longer than") {
		t.Fatalf("got %v, want long.jsonl:2: the line is longer than …", err)
	}
	if long.read > MaxLineSize+1<<20 {
		t.Fatalf("read %d bytes of a line longer than %d", long.read, MaxLineSize)
	}
}

// ReadFile and ReadViewFile report a malformed first line of a file near MaxFileSize
// without holding the file: memory stays bounded by a line, not the file.
func TestReadFileOfAHugeFileWithABadFirstLine(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "huge.jsonl")
	if err := os.WriteFile(path, []byte("{\"format\":\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(path, 512<<20); err != nil { // sparse: written lazily by the file system
		t.Skip("no sparse file:", err)
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err := ReadFile(path)
	_, verr := ReadViewFile(path)
	runtime.ReadMemStats(&after)
	var bad *Error
	if !errors.As(err, &bad) || bad.Line != 1 {
		t.Fatalf("ReadFile: %v, want huge.jsonl:1", err)
	}
	if !errors.As(verr, &bad) || bad.Line != 1 {
		t.Fatalf("ReadViewFile: %v, want huge.jsonl:1", verr)
	}
	if n := after.TotalAlloc - before.TotalAlloc; n > 8<<20 {
		t.Fatalf("allocated %d bytes to judge the first line of a 512 MiB file", n)
	}
}
