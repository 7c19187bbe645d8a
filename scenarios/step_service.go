package scenarios

import (
	"encoding/json"
	"strconv"

	"go.yaml.in/yaml/v3"
)

// ActorService is the step key of the service actor.
const ActorService = "service"

// serviceStep is a direct call to the question service (harness/step_service.go
// compiles it).
var serviceStep = &stepKind{
	name:   ActorService,
	key:    key{ActorService, "#service", false, "A direct call to the question service (the service contract)."},
	hinted: true,
	defs:   serviceObjects,
	verbs:  serviceObjects,
	choice: "A direct call to the question service.",
	is:     func(st *Step) bool { return st.Service != nil },
	decode: func(d *dec, st *Step, _ string, n *yaml.Node) bool {
		c, ok := d.service(n)
		st.Service = c
		return ok
	},
	validate:  func(v *validator, st *Step) { v.service(st.Pos, st.Service) },
	encode:    func(st *Step) *yaml.Node { return serviceNode(st.Service) },
	refusable: func(*Step) bool { return true },
	calls: func(st *Step, id string, add func(string)) {
		c := st.Service
		switch {
		case c.Kind == ServiceAsk && c.Call != "":
			add(c.Call)
		case c.Kind == ServiceAskTimed && c.Body != "":
			var b struct {
				CallID string `json:"callId"`
			}
			if json.Unmarshal([]byte(c.Body), &b) == nil && b.CallID != "" {
				add(b.CallID)
			}
		case c.Kind == ServiceAskTimed:
			add(AskTimedCall(c, id))
		}
	},
}

// Service call kinds: the harness calls the question service directly, not through the
// model tool (the service contract: ASK, CALLER, LATE).
const (
	ServiceAsk      = "ask"
	ServiceAskTimed = "ask-timed"
	ServiceAnswer   = "answer"
)

// Agent selectors of a service call.
const (
	AgentLive  = "live"
	AgentStale = "stale"
	AgentNone  = "none"
)

// ServiceCall is one direct call to the question service. ID names its result for
// expectations ("" gets d1, d2, ... in step order).
type ServiceCall struct {
	Kind string
	ID   string
	// Agent selects the caller: live ("" too), stale or none.
	Agent     string
	Questions []Question // ask, ask-timed
	// Call: ask-timed and answer: the call id; ask: the wait's call id ("" no wait).
	Call string
	// Timed: ask with a timed wait {callId, timed: true}.
	Timed bool
	// Timeout: ask-timed's timeout in ms; nil: 120s.
	Timeout *Duration
	// Aborted: the request's signal is already aborted.
	Aborted bool
	// Answers: answer's batch.
	Answers []AnswerItem
	// Body is the raw JSON body; when set it replaces Questions, Call, Timed, Timeout,
	// Aborted and Answers, so malformed requests can be written as they are.
	Body string
}

// Service calls.
var (
	serviceAskObject = &object{Name: "service-ask", Doc: "ask(): the blocking path.", Keys: []key{
		{"ask", "#questions-or-raw", true, "The questions, or the raw JSON body."},
		{"id", "ident", false, "Names the result (default d1, d2, ... in step order)."},
		{"agent", "#agent", false, "The caller: live (default), stale or none."},
		{"wait", "ident", false, "Tie the request to this call id (wait: {callId})."},
		{"timed", "bool", false, "With wait: a timed wait (wait: {callId, timed: true})."},
		{"aborted", "bool", false, "The request's signal is already aborted."},
	}}
	serviceAskTimedObject = &object{Name: "service-ask-timed", Doc: "askTimed(): the foreground wait.", Keys: []key{
		{"ask-timed", "#questions-or-raw", true, "The questions, or the raw JSON body."},
		{"id", "ident", false, "Names the result (default d1, d2, ... in step order)."},
		{"agent", "#agent", false, "The caller: live (default), stale or none."},
		{"call", "ident", false, "The call id (default: the result id)."},
		{"timeout", "signed-duration", false, "The timeout in milliseconds (default 120s; negative values test BAD_TIMEOUT)."},
		{"aborted", "bool", false, "The parent signal is already aborted."},
	}}
	serviceAnswerObject = &object{Name: "service-answer", Doc: "answer(): a late answer to a continued question.", Keys: []key{
		{"answer", "#answers-or-raw", true, "The batch by question id, or the raw JSON body."},
		{"id", "ident", false, "Names the result (default d1, d2, ... in step order)."},
		{"agent", "#agent", false, "The caller: live (default), stale or none."},
		{"call", "ident", false, "The call id answered (required unless the body is raw)."},
	}}
	serviceObjects = []*object{serviceAskObject, serviceAskTimedObject, serviceAnswerObject}
)

