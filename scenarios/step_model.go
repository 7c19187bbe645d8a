package scenarios

import (
	"encoding/json"
	"strconv"

	"go.yaml.in/yaml/v3"
)

// ActorModel is the step key of the model actor.
const ActorModel = "model"

// modelStep is what the model does (harness/step_model.go compiles it).
var modelStep = &stepKind{
	name:   ActorModel,
	key:    key{ActorModel, "#model", false, "What the model does."},
	hinted: true,
	defs:   append(append(append(append([]*object(nil), modelObjects...), subObjects...), messageSourceObject), valueObjects...),
	words:  modelWords,
	verbs:  modelObjects,
	choice: "What the model does: a word, or one action.",
	is:     func(st *Step) bool { return st.Model != nil },
	decode: func(d *dec, st *Step, _ string, n *yaml.Node) bool {
		m, ok := d.model(n)
		st.Model = m
		return ok
	},
	validate:  func(v *validator, st *Step) { v.model(st.Pos, st.Model) },
	encode:    func(st *Step) *yaml.Node { return modelNode(st.Model) },
	refusable: func(*Step) bool { return true },
	calls: func(st *Step, _ string, add func(string)) {
		if st.Model.Call == "" {
			return
		}
		add(st.Model.Call)
		for n := range st.Model.Calls {
			add(SubCallID(st.Model.Call, n+1))
		}
	},
}

// Model action kinds.
const (
	ModelHeader  = "header"   // the model requests a header (the host's tool schemas, or Tools)
	ModelAsk     = "ask"      // call ask_user_question
	ModelRun     = "run"      // call run_code with sub-calls
	ModelSleep   = "sleep"    // call the sleep tool, which takes For of virtual time
	ModelTool    = "tool"     // call any other (instant) tool
	ModelEndStep = "end-step" // end the open step
	ModelEndTurn = "end-turn" // end the open step and the turn (final)
	ModelCancel  = "cancel"   // the turn is cancelled (reason user)
	ModelPrompt  = "prompt"   // a user message for the next turn
	ModelSteer   = "steer"    // a user message for the next step
)

// Tool names the reference host knows.
const (
	ToolAsk   = "ask_user_question"
	ToolRun   = "run_code"
	ToolSleep = "sleep"
)

// ModelAction is what the model actor does (and, for prompt, steer and cancel, what the
// person at the host does; they reach the agent the same way).
type ModelAction struct {
	Kind string
	// Call is the call id of ask, run, sleep and tool.
	Call string
	// Tools is the raw JSON of a header's tools; "" is the host's registered schemas.
	Tools string
	// Ask: the questions and the model's timeout argument as raw JSON ("" leaves it out).
	Questions []Question
	Timeout   string
	// Calls are the sub-calls of run, run in order with ids "<call>:ptc:<n>".
	Calls []SubCall
	// Args is the raw argument string: of a tool call, or of an ask or run written raw
	// (then Questions, Timeout and Calls are unused), so malformed arguments can be written
	// as the model would send them.
	Args string
	// For is how long a sleep takes.
	For Duration
	// Name is the tool name of a tool call ("" Args means {}).
	Name string
	// Text is the message of prompt and steer.
	Text string
	// Source is the recorded source of a prompt's or steer's message; the zero value is the
	// user's own message. Set, it models input from another producer or from history.
	Source MessageSource
	// KeepInbox: cancel keeps the inbox (otherwise each queued message is discarded).
	KeepInbox bool
}

// MessageSource is a message's source as another producer or an older host recorded it
// (session.Source): kind user-question-reply with call and outcome answered is a late
// reply (NODE-1), whatever its text.
type MessageSource struct {
	Kind    string
	Call    string // "" left out
	Outcome string // "" left out
}

// Sub-call kinds inside run.
const (
	SubAsk   = "ask"
	SubSleep = "sleep"
	SubTool  = "tool"
)

// SubCall is one call a run_code program makes: the same kinds as a model call (ask,
// sleep, tool) without a call id.
type SubCall struct {
	Kind      string
	Questions []Question
	Timeout   string
	Args      string
	For       Duration
	Name      string
	Pos       Pos
}

