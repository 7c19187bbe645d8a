package scenarios

import "go.yaml.in/yaml/v3"

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
