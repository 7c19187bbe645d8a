package conform

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/twosettle/twosettle/engine/jsonx"
	"github.com/twosettle/twosettle/engine/mutant"
	"github.com/twosettle/twosettle/engine/questions"
	"github.com/twosettle/twosettle/engine/session"
	"github.com/twosettle/twosettle/engine/wire"
	"github.com/twosettle/twosettle/schemacheck"
	"github.com/twosettle/twosettle/sessionlog"
)

// playProjectionHost plays a hand-written fold host for the projection profile:
// "projection-empty" answers every request with the empty view (a fold that never
// tracks anything), "projection-bad-view" answers with a view that is not one,
// "projection-crash" exits at the first event, and "projection-once" is the reference
// fold the first time it folds a Session and the empty view every later time (a fold that
// is not a pure function of the log).
func playProjectionHost(kind string) int {
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(nil, 16<<20)
	in.Scan()
	fmt.Println(`{"type":"hello","protocol":"twosettle-conform/1","name":"` + kind + `","profiles":["projection"]}`)
	folded := map[string]bool{}
	var fold *questions.Projection
	for in.Scan() {
		var req struct {
			Type      string
			N         int64
			Session   string
			Inherited int
			Event     json.RawMessage
		}
		json.Unmarshal(in.Bytes(), &req)
		switch {
		case req.Type == "bye":
			return 0
		case kind == "projection-once" && req.Type == "fold-start":
			fold = nil
			if !folded[req.Session] {
				fold = questions.NewProjection(req.Inherited)
			}
			folded[req.Session] = true
			fmt.Printf(`{"type":"view","n":%d,"view":{"active":[],"settled":[]}}`+"\n", req.N)
		case kind == "projection-once" && fold != nil:
			e, _ := wire.DecodeEvent(req.Event)
			fold.Apply(e)
			os.Stdout.Write(viewLine(nil, req.N, fold.View()))
		case kind == "projection-crash" && req.Type == "event":
			fmt.Fprintln(os.Stderr, "fold crashed")
			return 3
		case kind == "projection-bad-view":
			fmt.Printf(`{"type":"view","n":%d,"view":{"active":"none"}}`+"\n", req.N)
		default:
			fmt.Printf(`{"type":"view","n":%d,"view":{"active":[],"settled":[]}}`+"\n", req.N)
		}
	}
	return 0
}

func projectionHost(kind string) ProjectionOptions {
	return ProjectionOptions{Argv: []string{testBinary()}, Command: "conform refhost",
		Process: ProcessOptions{Timeout: 5 * time.Second, KillGrace: 300 * time.Millisecond, Env: []string{"CONFORM_TEST_HOST=" + kind}}}
}

func smallInputs(t *testing.T) []ProjectionCase {
	t.Helper()
	cases, err := ProjectionInputs(true, 10, 150, 1)
	if err != nil {
		t.Fatal(err)
	}
	return cases
}

func TestProjectionProfileRefhostPassesAndJudgesExactlyItsIDs(t *testing.T) {
	var out, errb bytes.Buffer
	code := Main([]string{"--profile", "projection", "--host", testBinary(), "--seeds", "10", "--edge", "150", "--json", "-"}, nil, &out, &errb, []string{"CONFORM_TEST_HOST=refhost"})
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, out.String(), errb.String())
	}
	var rep struct {
		Profile      string
		Conformant   bool
		Requirements []struct{ ID, Status string }
	}
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, r := range rep.Requirements {
		ids = append(ids, r.ID)
		if r.Status != StatusPass {
			t.Errorf("%s is %s against the reference fold", r.ID, r.Status)
		}
	}
	if !slices.Equal(ids, projectionIDs()) || rep.Profile != ProfileProjection || !rep.Conformant {
		t.Fatalf("profile %q conformant %v rows %v, want exactly %v", rep.Profile, rep.Conformant, ids, projectionIDs())
	}
	for _, want := range []string{"PROJ-1", "PROJ-7", "PROJ-11", "PROJ-12", "TOOL-1", "TOOL-4", "AGENT-3"} {
		if !slices.Contains(ids, want) {
			t.Errorf("the projection profile does not judge %s", want)
		}
	}
	if slices.Contains(ids, "WAIT-1") || slices.Contains(ids, "GW-1") {
		t.Errorf("the projection profile reports ids it cannot judge: %v", ids)
	}
}

