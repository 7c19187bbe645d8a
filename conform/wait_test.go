package conform

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/twosettle/twosettle/engine/mutant"
	"github.com/twosettle/twosettle/engine/wire"
	"github.com/twosettle/twosettle/harness"
	"github.com/twosettle/twosettle/scenarios"
	"github.com/twosettle/twosettle/sim"
	"github.com/twosettle/twosettle/trace"
	"pgregory.net/rapid"
)

// playWaitHost is the test binary as a host of the wait profile only, with a deliberate
// bug:
//
//	wait-late   its timers fire one millisecond late: at deadline+1
//	wait-leak   returning a claim arms a second timer it never clears (timers leak)
//	wait-reason a parent's abort closes its waits with ASK_ABORTED, not the parent's reason
//	wait-floor  a frame's remainingMs is deadline − now without the floor at 0, so a claim
//	            attached after the deadline beside another claim gets a negative one
//	wait-jump   an expiry is stamped with the time the runner moved to, not its deadline
//	            (right for small steps, wrong in a time jump)
//	wait-ok     the reference wait, served with only the wait profile
//
// and one that is right though its bytes are not the reference's:
//
//	wait-endlast inside one instant, its claim streams report their ends after every other
//	            event, a wait's closed included (as async generators do, by microtask order)
func playWaitHost(kind string) int {
	r := bufio.NewReader(os.Stdin)
	w := bufio.NewWriter(os.Stdout)
	if _, err := readRequest(r); err != nil {
		return 2
	}
	emit(w, []byte(`{"type":"hello","protocol":"twosettle-conform/1","name":"`+kind+`","version":"1","profiles":["wait"]}`+"\n"))
	var s interface{ Step(WaitStep) WaitReply }
	switch kind {
	case "wait-late":
		s = lateModel(1)
	case "wait-leak":
		s = &leakyWait{m: newWaitModel(0)}
	case "wait-endlast":
		s = endsLast{newWaitModel(0)}
	case "wait-reason", "wait-floor", "wait-jump":
		s = &skewedWait{m: newWaitModel(0), bug: kind, deadline: map[string]int64{}, wait: map[string]string{}}
	default:
		s = newWaitModel(0)
	}
	if err := serveWaitWith(r, w, s); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	return 0
}

// lateModel is a wait whose timers fire ms late.
func lateModel(ms int64) *waitModel {
	m := newWaitModel(0)
	m.lateMs = ms
	return m
}

type leakyWait struct {
	m     *waitModel
	leaks int64
}

func (l *leakyWait) Step(s WaitStep) WaitReply {
	rep := l.m.Step(s)
	if s.Op == WaitOpReset {
		l.leaks = 0
	}
	for _, e := range rep.Events {
		if s.Op == WaitOpReturn && e.Event == WaitEventEnd {
			l.leaks++
		}
	}
	rep.Timers += l.leaks
	return rep
}

// skewedWait is the reference wait with one reply field wrong, as bug says (wait-reason,
// wait-floor, wait-jump above).
type skewedWait struct {
	m        *waitModel
	bug      string
	deadline map[string]int64  // wait → its deadline
	wait     map[string]string // claim → its wait
}

func (w *skewedWait) Step(s WaitStep) WaitReply {
	rep := w.m.Step(s)
	switch s.Op {
	case WaitOpReset:
		clear(w.deadline)
		clear(w.wait)
	case WaitOpCreate:
		w.deadline[s.Wait] = s.Now + s.TimeoutMs
	case WaitOpAttach:
		w.wait[s.Claim] = s.Wait
	}
	for i, e := range rep.Events {
		switch {
		case w.bug == "wait-reason" && s.Op == WaitOpAbort && e.Event == WaitEventClosed:
			rep.Events[i].Reason = "ASK_ABORTED"
		case w.bug == "wait-floor" && e.Event == WaitEventFrame && e.RemainingMs == 0:
			if d, ok := w.deadline[w.wait[e.Claim]]; ok {
				rep.Events[i].RemainingMs = d - s.Now
			}
		case w.bug == "wait-jump" && e.Event == WaitEventClosed && e.Reason == "ASK_TIMED_OUT":
			rep.Events[i].At = s.Now
		}
	}
	return rep
}

func testEnv(kind string) []string { return []string{"CONFORM_TEST_HOST=" + kind} }

