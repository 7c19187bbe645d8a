package scenarios

import "go.yaml.in/yaml/v3"

// hostStep is what happens to the host as a whole (harness/step_host.go compiles it).
var hostStep = &stepKind{
	name:        ActorHost,
	key:         key{ActorHost, "#host", false, "What happens to the host: restart, a crash, a Session opened or closed, a storage fault, a stall, an event or a claim written by hand."},
	hinted:      true,
	sessionless: true,
	defs:        hostObjects,
	words:       hostWords,
	verbs:       hostObjects,
	choice:      "What happens to the host.",
	is:          func(st *Step) bool { return st.Host != nil },
	decode: func(d *dec, st *Step, _ string, n *yaml.Node) bool {
		h, ok := d.host(n)
		st.Host = h
		return ok
	},
	validate: func(v *validator, st *Step) { v.host(st.Pos, st.Host) },
	encode:   func(st *Step) *yaml.Node { return hostNode(st.Host) },
	refusable: func(st *Step) bool {
		return st.Host.Kind != HostCrash && st.Host.Kind != HostFailInboxWrite && st.Host.Kind != HostStall
	},
}
