package tracemodel

import "github.com/twosettle/twosettle/engine/wire"

// State is a question call's state at a moment, as its log events and the projection
// views the host published show it.
type State uint8

// Call states.
const (
	Open      State = iota + 1 // asked, no result yet
	Continued                  // its result was pending; the question stays answerable
	Settled                    // answered (in time, late and admitted, or by a view)
	Removed                    // a view no longer holds it
	Ended                      // a call no view tracks whose result was an error
)

var stateNames = [...]string{Open: "open", Continued: "continued", Settled: "settled", Removed: "removed", Ended: "ended"}

func (s State) String() string {
	if int(s) < len(stateNames) && stateNames[s] != "" {
		return stateNames[s]
	}
	return ""
}

// Phase is one state of a call from an instant on; Rec is the record that showed it
// (len(Records): the final state).
type Phase struct {
	State State
	At    int64
	Rec   int
}

// MarkKind is one kind of instant on a call's life.
type MarkKind uint8

// Mark kinds.
const (
	Deadline MarkKind = iota + 1 // its wait was created with this deadline (At)
	Timer                        // the host armed its timer for At (not at the deadline)
	Answer                       // an answer for it reached the host
	Expired                      // its wait expired unattended
	Closed                       // its wait closed (Reason)
)

// Mark is one instant on a call's life: At is when it falls (the deadline's instant for
// Deadline and Timer, the record's time otherwise), Rec the record that showed it.
type Mark struct {
	Kind MarkKind
	At   int64
	Rec  int
	// Answer: the client that answered (its waterfall result or answer RPC), or "" for
	// the direct service answer() Direct names.
	Client string
	Direct string
	Reason string // Closed: the wait's close reason
}

// CallKind is how a question call was asked.
type CallKind uint8

// Call kinds.
const (
	Unasked CallKind = iota // known only from a view, a wait, a request or a claim
	Tool                    // a tool/call of ask_user_question
	SubCall                 // a run_code sub-call of ask_user_question (PTC)
	Service                 // a direct service ask (ask, askTimed)
)

// Call is one question call (Session, call id): a tool call or run_code sub-call of
// ask_user_question, a direct service ask, or a call id a wait, request, claim or view
// names. Calls are listed in the order the trace first shows them.
type Call struct {
	Session, ID string
	Kind        CallKind
	At          int64 // first seen
	Rec         int
	// InView: some projection view the host published (a SessionUpdate frame, a probe,
	// the final state) tracks it; then its lifecycle is the views', and a failed result
	// does not end it.
	InView bool
	Phases []Phase
	Marks  []Mark
	Claims []*Stream // the attachWait claim streams the host opened on it
	// Results are its tool results (or sub-call dispatch results, or direct results), in
	// order.
	Results []Result

	// the question texts' sources (read on demand by Questions): the arguments of its
	// last tool call or sub-call, and the first texts a request, direct ask or view row
	// carried after them
	args    string
	hasArgs bool
	fill    []string
}

// Questions are the call's question texts: those of its last tool call's (or sub-call's)
// arguments when they carry any, else those of the first request, direct ask or view row
// after it that carries some.
func (c *Call) Questions() []string {
	if c.hasArgs {
		if q := argQuestions(c.args); len(q) > 0 {
			return q
		}
	}
	return c.fill
}

// asked records a tool call's (or sub-call's) arguments as the question source.
func (c *Call) asked(args string) { c.args, c.hasArgs, c.fill = args, true, nil }

// carries offers texts from a request, a direct ask or a view row: they count when no
// source since the last tool call had any.
func (c *Call) carries(qs []wire.Question) {
	if c.fill != nil || len(qs) == 0 { // (when the arguments carry questions, Questions ignores fill)
		return
	}
	c.fill = questionTexts(qs)
}

// Key is "SESSION/CALL".
func (c *Call) Key() string { return c.Session + "/" + c.ID }

// State is the call's latest state (0 before any).
func (c *Call) State() State {
	if len(c.Phases) == 0 {
		return 0
	}
	return c.Phases[len(c.Phases)-1].State
}

// HasMark reports whether the call has a mark of kind at t.
func (c *Call) HasMark(kind MarkKind, t int64) bool {
	for _, m := range c.Marks {
		if m.Kind == kind && m.At == t {
			return true
		}
	}
	return false
}

// set enters state at record rec (one record, one state).
func (c *Call) set(state State, t int64, rec int) {
	if c.State() == state {
		return
	}
	if n := len(c.Phases); n > 0 && c.Phases[n-1].At == t && c.Phases[n-1].Rec == rec {
		c.Phases[n-1].State = state
		return
	}
	c.Phases = append(c.Phases, Phase{state, t, rec})
}