func TestWaitStepTextForm(t *testing.T) {
	steps := []WaitStep{
		{Now: 0, Op: WaitOpCreate, Wait: "w1", TimeoutMs: 5000},
		{Now: 0, Op: WaitOpCreate, Wait: "w2", TimeoutMs: 1, Parent: "p1"},
		{Now: 10, Op: WaitOpAttach, Claim: "k1", Wait: "w1"},
		{Now: 10, Op: WaitOpAttach, Claim: "k2", Wait: "w1", Cancelled: true},
		{Now: 10, Op: WaitOpPull, Claim: "k1"},
		{Now: 20, Op: WaitOpReturn, Claim: "k1"},
		{Now: 20, Op: WaitOpCancel, Claim: "k2"},
		{Now: 30, Op: WaitOpAbort, Parent: "p1", Reason: "TURN_ABORTED"},
		{Now: 30, Op: WaitOpClose, Wait: "w1", Reason: "ASK_ABORTED"},
		{Now: 99, Op: WaitOpAdvance},
	}
	for _, s := range steps {
		got, err := ParseWaitStep([]byte(s.String()))
		if err != nil || got != s {
			t.Errorf("%s: round trip %+v, %v", s, got, err)
		}
	}
	if got := steps[1].String(); got != `{"now":0,"op":"create","wait":"w2","timeoutMs":1,"parent":"p1"}` {
		t.Errorf("canonical form %s", got)
	}
	if got := string(waitRequestLine(7, steps[3])); got != `{"type":"wait","n":7,"now":10,"op":"attach","claim":"k2","wait":"w1","cancelled":true}`+"\n" {
		t.Errorf("request line %s", got)
	}
	e := WaitEvent{Event: WaitEventClosed, Wait: "w1", Reason: "ASK_TIMED_OUT", At: 5000}
	evs, err := decodeWaitEvents([]byte("[" + e.String() + "]"))
	if err != nil || len(evs) != 1 || evs[0] != e {
		t.Errorf("event round trip %v %v", evs, err)
	}
}

func TestParseWaitScriptErrors(t *testing.T) {
	for _, c := range []struct{ name, text, want string }{
		{"unknown op", `{"now":0,"op":"teleport"}`, "s.jsonl:1:1: unknown op \"teleport\""},
		{"unknown key", `{"now":0,"op":"pull","claim":"k1","wait":"w1"}`, `s.jsonl:1:1: pull: unknown key "wait"`},
		{"missing key", `{"now":0,"op":"create","wait":"w1"}`, `s.jsonl:1:1: create: missing key "timeoutMs"`},
		{"bad timeout", `{"now":0,"op":"create","wait":"w1","timeoutMs":0}`, `s.jsonl:1:1: create: "timeoutMs" is not an integer in 1..2147483647: 0`},
		{"fraction", `{"now":1.5,"op":"advance"}`, `s.jsonl:1:1: "now" is not an integer`},
		{"empty name", `{"now":0,"op":"pull","claim":""}`, `s.jsonl:1:1: pull: "claim" is empty`},
		{"time goes back", "# a comment\n{\"now\":5,\"op\":\"advance\"}\n\n  {\"now\":4,\"op\":\"advance\"}", "s.jsonl:4:3: time goes back: 4 after 5"},
		{"wait twice", "{\"now\":0,\"op\":\"create\",\"wait\":\"w\",\"timeoutMs\":1}\n{\"now\":0,\"op\":\"create\",\"wait\":\"w\",\"timeoutMs\":2}", `s.jsonl:2:1: wait "w" is created twice`},
		{"reset", `{"now":0,"op":"reset"}`, "s.jsonl:1:1: reset is the runner's"},
		{"not json", `{"now":`, "s.jsonl:1:1: not a JSON object"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := ParseWaitScript("s.jsonl", []byte(c.text))
			if err == nil || !strings.HasPrefix(err.Error(), c.want) {
				t.Fatalf("error %v, want prefix %q", err, c.want)
			}
		})
	}
}

// model runs steps (after a reset) through the reference model.
func model(steps ...WaitStep) []WaitReply {
	m := newWaitModel(0)
	m.Step(WaitStep{Op: WaitOpReset})
	var out []WaitReply
	for _, s := range steps {
		out = append(out, m.Step(s))
	}
	return out
}

