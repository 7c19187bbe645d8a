package agent

import (
	"strings"

	"github.com/twosettle/twosettle/engine/session"
	"github.com/twosettle/twosettle/engine/signal"
)

// Error names and codes of results the runtime itself produces.
const (
	// ToolAborted: a call still running when its agent was disposed (Close).
	ToolAbortedName = "ToolAbortedError"
	ToolAborted     = "TOOL_ABORTED"
	// ToolAbortedBeforeDispatch: a call made while its turn was already aborting; its body
	// never runs (docs/PEER-RUNTIME.md §4.5).
	ToolAbortedBeforeDispatchName = "ToolAbortedError"
	ToolAbortedBeforeDispatch     = "TOOL_ABORTED_BEFORE_DISPATCH"
	// AbortErrorName: a built-in tool (sleep, run_code) stopped by its signal.
	AbortErrorName = "AbortError"
	// TypeErrorName: a built-in tool called with arguments it cannot use.
	TypeErrorName = "TypeError"
)

// Result is a tool call's outcome as the model sees it: one text block (NoText: none) and,
// for a failure, the error {name, code} the result keeps (TOOL-9).
type Result struct {
	IsError bool
	Err     session.ErrorInfo
	Text    string
	NoText  bool
}

// OK is a successful result with text.
func OK(text string) Result { return Result{Text: text} }

// Failed is a failed result with error {name, code} and text.
func Failed(name, code, text string) Result {
	return Result{IsError: true, Err: session.ErrorInfo{Name: name, Code: code}, Text: text}
}

// String is the canonical text: "ok <text>" or "error name/code <text>".
func (r Result) String() string {
	var b strings.Builder
	if r.IsError {
		b.WriteString("error")
	} else {
		b.WriteString("ok")
	}
	if r.Err.Set() {
		b.WriteString(" " + r.Err.String())
	}
	if r.NoText {
		b.WriteString(" (no text)")
	} else {
		b.WriteString(" " + r.Text)
	}
	return b.String()
}

// Runner runs the tools the host plugs in. RunTool is offered every call the runtime does
// not own itself (everything but a top-level run_code), PTC sub-calls included. It returns
// false to decline the call, which then runs as a built-in (sleep, or an instant ok for any
// other name). Returning true takes the call: the runner must Complete it exactly once,
// inside RunTool or later (from a timer, a gateway settlement, an abort listener on
// c.Signal()).
type Runner interface {
	RunTool(c *Call) bool
}

// RunnerFunc adapts a function to Runner.
type RunnerFunc func(c *Call) bool

// RunTool calls f.
func (f RunnerFunc) RunTool(c *Call) bool { return f(c) }

// Call is one tool call: a top-level call of a step, or a run_code sub-call (Parent set).
type Call struct {
	s      *sess
	epoch  int
	agent  *Agent
	id     string
	name   string
	args   string
	turn   int
	step   int
	parent *Call
	sig    *signal.Signal

	done   bool
	result Result

	ptc     *ptcRun // run_code
	sleep   int     // the sleep's timer seq, 0 none
	sleepMs int64
	onAbort int // the sleep's listener id on sig (0 none)
}

// ID is the call id: the model's call id, or "<parent>:ptc:<n>" for a sub-call.
func (c *Call) ID() string { return c.id }

// Name is the tool name.
func (c *Call) Name() string { return c.name }

// Args is the raw argument string (for a sub-call, its compact JSON arguments).
func (c *Call) Args() string { return c.args }

// Signal aborts when the call must stop: the turn's signal for a top-level call, the run's
// signal (which follows the run_code call's) for a sub-call. A call whose signal aborts
// still completes; its result still commits.
func (c *Call) Signal() *signal.Signal { return c.sig }

// Agent is the live agent instance the call runs in (it may be stale by the time a late
// completion arrives).
func (c *Call) Agent() *Agent { return c.agent }

// Session is the Session id.
func (c *Call) Session() string { return c.s.id }

// Turn and Step locate the call (a sub-call's are its parent's).
func (c *Call) Turn() int { return c.turn }
func (c *Call) Step() int { return c.step }

// Parent is the run_code call of a PTC sub-call, nil for a top-level call.
func (c *Call) Parent() *Call { return c.parent }

