package oracle

// Requirement ids no invariant of the catalogue checks, each with why, and what covers it
// instead: "scenario NAME" (a library scenario's expectations) or "test FILE" (unit tests
// in FILE whose names start with the id). Two kinds:
//   - Untraceable: no trace can show a violation (a property of the source, a typed
//     value, an accepted limitation that allows both outcomes, a per-actor store);
//   - Gap: a trace could show it but no invariant checks it yet (issue 12 follow-up);
//     `simrun coverage` lists them so that they are not mistaken for guarded ids.
//
// harness/coverage_test.go checks that every requirement id is guarded or listed here,
// never both, and that every named scenario and test file exists and names the id.

// Exemption kinds.
const (
	Untraceable = "untraceable"
	Gap         = "gap"
)

// Exemption is one requirement id the oracle does not guard.
type Exemption struct {
	ID        string
	Kind      string // Untraceable or Gap
	Reason    string
	CoveredBy []string // "scenario NAME" or "test FILE"
}

var unguarded = []Exemption{
	{"GW-2", Untraceable, "a property of the gateway's source (no question timer, no branch on question event names), not of any run; imports_test.go's GW-2 rules check it on the module's code", []string{"test imports_test.go", "test engine/gateway/gateway_test.go"}},
	{"GW-4", Untraceable, "an absence in the protocol: the wire vocabulary has no delivery acknowledgement frame a host could send", []string{"test engine/gateway/gateway_test.go", "scenario gw-blocking-request-has-no-timer"}},
	{"GW-8", Untraceable, "the reply envelope is a typed value (wire.Envelope) whose codec admits only {ok, value} and {ok:false, error:{code, message}}: no trace can carry another shape", []string{"test engine/wire/json_test.go", "test engine/host/host_test.go", "scenario gw-remote-call-resumes-the-session"}},
	{"LATE-8", Untraceable, "the session is resolved (and its root resumed) in the same host Apply as answer(): the trace shows the resume, not which of the two did it", []string{"test engine/host/host_test.go", "scenario gw-remote-call-resumes-the-session"}},
	{"CLAIM-8", Untraceable, "an accepted limitation that allows both outcomes (pending or a rejected foreground question): nothing a trace shows can violate it", []string{"test engine/client/claim_test.go", "scenario claim-stream-failure-rejects-the-question"}},
	{"CD-10", Untraceable, "an accepted limitation: a client clock change moves local expiry and latency delays the start; INV-CLIENT-EXPIRY already allows exactly that", []string{"test engine/client/countdown_test.go", "scenario cd-clock-jump-moves-local-expiry"}},
	{"DRAFT-1", Untraceable, "each client actor owns its store: a trace has no channel through which drafts could be shared between clients", []string{"test engine/client/draft_test.go", "scenario cd-edit-freezes-and-survives-reload"}},
}

// Unguarded returns the requirement ids no invariant guards, with why and what covers
// them instead.
func Unguarded() []Exemption {
	out := make([]Exemption, len(unguarded))
	for i, e := range unguarded {
		e.CoveredBy = append([]string(nil), e.CoveredBy...)
		out[i] = e
	}
	return out
}
