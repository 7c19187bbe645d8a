package scenarios

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

const example = `# yaml-language-server: $schema=../schema.json
name: unclaimed-wait-expires
summary: No client claims the wait, so the tool returns pending at the deadline.
covers: [WAIT-1, WAIT-8]
mode: timed
timeout: 5
clients:
  a: {latency: 20ms, skew: +2s, drift: 500ppm}
  b:
steps:
  - at: 0s
    model: header
  - at: 0s
    model: {call: c1, ask: [{id: pkg, question: "Which package manager?", options: [npm, bun]}]}
  - at: 1s
    a: focus
  - at: 1.5s
    a: {choose: bun, q: pkg}
  - at: 2s
    b: {submit: c1}
  - at: 3s
    net: {partition: a, for: 2s}
  - at: 4s
    host: {crash: inside-write-window}
  - at: 6s
    service: {answer: {pkg: bun}, call: c1}
expect:
  - at: 5100ms
    tool-result: c1
    pending: true
  - at: end
    view: "active=[c1:continued] settled=[]"
  - at: 2s
    card: c1
    client: a
    countdown: 3s paused
`

func TestDecodeExample(t *testing.T) {
	s, err := Decode("example.yaml", []byte(example))
	if err != nil {
		t.Fatal(err)
	}
	timeout := int64(5)
	want := &Scenario{
		Name: "unclaimed-wait-expires", Summary: "No client claims the wait, so the tool returns pending at the deadline.",
		Covers: []string{"WAIT-1", "WAIT-8"}, Mode: ModeTimed, Timeout: &timeout,
		Clients: []Client{{Name: "a", Latency: Latency{20, 20}, Skew: 2000, Drift: 500}, {Name: "b"}},
		Steps: []Step{
			{At: 0, Model: &ModelAction{Kind: ModelHeader}},
			{At: 0, Model: &ModelAction{Kind: ModelAsk, Call: "c1", Questions: []Question{{ID: "pkg", Question: "Which package manager?", Options: []Option{{Label: "npm"}, {Label: "bun"}}}}}},
			{At: 1000, Client: "a", User: &UserAction{Kind: UserFocus}},
			{At: 1500, Client: "a", User: &UserAction{Kind: UserChoose, Label: "bun", Question: "pkg"}},
			{At: 2000, Client: "b", User: &UserAction{Kind: UserSubmit, Card: "c1"}},
			{At: 3000, Net: &NetAction{Kind: NetPartition, Client: "a", For: 2000}},
			{At: 4000, Host: &HostAction{Kind: HostCrash, Point: "inside-write-window"}},
			{At: 6000, Service: &ServiceCall{Kind: ServiceAnswer, Call: "c1", Answers: []AnswerItem{{ID: "pkg", Selected: []string{"bun"}}}}},
		},
		Expect: []Expectation{
			{At: 5100, Kind: ExpectToolResult, Subject: "c1", Pending: true},
			{End: true, Kind: ExpectView, Subject: "active=[c1:continued] settled=[]"},
			{At: 2000, Kind: ExpectCard, Subject: "c1", Client: "a", Countdown: "3s paused"},
		},
	}
	if d := cmp.Diff(want, s, ignorePos); d != "" {
		t.Fatalf("decoded scenario differs (-want +got):\n%s", d)
	}
	if s.Steps[4].Pos != (Pos{File: "example.yaml", Line: 19, Col: 5}) {
		t.Fatalf("step position %v", s.Steps[4].Pos)
	}
}

var ignorePos = cmp.Options{cmpopts.IgnoreTypes(Pos{}), cmpopts.EquateEmpty()}

// base is a minimal valid scenario; bad inputs are built by appending to it.
const base = "name: x\nsummary: y\nmode: timed\nclients:\n  a:\n"

func clientLines(n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "  c%d: {}\n", i)
	}
	return b.String()
}

func questionList(n int) string {
	var qs []string
	for i := range n {
		qs = append(qs, fmt.Sprintf("{id: q%d, question: Q}", i))
	}
	return strings.Join(qs, ", ")
}

