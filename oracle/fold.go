package oracle

import (
	"encoding/json"

	"github.com/twosettle/twosettle/engine/session"
	"github.com/twosettle/twosettle/engine/wire"
)

// The oracle's own userQuestions projection (PROJ-1..PROJ-12), written from the
// requirements (docs/REQUIREMENTS.md) and docs/PEER.md §5, not from engine/questions: the engine's fold
// is what INV-PROJ-REFOLD judges, so it must not also be the judge. It reads JSON as
// JSON.parse does (the peer is JavaScript): the last of repeated keys wins, any depth.
// The differential test (differential_test.go) runs it against the engine's fold over the
// library and fuzz seeds; a disagreement is a finding about one of the two.

// askToolName is the model-facing name of the question tool (TOOL-1).
const askToolName = "ask_user_question"

// Fold is the oracle's projection of a whole log whose first inherited events came from
// its fork parent (PROJ-11, PROJ-12).
func Fold(events []session.Event, inherited int) wire.QuestionsView {
	p := newProjection(inherited)
	for _, e := range events {
		p.apply(e)
	}
	return p.view()
}

// projection is the incremental fold of one Session.
type projection struct {
	inherited int
	timed     bool // the latest request/header declares the timed schema (PROJ-2)
	tools     string
	hasTools  bool
	active    []wire.PendingRow
	pos       map[string]int // index of each call id's row in active (performance only)
	settled   []wire.SettledRow
	cached    wire.QuestionsView
	valid     bool
}

func newProjection(inherited int) *projection {
	return &projection{inherited: inherited, pos: map[string]int{}}
}

func (p *projection) view() wire.QuestionsView {
	if !p.valid {
		// published views are never mutated: copy on read
		p.cached = wire.QuestionsView{
			Active:  append(make([]wire.PendingRow, 0, len(p.active)), p.active...),
			Settled: append(make([]wire.SettledRow, 0, len(p.settled)), p.settled...),
		}
		p.valid = true
	}
	return p.cached
}

func (p *projection) apply(e session.Event) {
	if e.Seq < p.inherited {
		return // PROJ-11: a fork ignores what it inherited
	}
	switch d := e.Data.(type) {
	case session.RequestHeader:
		if d.Tools != p.tools || !p.hasTools {
			p.tools, p.hasTools, p.timed = d.Tools, true, timedHeader(d.Tools) // PROJ-2: the latest header decides
		}
	case session.ToolCall:
		if !p.timed || d.Name != askToolName {
			return // PROJ-2: legacy calls are never tracked
		}
		if qs, ok := readAskQuestions(d.Arguments); ok {
			p.open(wire.PendingRow{CallID: d.CallID, Questions: qs, State: wire.StateOpen}) // PROJ-3
		}
	case session.PTCDispatch:
		// PROJ-7: a pending sub-call enters continued (the header lists only run_code)
		if d.Name != askToolName || d.IsError {
			return
		}
		if pending, _ := pendingInfo(d.Text); !pending {
			return
		}
		if qs, ok := readAskQuestions(d.Arguments); ok {
			p.open(wire.PendingRow{CallID: d.SubCallID, Questions: qs, State: wire.StateContinued})
		}
	case session.ToolResult:
		p.result(d)
	case session.UserMessage:
		// PROJ-8: an admitted reply settles its active call; unusable text, an empty batch
		if d.Message.Source.Kind != session.SourceUserQuestionReply {
			return
		}
		i := p.find(d.Message.Source.CallID)
		if i < 0 {
			return
		}
		answers, ok := []wire.AnswerItem(nil), false
		if !d.Message.NoText {
			answers, ok = readAnswerBatch(d.Message.Text)
		}
		if !ok {
			answers = []wire.AnswerItem{}
		}
		p.settle(i, answers)
	}
	// agent/inbox/spliced never settles (PROJ-9); other events leave the view alone.
}

// result folds a tool/result of a tracked call (PROJ-4, PROJ-5, PROJ-6).
func (p *projection) result(d session.ToolResult) {
	i := p.find(d.CallID)
	if i < 0 {
		return
	}
	pending := false
	if !d.NoText {
		pending, _ = pendingInfo(d.Text)
	}
	if pending || d.Err.Code == session.ToolOutcomeUnknown {
		if p.active[i].State != wire.StateContinued {
			p.active[i].State = wire.StateContinued // PROJ-4: continued, in place
			p.valid = false
		}
		return
	}
	if !d.IsError && !d.Err.Set() && !d.NoText {
		if answers, ok := readAnswerBatch(d.Text); ok {
			p.settle(i, answers) // PROJ-5
			return
		}
	}
	p.remove(i) // PROJ-6: removed, no settled record
}

func (p *projection) find(call string) int {
	if i, ok := p.pos[call]; ok {
		return i
	}
	return -1
}

// open appends row, removing an earlier row of the same call id (PROJ-3: a reused id
// moves to the end; PROJ-7: a repeated dispatch leaves one entry).
func (p *projection) open(row wire.PendingRow) {
	if i := p.find(row.CallID); i >= 0 {
		p.remove(i)
	}
	p.active = append(p.active, row)
	p.pos[row.CallID] = len(p.active) - 1
	p.valid = false
}

func (p *projection) remove(i int) {
	delete(p.pos, p.active[i].CallID)
	p.active = append(p.active[:i:i], p.active[i+1:]...)
	for j := i; j < len(p.active); j++ {
		p.pos[p.active[j].CallID] = j // the copy above is O(n) already
	}
	p.valid = false
}

func (p *projection) settle(i int, answers []wire.AnswerItem) {
	call := p.active[i].CallID
	p.remove(i)
	p.settled = append(p.settled, wire.SettledRow{CallID: call, Answers: answers}) // PROJ-10: settled rows stay
}

