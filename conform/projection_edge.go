package conform

import (
	"math/rand/v2"
	"strconv"
	"strings"

	"github.com/twosettle/twosettle/engine/jsonx"
	"github.com/twosettle/twosettle/engine/session"
	"github.com/twosettle/twosettle/sessionlog"
)

// EdgeLog generates the Session log of edge seed seed for the projection profile: the
// cases a real log can hold and a scenario run rarely makes, mixed at random. The same
// seed always gives the same log, so a difference found on one reproduces from its seed
// (conform --profile projection --library=false --seeds 0 --edge 1 --start N) and shrinks like any other log.
//
// What it mixes: legacy and timed request/headers and malformed tools (a placeholder
// string, null, an object, text that is not JSON, the timeout key in the wrong place,
// duplicate keys); tool calls with valid, unreadable and oddly typed arguments and reused
// call ids; pending, TOOL_OUTCOME_UNKNOWN, answered, failed, error-flagged and textless
// results; PTC dispatches (pending or not, other tools); replies from the
// user-question-reply source and reply-looking text from other producers; inbox splices;
// turns and steps; a fork's inherited prefix; nesting around the readers' depth limit
// (jsonx.MaxDepth, docs/PEER.md §11.1); and unusual JSON (escapes, surrogate pairs and lone surrogates, big numbers,
// duplicate keys).
func EdgeLog(seed uint64) *sessionlog.Log {
	g := &edgeGen{r: rand.New(rand.NewPCG(seed, 0x70726f6a)), turn: 1, step: 1}
	n := 4 + g.r.IntN(37)
	l := &sessionlog.Log{Session: "edge-" + strconv.FormatUint(seed, 10)}
	var t int64
	for i := 0; i < n; i++ {
		t += int64(g.r.IntN(3)) * 500
		l.Events = append(l.Events, session.Event{Seq: i, Time: t, Data: g.event()})
	}
	if g.r.IntN(5) == 0 {
		l.Parent = "edge-parent"
		l.Inherited = 1 + g.r.IntN(n/2+1)
	}
	return l
}

type edgeGen struct {
	r          *rand.Rand
	turn, step int
}

func (g *edgeGen) pick(xs ...string) string { return xs[g.r.IntN(len(xs))] }

func (g *edgeGen) callID() string {
	return g.pick("c1", "c2", "c3", "c1", "c2", "p1", "\u00e9\u20ac\U0001F600", "c\"4\\")
}

func (g *edgeGen) event() session.Data {
	switch k := g.r.IntN(100); {
	case k < 14:
		return session.RequestHeader{Reason: g.pick("initial", "resume", "change"), Tools: g.tools()}
	case k < 34:
		name := "ask_user_question"
		if g.r.IntN(6) == 0 {
			name = g.pick("run_code", "sleep", "ask_user_questions", "")
		}
		return session.ToolCall{Turn: g.turn, Step: g.step, CallID: g.callID(), Name: name, Arguments: g.args()}
	case k < 55:
		return g.result()
	case k < 58:
		return session.PTCDispatchStart{Root: "r1", Parent: "r1", SubCallID: g.callID(), Name: "ask_user_question", Arguments: g.args()}
	case k < 67:
		return g.dispatch()
	case k < 82:
		return session.UserMessage{Message: g.message()}
	case k < 89:
		ms := []session.Message{g.message()}
		if g.r.IntN(3) == 0 {
			ms = append(ms, g.message())
		}
		removed, outcome := 0, ""
		if g.r.IntN(3) == 0 {
			removed, outcome = 1, g.pick("", session.OutcomeCanceled)
		}
		return session.InboxSpliced{Target: g.pick(session.NextStep, session.NextTurn), Start: 0, Removed: removed, Inserted: ms, Outcome: outcome}
	case k < 92:
		g.turn++
		g.step = 1
		return session.TurnStart{Turn: g.turn}
	case k < 94:
		return session.TurnEnd{Turn: g.turn, Reason: session.TurnEndReason{Kind: g.pick(session.EndCompleted, session.EndAborted, session.EndInterrupted), Detail: g.pick("", "user")}}
	case k < 97:
		g.step++
		return session.StepStart{Turn: g.turn, Step: g.step}
	default:
		return session.StepEnd{Turn: g.turn, Step: g.step}
	}
}