func TestDecodeRefusesTooManySteps(t *testing.T) {
	var b strings.Builder
	b.WriteString("name: x\nsummary: y\nsteps:\n")
	for range MaxSteps + 1 {
		b.WriteString("  - {at: 0s, model: header}\n")
	}
	_, err := Decode("f.yaml", []byte(b.String()))
	want := fmt.Sprintf("f.yaml:%d:5: more than %d steps", 4+MaxSteps, MaxSteps)
	if err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Fatalf("err = %.300v, want %s", err, want)
	}
}

func TestReadFileRefusesWhatIsNotAScenarioFile(t *testing.T) {
	dir := t.TempDir()
	big := filepath.Join(dir, "big.yaml")
	f, _ := os.Create(big)
	f.Truncate(50 << 20) // sparse: refused by its size, never read
	f.Close()
	if _, err := ReadFile(big); err == nil || err.Error() != big+":1:1: the file is larger than 1048576 bytes (1 MiB) (hint: split it into several scenarios)" {
		t.Fatalf("50 MB: %v", err)
	}
	if _, err := os.Stat("/dev/zero"); err == nil {
		if _, err := ReadFile("/dev/zero"); err == nil || !strings.HasPrefix(err.Error(), "/dev/zero: not a regular file: it is a device") {
			t.Fatalf("/dev/zero: %v", err)
		}
	}
	fifo := filepath.Join(dir, "fifo.yaml")
	if syscall.Mkfifo(fifo, 0o644) == nil {
		if _, err := ReadFile(fifo); err == nil || !strings.Contains(err.Error(), "named pipe") {
			t.Fatalf("FIFO: %v", err)
		}
	}
	ok := filepath.Join(dir, "ok.yaml")
	os.WriteFile(ok, []byte("name: x\n"), 0o644)
	if b, err := ReadFile(ok); err != nil || string(b) != "name: x\n" {
		t.Fatalf("%q %v", b, err)
	}
}