func closed(w, reason string, at int64) WaitEvent {
	return WaitEvent{Event: WaitEventClosed, Wait: w, Reason: reason, At: at}
}
func frame(k string, ms, at int64) WaitEvent {
	return WaitEvent{Event: WaitEventFrame, Claim: k, RemainingMs: ms, At: at}
}
func end(k string, at int64) WaitEvent { return WaitEvent{Event: WaitEventEnd, Claim: k, At: at} }

// The reference of the profile, rule by rule, as a host must answer.
func TestWaitModelRules(t *testing.T) {
	create := func(now int64, w string, timeout int64, parent string) WaitStep {
		return WaitStep{Now: now, Op: WaitOpCreate, Wait: w, TimeoutMs: timeout, Parent: parent}
	}
	attach := func(now int64, k, w string) WaitStep { return WaitStep{Now: now, Op: WaitOpAttach, Claim: k, Wait: w} }
	op := func(now int64, op, k string) WaitStep { return WaitStep{Now: now, Op: op, Claim: k} }
	adv := func(now int64) WaitStep { return WaitStep{Now: now, Op: WaitOpAdvance} }
	for _, c := range []struct {
		name  string
		steps []WaitStep
		want  []WaitReply // of each step
	}{
		{"WAIT-1 WAIT-8 an unattended wait closes at its deadline with ASK_TIMED_OUT, in a time jump at the deadline's time",
			[]WaitStep{create(100, "w1", 5000, ""), adv(5099), adv(60000)},
			[]WaitReply{{Timers: 1}, {Timers: 1}, {Events: []WaitEvent{closed("w1", "ASK_TIMED_OUT", 5100)}}}},
		{"WAIT-2 WAIT-3 WAIT-4 an attached stream is no claim until pulled; the pull yields one frame and disarms the timer",
			[]WaitStep{create(0, "w1", 5000, ""), attach(1000, "k1", "w1"), op(1000, WaitOpPull, "k1"), op(2000, WaitOpPull, "k1"), adv(90000)},
			[]WaitReply{{Timers: 1}, {Timers: 1}, {Events: []WaitEvent{frame("k1", 4000, 1000)}}, {}, {}}},
		{"WAIT-5 the last claim returned after the deadline expires the wait at once",
			[]WaitStep{create(0, "w1", 5000, ""), attach(0, "k1", "w1"), op(0, WaitOpPull, "k1"), op(7000, WaitOpReturn, "k1")},
			[]WaitReply{{Timers: 1}, {Timers: 1}, {Events: []WaitEvent{frame("k1", 5000, 0)}}, {Events: []WaitEvent{end("k1", 7000), closed("w1", "ASK_TIMED_OUT", 7000)}}}},
		{"WAIT-5 a claim returned before the deadline restores the original deadline",
			[]WaitStep{create(0, "w1", 5000, ""), attach(1000, "k1", "w1"), op(1000, WaitOpPull, "k1"), op(3000, WaitOpReturn, "k1"), adv(4999), adv(5000)},
			[]WaitReply{{Timers: 1}, {Timers: 1}, {Events: []WaitEvent{frame("k1", 4000, 1000)}}, {Events: []WaitEvent{end("k1", 3000)}, Timers: 1}, {Timers: 1}, {Events: []WaitEvent{closed("w1", "ASK_TIMED_OUT", 5000)}}}},
		{"WAIT-6 a claim attached after the deadline with no other claim expires the wait and yields no frame",
			[]WaitStep{create(0, "w1", 5000, ""), attach(4000, "k1", "w1"), op(6000, WaitOpPull, "k1")},
			// the timer fired at 5000, before the pull: the stream then ends as on a closed wait
			[]WaitReply{{Timers: 1}, {Timers: 1}, {Events: []WaitEvent{closed("w1", "ASK_TIMED_OUT", 5000), end("k1", 6000)}}}},
		{"WAIT-6 with another claim held a late claim yields remainingMs 0",
			[]WaitStep{create(0, "w1", 5000, ""), attach(0, "k1", "w1"), op(0, WaitOpPull, "k1"), attach(8000, "k2", "w1"), op(8000, WaitOpPull, "k2")},
			[]WaitReply{{Timers: 1}, {Timers: 1}, {Events: []WaitEvent{frame("k1", 5000, 0)}}, {}, {Events: []WaitEvent{frame("k2", 0, 8000)}}}},
		{"WAIT-7 a cancelled claim signal or an unknown wait ends with no frame and leaves the wait open",
			[]WaitStep{create(0, "w1", 5000, ""), {Now: 10, Op: WaitOpAttach, Claim: "k1", Wait: "w1", Cancelled: true}, op(10, WaitOpPull, "k1"), attach(10, "k2", "nope"), op(10, WaitOpPull, "k2")},
			[]WaitReply{{Timers: 1}, {Timers: 1}, {Events: []WaitEvent{end("k1", 10)}, Timers: 1}, {Timers: 1}, {Events: []WaitEvent{end("k2", 10)}, Timers: 1}}},
		{"WAIT-9 WAIT-8 a parent's abort closes its waits with its reason, ends their claims and leaves no timer; an expiry never aborts the parent",
			[]WaitStep{create(0, "w1", 100, "p"), create(0, "w2", 5000, "p"), attach(0, "k1", "w2"), op(0, WaitOpPull, "k1"), adv(200), {Now: 300, Op: WaitOpAbort, Parent: "p", Reason: "TURN_ABORTED"}},
			[]WaitReply{{Timers: 1}, {Timers: 2}, {Timers: 2}, {Events: []WaitEvent{frame("k1", 5000, 0)}, Timers: 1}, {Events: []WaitEvent{closed("w1", "ASK_TIMED_OUT", 100)}}, {Events: []WaitEvent{end("k1", 300), closed("w2", "TURN_ABORTED", 300)}}}},
		{"WAIT-10 CLAIM-3 closing ends the claims, completes once, and a second close does nothing",
			[]WaitStep{create(0, "w1", 5000, ""), attach(0, "k1", "w1"), op(0, WaitOpPull, "k1"), {Now: 10, Op: WaitOpClose, Wait: "w1", Reason: "ASK_ABORTED"}, {Now: 20, Op: WaitOpClose, Wait: "w1", Reason: "ASK_ABORTED"}},
			[]WaitReply{{Timers: 1}, {Timers: 1}, {Events: []WaitEvent{frame("k1", 5000, 0)}}, {Events: []WaitEvent{end("k1", 10), closed("w1", "ASK_ABORTED", 10)}}, {}}},
		{"WAIT-9 a wait created under an aborted parent closes at once",
			[]WaitStep{{Now: 0, Op: WaitOpAbort, Parent: "p", Reason: "TURN_ABORTED"}, create(5, "w1", 5000, "p")},
			[]WaitReply{{}, {Events: []WaitEvent{closed("w1", "TURN_ABORTED", 5)}}}},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := model(c.steps...)
			for i := range got {
				if got[i].Events == nil {
					got[i].Events = []WaitEvent{}
				}
				if c.want[i].Events == nil {
					c.want[i].Events = []WaitEvent{}
				}
			}
			if d := cmp.Diff(c.want, got); d != "" {
				t.Fatalf("replies (-want +got):\n%s", d)
			}
		})
	}
}