// Each projection mutant of the reference engine, served as a fold, is caught: a log
// fails with the first differing event named and an id the mutant breaks judged there.
func TestProjectionProfileCatchesEachProjectionMutant(t *testing.T) {
	cases := smallInputs(t)
	for _, name := range []string{"settle-on-splice", "legacy-tracked", "unknown-outcome-drops-question", "fork-inherits-questions"} {
		info, _ := mutant.Lookup(name)
		t.Run(strings.Join(info.Breaks, " ")+" "+name, func(t *testing.T) {
			o := projectionHost("refhost:" + name)
			o.OutDir = t.TempDir()
			rep, err := RunProjection(cases, o)
			if err != nil {
				t.Fatal(err)
			}
			if rep.Conformant() {
				t.Fatalf("mutant %s passed the projection profile", name)
			}
			var failed *ScenarioResult
			for i := range rep.Scenarios {
				if rep.Scenarios[i].Status == StatusFail {
					failed = &rep.Scenarios[i]
					break
				}
			}
			if failed == nil || !strings.Contains(failed.Divergence, "departs from the reference fold after event #") ||
				!strings.Contains(failed.Failures[0], "the view after event #") {
				t.Fatalf("no failure names its event: %+v", failed)
			}
			broken := false
			for _, row := range rep.Requirements() {
				if row.Status == StatusFail && slices.Contains(info.Breaks, row.ID) {
					broken = true
				}
			}
			if !broken {
				t.Fatalf("no row of %v fails", info.Breaks)
			}
			// The written log is shrunk and replays the failure from its file.
			if failed.Replay == "" {
				t.Fatalf("no replay line: %+v", failed.Failures)
			}
			file := failed.Replay[strings.LastIndex(failed.Replay, " ")+1:]
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			l, err := sessionlog.Decode(file, data)
			if err != nil {
				t.Fatal(err)
			}
			if len(l.Events) > 8 {
				t.Errorf("the shrunk log still has %d events", len(l.Events))
			}
			var out, errb bytes.Buffer
			if code := Main([]string{"--profile", "projection", "--host", testBinary(), "--out", t.TempDir(), file}, nil, &out, &errb, []string{"CONFORM_TEST_HOST=refhost:" + name}); code != 1 {
				t.Fatalf("replaying %s: exit %d\n%s%s", file, code, out.String(), errb.String())
			}
			if code := Main([]string{"--profile", "projection", "--host", testBinary(), file}, nil, &out, &errb, []string{"CONFORM_TEST_HOST=refhost"}); code != 0 {
				t.Fatalf("the shrunk log fails against the correct fold: exit %d", code)
			}
		})
	}
}

func TestProjectionProfileHandWrittenHosts(t *testing.T) {
	t.Run("PROJ-3 a fold that tracks nothing fails at the first tool/call", func(t *testing.T) {
		rep, err := RunProjection(smallInputs(t), projectionHost("projection-empty"))
		if err != nil {
			t.Fatal(err)
		}
		fails := 0
		for _, s := range rep.Scenarios {
			if s.Status == StatusFail {
				fails++
			}
		}
		if fails == 0 || rep.Conformant() {
			t.Fatal("an empty fold passed")
		}
	})
	t.Run("a view that is not a view loses the host", func(t *testing.T) {
		cases := smallInputs(t)[:2]
		rep, err := RunProjection(cases, projectionHost("projection-bad-view"))
		if err != nil {
			t.Fatal(err)
		}
		if s := rep.Scenarios[0]; s.Status != StatusBroken || !strings.Contains(s.Lost, "is not a view") {
			t.Fatalf("%+v", s)
		}
	})
}

func TestProjectionProfileReplayJudgesPROJ12(t *testing.T) {
	cases := smallInputs(t)
	rep, err := RunProjection(cases, projectionHost("projection-once"))
	if err != nil {
		t.Fatal(err)
	}
	// The first log that fails is the first library log with a question: its first fold
	// is the reference's, its second is not.
	var failed *ScenarioResult
	for i := range rep.Scenarios {
		if s := &rep.Scenarios[i]; s.Status == StatusFail {
			failed = s
			break
		}
	}
	if failed == nil || !slices.Contains(failed.Covers, "PROJ-12") || !strings.Contains(strings.Join(failed.Failures, "\n"), "the second, on the same process, did not (PROJ-12); not shrunk") {
		t.Fatalf("a fold that is not pure passes PROJ-12: %+v", failed)
	}
}