func TestDecodeReportsBadInput(t *testing.T) {
	cases := []struct {
		name, yaml string
		pos, msg   string // pos: "line:col"
		hint       string
	}{
		{"not yaml: the unclosed [ itself", "name: [x\n", "1:7", "did not find expected", "not valid YAML"},
		{"an unclosed flow on line 2 is at its bracket, not 1:1", "name: x\nsummary: [a, b\n", "2:10", "did not find expected ',' or ']'", "not valid YAML"},
		{"an unclosed flow mapping two lines down", "name: x\nsummary: y\nsteps: [{at: 0s,\n  model: header\n", "3:9", "did not find expected ',' or '}'", ""},
		{"a NUL on line 2 is at its place", "name: x\nsumm\x00ary: y\n", "2:5", "the file is not text: a NUL byte", "UTF-8 text file"},
		{"binary input gets no ? hint", "\x7fELF{?[\x01\x02\n", "1:1", "the file is not text: the control character U+007F", "UTF-8 text file"},
		{"invalid UTF-8", "name: x\nsummary: caf\xe9\n", "2:13", "the file is not text: invalid UTF-8", ""},
		{"a 64-bit overflow is too large, not 'not a number'", base + "seed: 99999999999999999999999\n", "6:7", "seed 99999999999999999999999 is too large", "from 0 to 9223372036854775807"},
		{"too many clients", "name: x\nsummary: y\nclients:\n" + strings.Repeat("", 0) + clientLines(MaxClients+1), fmt.Sprintf("%d:3", 4+MaxClients), "more than 16 clients", ""},
		{"too many questions", base + "steps:\n  - {at: 0s, model: {call: c1, ask: [" + questionList(MaxQuestions+1) + "]}}\n", "7:5", "more than 64 questions in one ask", ""},
		{"nested too deeply", base + "steps: " + strings.Repeat("[", MaxNesting+2) + strings.Repeat("]", MaxNesting+2) + "\n", "", "nested too deeply", "flatten"},
		{"flow question mark", base + "steps:\n  - {at: 0s, model: {call: c1, ask: [{id: q, question: Ready?, options: [a]}]}}\n", "7:61", "did not find expected", "cannot hold a bare ?"},
		{"empty file", "", "1:1", "the file is empty", "name: and summary:"},
		{"not a mapping", "- a\n- b\n", "1:1", "the scenario must be a mapping", ""},
		{"two documents", base + "---\nname: z\n", "6:1", "second YAML document", "own file"},
		{"unknown top key", base + "tiemout: 5\n", "6:1", `unknown key "tiemout" in the scenario`, "did you mean timeout?"},
		{"missing name", "summary: y\n", "1:1", "the scenario needs name:", "add name:"},
		{"bad name", "name: My Scenario\nsummary: y\n", "1:7", "not lowercase words", "my-scenario"},
		{"two-line summary", "name: x\nsummary: |\n  a\n  b\n", "2:10", "one non-empty line", ""},
		{"unknown requirement", base + "covers: [WAIT-1, WAIT-99]\n", "6:18", `unknown requirement id "WAIT-99"`, "did you mean WAIT-9?"},
		{"covers not a list", base + "covers: WAIT-1\n", "6:9", "covers must be a list", "covers: [WAIT-1"},
		{"duplicate requirement", base + "covers: [WAIT-1, WAIT-1]\n", "6:18", "WAIT-1 is listed twice", ""},
		{"wrong type", base + "timeout: fast\n", "6:10", "timeout must be a whole number", ""},
		{"timeout with unit", base + "timeout: 5s\n", "6:10", "timeout must be a whole number", "seconds without a unit"},
		{"a default timeout of 0 the host refuses (TOOL-3)", base + "timeout: 0\n", "6:10", "the host refuses timeout 0", "host-config: refused"},
		{"a default timeout past the tool's range (TOOL-3)", base + "timeout: 2147484\n", "6:10", "the host refuses timeout 2147484", "from 1 to 2147483"},
		{"a negative default timeout other than -1 (TOOL-3)", base + "timeout: -2\n", "6:10", "the host refuses timeout -2", "write -1"},
		{"a refused timeout with host-config: accepted", base + "timeout: 0\nexpect:\n  - {at: end, host-config: accepted}\n", "6:10", "the host refuses timeout 0", ""},
		{"duplicate mode", base + "mode: timd\n", "6:1", `the key "mode" appears twice`, ""},
		{"unknown mode value", "name: x\nsummary: y\nmode: timd\n", "3:7", `unknown mode "timd"`, `did you mean "timed"?`},
		{"duration without unit", base + "write-window: 200\n", "6:15", "write-window needs a unit", "200ms"},
		{"bad duration", base + "limit: 5 seconds\n", "6:8", `limit "5 seconds"`, "5s, 250ms"},
		{"reserved client", "name: x\nsummary: y\nclients:\n  model:\n", "4:3", `cannot be named "model"`, "reserved"},
		{"unknown client key", base + "  b: {latncy: 5ms}\n", "6:7", `unknown key "latncy" in client b`, "did you mean latency?"},
		{"bad latency range", base + "  b: {latency: 50ms..10ms}\n", "6:16", "latency range", ""},
		{"bad drift", base + "  b: {drift: 500}\n", "6:14", "drift must be a ppm value", "500ppm"},
		{"unknown actor", base + "steps:\n  - at: 0s\n    c: focus\n", "8:5", `unknown actor "c"`, "the actors are model, host, service, net, a"},
		{"actor typo", base + "steps:\n  - at: 0s\n    modle: header\n", "8:5", `unknown actor "modle"`, "did you mean model?"},
		{"input not a client input", base + "steps:\n  - {at: 0s, a: {input: '{\"kind\":\"warp\"}'}}\n", "7:25", `input is not a client input: input.kind: unknown client input kind "warp"`, "docs/PROTOCOL.md"},
		{"input not raw text", base + "steps:\n  - {at: 0s, a: {input: {kind: tick}}}\n", "7:25", "input must be a string of raw text", "single quotes"},
		{"two actors", base + "steps:\n  - at: 0s\n    model: header\n    a: focus\n", "9:5", "a step has one actor", "two steps"},
		{"no actor", base + "steps:\n  - at: 0s\n", "7:5", "a step needs an actor", ""},
		{"no at", base + "steps:\n  - model: header\n", "7:5", "a step needs at:", "at: 2s"},
		{"out of order", base + "steps:\n  - {at: 2s, model: header}\n  - {at: 1s, model: end-step}\n", "8:5", "this step at 1s comes after a step at 2s", "time order"},
		{"unknown model word", base + "steps:\n  - {at: 0s, model: hedaer}\n", "7:21", `unknown model action "hedaer"`, `did you mean "header"?`},
		{"model without verb", base + "steps:\n  - {at: 0s, model: {call: c1}}\n", "7:21", "does not say what it does", "ask, run"},
		{"model two verbs", base + "steps:\n  - {at: 0s, model: {call: c1, ask: [], sleep: 1s}}\n", "7:21", "several things at once: ask, sleep", ""},
		{"model call without id", base + "steps:\n  - {at: 0s, model: {ask: []}}\n", "7:21", "needs call:", ""},
		{"questions not a list", base + "steps:\n  - {at: 0s, model: {call: c1, ask: {id: q}}}\n", "7:37", "ask must be a list of questions", "[] for an empty batch"},
		{"question without text", base + "steps:\n  - {at: 0s, model: {call: c1, ask: [{id: q}]}}\n", "7:38", "a question needs question:", ""},
		{"unknown question key", base + "steps:\n  - {at: 0s, model: {call: c1, ask: [{id: q, question: x, multiselect: true}]}}\n", "7:59", `unknown key "multiselect"`, "multi"},
		{"append event not JSON", base + "steps:\n  - {at: 0s, host: {append: s1, event: '{\"type\":'}}\n", "7:40", "event is not valid JSON", "quotes and brackets"},
		{"append event not an object", base + "steps:\n  - {at: 0s, host: {append: s1, event: '[1]'}}\n", "7:40", "event must be a JSON object", "one JSON object"},
		{"append event without type", base + "steps:\n  - {at: 0s, host: {append: s1, event: '{\"turn\":1}'}}\n", "7:40", "event has no type", "name the event type"},
		{"append event with seq", base + "steps:\n  - {at: 0s, host: {append: s1, event: '{\"type\":\"turn/start\",\"seq\":3,\"turn\":1}'}}\n", "7:40", "event gives seq, which is the host's", "leave seq out"},
		{"attach with an event", "name: x\nsummary: y\nclients:\n  a:\nsteps:\n  - {at: 0s, inject: {client: a, event: e1, attach: c1}}\n", "6:5", "attach takes no event:", "leave event: out"},
		{"attach and next", "name: x\nsummary: y\nclients:\n  a:\nsteps:\n  - {at: 0s, inject: {client: a, next: true, attach: c1}}\n", "6:5", "one of next, answer, rejected or attach", ""},
		{"stall without unit", base + "steps:\n  - {at: 0s, host: {stall: 3}}\n", "7:28", "stall needs a unit", ""},
		{"stall of nothing", base + "steps:\n  - {at: 0s, host: {stall: 0s}}\n", "7:5", "a stall lasts a positive time", ""},
		{"claim-reply without call", base + "steps:\n  - {at: 0s, host: {claim-reply: s1, turn: 1}}\n", "7:20", "needs call:", ""},
		{"claim-reply turn 0", base + "steps:\n  - {at: 0s, host: {claim-reply: s1, call: c1, turn: 0}}\n", "7:5", "claim-reply needs a turn from 1", ""},
		{"append without event", base + "steps:\n  - {at: 0s, host: {append: s1}}\n", "7:20", "needs event:", ""},
		{"append unknown session", base + "steps:\n  - {at: 0s, host: {append: s9, event: '{\"type\":\"turn/start\",\"turn\":1}'}}\n", "7:5", `unknown Session "s9"`, "open it first"},
		{"view questions without call", base + "expect:\n  - {at: end, view: x, questions: []}\n", "7:5", "a view's questions belong to one call", "together"},
		{"view questions not a list", base + "expect:\n  - {at: end, view: x, call: c1, questions: pkg}\n", "7:45", "questions must be a list of questions", ""},
		{"model timeout with unit", base + "steps:\n  - {at: 0s, model: {call: c1, ask: [], timeout: 5s}}\n", "7:50", "timeout must be a JSON number", "write timeout: 5"},
		{"detail in a model ask", base + "steps:\n  - {at: 0s, model: {call: c1, ask: [{id: q, question: x, detail: d}]}}\n", "7:5", "detail and plan-review are for service asks", ""},
		{"ask_user_question as a tool", base + "steps:\n  - {at: 0s, model: {call: c1, tool: ask_user_question}}\n", "7:38", "has its own action", "ask: [questions]"},
		{"unknown host word", base + "steps:\n  - {at: 0s, host: reboot}\n", "7:20", `unknown host action "reboot"`, "restart"},
		{"unknown crash point", base + "steps:\n  - {at: 0s, host: {crash: before-dispatch}}\n", "7:28", `unknown crash point "before-dispatch"`, "before-ptc-dispatch"},
		{"effects at the wrong point", base + "steps:\n  - {at: 0s, host: {crash: now, effects: 2}}\n", "7:5", "effects: at a crash point", ""},
		{"unknown session", base + "steps:\n  - {at: 0s, session: s9, model: header}\n", "7:5", `unknown Session "s9"`, "open it first"},
		{"session opened later", base + "steps:\n  - {at: 0s, session: s2, model: header}\n  - {at: 1s, host: {open: s2}}\n", "7:5", `unknown Session "s2"`, ""},
		{"fork of unknown", base + "steps:\n  - {at: 0s, host: {open: s2, fork: s9, through: 3}}\n", "7:5", `unknown Session "s9"`, ""},
		{"net unknown client", base + "steps:\n  - {at: 0s, net: {disconnect: z}}\n", "7:5", `unknown client "z"`, "the clients are a"},
		{"partition without for", base + "steps:\n  - {at: 0s, net: {partition: a}}\n", "7:19", "needs for:", ""},
		{"unknown user word", base + "steps:\n  - {at: 0s, a: sumbit}\n", "7:17", `unknown user action "sumbit"`, `did you mean "submit"?`},
		{"unknown card", base + "steps:\n  - {at: 0s, model: {call: c1, ask: []}}\n  - {at: 1s, a: {submit: c2}}\n", "8:5", `unknown card "c2"`, "c1"},
		{"q with submit", base + "steps:\n  - {at: 0s, model: {call: c1, ask: []}}\n  - {at: 1s, a: {submit: c1, q: x}}\n", "8:30", `unknown key "q"`, ""},
		{"clock without sign is fine but zero is not", base + "steps:\n  - {at: 0s, a: {clock: 0s}}\n", "7:5", "a clock jump of 0", ""},
		{"service raw body not json", base + "steps:\n  - {at: 0s, service: {ask: '{\"questions\":'}}\n", "7:29", "not valid JSON", ""},
		{"service answer without call", base + "steps:\n  - {at: 0s, service: {answer: {q: a}}}\n", "7:5", "answer needs call:", ""},
		{"duplicate service id", base + "steps:\n  - {at: 0s, service: {ask: [], id: d1}}\n  - {at: 0s, service: {ask: [], id: d1}}\n", "8:5", "result id d1 is used twice", ""},
		{"unknown agent", base + "steps:\n  - {at: 0s, service: {ask: [], agent: dead}}\n", "7:40", `unknown agent "dead"`, "live, stale, none"},
		{"alias", base + "steps:\n  - &s {at: 0s, model: header}\n  - *s\n", "7:5", "anchors are not part", ""},
		{"tag", base + "seed: !!str 5\n", "6:7", "explicit tags", ""},
		{"duplicate key", base + "seed: 1\nseed: 2\n", "7:1", `the key "seed" appears twice`, ""},
		{"expectation without kind", base + "expect:\n  - {at: end, crad: c1}\n", "7:5", "does not say what it checks", "did you mean card?"},
		{"expectation two kinds", base + "expect:\n  - {at: end, card: c1, row: c1}\n", "7:5", "checks card and row", ""},
		{"expectation unknown call", base + "expect:\n  - {at: end, tool-result: c7, pending: true}\n", "7:5", `unknown call "c7"`, ""},
		{"expectation wrong key", base + "steps:\n  - {at: 0s, model: {call: c1, ask: []}}\nexpect:\n  - {at: end, tool-result: c1, wait: counting}\n", "9:32", `unknown key "wait" in the tool-result expectation`, ""},
		{"expectation pending false", base + "steps:\n  - {at: 0s, model: {call: c1, ask: []}}\nexpect:\n  - {at: end, tool-result: c1, pending: false}\n", "9:41", "pending can only be true", ""},
		{"two outcomes", base + "steps:\n  - {at: 0s, model: {call: c1, ask: []}}\nexpect:\n  - {at: end, tool-result: c1, pending: true, error: X}\n", "9:5", "a result has one outcome", ""},
		{"none with more", base + "steps:\n  - {at: 0s, model: {call: c1, ask: []}}\nexpect:\n  - {at: end, card: c1, none: true, busy: true}\n", "9:5", "none: true with busy", ""},
		{"card needs client", "name: x\nsummary: y\nclients: {a: , b: }\nsteps:\n  - {at: 0s, model: {call: c1, ask: []}}\nexpect:\n  - {at: end, card: c1}\n", "7:5", "names its client", "client: one of a, b"},
		{"bad countdown", base + "steps:\n  - {at: 0s, model: {call: c1, ask: []}}\nexpect:\n  - {at: end, card: c1, countdown: 3s}\n", "9:36", `countdown "3s"`, "3s running"},
		{"bad card state", base + "steps:\n  - {at: 0s, model: {call: c1, ask: []}}\nexpect:\n  - {at: end, card: c1, state: settled}\n", "9:32", `unknown card state "settled"`, "open, continued"},
		{"unknown result", base + "expect:\n  - {at: end, result: d1, pending: true}\n", "7:5", `unknown service result "d1"`, ""},
		{"after the limit", base + "limit: 10s\nsteps:\n  - {at: 11s, model: header}\n", "8:5", "after the limit", ""},
		{"unknown explore key", base + "explore: {seed: 3}\n", "6:11", `unknown key "seed" in explore`, "seeds"},
		{"bad fault rate", base + "explore: {faults: {crash: lots}}\n", "6:27", "crash must be a number of faults per minute", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Decode("f.yaml", []byte(c.yaml))
			if err == nil {
				t.Fatalf("accepted:\n%s", c.yaml)
			}
			var es Errors
			if !errors.As(err, &es) || len(es) == 0 {
				t.Fatalf("error is %T, not Errors: %v", err, err)
			}
			e := es[0]
			got := e.Error()
			if !strings.HasPrefix(got, "f.yaml:") {
				t.Errorf("error does not start with the file: %s", got)
			}
			if c.pos != "" && !strings.HasPrefix(got, "f.yaml:"+c.pos+": ") {
				t.Errorf("position: want f.yaml:%s, got %s", c.pos, got)
			}
			if !strings.Contains(e.Msg, c.msg) {
				t.Errorf("message: want %q in %q", c.msg, e.Msg)
			}
			if !strings.Contains(e.Hint, c.hint) {
				t.Errorf("hint: want %q in %q", c.hint, e.Hint)
			}
			if e.Hint == "" && c.hint != "" {
				t.Errorf("no hint")
			}
		})
	}
}