// Model action mappings: each is one verb key plus the keys that go with it.
var (
	modelHeaderObject = &object{Name: "model-header", Doc: "A request header with these raw JSON tools.", Keys: []key{
		{"header", "raw", true, "The raw JSON of the header's tools."},
	}}
	modelAskObject = &object{Name: "model-ask", Doc: "Call ask_user_question.", Keys: []key{
		{"call", "ident", true, "The call id."},
		{"ask", "#questions-or-raw", true, "The questions, or the raw argument string as the model sends it."},
		{"timeout", "json-number", false, "The model's timeout argument in seconds, written as the model writes it (omitted: the default)."},
	}}
	modelRunObject = &object{Name: "model-run", Doc: "Call run_code; its sub-calls run in order with ids <call>:ptc:1, <call>:ptc:2, ...", Keys: []key{
		{"call", "ident", true, "The call id."},
		{"run", "#calls-or-raw", true, "The sub-calls, or the raw argument string."},
	}}
	modelSleepObject = &object{Name: "model-sleep", Doc: "Call the sleep tool, which takes virtual time.", Keys: []key{
		{"call", "ident", true, "The call id."},
		{"sleep", "duration", true, "How long the tool takes."},
	}}
	modelToolObject = &object{Name: "model-tool", Doc: "Call another (instant) tool.", Keys: []key{
		{"call", "ident", true, "The call id."},
		{"tool", "ident", true, "The tool's name."},
		{"args", "raw", false, "The raw argument string (default {})."},
	}}
	modelPromptObject = &object{Name: "model-prompt", Doc: "A user message for the next turn.", Keys: []key{
		{"prompt", "text", true, "The message text."},
		{"source", "#message-source", false, "The message's recorded source, as another producer or an older host wrote it (default: the user's own message)."},
	}}
	modelSteerObject = &object{Name: "model-steer", Doc: "A user message for the next step (a steer).", Keys: []key{
		{"steer", "text", true, "The message text."},
		{"source", "#message-source", false, "The message's recorded source, as another producer or an older host wrote it (default: the user's own message)."},
	}}
	// messageSourceObject is a prompt's or steer's recorded source.
	messageSourceObject = &object{Name: "message-source", Doc: "A message source: kind user-question-reply with call and outcome answered marks a late reply.", Keys: []key{
		{"kind", "text", true, "The source kind, e.g. user-question-reply."},
		{"call", "text", false, "The call id the message answers."},
		{"outcome", "text", false, "The reply's outcome, e.g. answered."},
	}}
	modelCancelObject = &object{Name: "model-cancel", Doc: "Cancel the turn and keep the inbox.", Keys: []key{
		{"cancel", "#keep-inbox", true, "keep-inbox: queued messages stay."},
	}}
	modelObjects = []*object{modelHeaderObject, modelAskObject, modelRunObject, modelSleepObject, modelToolObject, modelPromptObject, modelSteerObject, modelCancelObject}
	// modelWords are the model actions written as a plain word.
	modelWords = []string{ModelHeader, ModelEndStep, ModelEndTurn, ModelCancel}
)

// Sub-calls of run.
var (
	subAskObject = &object{Name: "sub-ask", Doc: "A sub-call of ask_user_question.", Keys: []key{
		{"ask", "#questions-or-raw", true, "The questions, or the raw arguments JSON object."},
		{"timeout", "json-number", false, "The timeout argument in seconds."},
	}}
	subSleepObject = &object{Name: "sub-sleep", Doc: "A sub-call of the sleep tool.", Keys: []key{
		{"sleep", "duration", true, "How long it takes."},
	}}
	subToolObject = &object{Name: "sub-tool", Doc: "A sub-call of another tool.", Keys: []key{
		{"tool", "ident", true, "The tool's name."},
		{"args", "raw", false, "The raw arguments JSON object (default {})."},
	}}
	subObjects = []*object{subAskObject, subSleepObject, subToolObject}
)