// jsonObject reads one JSON object's members as JSON.parse does: the last of repeated
// keys wins. false when raw is not exactly one object.
func jsonObject(raw []byte) (map[string]json.RawMessage, bool) {
	if jsonKind(raw) != '{' {
		return nil, false
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(raw, &m) != nil || m == nil {
		return nil, false
	}
	return m, true
}

func jsonArray(raw []byte) ([]json.RawMessage, bool) {
	if jsonKind(raw) != '[' {
		return nil, false
	}
	var a []json.RawMessage
	if json.Unmarshal(raw, &a) != nil {
		return nil, false
	}
	return a, true
}

func jsonStr(raw []byte) (string, bool) {
	if jsonKind(raw) != '"' {
		return "", false
	}
	var s string
	if json.Unmarshal(raw, &s) != nil {
		return "", false
	}
	return s, true
}

// readAskQuestions reads a tracked call's questions (PROJ-3): arguments that are an object
// whose questions is a non-empty array of {id, question, header?, options?:[{label,
// description?}], multi_select?}, each present field of its type (null is no type); other
// keys are dropped. Anything else is unreadable and the call is not tracked.
func readAskQuestions(args string) ([]wire.Question, bool) {
	top, ok := jsonObject([]byte(args))
	if !ok {
		return nil, false
	}
	items, ok := jsonArray(top["questions"])
	if !ok || len(items) == 0 {
		return nil, false
	}
	out := make([]wire.Question, 0, len(items))
	for _, it := range items {
		m, ok := jsonObject(it)
		if !ok {
			return nil, false
		}
		id, ok1 := jsonStr(m["id"])
		text, ok2 := jsonStr(m["question"])
		if !ok1 || !ok2 {
			return nil, false
		}
		q := wire.Question{ID: id, Question: text}
		if raw, has := m["header"]; has {
			h, ok := jsonStr(raw)
			if !ok {
				return nil, false
			}
			q.Header = &h
		}
		if raw, has := m["options"]; has {
			opts, ok := jsonArray(raw)
			if !ok {
				return nil, false
			}
			q.Options = make([]wire.Option, 0, len(opts)) // present, even empty
			for _, o := range opts {
				om, ok := jsonObject(o)
				if !ok {
					return nil, false
				}
				label, ok := jsonStr(om["label"])
				if !ok {
					return nil, false
				}
				opt := wire.Option{Label: label}
				if raw, has := om["description"]; has {
					d, ok := jsonStr(raw)
					if !ok {
						return nil, false
					}
					opt.Description = &d
				}
				q.Options = append(q.Options, opt)
			}
		}
		if raw, has := m["multi_select"]; has {
			var b bool
			if k := jsonKind(raw); k != 't' || json.Unmarshal(raw, &b) != nil {
				return nil, false
			}
			q.MultiSelect = &b
		}
		out = append(out, q)
	}
	return out, true
}

// readAnswerBatch reads an answer batch text strictly (TOOL-8, PROJ-5, PROJ-8): an object
// whose answers is an array of {id: string, selected: string[], custom?: string} with no
// other key; other top-level keys are allowed.
func readAnswerBatch(text string) ([]wire.AnswerItem, bool) {
	top, ok := jsonObject([]byte(text))
	if !ok {
		return nil, false
	}
	items, ok := jsonArray(top["answers"])
	if !ok {
		return nil, false
	}
	out := make([]wire.AnswerItem, 0, len(items))
	for _, it := range items {
		m, ok := jsonObject(it)
		if !ok {
			return nil, false
		}
		var a wire.AnswerItem
		for k, v := range m {
			switch k {
			case "id", "selected":
			case "custom":
				c, ok := jsonStr(v)
				if !ok {
					return nil, false
				}
				a.Custom = &c
			default:
				return nil, false
			}
		}
		id, ok := jsonStr(m["id"])
		if !ok {
			return nil, false
		}
		sel, ok := jsonArray(m["selected"])
		if !ok {
			return nil, false
		}
		a.ID, a.Selected = id, make([]string, 0, len(sel))
		for _, s := range sel {
			str, ok := jsonStr(s)
			if !ok {
				return nil, false
			}
			a.Selected = append(a.Selected, str)
		}
		out = append(out, a)
	}
	return out, true
}

// timedHeader reports whether a request/header's tools declare the timed schema (PROJ-2):
// an array with an entry that is an object named ask_user_question whose parameters is an
// object whose properties is an object with a timeout key. Entries that are not objects
// are skipped; tools that are not an array (a placeholder string, null, an object)
// declare nothing.
func timedHeader(tools string) bool {
	list, ok := jsonArray([]byte(tools))
	if !ok {
		return false
	}
	for _, t := range list {
		m, ok := jsonObject(t)
		if !ok {
			continue
		}
		if name, ok := jsonStr(m["name"]); !ok || name != askToolName {
			continue
		}
		params, ok := jsonObject(m["parameters"])
		if !ok {
			continue
		}
		props, ok := jsonObject(params["properties"])
		if !ok {
			continue
		}
		if _, ok := props["timeout"]; ok {
			return true
		}
	}
	return false
}

// Projection is the oracle's incremental fold of one Session, exported for the
// differential test against the engine's projection.
type Projection struct{ p *projection }

// NewProjection is the fold of a Session whose first inherited events came from its fork
// parent.
func NewProjection(inherited int) *Projection { return &Projection{newProjection(inherited)} }

// Apply folds one event.
func (p *Projection) Apply(e session.Event) { p.p.apply(e) }

// View is the view so far; it is never modified afterwards.
func (p *Projection) View() wire.QuestionsView { return p.p.view() }
