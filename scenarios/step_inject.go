package scenarios

import (
	"strings"

	"go.yaml.in/yaml/v3"
)

// ActorInject is the step key of the inject actor.
const ActorInject = "inject"

// injectStep is a client's outcome for a delivery (or a claim stream it opens), sent as
// another client implementation would: the protocol level, below the reference client
// (harness/step_inject.go compiles it).
var injectStep = &stepKind{
	name: ActorInject,
	key:  key{ActorInject, "#inject", false, "A client's outcome for a delivery, sent as another client implementation would (protocol level)."},
	defs: []*object{injectObject},
	is:   func(st *Step) bool { return st.Inject != nil },
	decode: func(d *dec, st *Step, _ string, n *yaml.Node) bool {
		x, ok := d.inject(n)
		st.Inject = x
		return ok
	},
	validate:  validateInject,
	encode:    func(st *Step) *yaml.Node { return injectNode(st.Inject) },
	refusable: func(*Step) bool { return true },
}

// Inject is one $events/result a client sends for a delivery: next, an answer batch, or a
// rejection "Name: message" / "Name/CODE: message"; or a claim stream it opens (Attach).
type Inject struct {
	Client   string
	Gen      int // the connection generation (0: 1)
	Event    string
	Next     bool
	Answers  []AnswerItem
	HasAns   bool
	Rejected string
	// Attach, instead of an outcome: the client opens a claim stream (attach-wait) for
	// this call in generation Gen, with no event (a claim from a generation that is gone
	// is already aborted when it attaches).
	Attach string
}

var injectObject = &object{Name: "inject", Doc: "An $events/result a client sends for a delivery: next, an answer, or a rejection; or a claim stream it opens.", Keys: []key{
	{"client", "ident", true, "The client that sends it."},
	{"event", "ident", false, "The delivery's event id (e1, e2, ... in creation order); required except with attach."},
	{"gen", "uint", false, "The client's connection generation (default 1)."},
	{"next", "true", false, "Pass the request on."},
	{"answer", "#answers", false, "Answer with this batch."},
	{"rejected", "text", false, "Reject with this error: Name: message, or Name/CODE: message."},
	{"attach", "ident", false, "Instead of an outcome: open a claim stream (attach-wait) for this call id in generation gen."},
}}

func (d *dec) inject(n *yaml.Node) (*Inject, bool) {
	f, ok := d.fields(n, injectObject, "the injected outcome")
	if f == nil {
		return nil, false
	}
	x := &Inject{}
	var k bool
	if v := f["client"]; v != nil {
		x.Client, k = d.ident(v, "client")
		ok = ok && k
	}
	if v := f["event"]; v != nil {
		x.Event, k = d.ident(v, "event")
		ok = ok && k
	}
	if v := f["gen"]; v != nil {
		var g int64
		g, k = d.uinteger(v, "gen")
		x.Gen = int(g)
		ok = ok && k
	}
	if v := f["next"]; v != nil {
		x.Next = d.isTrue(v, "next")
		ok = ok && x.Next
	}
	if v := f["answer"]; v != nil {
		x.Answers, k = d.answers(v)
		x.HasAns = true
		ok = ok && k
	}
	if v := f["rejected"]; v != nil {
		x.Rejected, k = d.text(v, "rejected")
		ok = ok && k
	}
	if v := f["attach"]; v != nil {
		x.Attach, k = d.ident(v, "attach")
		ok = ok && k
	}
	return x, ok
}

// ParseRejection reads "Name: message" or "Name/CODE: message".
func ParseRejection(s string) (name, code, message string, ok bool) {
	head, msg, found := strings.Cut(s, ": ")
	if !found || head == "" || strings.ContainsAny(head, " ") {
		return "", "", "", false
	}
	name, code, _ = strings.Cut(head, "/")
	return name, code, msg, name != ""
}

func validateInject(v *validator, st *Step) {
	x := st.Inject
	v.client(st.Pos, x.Client)
	n := 0
	for _, set := range []bool{x.Next, x.HasAns, x.Rejected != "", x.Attach != ""} {
		if set {
			n++
		}
	}
	if n != 1 {
		v.fail(st.Pos, "write one of next: true, answer: {...}, rejected: \"Name/CODE: message\" or attach: CALL", "an injected step is one of next, answer, rejected or attach")
	}
	if x.Rejected != "" {
		if _, _, _, ok := ParseRejection(x.Rejected); !ok {
			v.fail(st.Pos, "write Name: message, or Name/CODE: message, like UserQuestionError/ASK_TIMED_OUT: too late", "rejected %q is not an error", x.Rejected)
		}
	}
	switch {
	case x.Attach != "" && x.Event != "":
		v.fail(st.Pos, "leave event: out: a claim stream names its call, not a delivery", "attach takes no event:")
	case x.Attach == "" && x.Event == "":
		v.fail(st.Pos, "name the delivery's event id, like e1", "an injected outcome needs event:")
	}
}

func injectNode(x *Inject) *yaml.Node {
	m := flow().add("client", str(x.Client))
	if x.Event != "" {
		m.add("event", str(x.Event))
	}
	if x.Gen != 0 {
		m.add("gen", intNode(int64(x.Gen)))
	}
	switch {
	case x.Attach != "":
		m.add("attach", str(x.Attach))
	case x.Next:
		m.add("next", boolNode(true))
	case x.HasAns:
		m.add("answer", answersNode(x.Answers))
	default:
		m.add("rejected", str(x.Rejected))
	}
	return m.n
}