func TestWaitProfileRefhostPasses(t *testing.T) {
	var out, errb bytes.Buffer
	dir := t.TempDir()
	jsonFile := filepath.Join(dir, "r.json")
	junitFile := filepath.Join(dir, "r.xml")
	code := Main([]string{"--profile", "wait", "--host", testBinary(), "--seeds", "300", "--json", jsonFile, "--junit", junitFile}, nil, &out, &errb, testEnv("refhost"))
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, out.String(), errb.String())
	}
	// Every form of the report names the part it judged (it used to read as a whole
	// host's in JUnit, and name no profile in text and JSON).
	if !strings.Contains(out.String(), "\nprofile:     wait\n") {
		t.Errorf("the text report names no profile:\n%.400s", out.String())
	}
	// features say which scenarios apply; the wait profile runs scripts, not scenarios
	if strings.Contains(out.String(), "\nfeatures:") {
		t.Errorf("the wait profile's text report lists the host's features:\n%.400s", out.String())
	}
	if x, _ := os.ReadFile(junitFile); !strings.Contains(string(x), `<property name="profile" value="wait">`) {
		t.Errorf("the JUnit report's profile:\n%.600s", x)
	}
	var rep struct {
		Profile      string
		Replayable   bool
		Requirements []struct{ ID, Status string }
		Scenarios    []struct{ Name string }
	}
	data, _ := os.ReadFile(jsonFile)
	if err := json.Unmarshal(data, &rep); err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, r := range rep.Requirements {
		ids = append(ids, r.ID)
		if r.Status != StatusPass {
			t.Errorf("%s: %s (every wait id is exercised by the library and 300 seeds)", r.ID, r.Status)
		}
	}
	if d := cmp.Diff(WaitRequirementIDs, ids); d != "" {
		t.Errorf("the report judges exactly the wait ids (-want +got):\n%s", d)
	}
	lib, gen := 0, 0
	for _, s := range rep.Scenarios {
		switch {
		case strings.HasPrefix(s.Name, "wait library "):
			lib++
		case strings.HasPrefix(s.Name, "wait seed "):
			gen++
		}
	}
	if rep.Profile != ProfileWait {
		t.Errorf("the JSON report's profile %q", rep.Profile)
	}
	if lib < 50 || gen != 300 || !rep.Replayable {
		t.Errorf("%d library scripts, %d generated, replayable %v", lib, gen, rep.Replayable)
	}
}

