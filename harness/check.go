package harness

import (
	"github.com/twosettle/twosettle/scenarios"
	"github.com/twosettle/twosettle/trace"
)

// CheckOptions configure CheckExpectations.
type CheckOptions struct {
	// Verdict is the oracle's verdict on the run, if one ran (oracle: expectations need it).
	Verdict *Verdict
	// AnyRefusalText accepts a refusal whatever its words where a step says refused:
	// (another host's or client's refusals are its own words, docs/PROTOCOL.md).
	AnyRefusalText bool
	// AnyHintText accepts a card's hint whatever its words (Options.AnyHintText).
	AnyHintText bool
}

// Checked is what CheckExpectations found.
type Checked struct {
	// Failures are the expectations (and refused: steps) that do not hold, each at its
	// file:line:col, in scenario order.
	Failures []Failure
	// Expectations counts the expectations and refused: steps checked.
	Expectations int
	// Impossible is set when the run refused a step that does not say refused: (the
	// scenario asked for something impossible at that point, at the step's line); the
	// expectations are then not checked.
	Impossible error
}

// OK reports whether every expectation held and no step was refused unexpectedly.
func (c Checked) OK() bool { return c.Impossible == nil && len(c.Failures) == 0 }

// CheckExpectations checks the expectations (expect:) and the refused: steps of scenario s
// against the trace of one run of s, whatever host and clients produced it: the
// reference engine in-process (Run does the same checks), a host over the protocol, or
// a run recorded elsewhere and read back with ReadRunFile.
//
// What the trace must hold, as the simulator writes it (package trace): every record in
// order; for each expectation at a time T, a probe record labelled ProbeLabel(T) with
// the host's and the clients' states after every step at T (the records before it are
// what a record:, result: or reply: expectation at T sees); the final state in
// tr.Final for expectations at end. A refusal is matched with its step by time, actor
// and the input's canonical text (Plan.Refusals). A state without a client (a run file
// without client states) fails that client's expectations, never passes them.
func CheckExpectations(s *scenarios.Scenario, tr *trace.Trace, opts CheckOptions) Checked {
	plan := Compile(s, tr.Seed)
	r := &Result{Scenario: s, Seed: plan.Seed, Trace: tr, Verdict: opts.Verdict}
	if err := r.checkRefusals(s, plan, opts.AnyRefusalText); err != nil {
		return Checked{Failures: r.Failures, Expectations: r.Expectations, Impossible: err}
	}
	r.anyHintText = opts.AnyHintText
	r.checkExpectations(s, plan)
	return Checked{Failures: r.Failures, Expectations: r.Expectations}
}
