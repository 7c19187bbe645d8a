package oracle_test

import (
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/twosettle/twosettle/engine/mutant"
	"github.com/twosettle/twosettle/engine/questions"
	"github.com/twosettle/twosettle/engine/session"
	"github.com/twosettle/twosettle/engine/wire"
	"github.com/twosettle/twosettle/explore"
	"github.com/twosettle/twosettle/oracle"
	"github.com/twosettle/twosettle/scenarios"
	"github.com/twosettle/twosettle/trace"
)

// The oracle keeps its own projection fold (oracle.Fold) and crash-repair expectation
// (oracle.RepairClosers), written from the requirements; the engine has its own
// (engine/questions' Projection, engine/session's InterruptedTurnClosers). These tests run
// both over every Session log the library and the fuzzer produce, event by event and
// prefix by prefix: where they disagree one of them is wrong against PROJ-1..12 or
// AGENT-3/AGENT-4, and the disagreement is a finding, not noise.

// logVersions replays a trace's Appended effects per Session: an event whose seq is below
// the log's length truncates it first (a restart keeps the durable prefix). It returns
// every log the host ever held, the longest of each version, with its inherited count.
type sessionLog struct {
	id        string
	inherited int
	events    []session.Event
}

func logVersions(tr *trace.Trace) []sessionLog {
	inherited := map[string]int{}
	for _, s := range tr.Final.Host.Sessions {
		inherited[s.ID] = s.Inherited
	}
	cur := map[string]*sessionLog{}
	var order []string
	var out []sessionLog
	for _, r := range tr.Records {
		a, ok := r.Payload.(wire.Appended)
		if !ok || r.Kind != trace.Out {
			continue
		}
		l := cur[a.Session]
		if l == nil {
			l = &sessionLog{id: a.Session, inherited: inherited[a.Session]}
			cur[a.Session] = l
			order = append(order, a.Session)
		}
		n := a.Event.Seq - l.inherited
		if n < 0 {
			n = 0
		}
		if n < len(l.events) {
			out = append(out, sessionLog{l.id, l.inherited, append([]session.Event(nil), l.events...)})
			l.events = l.events[:n:n]
		}
		l.events = append(l.events, a.Event)
	}
	for _, id := range order {
		out = append(out, *cur[id])
	}
	for _, s := range tr.Final.Host.Sessions {
		out = append(out, sessionLog{s.ID, s.Inherited, s.Log})
	}
	return out
}

// engineModels are the engine's side of the comparison: its projection and its repair.
type engineModels struct {
	fold    func(inherited int) *questions.Projection
	closers func([]session.Event) []session.Data
}

var engine = engineModels{fold: questions.NewProjection, closers: session.InterruptedTurnClosers}

// compareModels runs both folds event by event and both repair expectations on every
// prefix of every log of tr; it returns the first disagreement ("" when none).
func compareModels(tr *trace.Trace) string { return engine.compare(tr) }

func (m engineModels) compare(tr *trace.Trace) string {
	for _, l := range logVersions(tr) {
		ref, own := m.fold(l.inherited), oracle.NewProjection(l.inherited)
		for i, e := range l.events {
			ref.Apply(e)
			own.Apply(e)
			if d := cmp.Diff(ref.View(), own.View()); d != "" {
				return l.id + ": after " + e.String() + " (event " + strconv.Itoa(i) + "), engine fold (-) vs oracle fold (+):\n" + d
			}
		}
		for k := 0; k <= len(l.events); k++ {
			prefix := l.events[:k]
			want := m.closers(prefix)
			got, at := oracle.RepairClosers(prefix)
			if d := cmp.Diff(want, got); d != "" {
				return l.id + ": repair of the first " + strconv.Itoa(k) + " events, engine (-) vs oracle (+):\n" + d
			}
			if len(got) > 0 && at != session.RepairTime(prefix) {
				return l.id + ": repair time of the first " + strconv.Itoa(k) + " events: engine " +
					strconv.FormatInt(session.RepairTime(prefix), 10) + ", oracle " + strconv.FormatInt(at, 10)
			}
		}
	}
	return ""
}