func TestProjectionProfileStopsAfterLostLogsInARow(t *testing.T) {
	cases := smallInputs(t)
	rep, err := RunProjection(cases, projectionHost("projection-crash"))
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Scenarios) != lostInARow+1 {
		t.Fatalf("%d results for a host that crashes on every log, want %d", len(rep.Scenarios), lostInARow+1)
	}
	for _, s := range rep.Scenarios {
		if s.Status != StatusBroken {
			t.Fatalf("%s: %s", s.Name, s.Status)
		}
	}
	if last := rep.Scenarios[lostInARow]; !strings.Contains(last.Lost, "lost 3 logs in a row") || !strings.Contains(last.Name, fmt.Sprint(len(cases)-lostInARow)) {
		t.Fatalf("last result %+v", last)
	}
	if !strings.Contains(rep.Scenarios[0].HostLog, "fold crashed") || rep.Conformant() {
		t.Fatalf("the host's stderr is not reported, or a lost run is conformant: %+v", rep.Scenarios[0])
	}
}

// The Node example (examples/node/projection.js) passes the projection profile; skipped
// where node is not installed (CI runs it on a bigger budget in .ci/run).
func TestNodeProjectionExamplePasses(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed")
	}
	cases, err := ProjectionInputs(true, 5, 200, 1)
	if err != nil {
		t.Fatal(err)
	}
	o := ProjectionOptions{Argv: []string{node, filepath.Join("..", "examples", "node", "projection.js")}, Command: "node examples/node/projection.js",
		Process: ProcessOptions{Timeout: 10 * time.Second}}
	rep, err := RunProjection(cases, o)
	if err != nil {
		t.Fatal(err)
	}
	if !rep.Conformant() {
		var b strings.Builder
		rep.WriteText(&b)
		t.Fatal(b.String())
	}
}

func TestProjectionProfileFoldsOneEdgeSeedAlone(t *testing.T) {
	var out, errb bytes.Buffer
	code := Main([]string{"--profile", "projection", "--host", testBinary(), "--library=false", "--seeds", "0", "--edge", "1", "--start", "37", "-v"}, nil, &out, &errb, []string{"CONFORM_TEST_HOST=refhost"})
	if code != 0 || !strings.Contains(out.String(), "ok   edge/seed-37\n") || !strings.HasSuffix(out.String(), "\n1 passed, 0 failed\n") {
		t.Fatalf("exit %d\n%s%s", code, out.String(), errb.String())
	}
}

