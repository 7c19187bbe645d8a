package conform

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/twosettle/twosettle/engine/questions"
	"github.com/twosettle/twosettle/engine/session"
	"github.com/twosettle/twosettle/engine/wire"
	"github.com/twosettle/twosettle/scenarios"
	"github.com/twosettle/twosettle/sessionlog"
)

// The projection profile (docs/PROTOCOL.md, "Profiles", "projection"): the host is a
// userQuestions fold. For each Session log the runner sends fold-start (the Session, its
// inherited count) and then every event, one request each; the host answers each with
// the view after it (fold-start: the view before any event). The runner compares each
// view with the reference fold's (engine/questions) and stops the log at the first
// difference, which it reports with the events before it and the requirement ids that
// comparison judges.

// projectionNotes are the ids the projection profile judges beyond PROJ-*, the parts of
// TOOL-1, TOOL-4 and AGENT-3 that are the fold's, with the note their rows carry.
var projectionNotes = map[string]string{
	"TOOL-1":  "the projection's part only: a legacy call is never tracked",
	"TOOL-4":  "the projection's part only: a -1 call made with the timed schema is tracked",
	"AGENT-3": "the projection's part only: a TOOL_OUTCOME_UNKNOWN result makes the question continued",
}

// projectionIDs are the ids the projection profile judges, in catalogue order.
func projectionIDs() []string {
	var ids []string
	for _, r := range scenarios.Requirements() {
		if strings.HasPrefix(r.ID, "PROJ-") || projectionNotes[r.ID] != "" {
			ids = append(ids, r.ID)
		}
	}
	return ids
}

// foldStartLine is the runner's fold-start request.
func foldStartLine(n int64, l *sessionlog.Log) []byte {
	b := []byte(`{"type":"fold-start","n":`)
	b = strconv.AppendInt(b, n, 10)
	b = append(b, `,"session":`...)
	b = wire.AppendJSONString(b, l.Session)
	b = append(b, `,"inherited":`...)
	b = strconv.AppendInt(b, int64(l.Inherited), 10)
	return append(b, "}\n"...)
}

// eventLine is the runner's event request.
func eventLine(b []byte, n int64, e session.Event) ([]byte, error) {
	b = append(b, `{"type":"event","n":`...)
	b = strconv.AppendInt(b, n, 10)
	b = append(b, `,"event":`...)
	b, err := wire.AppendEventJSON(b, e)
	if err != nil {
		return nil, err
	}
	return append(b, "}\n"...), nil
}

// viewReply sends one projection request and decodes the view of its reply; a reply
// that is not a view loses the host.
func (p *Process) viewReply(line []byte, n int64, what string) (wire.QuestionsView, error) {
	m, err := p.request(line, n, what, TypeView)
	if err != nil {
		return wire.QuestionsView{}, err
	}
	if m.View == nil {
		return wire.QuestionsView{}, p.fail(fmt.Errorf("the host's view reply to the %s request (n=%d) has no \"view\"", what, n))
	}
	v, err := wire.DecodeQuestionsView(m.View)
	if err != nil {
		return wire.QuestionsView{}, p.fail(fmt.Errorf("the host's reply to the %s request (n=%d) is not a view: %v", what, n, err))
	}
	return v, nil
}

// refFold is the reference fold of one log: the view before any event and after each,
// and the ids each comparison judges.
type refFold struct {
	log    *sessionlog.Log
	start  wire.QuestionsView
	views  []wire.QuestionsView
	judges [][]string // per event
}

// foldReference folds l with the reference projection.
func foldReference(l *sessionlog.Log) *refFold {
	p := questions.NewProjection(l.Inherited)
	f := &refFold{log: l, start: p.View(), views: make([]wire.QuestionsView, len(l.Events)), judges: make([][]string, len(l.Events))}
	for i, e := range l.Events {
		before, timed := p.View(), p.Timed()
		p.Apply(e)
		f.views[i] = p.View()
		f.judges[i] = judgedBy(e, l.Inherited, timed, before, p.View())
	}
	return f
}

// judgedBy names the requirement ids the comparison of the view after e judges, from
// the event and what the reference fold did with it.
func judgedBy(e session.Event, inherited int, timed bool, before, after wire.QuestionsView) []string {
	if e.Seq < inherited {
		return []string{"PROJ-11"}
	}
	switch d := e.Data.(type) {
	case session.RequestHeader:
		return []string{"PROJ-2"}
	case session.ToolCall:
		if d.Name != questions.ToolName {
			return []string{"PROJ-1"}
		}
		if !timed {
			return []string{"PROJ-2", "TOOL-1"}
		}
		if blockingTimed(d.Arguments) {
			return []string{"PROJ-3", "TOOL-4"}
		}
		return []string{"PROJ-3"}
	case session.ToolResult:
		i := rowIndex(before, d.CallID)
		if i < 0 {
			return []string{"PROJ-1"}
		}
		switch {
		case rowIndex(after, d.CallID) >= 0:
			if d.Err.Code == session.ToolOutcomeUnknown {
				return []string{"PROJ-4", "AGENT-3"}
			}
			return []string{"PROJ-4"}
		case len(after.Settled) > len(before.Settled):
			return []string{"PROJ-5", "PROJ-10"}
		}
		return []string{"PROJ-6"}
	case session.PTCDispatch:
		return []string{"PROJ-7"}
	case session.UserMessage:
		if d.Message.Source.Kind == session.SourceUserQuestionReply {
			if len(after.Settled) > len(before.Settled) {
				return []string{"PROJ-8", "PROJ-10"}
			}
			return []string{"PROJ-8"}
		}
	case session.InboxSpliced:
		return []string{"PROJ-9"}
	}
	return []string{"PROJ-1"}
}