// IsSubCall reports whether the call is a PTC sub-call.
func (c *Call) IsSubCall() bool { return c.parent != nil }

// Done reports whether the call has its result.
func (c *Call) Done() bool { return c.done }

// Result is the call's result once Done.
func (c *Call) Result() Result { return c.result }

// String is "s1/c1 name".
func (c *Call) String() string { return c.s.id + "/" + c.id + " " + c.name }

// Complete gives the call its result. A top-level result commits as tool/result in call
// order once the calls before it have theirs; a sub-call's is recorded as
// tool/ptc-dispatch and the program moves on. It fails, changing nothing, for a call that
// already has its result (including one the runtime settled itself when its agent was
// disposed) or one from before a host restart.
func (c *Call) Complete(r Result) error {
	if c.epoch != c.s.rt.epoch {
		return wrap(ErrStaleCall, c.String())
	}
	if c.done {
		return wrap(ErrCallSettled, c.String())
	}
	c.settle(r)
	return nil
}

func (c *Call) settle(r Result) {
	c.done, c.result = true, r
	if c.onAbort != 0 {
		c.sig.Unlisten(c.onAbort)
		c.onAbort = 0
	}
	if c.sleep != 0 {
		c.s.rt.disarm(c.sleep)
		c.sleep = 0
	}
	if c.parent != nil {
		c.parent.ptc.advance()
		return
	}
	c.s.pump()
}

func (c *Call) resultEvent() session.ToolResult {
	r := c.result
	return session.ToolResult{Turn: c.turn, Step: c.step, CallID: c.id, IsError: r.IsError, Err: r.Err, Text: r.Text, NoText: r.NoText}
}

func (s *sess) newCall(id, name, args string, parent *Call, sig *signal.Signal) *Call {
	return &Call{s: s, epoch: s.rt.epoch, agent: s.agent, id: id, name: name, args: args,
		turn: s.d.turn, step: s.d.step, parent: parent, sig: sig}
}

// ToolCall has the model call a tool in Session id's open step: tool/call is appended,
// the log is flushed (the checkpoint before a top-level tool body), then the body runs:
// run_code is the runtime's PTC (docs/PEER-RUNTIME.md §6), anything else is offered to the Runner,
// then to the built-ins. In a turn that is already aborting the body never runs and the
// call fails TOOL_ABORTED_BEFORE_DISPATCH. No open step, a step the model already ended,
// an empty call id or name and a call id already used in the open step are errors.
func (rt *Runtime) ToolCall(id, callID, name, args string) (*Call, error) {
	s, err := rt.live(id)
	if err != nil {
		return nil, err
	}
	d := s.d
	switch {
	case d == nil:
		return nil, wrap(ErrNotRunning, "tool call "+callID+" in "+id)
	case !d.stepOpen:
		return nil, wrap(ErrNoOpenStep, "tool call "+callID+" in "+id)
	case d.modelEnded:
		return nil, wrap(ErrStepEnded, "tool call "+callID+" in "+id)
	case callID == "" || name == "":
		return nil, wrap(ErrBadArgument, "tool call in "+id+": empty call id or tool name")
	}
	for _, c := range d.calls {
		if c.id == callID {
			return nil, wrap(ErrDuplicateCall, callID+" in "+id)
		}
	}
	s.append(session.ToolCall{Turn: d.turn, Step: d.step, CallID: callID, Name: name, Arguments: args})
	c := s.newCall(callID, name, args, nil, d.sig)
	d.calls = append(d.calls, c)
	if d.aborted != "" {
		c.settle(Failed(ToolAbortedBeforeDispatchName, ToolAbortedBeforeDispatch, "tool call aborted before dispatch"))
		return c, nil
	}
	s.flush()
	s.dispatch(c)
	return c, nil
}

// dispatch runs a call's body.
func (s *sess) dispatch(c *Call) {
	switch {
	case c.name == ToolRunCode && c.parent == nil:
		startPTC(c)
		return
	case c.name == ToolRunCode:
		c.settle(Failed(TypeErrorName, "", "run_code cannot be called from inside run_code"))
		return
	}
	if r := s.rt.runner; r != nil && (r.RunTool(c) || c.done) {
		return
	}
	builtin(c)
}
