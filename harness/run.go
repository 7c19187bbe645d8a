package harness

import (
	"bytes"
	"io"
	"strconv"
	"strings"

	"github.com/twosettle/twosettle/engine/wire"
	"github.com/twosettle/twosettle/golden"
	"github.com/twosettle/twosettle/oracle"
	"github.com/twosettle/twosettle/scenarios"
	"github.com/twosettle/twosettle/sim"
	"github.com/twosettle/twosettle/trace"
)

// Verdict is an oracle's answer for one run: its canonical text (the transcript's last
// lines) and its status.
type Verdict struct {
	Text   string
	Status string // ok, violation or unknown
}

// Oracle checks a trace. The harness appends its verdict to the transcript; a violation
// fails the run unless the scenario expects it (an oracle expectation).
type Oracle func(tr *trace.Trace, s *scenarios.Scenario) Verdict

// ReferenceOracle is the invariant catalogue of package oracle.
func ReferenceOracle(tr *trace.Trace, s *scenarios.Scenario) Verdict {
	v := oracle.Check(tr, OracleOptions(s))
	return Verdict{Text: v.String(), Status: v.Status.String()}
}

// Options configure a run.
type Options struct {
	// Seed overrides the scenario's seed (0: the scenario's own). A golden is only
	// compared at the scenario's own seed.
	Seed uint64
	// Oracle checks the trace; nil runs none (the transcript then has no verdict).
	Oracle Oracle
	// Mutant switches on a named bug of the reference engine (engine/mutant): the host and
	// every client get it, and each acts on its own side's mutants. With Host set, only
	// the clients get it.
	Mutant string
	// Host builds the host the scenario runs against; nil is ReferenceHost(Mutant).
	Host HostFactory
	// Client builds each client the scenario runs with; nil is ReferenceClient(Mutant).
	Client ClientFactory
	// AnyHintText accepts a card's hint whatever its words where an expectation says
	// hint: (a client's hints are its UI's own wording, docs/PROTOCOL.md "Clients"): the
	// card must show one.
	AnyHintText bool
	// AnyRefusalText accepts a refusal whatever its words where a step says refused:
	// (another host's refusals are its own words, docs/PROTOCOL.md).
	AnyRefusalText bool
	// Unjudged says why an expectation is not judged on this run ("" judges it): conform
	// leaves out what a host need not show (its volatile state without introspection,
	// the reference runtime's own bookkeeping). Each one left out is in Result.NotJudged.
	Unjudged func(e *scenarios.Expectation) string
	// StreamTranscript leaves Result.Transcript nil after a run with a trace: the
	// transcript is rendered only when something needs its bytes (a golden to compare or
	// update), and Result.WriteTranscript streams it. A transcript can be far larger than
	// its trace (every record showing every open card): simrun run sets it.
	StreamTranscript bool
}

// DefaultOptions runs the reference oracle.
func DefaultOptions() Options { return Options{Oracle: ReferenceOracle} }

// Status is the outcome of one scenario run.
type Status int

const (
	Passed  Status = iota
	Failed         // an expectation, the golden or the oracle failed
	Invalid        // the scenario is invalid or impossible (exit 2)
)

func (s Status) String() string {
	switch s {
	case Passed:
		return "ok"
	case Failed:
		return "FAIL"
	}
	return "INVALID"
}

// Failure is one failed check, at the position of what it checks.
type Failure struct {
	Pos scenarios.Pos
	Msg string
}

func (f Failure) String() string {
	if p := f.Pos.String(); p != "" {
		return p + ": " + f.Msg
	}
	return f.Msg
}

