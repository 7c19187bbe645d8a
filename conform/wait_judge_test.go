package conform

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/twosettle/twosettle/engine/mutant"
)

// endsLast is the reference wait reporting, inside each instant, its claim streams' ends
// after every other event: a wait's closed before the ends of the claims its closing
// ended. So a host whose claim streams are async generators reports them, by microtask
// order; the decision does not order the two (CLAIM-3, WAIT-10), so it is a right wait.
type endsLast struct{ m *waitModel }

func (h endsLast) Step(s WaitStep) WaitReply {
	rep := h.m.Step(s)
	endsLastOrder(rep.Events)
	return rep
}

// endsLastOrder moves the ends of each instant of evs after its other events.
func endsLastOrder(evs []WaitEvent) {
	for _, inst := range waitInstants(evs) {
		slices.SortStableFunc(inst, func(a, b WaitEvent) int {
			return boolInt(a.Event == WaitEventEnd) - boolInt(b.Event == WaitEventEnd)
		})
	}
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// entitiesReversed is the reference wait reporting the entities of each instant in the
// reverse of the reference's order, each entity's own events in order.
type entitiesReversed struct{ m *waitModel }

func (h entitiesReversed) Step(s WaitStep) WaitReply {
	rep := h.m.Step(s)
	var out []WaitEvent
	for _, inst := range waitInstants(rep.Events) {
		ents := entities(inst)
		for i := len(ents) - 1; i >= 0; i-- {
			out = append(out, ofEntity(inst, ents[i])...)
		}
	}
	rep.Events = out
	return rep
}

// reorderedScripts counts the scripts whose replies from h differ in bytes from the reference's:
// a host that reorders nothing would prove nothing.
func reorderedScripts(t *testing.T, newHost func() interface{ Step(WaitStep) WaitReply }, scripts []WaitScript) int {
	t.Helper()
	n := 0
	for _, sc := range scripts {
		h, ref := newHost(), newWaitModel(0)
		differs := false
		for _, s := range append([]WaitStep{{Op: WaitOpReset}}, sc.Steps...) {
			differs = differs || h.Step(s).String() != ref.Step(s).String()
		}
		if differs {
			n++
		}
	}
	return n
}

func allWaitScripts(t *testing.T, seeds int) []WaitScript {
	t.Helper()
	lib, err := LibraryWaitScripts()
	if err != nil {
		t.Fatal(err)
	}
	for seed := 1; seed <= seeds; seed++ {
		lib = append(lib, GenerateWaitScript(uint64(seed), 0))
	}
	return lib
}

func TestWaitProfileComparesAnInstantAsASetAcrossEntities(t *testing.T) {
	scripts := allWaitScripts(t, 300)
	for _, c := range []struct {
		name    string
		newHost func() interface{ Step(WaitStep) WaitReply }
	}{
		{"CLAIM-3 WAIT-10 a claim's end reported after its wait's closed in one instant passes", func() interface{ Step(WaitStep) WaitReply } { return endsLast{newWaitModel(0)} }},
		{"WAIT-9 CLAIM-3 every instant's entities in reverse order pass", func() interface{ Step(WaitStep) WaitReply } { return entitiesReversed{newWaitModel(0)} }},
	} {
		t.Run(c.name, func(t *testing.T) {
			if n := reorderedScripts(t, c.newHost, scripts); n < 20 {
				t.Fatalf("only %d of %d scripts get replies in another order: the test proves little", n, len(scripts))
			}
			for _, sc := range scripts {
				if o := (waitRun{}).run(stepperOf{c.newHost()}, sc.Steps); o.failed || o.lost != nil {
					t.Fatalf("%s: %s\n%s", sc.Name, o.message, o.detail)
				}
			}
		})
	}
}

// The same, as a process through the whole profile: the library's and 200 generated
// scripts, and every id passes.
func TestWaitProfileEndAfterClosedHostPasses(t *testing.T) {
	var out, errb bytes.Buffer
	code := Main([]string{"--profile", "wait", "--host", testBinary(), "--out", t.TempDir(), "--json", "-"}, nil, &out, &errb, testEnv("wait-endlast"))
	if code != 0 {
		t.Fatalf("exit %d\n%.3000s\n%s", code, out.String(), errb.String())
	}
	var rep struct {
		Requirements []struct{ ID, Status string }
		Scenarios    []struct{ Name string }
	}
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
		t.Fatal(err)
	}
	for _, r := range rep.Requirements {
		if r.Status != StatusPass {
			t.Errorf("%s: %s", r.ID, r.Status)
		}
	}
	if len(rep.Scenarios) < 250 {
		t.Errorf("%d scripts", len(rep.Scenarios))
	}
}