// A configured default timeout the host refuses (TOOL-3) is valid only in a scenario that
// expects the refusal; one the host takes is valid either way, and the legacy tool does
// not read it.
func TestDecodeTimeoutTheHostRefuses(t *testing.T) {
	for _, c := range []string{
		base + "timeout: 0\nexpect:\n  - {at: end, host-config: refused, contains: timeout}\n",
		base + "timeout: -1\n",
		base + "timeout: 2147483\n",
		"name: x\nsummary: y\nmode: legacy\ntimeout: 0\n",
	} {
		if _, err := Decode("f.yaml", []byte(c)); err != nil {
			t.Errorf("refused:\n%s\n%v", c, err)
		}
	}
	// Validate, for generated values, refuses it too (at the scenario's position).
	zero := int64(0)
	s := &Scenario{Name: "x", Summary: "y", Mode: ModeTimed, Timeout: &zero}
	if err := Validate(s); err == nil || !strings.Contains(err.Error(), "the host refuses timeout 0") {
		t.Errorf("Validate: %v", err)
	}
	s.Expect = []Expectation{{End: true, Kind: ExpectHostConfig, Subject: "refused"}}
	if err := Validate(s); err != nil {
		t.Errorf("Validate with host-config: refused: %v", err)
	}
}

func TestDecodeCollectsSeveralErrors(t *testing.T) {
	_, err := Decode("f.yaml", []byte(base+"tiemout: 5\nsead: 1\n"))
	var es Errors
	if !errors.As(err, &es) || len(es) != 2 {
		t.Fatalf("want 2 errors, got %v", err)
	}
	if es[0].Pos.Line != 6 || es[1].Pos.Line != 7 {
		t.Fatalf("errors out of file order: %v", err)
	}
}