// Result is everything one run produced.
type Result struct {
	Entry    Entry
	Scenario *scenarios.Scenario
	Seed     uint64
	Trace    *trace.Trace
	// Transcript is the rendered transcript (what a golden holds).
	Transcript []byte
	// Verdict is the oracle's, if one ran.
	Verdict *Verdict
	// Invalid is why the scenario could not run (decoding, an impossible step, a
	// configuration the simulator refuses).
	Invalid error
	// Failures are the checks that failed: expectations, refusals, the oracle.
	Failures []Failure
	// Expectations counts the expectations checked.
	Expectations int
	// Golden is what happened to the golden comparison.
	Golden GoldenOutcome
	// HostConfigErr is the host's refusal of its configuration, if it refused it.
	HostConfigErr error
	// Lost is set when the host was lost during the run (an external host that crashed,
	// hung or broke the protocol): the run is broken, not a verdict.
	Lost *wire.PortLost
	// NotJudged are the expectations Options.Unjudged left out, "file:line:col: kind
	// subject: why" each.
	NotJudged []string
	// anyHintText: hint: expectations accept any hint (Options.AnyHintText).
	anyHintText bool
	// unjudged is Options.Unjudged.
	unjudged func(e *scenarios.Expectation) string
	// stream writes the transcript not rendered into Transcript (Options.StreamTranscript).
	stream func(io.Writer) error
}

// WriteTranscript writes the run's transcript to w (nothing when it has none), streamed
// when it was not rendered (Options.StreamTranscript).
func (r *Result) WriteTranscript(w io.Writer) error {
	if r.Transcript == nil && r.stream != nil {
		return r.stream(w)
	}
	_, err := w.Write(r.Transcript)
	return err
}

// transcriptBytes is the transcript, rendered now if it was streamed.
func (r *Result) transcriptBytes() []byte {
	if r.Transcript == nil && r.stream != nil {
		var b bytes.Buffer
		r.stream(&b)
		r.Transcript = b.Bytes()
	}
	return r.Transcript
}

// Status classifies the result.
func (r *Result) Status() Status {
	switch {
	case r.Invalid != nil:
		return Invalid
	case len(r.Failures) > 0 || r.Golden.Failed():
		return Failed
	}
	return Passed
}

// Name is the scenario's name, or the entry's path when it did not decode.
func (r *Result) Name() string {
	if r.Scenario != nil {
		return r.Scenario.Name
	}
	return r.Entry.Path
}

// RunEntry decodes, compiles and runs one entry, compares its golden (as opts and the entry
// say) and checks its expectations and the oracle.
func RunEntry(e Entry, opts Options) *Result {
	r := &Result{Entry: e}
	s, err := scenarios.Decode(e.Path, e.Data)
	if err != nil {
		r.Invalid = err
		return r
	}
	r.Scenario = s
	RunScenario(r, s, opts)
	if r.Invalid == nil && r.Trace != nil && r.Lost == nil {
		r.Golden = compareGolden(e, r, opts)
	}
	return r
}