func TestDiffWaitReply(t *testing.T) {
	st := newWaitState()
	for _, s := range []WaitStep{
		{Op: WaitOpCreate, Wait: "w1", TimeoutMs: 5000},
		{Op: WaitOpAttach, Claim: "k1", Wait: "w1"},
		{Op: WaitOpAttach, Claim: "k2", Wait: "w1"},
	} {
		st.observe(s, WaitReply{})
	}
	st.observe(WaitStep{Op: WaitOpPull, Claim: "k1"}, WaitReply{Events: []WaitEvent{frame("k1", 5000, 0)}})
	st.observe(WaitStep{Op: WaitOpPull, Claim: "k2"}, WaitReply{Events: []WaitEvent{frame("k2", 5000, 0)}})
	closing := waitJudge{st: st, s: WaitStep{Now: 10, Op: WaitOpClose, Wait: "w1", Reason: "ASK_ABORTED"},
		ref: WaitReply{Events: []WaitEvent{end("k1", 10), end("k2", 10), closed("w1", "ASK_ABORTED", 10)}}}
	for _, c := range []struct {
		name   string
		j      waitJudge
		got    []WaitEvent
		want   string // "" for no difference
		judges []string
	}{
		{"CLAIM-3 WAIT-10 the ends of the claims after closed in the instant are the same reply", closing,
			[]WaitEvent{closed("w1", "ASK_ABORTED", 10), end("k2", 10), end("k1", 10)}, "", nil},
		{"CLAIM-3 a claim's end missing at a close", closing,
			[]WaitEvent{closed("w1", "ASK_ABORTED", 10), end("k2", 10)},
			`at 10, claim k1: host nothing, reference {"event":"end","claim":"k1","at":10}`, []string{"CLAIM-3"}},
		{"CLAIM-3 a claim's end one millisecond late is not in the instant", closing,
			[]WaitEvent{end("k2", 10), closed("w1", "ASK_ABORTED", 10), end("k1", 11)},
			`at 10, claim k1: host nothing (it reported {"event":"end","claim":"k1","at":11} elsewhere in its reply), reference {"event":"end","claim":"k1","at":10}`, []string{"CLAIM-3"}},
		{"WAIT-10 closing completes once", closing,
			[]WaitEvent{end("k1", 10), end("k2", 10), closed("w1", "ASK_ABORTED", 10), closed("w1", "ASK_ABORTED", 10)},
			`at 10, wait w1: host {"event":"closed","wait":"w1","reason":"ASK_ABORTED","at":10}, {"event":"closed","wait":"w1","reason":"ASK_ABORTED","at":10}, reference {"event":"closed","wait":"w1","reason":"ASK_ABORTED","at":10}`, []string{"WAIT-10"}},
		{"WAIT-10 a close's reason", closing,
			[]WaitEvent{end("k1", 10), end("k2", 10), closed("w1", "ASK_TIMED_OUT", 10)},
			`at 10, wait w1: host {"event":"closed","wait":"w1","reason":"ASK_TIMED_OUT","at":10}`, []string{"WAIT-10"}},
		{"WAIT-4 a claim's own events keep their order",
			waitJudge{st: newWaitState(), s: WaitStep{Now: 0, Op: WaitOpPull, Claim: "k9"}, ref: WaitReply{Events: []WaitEvent{frame("k9", 100, 0), end("k9", 0)}}},
			[]WaitEvent{end("k9", 0), frame("k9", 100, 0)},
			`at 0, claim k9: host {"event":"end","claim":"k9","at":0}, {"event":"frame","claim":"k9","remainingMs":100,"at":0}, reference {"event":"frame","claim":"k9","remainingMs":100,"at":0}, {"event":"end","claim":"k9","at":0}`, []string{"WAIT-4"}},
		{"WAIT-1 WAIT-8 instants keep their order",
			waitJudge{st: newWaitState(), s: WaitStep{Now: 9000, Op: WaitOpAdvance}, ref: WaitReply{Events: []WaitEvent{closed("a", ReasonTimedOut, 5000), closed("b", ReasonTimedOut, 7000)}}},
			[]WaitEvent{closed("b", ReasonTimedOut, 7000), closed("a", ReasonTimedOut, 5000)},
			`at 5000, wait a: host nothing (it reported {"event":"closed","wait":"a","reason":"ASK_TIMED_OUT","at":5000} elsewhere in its reply), reference {"event":"closed","wait":"a","reason":"ASK_TIMED_OUT","at":5000}`,
			[]string{"WAIT-1", "WAIT-8"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			msg, ids := diffWaitReply(c.j, WaitReply{Events: c.got, Timers: c.j.ref.Timers})
			if !strings.HasPrefix(msg, c.want) || (c.want == "") != (msg == "") {
				t.Errorf("difference %q, want it to start with %q", msg, c.want)
			}
			if d := cmp.Diff(c.judges, ids); d != "" {
				t.Errorf("judges (-want +got):\n%s", d)
			}
		})
	}
}