func (d *dec) model(n *yaml.Node) (*ModelAction, bool) {
	if n.Kind == yaml.ScalarNode {
		w, ok := d.word(n, "model action", modelWords)
		if !ok {
			return nil, false
		}
		return &ModelAction{Kind: w}, true
	}
	o, ok := d.verb(n, modelObjects, "the model action")
	if !ok {
		return nil, false
	}
	f, ok := d.fields(n, o, "the model's "+verbOf(o))
	if f == nil {
		return nil, false
	}
	m := &ModelAction{}
	if v := f["call"]; v != nil {
		var k bool
		m.Call, k = d.ident(v, "call")
		ok = ok && k
	}
	switch o {
	case modelHeaderObject:
		m.Kind = ModelHeader
		m.Tools, _ = d.raw(f["header"], "header")
	case modelAskObject:
		m.Kind = ModelAsk
		m.Questions, m.Args, ok = d.questionsOrRaw(f["ask"], "ask", ok)
		if v := f["timeout"]; v != nil {
			if m.Args != "" {
				d.fail(v, "put the timeout inside the raw arguments", "timeout goes with questions, not with raw arguments")
				ok = false
			}
			var k bool
			m.Timeout, k = d.jsonNum(v, "timeout")
			ok = ok && k
		}
	case modelRunObject:
		m.Kind = ModelRun
		v := f["run"]
		switch {
		case v.Kind == yaml.ScalarNode && v.ShortTag() == "!!str":
			m.Args = v.Value
		case v.Kind == yaml.SequenceNode:
			for _, c := range v.Content {
				sc, k := d.subCall(c)
				ok = ok && k
				if k {
					m.Calls = append(m.Calls, sc)
				}
			}
		default:
			d.fail(v, "write the sub-calls as a list (- ask: [...], - sleep: 2s, - tool: name), or the raw arguments as a string", "run must be a list of sub-calls, not %s", kindName(v))
			ok = false
		}
	case modelSleepObject:
		m.Kind = ModelSleep
		var k bool
		m.For, k = d.duration(f["sleep"], "sleep", false)
		ok = ok && k
	case modelToolObject:
		m.Kind = ModelTool
		var k bool
		m.Name, k = d.tool(f["tool"])
		ok = ok && k
		if v := f["args"]; v != nil {
			m.Args, k = d.raw(v, "args")
			ok = ok && k
		}
	case modelPromptObject:
		m.Kind = ModelPrompt
		m.Text, _ = d.text(f["prompt"], "prompt")
		if v := f["source"]; v != nil {
			var k bool
			m.Source, k = d.messageSource(v)
			ok = ok && k
		}
	case modelSteerObject:
		m.Kind = ModelSteer
		m.Text, _ = d.text(f["steer"], "steer")
		if v := f["source"]; v != nil {
			var k bool
			m.Source, k = d.messageSource(v)
			ok = ok && k
		}
	case modelCancelObject:
		m.Kind = ModelCancel
		if _, k := d.enum(f["cancel"], "cancel option", []string{"keep-inbox"}); k {
			m.KeepInbox = true
		} else {
			ok = false
		}
	}
	return m, ok
}

// messageSource reads a prompt's or steer's source {kind, call?, outcome?}.
func (d *dec) messageSource(n *yaml.Node) (MessageSource, bool) {
	var src MessageSource
	f, ok := d.fields(n, messageSourceObject, "the message source")
	if f == nil {
		return src, false
	}
	for _, x := range []struct {
		key string
		dst *string
	}{{"kind", &src.Kind}, {"call", &src.Call}, {"outcome", &src.Outcome}} {
		if v := f[x.key]; v != nil {
			var k bool
			*x.dst, k = d.text(v, x.key)
			ok = ok && k
		}
	}
	if ok && src.Kind == "" {
		d.fail(f["kind"], "write the source kind, e.g. kind: user-question-reply", "the source kind cannot be empty")
		ok = false
	}
	return src, ok
}

func (d *dec) tool(n *yaml.Node) (string, bool) {
	name, ok := d.ident(n, "tool")
	if !ok {
		return "", false
	}
	switch name {
	case ToolAsk:
		d.fail(n, "write ask: [questions], or ask: 'raw arguments'", "ask_user_question has its own action")
		return "", false
	case ToolRun:
		d.fail(n, "write run: [sub-calls], or run: 'raw arguments'", "run_code has its own action")
		return "", false
	case ToolSleep:
		d.fail(n, "write sleep: 2s", "sleep has its own action")
		return "", false
	}
	return name, true
}

func (d *dec) subCall(n *yaml.Node) (SubCall, bool) {
	sc := SubCall{Pos: d.pos(n)}
	o, ok := d.verb(n, subObjects, "a sub-call")
	if !ok {
		return sc, false
	}
	f, ok := d.fields(n, o, "a sub-call")
	if f == nil {
		return sc, false
	}
	var k bool
	switch o {
	case subAskObject:
		sc.Kind = SubAsk
		sc.Questions, sc.Args, ok = d.questionsOrRaw(f["ask"], "ask", ok)
		if v := f["timeout"]; v != nil {
			if sc.Args != "" {
				d.fail(v, "put the timeout inside the raw arguments", "timeout goes with questions, not with raw arguments")
				ok = false
			}
			sc.Timeout, k = d.jsonNum(v, "timeout")
			ok = ok && k
		}
	case subSleepObject:
		sc.Kind = SubSleep
		sc.For, k = d.duration(f["sleep"], "sleep", false)
		ok = ok && k
	case subToolObject:
		sc.Kind = SubTool
		sc.Name, k = d.tool(f["tool"])
		ok = ok && k
		if v := f["args"]; v != nil {
			sc.Args, k = d.rawJSON(v, "args")
			ok = ok && k
		}
	}
	return sc, ok
}