// tools is a request/header's tools text: mostly the timed or the legacy schema, often
// something malformed.
func (g *edgeGen) tools() string {
	const timed = `{"name":"ask_user_question","description":"Ask the user","parameters":{"type":"object","properties":{"questions":{"type":"array"},"timeout":{"type":"integer"}}}}`
	const legacy = `{"name":"ask_user_question","description":"Ask the user","parameters":{"type":"object","properties":{"questions":{"type":"array"}}}}`
	const runCode = `{"name":"run_code","parameters":{"type":"object","properties":{"code":{"type":"string"}}}}`
	switch g.r.IntN(22) {
	case 0, 1, 2, 3, 4:
		return "[" + runCode + "," + timed + "]"
	case 5, 6, 7:
		return "[" + legacy + "]"
	case 8:
		return "[" + runCode + "]" // PTC: the header lists only run_code
	case 9:
		return `"<tools omitted>"` // a placeholder string
	case 10:
		return `null`
	case 11:
		return timed // an object, not an array
	case 12:
		return ``
	case 13:
		return `[{"name":"ask_user_question","parameters":{"properties":{"timeout":{}}}`
	case 14:
		return `[{"name":"ask_user_question","parameters":"{\"properties\":{\"timeout\":1}}"}]`
	case 15:
		return `[{"name":"ask_user_question","parameters":{"properties":[{"timeout":1}]}}]`
	case 16:
		return `[{"name":"ask_user_question","parameters":{"properties":{"questions":{"timeout":{}}}}}]`
	case 17:
		return `[{"name":"other","name":"ask_user_question","parameters":{"properties":{"timeout":{}}}}]` // last name wins: timed
	case 18:
		return `[{"name":"ask_user_question","name":"other","parameters":{"properties":{"timeout":{}}}}]` // last name wins: not timed
	case 19:
		return ` [ {"name" : "ask\u005fuser_question" , "parameters":{"properties":{"timeout":null}}} ] `
	case 20:
		return `[{"name":"ask_user_question","parameters":{"properties":{"timeout":{}},"properties":{}}}]` // last properties wins
	default:
		return "[" + timed + `,{"name":"deep","x":` + g.deep() + "}]"
	}
}

// deep is a value of nested arrays: now and then just around the readers' limit of
// jsonx.MaxDepth containers (the text around it adds one or two), else a few hundred
// deep, which every reader accepts.
func (g *edgeGen) deep() string {
	if g.r.IntN(4) == 0 {
		return nested(jsonx.MaxDepth - 5 + g.r.IntN(12))
	}
	return nested(200 + g.r.IntN(100))
}

// nested is depth nested arrays around a 0.
func nested(depth int) string { return strings.Repeat("[", depth) + "0" + strings.Repeat("]", depth) }

// question is one model-facing question item, sometimes malformed.
func (g *edgeGen) question(id string) string {
	parts := []string{`"id":` + strconv.Quote(id), `"question":` + g.text()}
	switch g.r.IntN(12) {
	case 0:
		parts = append(parts, `"header":"Pick"`)
	case 1:
		parts = append(parts, `"options":[{"label":"npm"},{"label":"bun","description":"fast"}]`)
	case 2:
		parts = append(parts, `"options":[]`)
	case 3:
		parts = append(parts, `"multi_select":true`, `"options":[{"label":"a"},{"label":"b"}]`)
	case 4:
		parts = append(parts, `"multi_select":"yes"`) // wrong type: unreadable
	case 5:
		parts = append(parts, `"detail":"never read","extra":{"n":123456789012345678901234567890}`)
	case 6:
		parts = append(parts, `"options":"npm"`) // wrong type
	case 7:
		parts = append(parts, `"header":null`) // wrong type
	case 8:
		parts = append(parts, `"options":[{"label":"x","description":7}]`) // wrong type
	}
	return "{" + strings.Join(parts, ",") + "}"
}

// text is a question's text as JSON: plain, escaped, surrogates.
func (g *edgeGen) text() string {
	return g.pick(`"Which package manager"`, `"Quote \" backslash \\ slash \/ \b\f\n\r\t"`,
		`"caf\u00e9 \ud83d\ude00 ok"`, `"lone \ud800 surrogate"`, `"low \udc00 first"`, `"\u2028line\u2029sep"`, `""`, `"日本語"`)
}

// args is a tool call's arguments text.
func (g *edgeGen) args() string {
	q := func() string {
		n := 1 + g.r.IntN(2)
		items := make([]string, n)
		for i := range items {
			items[i] = g.question("q" + strconv.Itoa(i))
		}
		return "[" + strings.Join(items, ",") + "]"
	}
	timeout := g.pick(`,"timeout":30`, `,"timeout":-1`, ``, `,"timeout":1e400`, `,"timeout":"30"`, `,"timeout":-0`)
	switch g.r.IntN(16) {
	case 0:
		return `{"questions":[]}`
	case 1:
		return `not json`
	case 2:
		return `[` + q() + `]`
	case 3:
		return `null`
	case 4:
		return `{"questions":"Which?"}`
	case 5:
		return `{"questions":[{"id":1,"question":"numeric id"}]}`
	case 6:
		return `{"questions":[{"id":"bad"}],"questions":` + q() + `}` // last duplicate wins
	case 7:
		return `{"questions":` + q() + `,"questions":[{"id":"bad"}]}`
	case 8:
		return `{"questions":` + q() + `,"deep":` + g.deep() + `}`
	case 9:
		return ` { "questions" : ` + q() + ` } ` + "\n"
	case 10:
		return `{"questions":` + q() + `} trailing`
	default:
		return `{"questions":` + q() + timeout + `}`
	}
}