func (d *dec) service(n *yaml.Node) (*ServiceCall, bool) {
	o, ok := d.verb(n, serviceObjects, "the service call")
	if !ok {
		return nil, false
	}
	f, ok := d.fields(n, o, "the service's "+verbOf(o))
	if f == nil {
		return nil, false
	}
	c := &ServiceCall{}
	var k bool
	if v := f["id"]; v != nil {
		c.ID, k = d.ident(v, "id")
		ok = ok && k
	}
	if v := f["agent"]; v != nil {
		c.Agent, k = d.enum(v, "agent", agents)
		ok = ok && k
	}
	rawBody := func(v *yaml.Node) bool {
		if v.Kind == yaml.ScalarNode && v.ShortTag() == "!!str" {
			c.Body, k = d.rawJSON(v, "the raw body")
			ok = ok && k
			return true
		}
		return false
	}
	switch o {
	case serviceAskObject:
		c.Kind = ServiceAsk
		if !rawBody(f["ask"]) {
			c.Questions, _, k = d.questionsOrRaw(f["ask"], "ask", true)
			ok = ok && k
		}
		if v := f["wait"]; v != nil {
			c.Call, k = d.ident(v, "wait")
			ok = ok && k
		}
		if v := f["timed"]; v != nil {
			c.Timed, k = d.boolean(v, "timed")
			ok = ok && k
		}
	case serviceAskTimedObject:
		c.Kind = ServiceAskTimed
		if !rawBody(f["ask-timed"]) {
			c.Questions, _, k = d.questionsOrRaw(f["ask-timed"], "ask-timed", true)
			ok = ok && k
		}
		if v := f["call"]; v != nil {
			c.Call, k = d.ident(v, "call")
			ok = ok && k
		}
		if v := f["timeout"]; v != nil {
			var t Duration
			t, k = d.duration(v, "timeout", true)
			c.Timeout = &t
			ok = ok && k
		}
	case serviceAnswerObject:
		c.Kind = ServiceAnswer
		if !rawBody(f["answer"]) {
			c.Answers, k = d.answers(f["answer"])
			ok = ok && k
		}
		if v := f["call"]; v != nil {
			c.Call, k = d.ident(v, "call")
			ok = ok && k
		}
	}
	if v := f["aborted"]; v != nil {
		c.Aborted, k = d.boolean(v, "aborted")
		ok = ok && k
	}
	if c.Body != "" {
		for _, key := range []string{"wait", "timed", "call", "timeout", "aborted"} {
			if v := f[key]; v != nil {
				d.fail(v, "put it inside the raw body", "%s goes with structured fields, not with a raw body", key)
				ok = false
			}
		}
	}
	return c, ok
}

func (v *validator) service(p Pos, c *ServiceCall) {
	if c.Agent != "" && c.Agent != AgentLive && c.Agent != AgentStale && c.Agent != AgentNone {
		v.fail(p, oneOf(c.Agent, agents), "unknown agent %q", c.Agent)
	}
	if c.Body != "" {
		if !json.Valid([]byte(c.Body)) {
			v.fail(p, "check the JSON", "the raw body is not JSON")
		}
		if c.Call != "" || c.Timed || c.Timeout != nil || c.Aborted || len(c.Questions) > 0 || len(c.Answers) > 0 {
			v.fail(p, "put everything inside the raw body", "a raw body replaces the other fields")
		}
		return
	}
	switch c.Kind {
	case ServiceAsk:
		v.questions(p, c.Questions, true)
		if c.Timed && c.Call == "" {
			v.fail(p, "add wait: with the call id", "timed: true needs wait:")
		}
	case ServiceAskTimed:
		v.questions(p, c.Questions, true)
	case ServiceAnswer:
		if c.Call == "" {
			v.fail(p, "add call: with the call id answered", "answer needs call:")
		}
		for _, a := range c.Answers {
			if a.ID == "" {
				v.fail(p, "name each answer by its question id", "an answer without a question id")
			}
		}
	default:
		v.fail(p, "", "unknown service call %q", c.Kind)
	}
}

// ServiceIDs returns, for each step, the result id of its service call ("" for other
// steps): the explicit id, or d1, d2, ... counting the service steps.
func ServiceIDs(s *Scenario) []string {
	out := make([]string, len(s.Steps))
	n := 0
	for i, st := range s.Steps {
		if st.Service == nil {
			continue
		}
		n++
		out[i] = st.Service.ID
		if out[i] == "" {
			out[i] = "d" + strconv.Itoa(n)
		}
	}
	return out
}

// AskTimedCall is the call id an ask-timed service call uses.
func AskTimedCall(c *ServiceCall, id string) string {
	if c.Call != "" {
		return c.Call
	}
	return id
}

func serviceNode(c *ServiceCall) *yaml.Node {
	m := flow()
	switch c.Kind {
	case ServiceAsk, ServiceAskTimed:
		m.add(c.Kind, questionsOrRaw(c.Questions, c.Body))
	case ServiceAnswer:
		if c.Body != "" {
			m.add("answer", str(c.Body))
		} else {
			m.add("answer", answersNode(c.Answers))
		}
	}
	if c.ID != "" {
		m.add("id", str(c.ID))
	}
	if c.Agent != "" {
		m.add("agent", word(c.Agent))
	}
	switch c.Kind {
	case ServiceAsk:
		if c.Call != "" {
			m.add("wait", str(c.Call))
		}
		if c.Timed {
			m.add("timed", boolNode(true))
		}
	case ServiceAskTimed, ServiceAnswer:
		if c.Call != "" {
			m.add("call", str(c.Call))
		}
	}
	if c.Timeout != nil {
		m.add("timeout", word(c.Timeout.String()))
	}
	if c.Aborted {
		m.add("aborted", boolNode(true))
	}
	return m.n
}