// wrongWait is the reference wait with one deliberate bug, in process.
type wrongWait struct {
	m      *waitModel
	bug    string
	wait   map[string]string // claim → wait (attach)
	par    map[string]string // wait → parent (create)
	pulled map[string]bool   // claims pulled or returned
}

func newWrongWait(bug string) *wrongWait {
	return &wrongWait{m: newWaitModel(0), bug: bug, wait: map[string]string{}, par: map[string]string{}, pulled: map[string]bool{}}
}

func (h *wrongWait) Step(s WaitStep) WaitReply {
	switch s.Op {
	case WaitOpReset:
		clear(h.wait)
		clear(h.par)
		clear(h.pulled)
	case WaitOpPull, WaitOpReturn:
		h.pulled[s.Claim] = true
	case WaitOpCreate:
		h.par[s.Wait] = s.Parent
	case WaitOpAttach:
		h.wait[s.Claim] = s.Wait
		if h.bug == "cancel-ignored" {
			s.Cancelled = false
		}
	}
	if h.bug == "close-twice" && s.Op == WaitOpClose && h.m.waits[s.Wait] != nil && h.m.waits[s.Wait].w.Closed() {
		rep := h.m.Step(s)
		rep.Events = append(rep.Events, WaitEvent{Event: WaitEventClosed, Wait: s.Wait, Reason: s.Reason, At: s.Now})
		return rep
	}
	rep := h.m.Step(s)
	if h.bug == "attach-claims" && s.Op == WaitOpAttach {
		more := h.m.Step(WaitStep{Now: s.Now, Op: WaitOpPull, Claim: s.Claim})
		rep.Events, rep.Timers = append(rep.Events, more.Events...), more.Timers
	}
	if h.bug == "expiry-aborts-parent" {
		for _, e := range rep.Events {
			if p := h.par[e.Wait]; e.Event == WaitEventClosed && e.Reason == ReasonTimedOut && p != "" {
				more := h.m.Step(WaitStep{Now: s.Now, Op: WaitOpAbort, Parent: p, Reason: ReasonTimedOut})
				rep.Events, rep.Timers = append(rep.Events, more.Events...), more.Timers
				break
			}
		}
	}
	if h.bug == "close-ends-unpulled" && s.Op == WaitOpClose {
		for _, e := range rep.Events {
			if e.Event == WaitEventClosed {
				for c, w := range h.wait {
					if w == s.Wait && !h.pulled[c] {
						h.pulled[c] = true
						rep.Events = append(rep.Events, WaitEvent{Event: WaitEventEnd, Claim: c, At: s.Now})
					}
				}
			}
		}
	}
	var kept []WaitEvent
	for _, e := range rep.Events {
		drop := e.Event == WaitEventEnd && (h.bug == "drop-end-"+s.Op)
		if !drop {
			kept = append(kept, e)
		}
	}
	rep.Events = kept
	return rep
}