// batch is an answer batch text, often not a usable one.
func (g *edgeGen) batch() string {
	switch g.r.IntN(14) {
	case 0:
		return `{"answers":[]}`
	case 1:
		return `{"answers":[{"id":"q0","selected":["a"],"extra":1}]}` // strict items: unusable
	case 2:
		return `{"answers":[{"id":"q0","selected":[1]}]}`
	case 3:
		return `{"answers":null}`
	case 4:
		return `{"answers":[{"id":"q0"}]}`
	case 5:
		return `{"answers":[{"id":"q0","selected":[]}],"answers":"x"}` // last wins: unusable
	case 6:
		return `{"answers":"x","answers":[{"id":"q0","selected":["b"],"custom":"\ud83d\ude00"}]}`
	case 7:
		return `{"kind":"answer_to_pending_question","tool":"ask_user_question","callId":"c1","questions":[{"id":"q0","question":"Q"}],"answers":[{"id":"q0","selected":["npm"]}]}`
	case 8:
		return `garbage`
	case 9:
		return `{"answers":[{"id":"q0","selected":["a"]}],"deep":` + g.deep() + `}`
	case 10:
		return `{"answers":[{"id":"q0","selected":["a"],"custom":"c","custom":"d"}]}`
	default:
		return `{"answers":[{"id":"q0","selected":["npm"]},{"id":"q1","selected":[],"custom":"bun \u00e9"}]}`
	}
}

// pending is a pending result text, sometimes almost one.
func (g *edgeGen) pending(callID string) string {
	switch g.r.IntN(8) {
	case 0:
		return `{"pending":true}`
	case 1:
		return `{"pending":"true","callId":"` + callID + `"}` // not true: not pending
	case 2:
		return `{"pending":true,"pending":false}` // last wins: not pending
	case 3:
		return `{"pending":false,"pending":true}`
	case 4:
		return `{"pending":{"x":1}}`
	case 5:
		return `{"pending":true,"deep":` + g.deep() + `}`
	default:
		return `{"pending":true,"callId":` + strconv.Quote(callID) + `,"message":"No answer batch arrived before the timeout. This is pending, not a skipped answer. Do not treat this as permission."}`
	}
}

func (g *edgeGen) result() session.Data {
	id := g.callID()
	d := session.ToolResult{Turn: g.turn, Step: g.step, CallID: id}
	switch g.r.IntN(12) {
	case 0, 1, 2:
		d.Text = g.pending(id)
	case 3:
		d.Text = g.pending(id)
		d.IsError = true // an error result whose text is pending JSON is still pending
	case 4:
		d.IsError, d.Err = true, session.ErrorInfo{Name: "HarnessError", Code: session.ToolOutcomeUnknown}
		d.Text = "Error: the tool call was interrupted"
	case 5:
		d.Err = session.ErrorInfo{Name: "HarnessError", Code: session.ToolOutcomeUnknown}
		d.NoText = true
	case 6:
		d.IsError, d.Err = true, session.ErrorInfo{Name: "UserQuestionError", Code: g.pick("ASK_CANCELLED", "ASK_ABORTED", "NO_PROVIDER")}
		d.Text = "Error: the user cancelled ask_user_question"
	case 7:
		d.IsError = true
		d.Text = g.batch() // a batch in an error result does not settle
	case 8:
		d.NoText = true
	default:
		d.Text = g.batch()
	}
	return d
}

func (g *edgeGen) dispatch() session.Data {
	id := g.callID()
	d := session.PTCDispatch{Root: "r1", Parent: "r1", SubCallID: id, Name: "ask_user_question", Arguments: g.args()}
	switch g.r.IntN(8) {
	case 0:
		d.Name = "sleep"
		d.Text = g.pending(id)
	case 1:
		d.IsError = true
		d.Text = g.pending(id)
	case 2:
		d.Text = g.batch()
	case 3:
		d.Err = session.ErrorInfo{Name: "HarnessError", Code: session.ToolOutcomeUnknown}
		d.Text = g.pending(id)
	default:
		d.Text = g.pending(id)
	}
	return d
}

// message is a user message: a late reply, or reply-looking text from another producer.
func (g *edgeGen) message() session.Message {
	m := session.Message{ID: "m" + strconv.Itoa(g.r.IntN(100)), Text: g.batch()}
	switch g.r.IntN(10) {
	case 0:
		m.Source = session.Source{Kind: session.SourceUser}
	case 1:
		m.Source = session.Source{Kind: session.SourceAgentMessage, CallID: g.callID(), Outcome: "answered"}
	case 2:
		m.Source = session.Source{Kind: session.SourceUserQuestionReply, CallID: g.callID(), Outcome: g.pick("", "declined")}
	case 3:
		m.Source = session.Source{Kind: session.SourceUserQuestionReply, CallID: g.callID(), Outcome: "answered"}
		m.Text, m.NoText = "", true
	default:
		m.Source = session.Source{Kind: session.SourceUserQuestionReply, CallID: g.callID(), Outcome: "answered"}
	}
	return m
}
