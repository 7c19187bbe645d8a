package harness

import (
	"github.com/twosettle/twosettle/engine/wire"
	"github.com/twosettle/twosettle/scenarios"
	"github.com/twosettle/twosettle/sim"
)

func init() { registerCompiler(scenarios.ActorUser, compileUser) }

// compileUser compiles a user step: a wire.UserAction for the client, a client input delivered as it is, or a fault of the client as a whole (reload, crash, clock, drift).
func compileUser(p *Plan, i int, st *scenarios.Step, session string, out *sim.Step) string {
	u := st.User
	out.Client = st.Client
	switch u.Kind {
	case scenarios.UserReload:
		out.Fault = &sim.Fault{Kind: sim.FaultReload, Client: st.Client}
		out.Client = ""
	case scenarios.UserCrash:
		out.Fault = &sim.Fault{Kind: sim.FaultClientCrash, Client: st.Client}
		out.Client = ""
	case scenarios.UserClock:
		out.Fault = &sim.Fault{Kind: sim.FaultClockJump, Client: st.Client, ByMs: span(u.By)}
		out.Client = ""
	case scenarios.UserDrift:
		out.Fault = &sim.Fault{Kind: sim.FaultClockDrift, Client: st.Client, PPM: u.PPM}
		out.Client = ""
	case scenarios.UserInput:
		in, err := wire.DecodeClientInput([]byte(u.Input)) // the decoder checked it
		if err != nil {
			panic("harness: an input step the decoder let through: " + err.Error())
		}
		out.Input = in
		return in.String()
	default:
		a := wire.UserAction{Kind: u.Kind, Session: st.Session, Card: u.Card, Question: u.Question, Label: u.Label, Text: u.Text}
		out.User = &a
		return wire.User{Action: a}.String()
	}
	return ""
}