func TestWaitProfileCatchesWrongWaits(t *testing.T) {
	for _, c := range []struct{ kind, want string }{
		{"wait-late", `"at":5001`},
		{"wait-leak", "timers armed: host"},
		{"refhost:" + mutant.ReleaseRestartsTimeout.String(), "ASK_TIMED_OUT"},
		{"refhost:" + mutant.UnconditionalDeadline.String(), "timers armed: host 1, reference 0"},
		{"refhost:" + mutant.ClaimFrameFullTimeout.String(), `"remainingMs"`},
	} {
		t.Run(c.kind, func(t *testing.T) {
			dir := t.TempDir()
			var out, errb bytes.Buffer
			script := filepath.Join(dir, "in.jsonl")
			// A script that every bug above gets wrong.
			os.WriteFile(script, []byte(strings.Join([]string{
				`{"now":0,"op":"create","wait":"w0","timeoutMs":5000}`,
				`{"now":0,"op":"create","wait":"w1","timeoutMs":5000}`,
				`{"now":1000,"op":"attach","claim":"k1","wait":"w1"}`,
				`{"now":1000,"op":"pull","claim":"k1"}`,
				`{"now":1000,"op":"attach","claim":"k2","wait":"w0"}`,
				`{"now":2000,"op":"return","claim":"k1"}`,
				`{"now":2500,"op":"advance"}`,
				`{"now":9000,"op":"advance"}`,
			}, "\n")), 0o644)
			code := Main([]string{"--profile", "wait", "--host", testBinary(), "--out", dir, script}, nil, &out, &errb, testEnv(c.kind))
			if code != 1 || !strings.Contains(out.String(), c.want) {
				t.Fatalf("exit %d, want 1 and %q in:\n%s\n%s", code, c.want, out.String(), errb.String())
			}
			// The failure is shrunk to a script from which no step can go, and its replay
			// command fails the same way against the same host and passes against the
			// reference.
			files, _ := filepath.Glob(filepath.Join(dir, "*.jsonl"))
			var shrunk string
			for _, f := range files {
				if f != script {
					shrunk = f
				}
			}
			if shrunk == "" || !strings.Contains(out.String(), "replay: conform --profile wait") || !strings.Contains(out.String(), shrunk) {
				t.Fatalf("no shrunk script or replay line:\n%s", out.String())
			}
			data, _ := os.ReadFile(shrunk)
			sc, err := ParseWaitScript(shrunk, data)
			if err != nil {
				t.Fatal(err)
			}
			if len(sc.Steps) > 5 {
				t.Errorf("shrunk to %d steps:\n%s", len(sc.Steps), data)
			}
			out.Reset()
			if code := Main([]string{"--profile", "wait", "--host", testBinary(), "--out", t.TempDir(), shrunk}, nil, &out, &errb, testEnv(c.kind)); code != 1 {
				t.Errorf("the replay exits %d:\n%s", code, out.String())
			}
			if code := Main([]string{"--profile", "wait", "--host", testBinary(), shrunk}, nil, &out, &errb, testEnv("wait-ok")); code != 0 {
				t.Errorf("the shrunk script fails against the reference: %d", code)
			}
		})
	}
}

