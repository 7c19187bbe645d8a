package explore

import "slices"

// situationNeeds are the protocol features a campaign needs to reach each situation
// (GenOptions): the situation is reachable when every feature of one of its alternatives is
// on. A situation not listed needs none. Introspection is needed to see a situation the
// scanner reads from wait-notes or a host's volatile state. The table is derived, not
// guessed: TestSituationNeeds (explore) runs campaigns with each generator feature off
// (and the pairs that matter), and TestFuzzWriteThroughHost and TestFuzzNoFeaturesHost
// (conform) run hosts without introspection; each checks that a situation listed here is
// never reached without its features, and that one reached often with every option on is
// still reached without a feature it does not list.
var situationNeeds = map[int][][]string{
	sitReleasedAfterDeadline:   {{GenIntrospection}},
	sitClaimAfterDeadline:      {{GenIntrospection}},
	sitTwoClaims:               {{GenIntrospection}},
	sitHostExpiry:              {{GenIntrospection}},
	sitExpiryRace:              {{GenIntrospection}},
	sitNoProviderHeld:          {{GenIntrospection}},
	sitWaitClosedByAbort:       {{GenIntrospection}},
	sitProbeQueuedReply:        {{GenIntrospection}},
	sitRestartDuringClaim:      {{GenRestart, GenIntrospection}},
	sitRestartQueuedReply:      {{GenRestart}},
	sitReplySurvivesRestart:    {{GenRestart}},
	sitRestartLosesUnpersisted: {{GenRestart}},
	sitPTCBeforeDispatch:       {{GenPTC, GenRestart}},
	sitPTCAfterDispatch:        {{GenPTC, GenRestart}},
	sitPTCPending:              {{GenPTC}},
	// restart repair records TOOL_OUTCOME_UNKNOWN (AGENT-3), a fork's repair of a call its
	// inherited prefix left open does, or a result appended by hand carries it
	sitToolOutcomeUnknown:     {{GenRestart}, {GenFork}, {GenAppendEvent}},
	sitCallerNotLive:          {{GenDirect}},
	sitCrashBeforePTCDispatch: {{GenPTC, GenRestart, GenCrashCut}},
	sitCrashAfterPTCDispatch:  {{GenPTC, GenRestart, GenCrashCut}},
	sitCrashBeforeAnswerAck:   {{GenRestart, GenCrashCut}},
	sitCrashAfterAnswerAck:    {{GenRestart, GenCrashCut}},
	sitCrashBetweenClaimAdmit: {{GenRestart, GenCrashCut}},
	sitCrashInsideWriteWindow: {{GenRestart, GenCrashCut}},
	sitCrashAfterEffect:       {{GenRestart, GenCrashCut}},
	sitForkContinued:          {{GenFork}},
	sitForkAsks:               {{GenFork, GenIntrospection}},
	sitForkParentCallRefused:  {{GenFork, GenDirect}},
	sitLateWriteFault:         {{GenInboxFaults}},
	sitWriteFaultReanswered:   {{GenInboxFaults}},
	sitSteeredReplyAdmitted:   {{GenSource}},
	sitBadBatchWhileQueued:    {{GenDirect}},
	sitDuplicateAskTimed:      {{GenDirect}},
	sitBadTimeoutNotLive:      {{GenDirect}},
	sitBadIntent:              {{GenDirect}},
	sitAbortedAsk:             {{GenDirect}},
	sitAppendedByHand:         {{GenAppendEvent}},
	sitAppendedResult:         {{GenAppendEvent}},
	sitClaimReplied:           {{GenAppendEvent, GenDirect}},
	sitTurnEndBeforeAdmission: {{GenAppendEvent, GenDirect}},
}

// SituationNeed is a situation the generator's options cannot reach and the features it
// lacks for it (one alternative's missing features each, sorted, deduplicated).
type SituationNeed struct {
	Situation
	Lacks []string
}

// cannotReach reports whether o rules situation i out (each of its alternatives needs a
// feature the host lacks), and the features that rule it out.
func (o GenOptions) cannotReach(i int) ([]string, bool) {
	var lacks []string
	for _, alt := range situationNeeds[i] {
		open := true
		for _, f := range alt {
			if slices.Contains(o.Lacks, f) {
				open = false
				if !slices.Contains(lacks, f) {
					lacks = append(lacks, f)
				}
			}
		}
		if open {
			return nil, false
		}
	}
	if lacks == nil {
		return nil, false // no alternatives: it needs no feature
	}
	slices.Sort(lacks)
	return lacks, true
}

// CannotReach lists, in report order, the situations o cannot reach because the host
// lacks a feature, with the features.
func (o GenOptions) CannotReach() []SituationNeed {
	var out []SituationNeed
	for i := range situationList {
		if lacks, ok := o.cannotReach(i); ok {
			out = append(out, SituationNeed{Situation: situationList[i], Lacks: lacks})
		}
	}
	return out
}

// Reachable is how many situations o can reach (every one with every option on).
func (o GenOptions) Reachable() int { return numSituations - len(o.CannotReach()) }