// blockingTimed reports whether tool arguments ask with timeout -1 (TOOL-4: the blocking
// path, still tracked under the timed schema).
func blockingTimed(args string) bool {
	var a struct {
		Timeout *float64 `json:"timeout"`
	}
	return strings.Contains(args, `"timeout"`) && json.Unmarshal([]byte(args), &a) == nil && a.Timeout != nil && *a.Timeout == -1
}

func rowIndex(v wire.QuestionsView, callID string) int {
	for i, r := range v.Active {
		if r.CallID == callID {
			return i
		}
	}
	return -1
}

// sameView compares two views by their canonical JSON.
func sameView(a, b wire.QuestionsView) bool {
	return string(wire.AppendQuestionsViewJSON(nil, a)) == string(wire.AppendQuestionsViewJSON(nil, b))
}

// viewDiff is the first comparison where the host's view is not the reference's.
type viewDiff struct {
	Index     int // the event's index in the log; -1 for the view fold-start answers
	Want, Got wire.QuestionsView
	IDs       []string
}

// foldOn folds ref's log on the host process, comparing every view. It returns the first
// difference (nil when every view is the reference's) and the ids the comparisons made
// judge; an error is a lost host.
func foldOn(p *Process, ref *refFold) (*viewDiff, []string, error) {
	n := p.next()
	got, err := p.viewReply(foldStartLine(n, ref.log), n, "fold-start")
	if err != nil {
		return nil, nil, err
	}
	judged := []string{"PROJ-1"}
	if !sameView(got, ref.start) {
		return &viewDiff{Index: -1, Want: ref.start, Got: got, IDs: judged}, judged, nil
	}
	for i, e := range ref.log.Events {
		n := p.next()
		line, err := eventLine(p.buf[:0], n, e)
		if err != nil {
			return nil, nil, fmt.Errorf("cannot encode event #%d: %v", e.Seq, err)
		}
		p.buf = line
		got, err := p.viewReply(line, n, "event")
		if err != nil {
			return nil, nil, err
		}
		judged = append(judged, ref.judges[i]...)
		if !sameView(got, ref.views[i]) {
			return &viewDiff{Index: i, Want: ref.views[i], Got: got, IDs: uniqueSorted(ref.judges[i])}, uniqueSorted(judged), nil
		}
	}
	return nil, uniqueSorted(judged), nil
}

// describe is the divergence text of d: the events before it, the event, and the two
// views (canonical text and JSON).
func (d *viewDiff) describe(l *sessionlog.Log, got string, lineOf func(i int) string) string {
	var b strings.Builder
	if d.Index < 0 {
		b.WriteString("the " + got + " view departs from the reference fold at fold-start, before any event:\n")
	} else {
		e := l.Events[d.Index]
		fmt.Fprintf(&b, "the %s view departs from the reference fold after event #%d (%s, %s):\n", got, e.Seq, e.Type(), lineOf(d.Index))
		for i := max(0, d.Index-4); i <= d.Index; i++ {
			mark := "    "
			if i == d.Index {
				mark = "  > "
			}
			b.WriteString(mark + clipText(l.Events[i].String(), 300) + "\n")
		}
	}
	label := "host"
	if got != "host's" {
		label = "yours"
	}
	fmt.Fprintf(&b, "  - reference: %s\n", d.Want)
	fmt.Fprintf(&b, "  + %-10s %s\n", label+":", d.Got)
	fmt.Fprintf(&b, "  - reference JSON: %s\n", clipText(string(wire.AppendQuestionsViewJSON(nil, d.Want)), 600))
	fmt.Fprintf(&b, "  + %-15s %s\n", label+" JSON:", clipText(string(wire.AppendQuestionsViewJSON(nil, d.Got)), 600))
	return b.String()
}

func clipText(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return strings.ToValidUTF8(s[:n], "") + "… (" + strconv.Itoa(len(s)) + " bytes)"
}

// shrinkLog removes events from a log whose fold differs on the host while it still
// differs (at any event), within budget folds: chunks first, then single events. It
// returns the smallest log found and its difference. Seqs are kept, so the inherited
// prefix stays inherited.
func shrinkLog(p *Process, l *sessionlog.Log, diff *viewDiff, budget int) (*sessionlog.Log, *viewDiff, error) {
	cur, curDiff := l, diff
	// Everything after the first difference can go at once.
	if diff.Index >= 0 && diff.Index+1 < len(l.Events) {
		cur = withEvents(l, l.Events[:diff.Index+1])
	}
	try := func(events []session.Event) (bool, error) {
		if budget <= 0 {
			return false, nil
		}
		budget--
		cand := withEvents(l, events)
		d, _, err := foldOn(p, foldReference(cand))
		if err != nil {
			return false, err
		}
		if d != nil {
			cur, curDiff = cand, d
			return true, nil
		}
		return false, nil
	}
	for chunk := len(cur.Events) / 2; chunk >= 1; chunk /= 2 {
		for start := 0; start+chunk <= len(cur.Events) && budget > 0; {
			events := append(append([]session.Event(nil), cur.Events[:start]...), cur.Events[start+chunk:]...)
			ok, err := try(events)
			if err != nil {
				return cur, curDiff, err
			}
			if !ok {
				start += chunk
			}
		}
	}
	// The events after the (new) first difference are not needed either.
	if curDiff.Index >= 0 && curDiff.Index+1 < len(cur.Events) {
		cur = withEvents(cur, cur.Events[:curDiff.Index+1])
	}
	return cur, curDiff, nil
}

func withEvents(l *sessionlog.Log, events []session.Event) *sessionlog.Log {
	c := *l
	c.Events = events
	return &c
}