// Each check of the wait profile catches a host that gets only that check wrong: one
// broken host per check, each on a script of a few steps, failing (exit 1) with the step
// and the difference named, and a replay line that reproduces it from a written script.
func TestWaitProfileCatchesOneBrokenHostPerCheck(t *testing.T) {
	for _, c := range []struct {
		name, host string
		script     []string
		want       string
		judges     string
	}{
		{"WAIT-4 remainingMs of a frame", "refhost:" + mutant.ClaimFrameFullTimeout.String(), []string{
			`{"now":0,"op":"create","wait":"w1","timeoutMs":5000}`,
			`{"now":1000,"op":"attach","claim":"k1","wait":"w1"}`,
			`{"now":1000,"op":"pull","claim":"k1"}`,
		}, `"remainingMs":4000`, "WAIT-4"},
		{"WAIT-1 WAIT-8 expiry at the deadline", "wait-late", []string{
			`{"now":0,"op":"create","wait":"w1","timeoutMs":5000}`,
			`{"now":5000,"op":"advance"}`,
		}, `"at":5000`, "WAIT-1, WAIT-8"},
		{"WAIT-9 a parent abort closes with the parent's reason", "wait-reason", []string{
			`{"now":0,"op":"create","wait":"w1","timeoutMs":5000,"parent":"turn"}`,
			`{"now":100,"op":"abort","parent":"turn","reason":"TURN_ABORTED"}`,
		}, `"reason":"TURN_ABORTED"`, "WAIT-9"},
		{"WAIT-5 a returned claim re-arms one timer, not one more", "wait-leak", []string{
			`{"now":0,"op":"create","wait":"w1","timeoutMs":5000}`,
			`{"now":0,"op":"attach","claim":"k1","wait":"w1"}`,
			`{"now":0,"op":"pull","claim":"k1"}`,
			`{"now":100,"op":"return","claim":"k1"}`,
			`{"now":200,"op":"close","wait":"w1","reason":"ASK_ABORTED"}`,
		}, "timers armed: host 2, reference 1", "WAIT-5"},
		{"WAIT-6 a claim attached after the deadline beside another gets remainingMs 0", "wait-floor", []string{
			`{"now":0,"op":"create","wait":"w1","timeoutMs":5000}`,
			`{"now":0,"op":"attach","claim":"k1","wait":"w1"}`,
			`{"now":0,"op":"pull","claim":"k1"}`,
			`{"now":8000,"op":"attach","claim":"k2","wait":"w1"}`,
			`{"now":8000,"op":"pull","claim":"k2"}`,
		}, `"remainingMs":0`, "WAIT-4, WAIT-6"},
		{"WAIT-1 WAIT-8 an expiry in a time jump lands at its deadline", "wait-jump", []string{
			`{"now":0,"op":"create","wait":"w1","timeoutMs":5000}`,
			`{"now":0,"op":"create","wait":"w2","timeoutMs":7000}`,
			`{"now":3600000,"op":"advance"}`,
		}, `"at":3600000} elsewhere in its reply`, "WAIT-1, WAIT-8"},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			script := filepath.Join(dir, "in.jsonl")
			os.WriteFile(script, []byte(strings.Join(c.script, "\n")+"\n"), 0o644)
			var out, errb bytes.Buffer
			if code := Main([]string{"--profile", "wait", "--host", testBinary(), script}, nil, &out, &errb, testEnv("wait-ok")); code != 0 {
				t.Fatalf("the reference fails the script: exit %d\n%s", code, out.String())
			}
			out.Reset()
			code := Main([]string{"--profile", "wait", "--host", testBinary(), "--out", dir, script}, nil, &out, &errb, testEnv(c.host))
			if code != 1 || !strings.Contains(out.String(), c.want) {
				t.Fatalf("exit %d, want 1 and %q in:\n%s\n%s", code, c.want, out.String(), errb.String())
			}
			// The failure names the ids its comparison judges, and the report fails those only.
			if !strings.Contains(out.String(), "; this comparison judges "+c.judges+"\n") {
				t.Errorf("the failure does not say it judges %s:\n%s", c.judges, out.String())
			}
			if got := failedRows(out.String()); got != c.judges {
				t.Errorf("the report fails %s, want %s:\n%s", got, c.judges, out.String())
			}
			replay := ""
			for _, line := range strings.Split(out.String(), "\n") {
				if r, ok := strings.CutPrefix(strings.TrimSpace(line), "replay: "); ok {
					replay = r
				}
			}
			if !strings.HasPrefix(replay, "conform --profile wait --host ") {
				t.Fatalf("no replay line:\n%s", out.String())
			}
			written := replay[strings.LastIndex(replay, " ")+1:]
			out.Reset()
			if code := Main([]string{"--profile", "wait", "--host", testBinary(), "--out", t.TempDir(), written}, nil, &out, &errb, testEnv(c.host)); code != 1 || !strings.Contains(out.String(), c.want) {
				t.Errorf("the replayed %s exits %d:\n%s", written, code, out.String())
			}
		})
	}
}

