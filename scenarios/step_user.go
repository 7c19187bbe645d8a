package scenarios

import (
	"github.com/twosettle/twosettle/engine/session"

	"go.yaml.in/yaml/v3"
)

// userStep is what a client's user (or its browser) does; the step's key is the
// client's name (harness/step_user.go compiles it).
var userStep = &stepKind{
	name:     "user",
	byClient: true,
	defs:     userObjects,
	words:    append(append([]string(nil), userCardVerbs...), userWords...),
	verbs:    userObjects,
	choice:   "What a client's user (or browser) does.",
	is:       func(st *Step) bool { return st.User != nil },
	decode: func(d *dec, st *Step, client string, n *yaml.Node) bool {
		u, ok := d.user(n)
		st.Client, st.User = client, u
		return ok
	},
	validate: func(v *validator, st *Step) {
		v.client(st.Pos, st.Client)
		v.user(st.Pos, st.User)
		if st.User.Kind == UserInput {
			if u, ok := inputUpdate(st.User.Input); ok && u.Session != "" {
				v.sessions[u.Session] = true
			}
		}
	},
	encode: func(st *Step) *yaml.Node { return userNode(st.User) },
	refusable: func(st *Step) bool {
		switch st.User.Kind {
		case UserReload, UserCrash, UserClock, UserDrift:
			return false
		}
		return true
	},
	calls: func(st *Step, _ string, add func(string)) {
		if st.User.Kind != UserInput {
			return
		}
		if u, ok := inputUpdate(st.User.Input); ok {
			for _, e := range u.Events {
				if c, ok := e.Data.(session.ToolCall); ok && c.CallID != "" {
					add(c.CallID)
				}
			}
		}
		if id := inputWaitCall(st.User.Input); id != "" {
			add(id)
		}
	},
}