func TestProfileHandshake(t *testing.T) {
	var out, errb bytes.Buffer
	// A host from before profiles (no "profiles" in its hello) serves only the host.
	code := Main([]string{"--profile", "projection", "--host", testBinary(), "--seeds", "0", "--edge", "1"}, nil, &out, &errb, []string{"CONFORM_TEST_HOST=crash"})
	if code != 2 || !strings.Contains(errb.String(), "does not serve the projection profile: its hello offers host") {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	errb.Reset()
	// A fold-only host cannot be run as a whole host.
	code = Main([]string{"--host", testBinary(), "../scenarios/library/ask-no-provider.yaml"}, nil, &out, &errb, []string{"CONFORM_TEST_HOST=projection-empty"})
	if code != 2 || !strings.Contains(errb.String(), "does not serve the host profile: its hello offers projection") {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	errb.Reset()
	// Real time is for the host and wait profiles, and for a host: asked of another, or with
	// flags that do not go with it, a clear refusal, not a flag dump.
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--profile", "projection", "--realtime=true", "--host", "x"}, "--realtime is for the host and wait profiles"},
		{[]string{"--realtime", "--client", "x"}, "a client process takes its time from the runner"},
		{[]string{"--seeds", "3", "--host", "x"}, "--seeds is a flag of real-time mode (--realtime)"},
		{[]string{"--budget=2s", "--host", "x"}, "--budget is a flag of real-time mode (--realtime)"},
		{[]string{"--realtime", "--late", "0s", "--host", "x"}, "--late, --budget and --start must be positive"},
		{[]string{"--realtime", "--start", "0", "--host", "x"}, "--late, --budget and --start must be positive"},
		{[]string{"--realtime", "--seed", "3", "--host", "x"}, "generated scenarios in real time run at their own seeds"},
		{[]string{"fuzz", "--realtime", "--host", "x"}, "conform --realtime --seeds N runs generated scenarios in real time"},
	} {
		errb.Reset()
		if code := Main(c.args, nil, &out, &errb, nil); code != 2 || !strings.Contains(errb.String(), c.want) {
			t.Fatalf("%q: exit %d: %s", c.args, code, errb.String())
		}
	}
	errb.Reset()
	if code := Main([]string{"--profile", "nope", "--host", "x"}, nil, &out, &errb, nil); code != 2 || !strings.Contains(errb.String(), `unknown profile "nope"`) {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	if code := Main([]string{"--host", "x", "--profile"}, nil, &out, &errb, nil); code != 2 {
		t.Fatalf("--profile without a value: exit %d", code)
	}
	if got := string(helloLine(ProfileProjection)); !strings.Contains(got, `"profile":"projection"`) {
		t.Fatalf("runner hello %s", got)
	}
	if got := string(helloLine(ProfileHost)); strings.Contains(got, "profile") {
		t.Fatalf("the host profile's hello is today's: %s", got)
	}
}

// The edge logs make every edge docs/PROTOCOL.md ("Profiles") and EdgeLog's doc list,
// counted event by event over the 500 seeds a default run folds (each edge named with the
// ids whose rule it tests), and every line they write is what the Session log schema says.
func TestEdgeLogsAreSeededAndCoverTheEdges(t *testing.T) {
	a, _ := sessionlog.Append(nil, EdgeLog(42))
	b, _ := sessionlog.Append(nil, EdgeLog(42))
	c, _ := sessionlog.Append(nil, EdgeLog(43))
	if !bytes.Equal(a, b) || bytes.Equal(a, c) {
		t.Fatal("an edge log is not a function of its seed")
	}
	// texts are the JSON texts an event carries (tools, arguments, results, messages).
	texts := func(d session.Data) []string {
		switch d := d.(type) {
		case session.RequestHeader:
			return []string{d.Tools}
		case session.ToolCall:
			return []string{d.Arguments}
		case session.ToolResult:
			return []string{d.Text}
		case session.PTCDispatch:
			return []string{d.Arguments, d.Text}
		case session.PTCDispatchStart:
			return []string{d.Arguments}
		case session.UserMessage:
			return []string{d.Message.Text}
		case session.InboxSpliced:
			var ts []string
			for _, m := range d.Inserted {
				ts = append(ts, m.Text)
			}
			return ts
		}
		return nil
	}
	anyText := func(d session.Data, f func(string) bool) bool { return slices.ContainsFunc(texts(d), f) }
	isReply := func(m session.Message) bool { return m.Source.Kind == session.SourceUserQuestionReply }
	// an edge is seen at event i of l, with the reference fold's header state after it
	type at struct {
		l       *sessionlog.Log
		i       int
		timed   bool
		seenIDs map[string]bool // the call ids of the log's earlier tool/calls
	}
	edges := []struct {
		name string
		is   func(at) bool
	}{
		{"PROJ-2 PROJ-3 a timed header", func(a at) bool { _, ok := a.l.Events[a.i].Data.(session.RequestHeader); return ok && a.timed }},
		{"PROJ-2 TOOL-1 a legacy header (tools listing ask_user_question without timeout)", func(a at) bool {
			h, ok := a.l.Events[a.i].Data.(session.RequestHeader)
			return ok && !a.timed && strings.HasPrefix(strings.TrimSpace(h.Tools), "[") && json.Valid([]byte(h.Tools)) && strings.Contains(h.Tools, `"ask_user_question"`)
		}},
		{"PROJ-2 placeholder tools (a JSON string)", func(a at) bool {
			h, ok := a.l.Events[a.i].Data.(session.RequestHeader)
			return ok && strings.HasPrefix(strings.TrimSpace(h.Tools), `"`)
		}},
		{"PROJ-2 malformed tools (not JSON, null, an object, empty)", func(a at) bool {
			h, ok := a.l.Events[a.i].Data.(session.RequestHeader)
			tools := strings.TrimSpace(h.Tools)
			return ok && (!json.Valid([]byte(tools)) || tools == "null" || strings.HasPrefix(tools, "{"))
		}},
		{"PROJ-3 a reused call id", func(a at) bool {
			c, ok := a.l.Events[a.i].Data.(session.ToolCall)
			return ok && a.seenIDs[c.CallID]
		}},
		{"PROJ-3 unreadable arguments", func(a at) bool {
			c, ok := a.l.Events[a.i].Data.(session.ToolCall)
			return ok && !json.Valid([]byte(c.Arguments))
		}},
		{"PROJ-4 a pending result", func(a at) bool {
			r, ok := a.l.Events[a.i].Data.(session.ToolResult)
			return ok && wire.IsPendingResult(r.Text)
		}},
		{"PROJ-4 AGENT-3 an unknown-outcome result", func(a at) bool {
			r, ok := a.l.Events[a.i].Data.(session.ToolResult)
			return ok && r.Err.Code == session.ToolOutcomeUnknown
		}},
		{"PROJ-7 a pending PTC dispatch", func(a at) bool {
			d, ok := a.l.Events[a.i].Data.(session.PTCDispatch)
			return ok && wire.IsPendingResult(d.Text)
		}},
		{"PROJ-8 a late reply (user-question-reply)", func(a at) bool {
			m, ok := a.l.Events[a.i].Data.(session.UserMessage)
			return ok && isReply(m.Message)
		}},
		{"PROJ-8 a reply-looking message from another producer", func(a at) bool {
			m, ok := a.l.Events[a.i].Data.(session.UserMessage)
			return ok && !isReply(m.Message) && strings.Contains(m.Message.Text, `"answers"`)
		}},
		{"PROJ-9 a reply queued in the inbox", func(a at) bool {
			sp, ok := a.l.Events[a.i].Data.(session.InboxSpliced)
			return ok && slices.ContainsFunc(sp.Inserted, isReply)
		}},
		{"PROJ-11 a fork's inherited event", func(a at) bool { return a.i < a.l.Inherited }},
		{"deep nesting around the readers' limit (docs/PEER.md §11.1)", func(a at) bool {
			return anyText(a.l.Events[a.i].Data, func(s string) bool { return strings.Contains(s, strings.Repeat("[", jsonx.MaxDepth-5)) })
		}},
		{"unusual JSON: lone surrogates", func(a at) bool {
			return anyText(a.l.Events[a.i].Data, func(s string) bool {
				return strings.Contains(s, `\ud800`) || strings.Contains(s, `lone \udc00`) || strings.Contains(s, `low \udc00`)
			})
		}},
		{"unusual JSON: duplicate keys", func(a at) bool { return anyText(a.l.Events[a.i].Data, hasDuplicateKey) }},
		{"unusual JSON: numbers beyond float64", func(a at) bool {
			return anyText(a.l.Events[a.i].Data, func(s string) bool {
				return strings.Contains(s, "1e400") || strings.Contains(s, "123456789012345678901234567890")
			})
		}},
	}
	schemas := schemacheck.New(filepath.Join("..", "docs", "protocol"))
	count := make([]int, len(edges))
	for seed := uint64(1); seed <= 500; seed++ {
		l := EdgeLog(seed)
		data, err := sessionlog.Append(nil, l)
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		for n, line := range bytes.Split(bytes.TrimSuffix(data, []byte("\n")), []byte("\n")) {
			if msg, err := schemas.ValidateJSON("session-log.schema.json", line); msg != "" || err != nil {
				t.Fatalf("edge seed %d line %d: %s %v", seed, n+1, msg, err)
			}
		}
		p := questions.NewProjection(l.Inherited)
		seen := map[string]bool{}
		for i, e := range l.Events {
			p.Apply(e)
			for k, edge := range edges {
				if edge.is(at{l: l, i: i, timed: p.Timed(), seenIDs: seen}) {
					count[k]++
				}
			}
			if c, ok := e.Data.(session.ToolCall); ok {
				seen[c.CallID] = true
			}
		}
	}
	for k, edge := range edges {
		t.Run(edge.name, func(t *testing.T) {
			if count[k] < 5 {
				t.Errorf("500 edge seeds make it %d times", count[k])
			}
			t.Logf("%d events of 500 edge seeds", count[k])
		})
	}
}

// hasDuplicateKey reports whether the JSON text s has an object with a key twice (at any
// depth); text that is not JSON has none.
func hasDuplicateKey(s string) bool {
	d := json.NewDecoder(strings.NewReader(s))
	type obj struct {
		keys  map[string]bool
		isKey bool // the next string token is a key
	}
	var stack []*obj
	for {
		tok, err := d.Token()
		if err != nil {
			return false
		}
		var top *obj
		if len(stack) > 0 {
			top = stack[len(stack)-1]
		}
		switch tok {
		case json.Delim('{'):
			if top != nil {
				top.isKey = true
			}
			stack = append(stack, &obj{keys: map[string]bool{}, isKey: true})
			continue
		case json.Delim('['):
			if top != nil {
				top.isKey = true
			}
			stack = append(stack, nil)
			continue
		case json.Delim('}'), json.Delim(']'):
			stack = stack[:len(stack)-1]
			continue
		}
		if top == nil {
			continue
		}
		if top.isKey {
			k, _ := tok.(string)
			if top.keys[k] {
				return true
			}
			top.keys[k] = true
			top.isKey = false
		} else {
			top.isKey = true
		}
	}
}

func TestProjectionLogCommand(t *testing.T) {
	dir := t.TempDir()
	l := EdgeLog(7)
	l.Inherited, l.Parent = 0, ""
	logFile := filepath.Join(dir, "s.jsonl")
	b, _ := sessionlog.Append(nil, l)
	os.WriteFile(logFile, b, 0o644)
	var out, errb bytes.Buffer
	if code := Main([]string{"projection", "--log", logFile}, nil, &out, &errb, nil); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	if want := sessionlog.AppendViews(nil, sessionlog.Views(l)); !bytes.Equal(out.Bytes(), want) {
		t.Fatalf("printed views are not the reference fold's:\n%s", out.String())
	}
	views := filepath.Join(dir, "views.jsonl")
	os.WriteFile(views, out.Bytes(), 0o644)
	run := func(args ...string) (int, string) {
		out.Reset()
		errb.Reset()
		code := Main(append([]string{"projection"}, args...), nil, &out, &errb, nil)
		return code, out.String() + errb.String()
	}
	if code, text := run("--log", logFile, "--view", views); code != 0 || !strings.Contains(text, "every view is the reference fold's") {
		t.Fatalf("equal views: exit %d %s", code, text)
	}
	// A view that differs: exit 1 naming the view file's line and the event.
	ref := sessionlog.Views(l)
	k := len(ref) / 2
	ref[k].View = wire.QuestionsView{Active: []wire.PendingRow{{CallID: "zz", State: wire.StateOpen}}}
	os.WriteFile(views, sessionlog.AppendViews(nil, ref), 0o644)
	if code, text := run("--log", logFile, "--view", views); code != 1 || !strings.Contains(text, fmt.Sprintf("views.jsonl:%d: the view after event #%d", k+1, l.Events[k].Seq)) {
		t.Fatalf("differing view: exit %d %s", code, text)
	}
	// A short view file: exit 1 at the missing line.
	os.WriteFile(views, sessionlog.AppendViews(nil, sessionlog.Views(l)[:2]), 0o644)
	if code, text := run("--log", logFile, "--view", views); code != 1 || !strings.Contains(text, "views.jsonl:3: the view file ends after 2 views") {
		t.Fatalf("short view file: exit %d %s", code, text)
	}
	// Malformed files: exit 2 with file:line.
	os.WriteFile(views, []byte(`{"seq":0,"view":{"active":[],"settled":[]}}`+"\n"+`{"seq":1,"view":[]}`+"\n"), 0o644)
	if code, text := run("--log", logFile, "--view", views); code != 2 || !strings.Contains(text, "views.jsonl:2: line.view: want an object") {
		t.Fatalf("malformed view file: exit %d %s", code, text)
	}
	bad := filepath.Join(dir, "bad.jsonl")
	os.WriteFile(bad, append(b, []byte(`{"seq":999,"time":0,"type":"turn/start"}`+"\n")...), 0o644)
	if code, text := run("--log", bad); code != 2 || !strings.Contains(text, fmt.Sprintf("bad.jsonl:%d: event: missing key \"turn\"", len(l.Events)+2)) {
		t.Fatalf("malformed log: exit %d %s", code, text)
	}
	if code, _ := run(); code != 2 {
		t.Fatalf("no --log: exit %d", code)
	}
	if code, text := run("--log", dir); code != 2 || !strings.Contains(text, "is a directory: give --view DIR") {
		t.Fatalf("a directory of logs without one of views: exit %d %s", code, text)
	}
	// Outputs are checked before any host starts (the host command does not even exist).
	out.Reset()
	errb.Reset()
	if code := Main([]string{"--profile", "projection", "--host", "/nonexistent/host", "--json", dir}, nil, &out, &errb, nil); code != 2 || !strings.Contains(errb.String(), "--json: cannot write") {
		t.Fatalf("--json to a directory: exit %d %s", code, errb.String())
	}
}

func TestJudgedIDsOfACall(t *testing.T) {
	for _, tc := range []struct {
		args  string
		timed bool
		want  []string
	}{
		{`{"questions":[{"id":"q","question":"Q"}],"timeout":30}`, true, []string{"PROJ-3"}},
		{`{"questions":[{"id":"q","question":"Q"}], "timeout" : -1 }`, true, []string{"PROJ-3", "TOOL-4"}},
		{`{"questions":[{"id":"q","question":"Q"}],"timeout":-1}`, false, []string{"PROJ-2", "TOOL-1"}},
		{`{"timeout":"-1"}`, true, []string{"PROJ-3"}},
	} {
		e := session.Event{Seq: 1, Data: session.ToolCall{CallID: "c1", Name: "ask_user_question", Arguments: tc.args}}
		if got := judgedBy(e, 0, tc.timed, wire.QuestionsView{}, wire.QuestionsView{}); !slices.Equal(got, tc.want) {
			t.Errorf("%s timed=%v judges %v, want %v", tc.args, tc.timed, got, tc.want)
		}
	}
	e := session.Event{Seq: 0, Data: session.ToolCall{CallID: "c1", Name: "ask_user_question", Arguments: `{}`}}
	if got := judgedBy(e, 1, true, wire.QuestionsView{}, wire.QuestionsView{}); !slices.Equal(got, []string{"PROJ-11"}) {
		t.Errorf("an inherited event judges %v", got)
	}
}

// PROJ-12: months of recorded Sessions are checked in one command: a directory of logs
// with a directory of view files of the same names; every log is compared (not only up
// to the first that differs) and a summary line counts them.
func TestProjectionLogCommandOnDirectories(t *testing.T) {
	dir := t.TempDir()
	logs, views := filepath.Join(dir, "logs"), filepath.Join(dir, "views")
	os.Mkdir(logs, 0o755)
	os.Mkdir(views, 0o755)
	events := 0
	for seed := uint64(1); seed <= 4; seed++ {
		l := EdgeLog(seed)
		b, _ := sessionlog.Append(nil, l)
		name := fmt.Sprintf("s%d.jsonl", seed)
		os.WriteFile(filepath.Join(logs, name), b, 0o644)
		v := sessionlog.Views(l)
		if seed == 2 || seed == 4 { // two systems that got one view wrong
			v[len(v)-1].View = wire.QuestionsView{Active: []wire.PendingRow{{CallID: "zz", State: wire.StateOpen}}}
		}
		os.WriteFile(filepath.Join(views, name), sessionlog.AppendViews(nil, v), 0o644)
		events += len(l.Events)
	}
	var out, errb bytes.Buffer
	run := func(args ...string) int {
		out.Reset()
		errb.Reset()
		return Main(append([]string{"projection"}, args...), nil, &out, &errb, nil)
	}
	if code := run("--log", logs, "--view", views); code != 1 ||
		!strings.Contains(out.String(), filepath.Join(views, "s2.jsonl")+":") || !strings.Contains(out.String(), filepath.Join(views, "s4.jsonl")+":") ||
		strings.Contains(out.String(), "s1.jsonl:") || !strings.Contains(out.String(), fmt.Sprintf("2 of 4 logs (%d events) differ from the reference fold", events)) {
		t.Fatalf("exit %d:\n%s%s", code, out.String(), errb.String())
	}
	os.Remove(filepath.Join(logs, "s2.jsonl"))
	os.Remove(filepath.Join(logs, "s4.jsonl"))
	if code := run("--log", logs, "--view", views); code != 0 || !strings.Contains(out.String(), "2 logs, ") || !strings.Contains(out.String(), "every view is the reference fold's") {
		t.Fatalf("exit %d:\n%s%s", code, out.String(), errb.String())
	}
	// A log without its view file, a view path that is not a directory, no logs: exit 2.
	os.Remove(filepath.Join(views, "s1.jsonl"))
	if code := run("--log", logs, "--view", views); code != 2 || !strings.Contains(errb.String(), "s1.jsonl") {
		t.Fatalf("a missing view file: exit %d %s", code, errb.String())
	}
	if code := run("--log", logs, "--view", filepath.Join(views, "s3.jsonl")); code != 2 || !strings.Contains(errb.String(), "--view must be one too") {
		t.Fatalf("--view a file: exit %d %s", code, errb.String())
	}
	empty := filepath.Join(dir, "empty")
	os.Mkdir(empty, 0o755)
	if code := run("--log", empty, "--view", views); code != 2 || !strings.Contains(errb.String(), "no *.jsonl log file") {
		t.Fatalf("no logs: exit %d %s", code, errb.String())
	}
}

// The Sessions of the default run's 200 fuzz seeds are written in the form the Session log
// schema documents, as the library's (cmd/simrun's export test) and the edge logs
// (TestEdgeLogsAreSeededAndCoverTheEdges) are: a host's fold reads nothing the schema
// does not describe.
func TestFuzzSessionLogsMatchTheSessionLogSchema(t *testing.T) {
	cases, err := ProjectionInputs(false, 200, 0, 1)
	if err != nil {
		t.Fatal(err)
	}
	schemas := schemacheck.New(filepath.Join("..", "docs", "protocol"))
	lines := 0
	for _, c := range cases {
		data, err := sessionlog.Append(nil, c.Log)
		if err != nil {
			t.Fatalf("%s: %v", c.Name, err)
		}
		for i, line := range bytes.Split(bytes.TrimSuffix(data, []byte("\n")), []byte("\n")) {
			lines++
			if msg, err := schemas.ValidateJSON("session-log.schema.json", line); msg != "" || err != nil {
				t.Fatalf("%s line %d: %s %v\n%s", c.Name, i+1, msg, err, line)
			}
		}
	}
	if len(cases) < 200 || lines < 5000 {
		t.Fatalf("%d Sessions, %d lines", len(cases), lines)
	}
}

// A directory given to the projection profile stands for its *.jsonl logs in name order,
// each folded twice (PROJ-12), as files given one by one are.
func TestProjectionProfileFoldsADirectoryOfLogs(t *testing.T) {
	dir := t.TempDir()
	for seed := uint64(5); seed <= 7; seed++ {
		b, _ := sessionlog.Append(nil, EdgeLog(seed))
		os.WriteFile(filepath.Join(dir, fmt.Sprintf("s%d.jsonl", seed)), b, 0o644)
	}
	os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("not a log"), 0o644)
	var out, errb bytes.Buffer
	code := Main([]string{"--profile", "projection", "--host", testBinary(), "-v", dir}, nil, &out, &errb, testEnv("refhost"))
	if code != 0 || !strings.Contains(out.String(), "3 passed, 0 failed") {
		t.Fatalf("exit %d:\n%s%s", code, out.String(), errb.String())
	}
	i5, i7 := strings.Index(out.String(), filepath.Join(dir, "s5.jsonl")), strings.Index(out.String(), filepath.Join(dir, "s7.jsonl"))
	if i5 < 0 || i7 < i5 {
		t.Fatalf("not every log, in name order:\n%s", out.String())
	}
	if code := Main([]string{"--profile", "projection", "--host", testBinary(), t.TempDir()}, nil, &out, &errb, testEnv("refhost")); code != 2 || !strings.Contains(errb.String(), "no *.jsonl log file") {
		t.Fatalf("an empty directory: exit %d %s", code, errb.String())
	}
}