// A shrunk failure is 1-minimal: removing any one of its steps makes it pass.
func TestShrinkWaitIsMinimal(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		seed := rapid.Uint64Range(1, 5000).Draw(t, "seed")
		sc := GenerateWaitScript(seed, 0)
		h := stepperOf{lateModel(1)}
		o := waitRun{}.run(h, sc.Steps)
		if !o.failed {
			return
		}
		steps, o := shrinkWait(h, sc.Steps, o, 2000)
		if !o.failed || len(steps) > len(sc.Steps) {
			t.Fatalf("shrinking lost the failure")
		}
		for i := range steps {
			cand := append(append([]WaitStep{}, steps[:i]...), steps[i+1:]...)
			if co := (waitRun{}).run(h, cand); co.failed {
				t.Fatalf("step %d (%s) of the shrunk script can go", i+1, steps[i])
			}
		}
	})
}

// stepperOf adapts a model-like wait to waitStepper.
type stepperOf struct {
	s interface{ Step(WaitStep) WaitReply }
}

func (s stepperOf) WaitStep(st WaitStep) (WaitReply, error) { return s.s.Step(st), nil }

func TestGenerateWaitScript(t *testing.T) {
	t.Run("the same seed gives the same script", func(t *testing.T) {
		a, b := GenerateWaitScript(42, 0), GenerateWaitScript(42, 0)
		if d := cmp.Diff(a, b); d != "" {
			t.Fatal(d)
		}
		if cmp.Equal(a.Steps, GenerateWaitScript(43, 0).Steps) {
			t.Fatal("seeds 42 and 43 give the same script")
		}
	})
	t.Run("every generated script is a valid script file", func(t *testing.T) {
		for seed := uint64(1); seed <= 300; seed++ {
			sc := GenerateWaitScript(seed, 0)
			var b strings.Builder
			for _, s := range sc.Steps {
				b.WriteString(s.String() + "\n")
			}
			back, err := ParseWaitScript("gen", []byte(b.String()))
			if err != nil || !cmp.Equal(back.Steps, sc.Steps) {
				t.Fatalf("seed %d: %v", seed, err)
			}
		}
	})
	t.Run("on a grid no step is within half a grid of a deadline", func(t *testing.T) {
		rapid.Check(t, func(t *rapid.T) {
			seed := rapid.Uint64().Draw(t, "seed")
			grid := rapid.Int64Range(20, 500).Draw(t, "grid") * 2
			sc := GenerateWaitScript(seed, grid)
			deadlines := map[int64]bool{}
			for _, s := range sc.Steps {
				if s.Now%grid != 0 {
					t.Fatalf("step off the grid: %s", s)
				}
				if s.Op == WaitOpCreate {
					deadlines[s.Now+s.TimeoutMs] = true
				}
			}
			for _, s := range sc.Steps {
				for d := range deadlines {
					if abs(s.Now-d) < grid/2 {
						t.Fatalf("%s is %dms from deadline %d", s, abs(s.Now-d), d)
					}
				}
			}
		})
	})
}

func TestLibraryWaitScripts(t *testing.T) {
	lib, err := LibraryWaitScripts()
	if err != nil {
		t.Fatal(err)
	}
	if len(lib) < 50 {
		t.Fatalf("%d library scripts", len(lib))
	}
	ops := map[string]int{}
	for _, sc := range lib {
		for _, s := range sc.Steps {
			ops[s.Op]++
		}
	}
	for _, op := range []string{WaitOpCreate, WaitOpAttach, WaitOpPull, WaitOpReturn, WaitOpAbort, WaitOpClose, WaitOpAdvance} {
		if ops[op] == 0 {
			t.Errorf("no library script has a %s step", op)
		}
	}
}

