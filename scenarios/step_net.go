package scenarios

import "go.yaml.in/yaml/v3"

// netStep is what happens to a client's network link (harness/step_net.go compiles it).
var netStep = &stepKind{
	name:        ActorNet,
	key:         key{ActorNet, "#net", false, "What happens to a client's network link."},
	hinted:      true,
	sessionless: true,
	defs:        netObjects,
	verbs:       netObjects,
	choice:      "What happens to a client's link.",
	is:          func(st *Step) bool { return st.Net != nil },
	decode: func(d *dec, st *Step, _ string, n *yaml.Node) bool {
		a, ok := d.net(n)
		st.Net = a
		return ok
	},
	validate: validateNet,
	encode:   func(st *Step) *yaml.Node { return netNode(st.Net) },
}

func validateNet(v *validator, st *Step) {
	v.client(st.Pos, st.Net.Client)
	switch st.Net.Kind {
	case NetDisconnect, NetReconnect, NetLose:
	case NetPartition:
		if st.Net.For <= 0 {
			v.fail(st.Pos, "write for: 2s", "a partition needs a positive for:")
		}
	case NetDelay:
		if st.Net.By <= 0 {
			v.fail(st.Pos, "write by: 500ms", "a delay needs a positive by:")
		}
	default:
		v.fail(st.Pos, "", "unknown net action %q", st.Net.Kind)
	}
}