func TestDecodeForms(t *testing.T) {
	// Each form of each action decodes to the value the format reference says.
	s, err := Decode("f.yaml", []byte(base+`sessions:
  s1:
  child: {owner: s1}
steps:
  - {at: 0s, model: {header: '[]'}}
  - {at: 0s, model: {call: c1, ask: '{"questions":"nope"}'}}
  - {at: 0s, model: {call: c2, run: [{ask: [], timeout: -1}, {sleep: 2s}, {tool: lookup, args: '{"q":1}'}]}}
  - {at: 0s, model: {call: c3, sleep: 250ms}}
  - {at: 0s, model: {call: c4, tool: lookup}}
  - {at: 0s, model: {prompt: hi}}
  - {at: 0s, model: {steer: "more: please"}}
  - {at: 0s, model: {cancel: keep-inbox}}
  - {at: 0s, model: end-turn}
  - {at: 0s, host: restart}
  - {at: 0s, host: crash}
  - {at: 0s, host: {crash: after-effect, effects: 2}}
  - {at: 0s, host: {open: s3, fork: s1, through: 4}}
  - {at: 0s, host: {close: s3}}
  - {at: 0s, host: {claim-reply: child, call: c1, turn: 2}}
  - {at: 0s, host: {stall: 1.5s}}
  - {at: 0s, host: {append: child, event: '{"type":"turn/end","turn":1,"reason":{"kind":"completed"}}'}}
  - {at: 0s, service: {ask: [{id: p, question: "Plan?", detail: d, options: [Approve, No], plan-review: Approve}], agent: stale, wait: w1, timed: true}}
  - {at: 0s, service: {ask-timed: [], call: w2, timeout: 0s, aborted: true}}
  - {at: 0s, service: {answer: {a: x, b: [y, z], c: [], d: {custom: free}, e: {selected: [u], custom: v}}, call: c1, id: mine}}
  - {at: 0s, service: {answer: '{"callId":"c1","answer":{"answers":[]}}'}}
  - {at: 0s, net: {delay: a, by: 300ms}}
  - {at: 0s, a: {type: "hello: world", q: q2, card: "c2:ptc:1"}}
  - {at: 0s, a: {skip: "#1", q: q1}}
  - {at: 0s, a: {clock: -5s}}
  - {at: 0s, a: {drift: 20000ppm}}
  - {at: 0s, a: {input: '{"kind":"from-http","rpcId":"a-r9","envelope":{"ok":true}}'}}
  - {at: 0s, session: child, a: reload}
expect:
  - {at: end, tool-result: "c2:ptc:1", error: any}
  - {at: end, result: mine, value: 'true'}
  - {at: end, result: d2, error: BAD_TIMEOUT}
  - {at: 1s, host-wait: w2, timer: none, claims: 0, deadline: 5s}
  - {at: 1s, row: c1, action: none, lines: [a, b]}
  - {at: 1s, link: a, connected: false, gen: 0}
`))
	if err != nil {
		t.Fatal(err)
	}
	custom := func(s string) *string { return &s }
	zero := Duration(0)
	wantSteps := []Step{
		{Model: &ModelAction{Kind: ModelHeader, Tools: "[]"}},
		{Model: &ModelAction{Kind: ModelAsk, Call: "c1", Args: `{"questions":"nope"}`}},
		{Model: &ModelAction{Kind: ModelRun, Call: "c2", Calls: []SubCall{{Kind: SubAsk, Questions: []Question{}, Timeout: "-1"}, {Kind: SubSleep, For: 2000}, {Kind: SubTool, Name: "lookup", Args: `{"q":1}`}}}},
		{Model: &ModelAction{Kind: ModelSleep, Call: "c3", For: 250}},
		{Model: &ModelAction{Kind: ModelTool, Call: "c4", Name: "lookup"}},
		{Model: &ModelAction{Kind: ModelPrompt, Text: "hi"}},
		{Model: &ModelAction{Kind: ModelSteer, Text: "more: please"}},
		{Model: &ModelAction{Kind: ModelCancel, KeepInbox: true}},
		{Model: &ModelAction{Kind: ModelEndTurn}},
		{Host: &HostAction{Kind: HostRestart}},
		{Host: &HostAction{Kind: HostCrash, Point: "now"}},
		{Host: &HostAction{Kind: HostCrash, Point: "after-effect", Effects: 2}},
		{Host: &HostAction{Kind: HostOpen, Session: "s3", Fork: "s1", Through: 4}},
		{Host: &HostAction{Kind: HostClose, Session: "s3"}},
		{Host: &HostAction{Kind: HostClaimReply, Session: "child", Call: "c1", Turn: 2}},
		{Host: &HostAction{Kind: HostStall, For: 1500}},
		{Host: &HostAction{Kind: HostAppend, Session: "child", Event: `{"type":"turn/end","turn":1,"reason":{"kind":"completed"}}`}},
		{Service: &ServiceCall{Kind: ServiceAsk, Agent: AgentStale, Call: "w1", Timed: true, Questions: []Question{{ID: "p", Question: "Plan?", Detail: "d", Options: []Option{{Label: "Approve"}, {Label: "No"}}, PlanReview: "Approve"}}}},
		{Service: &ServiceCall{Kind: ServiceAskTimed, Call: "w2", Timeout: &zero, Aborted: true, Questions: []Question{}}},
		{Service: &ServiceCall{Kind: ServiceAnswer, ID: "mine", Call: "c1", Answers: []AnswerItem{
			{ID: "a", Selected: []string{"x"}}, {ID: "b", Selected: []string{"y", "z"}}, {ID: "c", Selected: []string{}},
			{ID: "d", Selected: []string{}, Custom: custom("free")}, {ID: "e", Selected: []string{"u"}, Custom: custom("v")}}}},
		{Service: &ServiceCall{Kind: ServiceAnswer, Body: `{"callId":"c1","answer":{"answers":[]}}`}},
		{Net: &NetAction{Kind: NetDelay, Client: "a", By: 300}},
		{Client: "a", User: &UserAction{Kind: UserType, Text: "hello: world", Question: "q2", Card: "c2:ptc:1"}},
		{Client: "a", User: &UserAction{Kind: UserSkip, Card: "#1", Question: "q1"}},
		{Client: "a", User: &UserAction{Kind: UserClock, By: -5000}},
		{Client: "a", User: &UserAction{Kind: UserDrift, PPM: 20000}},
		{Client: "a", User: &UserAction{Kind: UserInput, Input: `{"kind":"from-http","rpcId":"a-r9","envelope":{"ok":true}}`}},
		{Session: "child", Client: "a", User: &UserAction{Kind: UserReload}},
	}
	if d := cmp.Diff(wantSteps, s.Steps, ignorePos); d != "" {
		t.Fatalf("steps (-want +got):\n%s", d)
	}
	if len(s.Sessions) != 2 || s.Sessions[1] != (Session{Name: "child", Owner: "s1", Pos: s.Sessions[1].Pos}) {
		t.Fatalf("sessions %+v", s.Sessions)
	}
	if e := s.Expect[3]; e.Timer != "none" || *e.Claims != 0 || *e.Deadline != 5000 {
		t.Fatalf("host-wait expectation %+v", e)
	}
	if e := s.Expect[4]; e.Action == nil || *e.Action != "" || len(e.Lines) != 2 {
		t.Fatalf("row expectation %+v", e)
	}
}

// TestKindKeysAreNotAssertionKeys: an expectation is recognised by its one kind key, so no
// kind may use another kind's name as an assertion key.
func TestKindKeysAreNotAssertionKeys(t *testing.T) {
	kinds := map[string]bool{}
	for _, o := range expectKinds {
		kinds[o.Name] = true
	}
	for _, o := range expectKinds {
		for _, k := range o.Keys[1:] {
			if kinds[k.Name] {
				t.Errorf("the %s expectation has an assertion key %q that names a kind", o.Name, k.Name)
			}
		}
	}
}