func TestDifferentialModelsLibrary(t *testing.T) {
	r := explore.NewRunner(explore.Options{})
	for _, f := range scenarios.Library() {
		s, err := scenarios.Decode(f.Path, f.Data)
		if err != nil {
			t.Fatal(err)
		}
		t.Run("PROJ-1..12 AGENT-3 AGENT-4 "+s.Name, func(t *testing.T) {
			out, _ := r.Run(s)
			if d := compareModels(out.Trace); d != "" {
				t.Fatal(d)
			}
		})
	}
}

func TestDifferentialModelsFuzz(t *testing.T) {
	n := uint64(400)
	if testing.Short() {
		n = 60
	}
	r := explore.NewRunner(explore.Options{})
	for seed := uint64(1); seed <= n; seed++ {
		s := explore.Generate(seed)
		out, _ := r.Run(s)
		if d := compareModels(out.Trace); d != "" {
			t.Fatalf("PROJ-1..12 AGENT-3 AGENT-4 %s: %s", explore.SeedName(seed), d)
		}
	}
}

// TestDifferentialModelsCatch proves the comparison fails when the two models differ: the
// engine's fold with its settle-on-splice bug (a queued reply settles, against PROJ-9)
// and a repair that forgets the open step's step/end (AGENT-3) are each caught on a log
// that shows the difference, and the correct models agree on the same logs.
func TestDifferentialModelsCatch(t *testing.T) {
	const header = `[{"name":"ask_user_question","parameters":{"properties":{"timeout":{}}}}]`
	log := []session.Event{
		{Seq: 0, Data: session.RequestHeader{Reason: "initial", Tools: header}},
		{Seq: 1, Data: session.TurnStart{Turn: 1}},
		{Seq: 2, Data: session.StepStart{Turn: 1, Step: 1}},
		{Seq: 3, Data: session.ToolCall{Turn: 1, Step: 1, CallID: "c1", Name: "ask_user_question", Arguments: `{"questions":[{"id":"q","question":"?"}]}`}},
		{Seq: 4, Data: session.ToolResult{Turn: 1, Step: 1, CallID: "c1", Text: `{"pending":true,"callId":"c1","message":"m"}`}},
		{Seq: 5, Data: session.InboxSpliced{Target: session.NextStep, Inserted: []session.Message{{ID: "r1",
			Source: session.Source{Kind: session.SourceUserQuestionReply, CallID: "c1", Outcome: "answered"},
			Text:   `{"answers":[{"id":"q","selected":["a"]}]}`}}}},
	}
	tr := &trace.Trace{}
	tr.Final.Host.Sessions = []wire.SessionState{{ID: "s", Log: log}}
	if d := compareModels(tr); d != "" {
		t.Fatalf("the two models disagree on a queued reply: %s", d)
	}
	buggyFold := engineModels{closers: session.InterruptedTurnClosers, fold: func(inherited int) *questions.Projection {
		p := questions.NewProjection(inherited)
		p.SetMutants(mutant.Of(mutant.SettleOnSplice))
		return p
	}}
	if d := buggyFold.compare(tr); !strings.Contains(d, "engine fold (-) vs oracle fold (+)") {
		t.Fatalf("PROJ-9: a fold that settles on splice went unseen (%q)", d)
	}
	buggyRepair := engineModels{fold: questions.NewProjection, closers: func(es []session.Event) []session.Data {
		var out []session.Data
		for _, d := range session.InterruptedTurnClosers(es) {
			if _, ok := d.(session.StepEnd); !ok {
				out = append(out, d)
			}
		}
		return out
	}}
	if d := buggyRepair.compare(tr); !strings.Contains(d, "repair of the first") {
		t.Fatalf("AGENT-3: a repair without step/end went unseen (%q)", d)
	}
	if got := oracle.Fold(log, 0); len(got.Active) != 1 || got.Active[0].State != wire.StateContinued || len(got.Settled) != 0 {
		t.Fatalf("PROJ-4, PROJ-9: want c1 continued and nothing settled, got %s", got)
	}
}