// Each kind of difference names the ids its comparison judges: a host with one bug fails
// a script that shows it, and its failure judges those ids, no others.
func TestWaitFailuresNameTheirIDs(t *testing.T) {
	create := func(now int64, w string, timeout int64, parent string) WaitStep {
		return WaitStep{Now: now, Op: WaitOpCreate, Wait: w, TimeoutMs: timeout, Parent: parent}
	}
	attach := func(now int64, k, w string) WaitStep { return WaitStep{Now: now, Op: WaitOpAttach, Claim: k, Wait: w} }
	op := func(now int64, op, k string) WaitStep { return WaitStep{Now: now, Op: op, Claim: k} }
	held := []WaitStep{create(0, "w1", 5000, "p"), attach(0, "k1", "w1"), op(0, WaitOpPull, "k1")}
	with := func(steps ...WaitStep) []WaitStep { return append(slices.Clone(held), steps...) }
	for _, c := range []struct {
		name   string
		host   interface{ Step(WaitStep) WaitReply }
		steps  []WaitStep
		want   string
		judges []string
	}{
		{"WAIT-4 a frame with a wrong remainingMs", newWaitModel(mutant.Of(mutant.ClaimFrameFullTimeout)),
			[]WaitStep{create(0, "w1", 5000, ""), attach(1000, "k1", "w1"), op(1000, WaitOpPull, "k1")}, `"remainingMs":4000`, []string{"WAIT-4"}},
		{"WAIT-5 a returned claim's end dropped", newWrongWait("drop-end-return"),
			with(op(100, WaitOpReturn, "k1")), `claim k1: host nothing, reference {"event":"end","claim":"k1","at":100}`, []string{"WAIT-5"}},
		{"WAIT-5 a cancelled claim's end dropped", newWrongWait("drop-end-cancel"),
			with(op(100, WaitOpCancel, "k1")), `claim k1: host nothing`, []string{"WAIT-5"}},
		{"CLAIM-3 a claim's end dropped when its wait closes", newWrongWait("drop-end-close"),
			with(WaitStep{Now: 100, Op: WaitOpClose, Wait: "w1", Reason: "ASK_ABORTED"}), `claim k1: host nothing`, []string{"CLAIM-3"}},
		{"WAIT-9 a claim's end dropped when its parent aborts", newWrongWait("drop-end-abort"),
			with(WaitStep{Now: 100, Op: WaitOpAbort, Parent: "p", Reason: "TURN_ABORTED"}), `claim k1: host nothing`, []string{"WAIT-9"}},
		{"WAIT-7 a pull with a cancelled signal yields no frame", newWrongWait("cancel-ignored"),
			[]WaitStep{create(0, "w1", 5000, ""), {Now: 10, Op: WaitOpAttach, Claim: "k1", Wait: "w1", Cancelled: true}, op(10, WaitOpPull, "k1")}, `claim k1: host {"event":"frame"`, []string{"WAIT-7"}},
		{"WAIT-10 closing twice completes twice", newWrongWait("close-twice"),
			with(WaitStep{Now: 100, Op: WaitOpClose, Wait: "w1", Reason: "ASK_ABORTED"}, WaitStep{Now: 200, Op: WaitOpClose, Wait: "w1", Reason: "ASK_ABORTED"}),
			`at 200, wait w1: host {"event":"closed","wait":"w1","reason":"ASK_ABORTED","at":200}, reference nothing`, []string{"WAIT-10"}},
		{"WAIT-3 an attach is not a claim", newWrongWait("attach-claims"),
			[]WaitStep{create(0, "w1", 5000, ""), attach(10, "k1", "w1")}, `claim k1: host {"event":"frame"`, []string{"WAIT-3"}},
		{"WAIT-3 closing ends no stream that was never pulled", newWrongWait("close-ends-unpulled"),
			with(attach(50, "k2", "w1"), WaitStep{Now: 100, Op: WaitOpClose, Wait: "w1", Reason: "ASK_ABORTED"}), `claim k2: host {"event":"end","claim":"k2","at":100}, reference nothing`, []string{"WAIT-3"}},
		{"WAIT-2 a timer armed while a claim is held", newWaitModel(mutant.Of(mutant.UnconditionalDeadline)),
			held, "timers armed: host 1, reference 0", []string{"WAIT-2"}},
		{"WAIT-1 WAIT-8 an unattended expiry at its deadline", lateModel(1),
			[]WaitStep{create(0, "w1", 5000, ""), {Now: 6000, Op: WaitOpAdvance}}, `"at":5001} elsewhere in its reply`, []string{"WAIT-1", "WAIT-8"}},
		{"WAIT-1 WAIT-5 WAIT-8 the last claim lost restores the original deadline", newWaitModel(mutant.Of(mutant.ReleaseRestartsTimeout)),
			with(op(1000, WaitOpReturn, "k1"), WaitStep{Now: 9000, Op: WaitOpAdvance}), `wait w1: host nothing`, []string{"WAIT-1", "WAIT-5", "WAIT-8"}},
		{"WAIT-8 an expiry never aborts the parent", newWrongWait("expiry-aborts-parent"),
			[]WaitStep{create(0, "w1", 100, "p"), create(0, "w2", 5000, "p"), {Now: 100, Op: WaitOpAdvance}}, `wait w2: host {"event":"closed","wait":"w2","reason":"ASK_TIMED_OUT","at":100}, reference nothing`, []string{"WAIT-8"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			if o := (waitRun{}).run(stepperOf{newWaitModel(0)}, c.steps); o.failed {
				t.Fatalf("the reference fails the script: %s", o.message)
			}
			o := waitRun{}.run(stepperOf{c.host}, c.steps)
			if !o.failed || !strings.Contains(o.message, c.want) {
				t.Fatalf("failed %v, want %q in: %s", o.failed, c.want, o.message)
			}
			if d := cmp.Diff(c.judges, o.ids); d != "" || !strings.HasSuffix(o.message, "; this comparison judges "+strings.Join(c.judges, ", ")) {
				t.Errorf("%s\njudges (-want +got):\n%s", o.message, d)
			}
			r, _ := waitResult(stepperOf{c.host}, WaitScript{Name: "s", Steps: c.steps, Source: "file"}, waitRun{}, "h", "")
			if r.Status != StatusFail || !cmp.Equal(r.Covers, c.judges) {
				t.Errorf("the row is %s covering %v, want a failure covering %v", r.Status, r.Covers, c.judges)
			}
		})
	}
}

