package conform

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/twosettle/twosettle/engine/wire"
	"github.com/twosettle/twosettle/schemacheck"
)

// docExchange is one worked exchange of docs/HOST.md: a ```jsonl block of "> " lines (what
// the runner sends) and "< " lines (what the host answers).
type docExchange struct {
	line     int // of the block's first line in the file
	requests []string
	replies  []string
}

func hostDocExchanges(t *testing.T) []docExchange {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "docs", "HOST.md"))
	if err != nil {
		t.Fatal(err)
	}
	var out []docExchange
	var cur *docExchange
	for i, l := range strings.Split(string(data), "\n") {
		switch {
		case l == "```jsonl":
			out = append(out, docExchange{line: i + 2})
			cur = &out[len(out)-1]
		case l == "```":
			cur = nil
		case cur != nil && strings.HasPrefix(l, "> "):
			cur.requests = append(cur.requests, l[2:])
		case cur != nil && strings.HasPrefix(l, "< "):
			cur.replies = append(cur.replies, l[2:])
		case cur != nil:
			t.Fatalf("HOST.md:%d: a line of an exchange starts with neither \"> \" nor \"< \"", i+1)
		}
	}
	return out
}

// The worked exchanges of docs/HOST.md are what conform refhost answers, line for line, so
// the page cannot drift from the reference host; each line is also valid by the schemas.
func TestHostDocExchangesAreTheReferenceHosts(t *testing.T) {
	exchanges := hostDocExchanges(t)
	if len(exchanges) < 3 {
		t.Fatalf("HOST.md has %d worked exchanges, want the three it promises", len(exchanges))
	}
	schemas := schemacheck.New(filepath.Join("..", "docs", "protocol"))
	for _, x := range exchanges {
		if len(x.requests) != len(x.replies) {
			t.Errorf("HOST.md:%d: %d requests, %d replies", x.line, len(x.requests), len(x.replies))
			continue
		}
		in := `{"type":"hello","protocol":"twosettle-conform/1","runner":"doc"}` + "\n" +
			strings.Join(x.requests, "\n") + "\n" + `{"type":"bye"}` + "\n"
		var out bytes.Buffer
		if err := Serve(strings.NewReader(in), &out, "", "test"); err != nil {
			t.Fatalf("HOST.md:%d: %v", x.line, err)
		}
		got := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")[1:] // after the hello
		for i, want := range x.replies {
			if i >= len(got) {
				t.Errorf("HOST.md:%d: no reply to %s", x.line, x.requests[i])
				break
			}
			if got[i] != want {
				t.Errorf("HOST.md:%d: the reply to %s is\n%s\nnot, as the page says,\n%s", x.line, x.requests[i], got[i], want)
			}
		}
		for _, l := range append(append([]string(nil), x.requests...), x.replies...) {
			var v any
			if err := json.Unmarshal([]byte(l), &v); err != nil {
				t.Fatalf("HOST.md:%d: %v", x.line, err)
			}
			if msg, err := schemas.Validate("messages.schema.json", v); err != nil || msg != "" {
				t.Errorf("HOST.md:%d: %s: not valid by messages.schema.json: %s %v", x.line, l, msg, err)
			}
		}
	}
}

// Every command and effect kind, every frame kind and every host-state field is named on
// the page, so a host can be written from it.
func TestHostDocNamesTheWholeVocabulary(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "docs", "HOST.md"))
	if err != nil {
		t.Fatal(err)
	}
	page := string(data)
	var names []string
	for _, s := range []string{
		"open-session", "close-session", "send", "header", "tool-call", "end-step", "cancel-turn",
		"direct", "connect", "disconnect", "event-result", "stream-open", "stream-cancel", "call",
		"tick", "restart", "fail-inbox-write", "append-event", "claim-reply",
	} {
		names = append(names, "**`"+s+"`**")
	}
	for _, s := range []string{"send-frame", "reply", "appended", "persisted", "wait-note", "direct-result",
		"ready", "waterfall", "cancel", "stream-item", "stream-end", "stream-error", "session-update"} {
		names = append(names, "**`"+s+"`**")
	}
	for _, s := range []string{"id", "parent", "inherited", "persisted", "log", "questions", "inbox", "live", "root", "phase",
		"waits", "reservations", "clients", "pending"} {
		names = append(names, "| `"+s+"`")
	}
	names = append(names, wire.SessionPhases()...)
	for _, n := range names {
		if !strings.Contains(page, n) {
			t.Errorf("HOST.md does not describe %s", n)
		}
	}
}
