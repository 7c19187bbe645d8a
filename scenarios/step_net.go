package scenarios

import (
	"go.yaml.in/yaml/v3"
)

// ActorNet is the step key of the net actor.
const ActorNet = "net"

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

// Net action kinds (see sim.Net*).
const (
	NetDisconnect = "disconnect"
	NetReconnect  = "reconnect"
	NetPartition  = "partition"
	NetDelay      = "delay"
	NetLose       = "lose"
)

// NetAction acts on one client's links.
type NetAction struct {
	Kind   string
	Client string
	// For is how long a partition lasts; By how much a delay adds.
	For Duration
	By  Duration
}

// Net actions.
var (
	netDisconnectObject = &object{Name: "net-disconnect", Doc: "Drop the client's link now.", Keys: []key{{"disconnect", "ident", true, "The client."}}}
	netReconnectObject  = &object{Name: "net-reconnect", Doc: "Have the client dial now.", Keys: []key{{"reconnect", "ident", true, "The client."}}}
	netPartitionObject  = &object{Name: "net-partition", Doc: "Cut the client's links for a while: what is in flight is lost.", Keys: []key{
		{"partition", "ident", true, "The client."},
		{"for", "duration", true, "How long."},
	}}
	netDelayObject = &object{Name: "net-delay", Doc: "Delay the client's next HTTP message.", Keys: []key{
		{"delay", "ident", true, "The client."},
		{"by", "duration", true, "How much is added."},
	}}
	netLoseObject = &object{Name: "net-lose", Doc: "Lose the client's next HTTP message (request or reply).", Keys: []key{{"lose", "ident", true, "The client."}}}
	netObjects    = []*object{netDisconnectObject, netReconnectObject, netPartitionObject, netDelayObject, netLoseObject}
)

func (d *dec) net(n *yaml.Node) (*NetAction, bool) {
	o, ok := d.verb(n, netObjects, "the net action")
	if !ok {
		return nil, false
	}
	f, ok := d.fields(n, o, "the net's "+verbOf(o))
	if f == nil {
		return nil, false
	}
	a := &NetAction{Kind: verbOf(o)}
	var k bool
	a.Client, k = d.ident(f[a.Kind], a.Kind)
	ok = ok && k
	if v := f["for"]; v != nil {
		a.For, k = d.duration(v, "for", false)
		ok = ok && k
	}
	if v := f["by"]; v != nil {
		a.By, k = d.duration(v, "by", false)
		ok = ok && k
	}
	return a, ok
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

func netNode(a *NetAction) *yaml.Node {
	m := flow().add(a.Kind, str(a.Client))
	switch a.Kind {
	case NetPartition:
		m.add("for", dur(a.For))
	case NetDelay:
		m.add("by", dur(a.By))
	}
	return m.n
}
