package explore

import (
	"strings"

	"github.com/twosettle/twosettle/engine/session"
	"github.com/twosettle/twosettle/engine/wire"
	"github.com/twosettle/twosettle/scenarios"
	"github.com/twosettle/twosettle/sim"
	"github.com/twosettle/twosettle/trace"
)

// The situations of the steps issue 13 added to the scenario language and the generator
// draws in inputs_steps.go: one more pass over the trace, kept apart from scan so that each
// step's detection is in one place.

// Situation indexes of the scenario language's steps, after the others.
const (
	sitContinueRefused = numCoreSituations + iota
	sitContinueTaken
	sitRowToggled
	sitSessionRebound
	sitForeignSessionUpdate
	sitAppendedByHand
	sitAppendedResult
	sitClaimReplied
	sitTurnEndBeforeAdmission
	sitHostStall
	sitStallExpiresLate
	sitHeldDelivery
	sitInjectedOutcome
	sitInjectedClaim
	sitInjectedClaimRefused
	numSituations
)

var stepSituationList = [numSituations - numCoreSituations]Situation{
	sitContinueRefused - numCoreSituations:        {"guarded-continue-refused", "the guarded Continue was refused while the card's current question was unanswered (CARD-4)"},
	sitContinueTaken - numCoreSituations:          {"guarded-continue-taken", "the guarded Continue advanced or submitted an answered question (CARD-4)"},
	sitRowToggled - numCoreSituations:             {"row-toggled", "a user toggled a tool row's own disclosure (ROW-1)"},
	sitSessionRebound - numCoreSituations:         {"session-unbound-then-bound", "a Session left a client's view and was bound again, which reconciles it at once (CARD-8)"},
	sitForeignSessionUpdate - numCoreSituations:   {"raw-input-foreign-session", "a client took a raw session-update for a Session the host never opened, with the records a real host may send (ROW-1, ROW-2)"},
	sitAppendedByHand - numCoreSituations:         {"event-appended-by-hand", "the host took a Session event written by hand (append-event)"},
	sitAppendedResult - numCoreSituations:         {"result-recorded-by-hand", "a tool result the tool never wrote was appended by hand and folded (PROJ-3, PROJ-4)"},
	sitClaimReplied - numCoreSituations:           {"reply-claimed-by-hand", "the service was told a queued late reply was claimed into a chosen turn (claim-reply, LATE-6)"},
	sitTurnEndBeforeAdmission - numCoreSituations: {"turn-end-between-claim-and-admission", "the turn a late reply was claimed into ended before its admission (LATE-7)"},
	sitHostStall - numCoreSituations:              {"host-stall", "the host's timers were held back by a stall"},
	sitStallExpiresLate - numCoreSituations:       {"stall-expires-wait-late", "a wait expired after its deadline because the host's timers were stalled (WAIT-8)"},
	sitHeldDelivery - numCoreSituations:           {"held-delivery", "an answerer that holds every delivery (hold: true) took a question request (WAIT-1, WAIT-3)"},
	sitInjectedOutcome - numCoreSituations:        {"injected-outcome", "an outcome injected for a holding answerer reached the host (next, an answer or a rejection)"},
	sitInjectedClaim - numCoreSituations:          {"injected-claim", "a claim stream injected for a holding answerer was opened on the host (WAIT-2)"},
	sitInjectedClaimRefused - numCoreSituations:   {"injected-claim-refused", "a claim stream injected from a generation that is gone was refused as it attached (WAIT-4, GW-6)"},
}

func init() { copy(situationList[numCoreSituations:], stepSituationList[:]) }

// scanSteps marks the situations of the scenario language's steps tr reached.
func (x *situations) scanSteps(tr *trace.Trace, s *scenarios.Scenario) {
	hold := map[string]bool{}
	for _, c := range s.Clients {
		if c.Hold {
			hold[c.Name] = true
		}
	}
	hostSessions := map[string]bool{}
	var foreign []string           // Sessions of the session-updates clients took
	unbound := map[string]bool{}   // client/session unbound
	claimed := map[string]uint64{} // session -> turns (mod 64) a reply was claimed into, by hand
	stalled := false
	for i := range tr.Records {
		r := &tr.Records[i]
		switch p := r.Payload.(type) {
		case trace.Rejected:
			if u, ok := p.Input.(wire.User); ok && r.Actor != trace.ActorHost && u.Action.Kind == wire.ActContinue {
				x.set(sitContinueRefused)
			}
			if so, ok := p.Input.(wire.StreamOpen); ok && strings.HasPrefix(so.StreamID, "inject-") {
				x.set(sitInjectedClaimRefused)
			}
		case wire.User:
			if r.Kind != trace.In {
				continue
			}
			key := r.Actor + "/" + p.Action.Session
			switch p.Action.Kind {
			case wire.ActContinue:
				x.set(sitContinueTaken)
			case wire.ActToggleRow:
				x.set(sitRowToggled)
			case wire.ActUnbind:
				unbound[key] = true
			case wire.ActBind:
				if unbound[key] {
					x.set(sitSessionRebound)
				}
				delete(unbound, key)
			}
		case wire.FromHost:
			switch f := p.Frame.(type) {
			case wire.SessionUpdate:
				foreign = append(foreign, f.Session)
			case wire.Waterfall:
				if hold[r.Actor] {
					x.set(sitHeldDelivery)
				}
			}
		case wire.Appended:
			hostSessions[p.Session] = true
			if d, ok := p.Event.Data.(session.ToolResult); ok && stalled && strings.Contains(d.Text, `"pending":true`) && p.Event.Time < r.Time {
				x.set(sitStallExpiresLate)
			}
		case wire.AppendEvent:
			if r.Kind != trace.In {
				continue
			}
			x.set(sitAppendedByHand)
			switch d := p.Event.Data.(type) {
			case session.ToolResult:
				x.set(sitAppendedResult)
			case session.TurnEnd:
				if claimed[p.Session]&(1<<uint(d.Turn%64)) != 0 {
					x.set(sitTurnEndBeforeAdmission)
				}
			}
		case wire.ClaimReply:
			if r.Kind == trace.In {
				x.set(sitClaimReplied)
				claimed[p.Session] |= 1 << uint(p.Turn%64)
			}
		case wire.EventResult:
			if r.Kind == trace.In && strings.HasPrefix(p.RPCID, "inject-") {
				x.set(sitInjectedOutcome)
			}
		case wire.StreamOpen:
			if r.Kind == trace.In && strings.HasPrefix(p.StreamID, "inject-") {
				x.set(sitInjectedClaim)
			}
		case trace.Injected:
			if p.Kind == sim.FaultHostStall {
				x.set(sitHostStall)
				stalled = true
			}
		}
	}
	for _, sess := range foreign {
		if !hostSessions[sess] {
			x.set(sitForeignSessionUpdate)
			break
		}
	}
}