func (v *validator) model(p Pos, m *ModelAction) {
	needCall := func() {
		if m.Call == "" {
			v.fail(p, "add call: c1", "a model %s needs a call id", m.Kind)
		}
	}
	switch m.Kind {
	case ModelHeader, ModelEndStep, ModelEndTurn, ModelCancel:
	case ModelAsk:
		needCall()
		if m.Args == "" {
			v.questions(p, m.Questions, false)
		}
	case ModelRun:
		needCall()
		for _, c := range m.Calls {
			switch c.Kind {
			case SubAsk:
				if c.Args == "" {
					v.questions(p, c.Questions, false)
				} else if !json.Valid([]byte(c.Args)) {
					v.fail(p, "a sub-call's arguments are a JSON object", "the raw arguments of a sub-call are not JSON")
				}
			case SubSleep:
				if c.For < 0 {
					v.fail(p, "write a positive duration", "a sleep cannot be negative")
				}
			case SubTool:
				if c.Name == "" || (c.Args != "" && !json.Valid([]byte(c.Args))) {
					v.fail(p, "write tool: name and args: '{...}'", "a tool sub-call needs a name and JSON arguments")
				}
			default:
				v.fail(p, "write ask, sleep or tool", "unknown sub-call %q", c.Kind)
			}
		}
	case ModelSleep:
		needCall()
		if m.For < 0 {
			v.fail(p, "write a positive duration", "a sleep cannot be negative")
		}
	case ModelTool:
		needCall()
		if m.Name == "" {
			v.fail(p, "add tool: name", "a tool call needs a tool name")
		}
	case ModelPrompt, ModelSteer:
	default:
		v.fail(p, "", "unknown model action %q", m.Kind)
	}
}

// SubCallID is the id the runtime mints for the n-th (from 1) sub-call of run call.
func SubCallID(call string, n int) string { return call + ":ptc:" + strconv.Itoa(n) }

func modelNode(a *ModelAction) *yaml.Node {
	switch a.Kind {
	case ModelEndStep, ModelEndTurn:
		return word(a.Kind)
	case ModelHeader:
		if a.Tools == "" {
			return word(ModelHeader)
		}
		return flow().add("header", str(a.Tools)).n
	case ModelCancel:
		if !a.KeepInbox {
			return word(ModelCancel)
		}
		return flow().add("cancel", word("keep-inbox")).n
	case ModelPrompt, ModelSteer:
		m := flow().add(a.Kind, str(a.Text))
		if a.Source.Kind != "" {
			src := flow().add("kind", str(a.Source.Kind))
			if a.Source.Call != "" {
				src.add("call", str(a.Source.Call))
			}
			if a.Source.Outcome != "" {
				src.add("outcome", str(a.Source.Outcome))
			}
			m.add("source", src.n)
		}
		return m.n
	}
	m := flow().add("call", str(a.Call))
	switch a.Kind {
	case ModelAsk:
		m.add("ask", questionsOrRaw(a.Questions, a.Args))
		if a.Timeout != "" {
			m.add("timeout", numNode(a.Timeout))
		}
	case ModelRun:
		if a.Args != "" {
			m.add("run", str(a.Args))
		} else {
			items := make([]*yaml.Node, len(a.Calls))
			for i, c := range a.Calls {
				items[i] = subCallNode(c)
			}
			m.add("run", seq(true, items...))
		}
	case ModelSleep:
		m.add("sleep", dur(a.For))
	case ModelTool:
		m.add("tool", str(a.Name))
		if a.Args != "" {
			m.add("args", str(a.Args))
		}
	}
	return m.n
}

func subCallNode(c SubCall) *yaml.Node {
	m := flow()
	switch c.Kind {
	case SubAsk:
		m.add("ask", questionsOrRaw(c.Questions, c.Args))
		if c.Timeout != "" {
			m.add("timeout", numNode(c.Timeout))
		}
	case SubSleep:
		m.add("sleep", dur(c.For))
	case SubTool:
		m.add("tool", str(c.Name))
		if c.Args != "" {
			m.add("args", str(c.Args))
		}
	}
	return m.n
}
