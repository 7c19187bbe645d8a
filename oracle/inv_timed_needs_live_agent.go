package oracle

import (
	"strings"

	"github.com/twosettle/twosettle/engine/wire"
)

// INV-TIMED-NEEDS-LIVE-AGENT (TOOL-6): the timed path needs a live agent; without one the
// call fails, and only without one does it fail for that reason.
//
// The model: which Session has a live agent, from what the trace shows the host doing
// with its agents (docs/PEER-RUNTIME.md §4.1, §3.2):
//   - an accepted OpenSession (a root, an owned child or a fork) enters the Session's
//     agent;
//   - a turn/start the host appends enters it too: a turn runs only on a live agent (a
//     resumed root, GW-8, or one a prompt resumed);
//   - an accepted Direct command for the live agent shows one (the host refuses the
//     command when the Session has none);
//   - an accepted CloseSession disposes the Session's agent and the live agents it owns;
//   - a restart disposes every agent (the registry is volatile).
//
// The checks:
//   - a tool call or run_code sub-call made while its Session's agent is live never fails
//     with "timed questions require a live agent" (docs/PEER.md §10): the host must hand
//     the call's agent to the tool;
//   - one made while its Session has no live agent never takes the timed path to its end
//     (a pending result);
//   - a direct askTimed with no agent, or with a stale instance, fails with an error and
//     never returns a value (pending or answers): the service's liveness check refuses it
//     (CALLER_NOT_LIVE) before any wait exists.

// msgTimedNeedsAgent is the tool's failure for the timed path without an agent
// (docs/PEER.md §2.3 step 4, §10).
const msgTimedNeedsAgent = "timed questions require a live agent"

// agentRuns records that Session id's agent is live (it runs a turn).
func (c *Checker) agentRuns(id string) { c.liveAgents[id] = true }

// agentsAtCommand updates the live-agent model for an accepted host command.
func (c *Checker) agentsAtCommand(cmd wire.Command) {
	switch x := cmd.(type) {
	case wire.OpenSession:
		c.liveAgents[x.Session] = true
	case wire.CloseSession:
		// Close disposes the agents the closed one owns first (docs/PEER-RUNTIME.md §4.1)
		for _, s := range c.sessOrder {
			if s.owner == x.Session && s.childLive {
				delete(c.liveAgents, s.id)
				c.orphanWaits(s.id)
			}
		}
		delete(c.liveAgents, x.Session)
		c.orphanWaits(x.Session)
	case wire.Direct:
		if x.Agent == wire.AgentLive {
			c.liveAgents[x.Session] = true
		}
	}
}

// timedNeedsLiveAgent judges a tool call's or sub-call's first settlement.
func (c *Checker) timedNeedsLiveAgent(fg *foreground, r fgResult, rec int) {
	if !c.on(invTimedNeedsLiveAgent) || fg.kind == fgDirect {
		return
	}
	name := fg.key.session + "/" + fg.key.callID
	switch {
	case fg.liveAgent && r.kind == resError && strings.TrimPrefix(r.text, "Error: ") == msgTimedNeedsAgent:
		c.fail(invTimedNeedsLiveAgent, rec, name+": the call failed \""+msgTimedNeedsAgent+"\" while its Session's agent was live", fg.startRec)
	case !fg.liveAgent && r.kind == resPending:
		c.fail(invTimedNeedsLiveAgent, rec, name+": the call returned pending, but its Session had no live agent when it was made", fg.startRec)
	}
}

// timedNeedsLiveAgentDirect judges a direct askTimed made with no agent or a stale one.
func (c *Checker) timedNeedsLiveAgentDirect(i int, d *directOp, x wire.DirectResult) {
	if !c.on(invTimedNeedsLiveAgent) || d.op != wire.OpAskTimed || d.agent == wire.AgentLive {
		return
	}
	if x.Err == nil {
		c.fail(invTimedNeedsLiveAgent, i, "direct askTimed "+x.ID+" with agent "+d.agent+" returned "+clip(string(x.Value))+
			": the timed path needs a live agent", d.rec)
	}
}