// RunScenario runs an already decoded scenario into r (no golden comparison): what a
// generator or shrinker calls with scenarios it made.
func RunScenario(r *Result, s *scenarios.Scenario, opts Options) {
	r.Scenario = s
	if err := CheckEvents(s); err != nil {
		r.Invalid = err
		return
	}
	plan := Compile(s, opts.Seed)
	r.Seed = plan.Seed
	hosts := opts.Host
	if hosts == nil {
		hosts = ReferenceHost(opts.Mutant)
	}
	clients := opts.Client
	if clients == nil {
		clients = ReferenceClient(opts.Mutant)
	}
	tr := &trace.Trace{}
	x := ExecuteWith(plan, hosts, clients, sim.NewRunner(), map[string]wire.ClientPort{}, tr)
	if x.Lost != nil {
		r.Lost = x.Lost
		r.Trace = tr
		what := "the host was lost: "
		if x.LostClient != "" {
			what = "client " + x.LostClient + " was lost: "
		}
		r.Failures = append(r.Failures, Failure{Pos: s.Pos, Msg: what + x.Lost.Err.Error()})
		return
	}
	if err := x.ConfigErr; err != nil {
		r.HostConfigErr = err
		r.Trace = tr // empty: nothing ran
		t := golden.Transcript{Scenario: s.Name, Seed: plan.Seed, Final: []string{"final t=0", "host refused its configuration: " + err.Error()}}
		r.checkHostConfigOnly(s)
		r.addComments(&t)
		r.Transcript = t.Render()
		return
	}
	if ce := x.Refused; ce != nil {
		if ce.Step >= 0 && ce.Step < len(plan.Origin) && plan.Origin[ce.Step] >= 0 {
			st := s.Steps[plan.Origin[ce.Step]]
			r.Invalid = scenarios.Errors{{Pos: st.Pos, Msg: "the simulator cannot run this step: " + ce.Msg, Hint: "check the step against the format reference (scenarios/FORMAT.md)"}}
			return
		}
		r.Invalid = scenarios.Errors{{Pos: s.Pos, Msg: "the simulator cannot run this scenario: " + x.SimErr.Error()}}
		return
	}
	if err := x.SimErr; err != nil {
		r.Failures = append(r.Failures, Failure{Pos: s.Pos, Msg: "the run failed: " + err.Error()})
	}
	r.Trace = tr
	if err := r.checkRefusals(s, plan, opts.AnyRefusalText); err != nil {
		r.Invalid = err
		return
	}
	if opts.Oracle != nil {
		v := opts.Oracle(tr, s)
		r.Verdict = &v
	}
	r.anyHintText, r.unjudged = opts.AnyHintText, opts.Unjudged
	r.checkExpectations(s, plan)
	verdict := ""
	if r.Verdict != nil {
		verdict = r.Verdict.Text
	}
	if opts.StreamTranscript {
		var c golden.Transcript
		r.addComments(&c) // as they are now: later failures (a golden's) are not in a transcript
		name, comments := s.Name, c.Comments
		r.stream = func(w io.Writer) error { return golden.WriteTrace(w, name, tr, verdict, comments) }
		return
	}
	t := golden.FromTrace(s.Name, tr, verdict)
	r.addComments(&t)
	r.Transcript = t.Render()
}

func (r *Result) addComments(t *golden.Transcript) {
	if len(r.Failures) == 0 {
		t.Comments = append(t.Comments, "expectations: "+strconv.Itoa(r.Expectations)+" checked, all hold")
	}
	for _, f := range r.Failures {
		t.Comments = append(t.Comments, "FAILED "+f.String())
	}
}

// checkRefusals traces every Reject record back to its step: an expected refusal is a
// check; an unexpected one means the scenario asked for something impossible at that
// point (invalid input, reported at the step's line).
func (r *Result) checkRefusals(s *scenarios.Scenario, plan *Plan, anyText bool) error {
	refusedBy := map[int]string{} // scenario step -> error
	var bad scenarios.Errors
	for _, rf := range plan.Refusals(r.Trace) {
		if o := plan.Origin[rf.Step]; o >= 0 {
			refusedBy[o] = rf.Err
		} else {
			bad = append(bad, &scenarios.Error{Pos: s.Pos, Msg: "the host refused to open a Session: " + rf.Err})
		}
	}
	for i := range s.Steps {
		st := &s.Steps[i]
		errText, refused := refusedBy[i]
		switch {
		case refused && st.Refused == "":
			bad = append(bad, &scenarios.Error{Pos: st.Pos,
				Msg:  "this step is impossible at " + st.At.String() + ": " + errText,
				Hint: "change the step or its time; if the refusal is what the scenario shows, add refused: with a part of that message"})
		case refused && !anyText && !strings.Contains(errText, st.Refused):
			r.Failures = append(r.Failures, Failure{Pos: st.Pos, Msg: "the step was refused as expected, but with " + strconv.Quote(errText) + ", which does not contain " + strconv.Quote(st.Refused)})
		case !refused && st.Refused != "":
			r.Failures = append(r.Failures, Failure{Pos: st.Pos, Msg: "expected this step to be refused (" + strconv.Quote(st.Refused) + "), but it was taken"})
		}
		if st.Refused != "" {
			r.Expectations++
		}
	}
	if len(bad) > 0 {
		return bad
	}
	return nil
}
