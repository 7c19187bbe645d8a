package harness

import (
	"github.com/twosettle/twosettle/scenarios"
	"github.com/twosettle/twosettle/sim"
)

func init() { registerCompiler(scenarios.ActorNet, compileNet) }

// compileNet compiles a net step: a network action of the simulator.
func compileNet(p *Plan, i int, st *scenarios.Step, session string, out *sim.Step) string {
	out.Net = &sim.NetAction{Kind: st.Net.Kind, Client: st.Net.Client, DurationMs: span(st.Net.For + st.Net.By)}
	return ""
}