// TestDifferentialModelsHostileJSON compares the two folds on the inputs the fuzzer
// rarely writes: headers whose tools is not an array, mixed arrays, repeated keys (the
// last wins, as in JSON.parse), escapes, null fields, whitespace around pending texts.
func TestDifferentialModelsHostileJSON(t *testing.T) {
	timed := `{"name":"ask_user_question","parameters":{"properties":{"timeout":{}}}}`
	headers := []string{
		`[` + timed + `]`, `"tools"`, `null`, `{}`, timed, `[null,` + timed + `]`, `["x",1,` + timed + `]`,
		`[{"name":"ask_user_question","name":"other","parameters":{"properties":{"timeout":{}}}}]`,
		`[{"name":"other","name":"ask_user_question","parameters":{"properties":{"timeout":{}}}}]`,
		`[{"name":"ask\u005fuser_question","parameters":{"properties":{"timeout":1}}}]`,
		`[{"name":"ask_user_question","parameters":{"properties":[]}}]`,
		`[{"name":"ask_user_question","parameters":null}]`, ` [` + timed + `] `, `[` + timed + `,]`,
	}
	args := []string{
		`{"questions":[{"id":"q","question":"?"}]}`, `{"questions":[]}`, `{"questions":null}`, `[]`,
		`{"questions":[{"id":"q","question":"?","header":null}]}`,
		`{"questions":[{"id":"q","question":"?","options":[]}]}`,
		`{"questions":[{"id":"q","question":"?","options":[{"label":"a","description":"d","recommended":true}]}]}`,
		`{"questions":[{"id":"q","question":"?","multi_select":false,"multi_select":true}]}`,
		`{"questions":[{"id":1,"question":"?"}],"questions":[{"id":"q2","question":"?"}]}`,
		`{"questions":[{"id":"q","question":"?","multi_select":"yes"}]}`, `{"questions":[{"id":"q","question":"\ud83d\ude00"}]}`,
	}
	results := []session.ToolResult{
		{Text: `{"answers":[{"id":"q","selected":["a"]}]}`}, {Text: `{"answers":[{"id":"q","selected":["a"],"custom":null}]}`},
		{Text: `{"answers":[{"id":"q","selected":["a"],"id":"r"}]}`}, {Text: `{"answers":[],"answers":[{"id":"q","selected":[]}]}`},
		{Text: ` {"pending":true} `}, {Text: `{"pending":false,"pending":true}`}, {Text: `{"pending":true,"pending":1}`},
		{Text: `{"pend\u0069ng":true}`}, {Text: `{"answers":[{"id":"q","selected":[1]}]}`}, {Text: `not json`},
		{IsError: true, Err: session.ErrorInfo{Name: session.ToolOutcomeUnknownName, Code: session.ToolOutcomeUnknown}, Text: "x"},
		{IsError: true, Text: `{"answers":[]}`}, {NoText: true},
	}
	n := 0
	for _, h := range headers {
		for _, a := range args {
			for _, r := range results {
				r.Turn, r.Step, r.CallID = 1, 1, "c"
				log := []session.Event{
					{Seq: 0, Data: session.RequestHeader{Reason: "initial", Tools: h}},
					{Seq: 1, Data: session.TurnStart{Turn: 1}},
					{Seq: 2, Data: session.StepStart{Turn: 1, Step: 1}},
					{Seq: 3, Data: session.ToolCall{Turn: 1, Step: 1, CallID: "c", Name: "ask_user_question", Arguments: a}},
					{Seq: 4, Data: r},
				}
				tr := &trace.Trace{}
				tr.Final.Host.Sessions = []wire.SessionState{{ID: "s", Log: log}}
				if d := compareModels(tr); d != "" {
					t.Errorf("PROJ-2..6 header %s args %s result %s: %s", h, a, r.String(), d)
					if n++; n > 5 {
						t.FailNow()
					}
				}
			}
		}
	}
}
