package scenarios

import (
	"encoding/json"

	"go.yaml.in/yaml/v3"
)

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