// A report marks failed only the ids a failing comparison judges; the scripts that pass
// count for the ids they exercised.
func TestWaitReportFailsOnlyTheJudgedIDs(t *testing.T) {
	var out, errb bytes.Buffer
	code := Main([]string{"--profile", "wait", "--host", testBinary(), "--seeds", "200", "--out", t.TempDir(), "--json", "-"}, nil, &out, &errb, testEnv("wait-floor"))
	if code != 1 {
		t.Fatalf("exit %d\n%.3000s\n%s", code, out.String(), errb.String())
	}
	var rep struct {
		Requirements []struct{ ID, Status string }
		Scenarios    []struct {
			Status string
			Covers []string
		}
	}
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
		t.Fatal(err)
	}
	failed := 0
	for _, s := range rep.Scenarios {
		if s.Status == StatusFail {
			failed++
			if d := cmp.Diff([]string{"WAIT-4", "WAIT-6"}, s.Covers); d != "" {
				t.Errorf("a failing script covers (-want +got):\n%s", d)
			}
		}
	}
	if failed == 0 || failed == len(rep.Scenarios) {
		t.Fatalf("%d of %d scripts fail: the test proves nothing", failed, len(rep.Scenarios))
	}
	for _, r := range rep.Requirements {
		want := StatusPass
		if r.ID == "WAIT-4" || r.ID == "WAIT-6" {
			want = StatusFail
		}
		if r.Status != want {
			t.Errorf("%s: %s, want %s", r.ID, r.Status, want)
		}
	}
}

// failedRows are the ids of the failed rows of a text report, in its order.
func failedRows(text string) string {
	var ids []string
	for _, line := range strings.Split(text, "\n") {
		f := strings.Fields(line)
		if len(f) >= 2 && f[1] == StatusFail && slices.Contains(WaitRequirementIDs, f[0]) {
			ids = append(ids, f[0])
		}
	}
	return strings.Join(ids, ", ")
}