func TestWaitProfileRefusedByAHostWithoutIt(t *testing.T) {
	var out, errb bytes.Buffer
	code := Main([]string{"--profile", "wait", "--host", testBinary(), "--seeds", "1"}, nil, &out, &errb, testEnv("crash"))
	if code != 2 || !strings.Contains(errb.String(), `does not serve the wait profile: its hello offers host`) {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	errb.Reset()
	code = Main([]string{"--host", testBinary()}, nil, &out, &errb, testEnv("wait-ok"))
	if code != 2 || !strings.Contains(errb.String(), `does not serve the host profile: its hello offers wait`) {
		t.Fatalf("a wait-only host run as a whole host: exit %d: %s", code, errb.String())
	}
	code = Main([]string{"--profile", "tea", "--host", testBinary()}, nil, &out, &errb, testEnv("refhost"))
	if code != 2 || !strings.Contains(errb.String(), `unknown profile "tea"`) {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
}

// The Node example (examples/node/wait.js) on fake timers and on its real timers; skipped
// where node or its npm ci install is missing (CI runs it as a stage after npm ci).
func TestWaitProfileNodeExample(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("no node on PATH")
	}
	if _, err := os.Stat("../examples/node/node_modules/@sinonjs/fake-timers"); err != nil {
		t.Skip("examples/node is not installed (npm ci in examples/node)")
	}
	var out, errb bytes.Buffer
	if code := Main([]string{"--profile", "wait", "--host", node + " ../examples/node/wait.js", "--seeds", "100", "--out", t.TempDir()}, nil, &out, &errb, nil); code != 0 {
		t.Fatalf("fake timers: exit %d\n%s%s", code, out.String(), errb.String())
	}
	out.Reset()
	if code := Main([]string{"--profile", "wait", "--realtime", "--late", "100ms", "--seeds", "1", "--host", node + " ../examples/node/wait.js --real-timers"}, nil, &out, &errb, nil); code != 0 {
		if strings.Contains(out.String(), "no verdict: the runner sent step") {
			t.Skip("the machine is too busy for a 100ms tolerance:\n" + out.String())
		}
		t.Fatalf("real timers: exit %d\n%s%s", code, out.String(), errb.String())
	}
	if !strings.Contains(out.String(), "NOT REPLAYABLE") {
		t.Errorf("a real-time report that does not say it is not replayable:\n%s", out.String())
	}
}

// The library scripts say what the reference host did: run through the reference wait,
// each gives the frames (time and remainingMs) and the expiries (time) the host's own
// wait notes recorded in that scenario, in order. A scenario with a host stall is left
// out: the stall holds the host's timers back, so its waits expire late, a harness fault
// on the host's clock that the wait profile does not model (its script expires each wait
// at its own time, as the profile requires).
func TestLibraryWaitScriptsReplayTheHostsWaits(t *testing.T) {
	runner := sim.NewRunner()
	ports := map[string]wire.ClientPort{}
	var tr trace.Trace
	checked := 0
	for _, e := range harness.Library("") {
		s, err := scenarios.Decode(e.Path, e.Data)
		if err != nil {
			t.Fatal(err)
		}
		stalled := false
		for _, st := range s.Steps {
			stalled = stalled || st.Host != nil && st.Host.Kind == scenarios.HostStall
		}
		x := harness.Execute(harness.Compile(s, 0), harness.ReferenceHost(""), "", runner, ports, &tr)
		if x.Lost != nil || x.ConfigErr != nil || x.Refused != nil || stalled {
			continue
		}
		steps := waitStepsOf(tr.Records)
		if len(steps) == 0 {
			continue
		}
		var want, got []string
		expired := map[string]bool{}
		for _, r := range tr.Records {
			n, ok := r.Payload.(wire.WaitNote)
			if !ok || r.Actor != "host" {
				continue
			}
			switch n.Kind {
			case wire.WaitClaimed:
				want = append(want, fmt.Sprintf("frame %d at %d", n.Remaining, r.Time))
			case wire.WaitExpired:
				expired[n.Session+"/"+n.CallID] = true
				want = append(want, fmt.Sprintf("expired at %d", r.Time))
			}
		}
		for _, rep := range model(steps...) {
			for _, ev := range rep.Events {
				switch {
				case ev.Event == WaitEventFrame:
					got = append(got, fmt.Sprintf("frame %d at %d", ev.RemainingMs, ev.At))
				case ev.Event == WaitEventClosed && ev.Reason == ReasonTimedOut:
					got = append(got, fmt.Sprintf("expired at %d", ev.At))
				}
			}
		}
		if d := cmp.Diff(want, got); d != "" {
			t.Errorf("%s: the script's frames and expiries differ from the host's notes (-host +script):\n%s", s.Name, d)
		}
		checked++
	}
	if checked < 50 {
		t.Fatalf("only %d library scenarios have waits", checked)
	}
}
