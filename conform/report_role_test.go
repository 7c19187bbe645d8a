package conform

import (
	"bytes"
	"encoding/json"
	"os"
	"strings"
	"testing"
)

// roleReport is a report with a failed and a broken scenario, both with a process log.
func roleReport(role string) *Report {
	return &Report{
		Protocol: Protocol, Command: "my-process", Role: role,
		Host: HostInfo{Name: "my-ui", Version: "1.0"},
		Scenarios: []ScenarioResult{
			{Name: "a", Covers: []string{"CARD-4"}, Status: StatusFail, Failures: []string{"card c1: state differs"}, HostLog: "stack trace"},
			{Name: "b", Covers: []string{"ROW-1"}, Status: StatusBroken, Lost: "exited with status 2", HostLog: "panic"},
		},
	}
}

// Every form of a report names what it judged: a client report says client where a host
// report says host (the hello's identity, the process's log, a lost process), and never
// the other.
func TestReportsNameWhatTheyJudged(t *testing.T) {
	for _, c := range []struct{ role, other string }{{RoleClient, RoleHost}, {RoleHost, RoleClient}} {
		t.Run(c.role, func(t *testing.T) {
			r := roleReport(c.role)
			var text, js, ju bytes.Buffer
			if err := r.WriteText(&text); err != nil {
				t.Fatal(err)
			}
			for _, want := range []string{c.role + " log:\n", "no verdict: " + c.role + " lost in b"} {
				if !strings.Contains(text.String(), want) {
					t.Errorf("text has no %q:\n%s", want, text.String())
				}
			}
			if strings.Contains(text.String(), c.other+" log:") || strings.Contains(text.String(), c.other+" lost") {
				t.Errorf("the text names the %s:\n%s", c.other, text.String())
			}
			if judged := strings.Contains(text.String(), "judged:      the client"); judged != (c.role == RoleClient) {
				t.Errorf("judged line %v:\n%s", judged, text.String())
			}

			if err := r.WriteJSON(&js); err != nil {
				t.Fatal(err)
			}
			var doc map[string]any
			if err := json.Unmarshal(js.Bytes(), &doc); err != nil {
				t.Fatal(err)
			}
			if doc["role"] != c.role || doc[c.role] == nil || doc[c.other] != nil {
				t.Errorf("JSON role %v, %s %v, %s %v", doc["role"], c.role, doc[c.role], c.other, doc[c.other])
			}
			if id, _ := doc[c.role].(map[string]any); id["name"] != "my-ui" {
				t.Errorf("JSON %s identity %v", c.role, doc[c.role])
			}
			sc := doc["scenarios"].([]any)[0].(map[string]any)
			if sc[c.role+"Log"] != "stack trace" || sc[c.other+"Log"] != nil {
				t.Errorf("JSON scenario log keys: %v", sc)
			}

			if err := r.WriteJUnit(&ju); err != nil {
				t.Fatal(err)
			}
			x := ju.String()
			for _, want := range []string{`name="role" value="` + c.role + `"`, `name="` + c.role + `.name" value="my-ui"`, `message="` + c.role + ` lost: exited with status 2"`, `name="profile" value="` + c.role + `"`} {
				if !strings.Contains(x, want) {
					t.Errorf("JUnit has no %s:\n%s", want, x)
				}
			}
			if strings.Contains(x, `name="`+c.other+`.name"`) || strings.Contains(x, c.other+" lost:") {
				t.Errorf("the JUnit names the %s:\n%s", c.other, x)
			}
		})
	}
}

// A client command that cannot be used is reported as a client, and conform fuzz --client
// --json names the client.
func TestClientCommandLineNamesTheClient(t *testing.T) {
	var out, errb bytes.Buffer
	if code := Main([]string{"--client", "/nonexistent/ui"}, nil, &out, &errb, nil); code != 2 ||
		!strings.Contains(errb.String(), "the client cannot be used") || strings.Contains(errb.String(), "host") {
		t.Errorf("exit %d: %s", code, errb.String())
	}
	out.Reset()
	errb.Reset()
	dir := t.TempDir()
	code := Main([]string{"fuzz", "--client", os.Args[0], "--seeds", "2", "--workers", "1", "--out", dir, "--json", "-"}, nil, &out, &errb, []string{"CONFORM_TEST_HOST=refclient"})
	var doc map[string]any
	if i := strings.IndexByte(out.String(), '{'); i >= 0 {
		_ = json.Unmarshal(out.Bytes()[i:], &doc)
	}
	if code != 0 || doc["role"] != RoleClient || doc["client"] == nil || doc["host"] != nil {
		t.Errorf("fuzz --client --json: exit %d, %v\n%s%s", code, doc, out.String(), errb.String())
	}
}
