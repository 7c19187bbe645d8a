package questions

import (
	"errors"
	"math"

	"github.com/twosettle/twosettle/engine/jsonx"
	"github.com/twosettle/twosettle/engine/mutant"
	"github.com/twosettle/twosettle/engine/session"
	"github.com/twosettle/twosettle/engine/signal"
	"github.com/twosettle/twosettle/engine/wire"
)

// Tool modes.
const (
	ModeLegacy = "legacy"
	ModeTimed  = "timed"
)

// DefaultTimeoutSec is the timed tool's default when none is configured (TOOL-2).
const DefaultTimeoutSec = 120

// MaxTimeoutSec is the largest timeout in seconds the tool accepts (TOOL-3).
const MaxTimeoutSec = 2147483

// PendingMessage is the instruction inside a pending result (TOOL-7).
// It is a model-facing literal (docs/PEER.md §10).
const PendingMessage = "No answer batch arrived before the timeout. This is pending, not a skipped answer. " +
	"Continue useful independent work. The user can still answer; their reply will be a user message " +
	"identified as answer_to_pending_question with this callId and the original questions. " +
	"Do not treat this as permission."

// ToolConfig configures the tool: Mode legacy (the default, "" too) or timed, and the
// timed default timeout in seconds (0: DefaultTimeoutSec, unless TimeoutSet).
type ToolConfig struct {
	Mode    string
	Timeout int
	// TimeoutSet says Timeout was configured: a configured 0 is refused like any other
	// value outside -1 and 1..MaxTimeoutSec (TOOL-3), not read as "no default".
	TimeoutSet bool
	// Mutants switches on deliberate bugs (engine/mutant); the zero set is the correct tool.
	// It changes no schema.
	Mutants mutant.Set
}

// Tool is tool-ask-user: the model-facing ask_user_question (docs/PEER.md §2). It owns the schema,
// timeout validation, the choice of service path and the result texts.
type Tool struct {
	memo   *Memo
	svc    *Service
	timed  bool
	def    int
	schema []byte
	// mutants are the deliberate bugs switched on (none in the correct engine).
	mutants mutant.Set
}

// The two schemas of the default configurations, built once (they are never written).
var (
	legacyDefinition = legacySchema()
	timedDefinition  = timedSchema(DefaultTimeoutSec)
)

// CheckToolConfig validates a configuration as NewTool does (TOOL-3): the mode, and the
// configured default, -1 or an integer 1..MaxTimeoutSec.
func CheckToolConfig(c ToolConfig) error {
	switch c.Mode {
	case "", ModeLegacy:
		return nil
	case ModeTimed:
		if (c.Timeout != 0 || c.TimeoutSet) && !validTimeout(float64(c.Timeout)) {
			return errors.New(MsgBadToolTimeout)
		}
		return nil
	}
	return errors.New("ask_user_question mode must be legacy or timed, not " + wire.JSONString(c.Mode))
}

// NewTool registers the tool on svc. The configuration is validated here (CheckToolConfig).
func NewTool(c ToolConfig, svc *Service) (*Tool, error) {
	if err := CheckToolConfig(c); err != nil {
		return nil, err
	}
	t := &Tool{svc: svc, schema: legacyDefinition, mutants: c.Mutants}
	if c.Mode == ModeTimed {
		t.timed, t.def, t.schema = true, c.Timeout, timedDefinition
		if t.def == 0 {
			t.def = DefaultTimeoutSec
		}
		if t.def != DefaultTimeoutSec {
			t.schema = timedSchema(t.def)
		}
	}
	return t, nil
}

func validTimeout(sec float64) bool {
	return sec == -1 || (isInteger(sec) && sec >= 1 && sec <= MaxTimeoutSec)
}

// UseMemo has the tool read its arguments through m (shared with the projections).
func (t *Tool) UseMemo(m *Memo) { t.memo = m }

// Timed reports whether the tool is in timed mode.
func (t *Tool) Timed() bool { return t.timed }

// DefaultTimeout is the timed mode's configured default in seconds.
func (t *Tool) DefaultTimeout() int { return t.def }

// Schema is the tool definition {name, description, parameters} as compact JSON. It is
// shared: callers must not modify it.
func (t *Tool) Schema() []byte { return t.schema }

// Call is one execution of the tool.
type Call struct {
	CallID string
	Args   string         // the raw model arguments
	Agent  Agent          // nil: the execution has no agent
	Signal *signal.Signal // the turn's signal
}

// ToolResult is what the tool returns to the model: its text, and for a failure the error
// flag and, for a service error, its {name, code} (TOOL-9).
type ToolResult struct {
	IsError bool
	Err     session.ErrorInfo
	Text    string
}

// Execute runs the tool; done runs once, at once or when a later call settles the ask.
//
// Legacy (TOOL-1): ask with no wait. Timed, in order: the timeout (argument, or the
// configured default when left out or null) must be -1 or an integer 1..MaxTimeoutSec
// (TOOL-3); question ids must be unique within the call (TOOL-5); a positive timeout needs
// an agent (TOOL-6) and takes askTimed with timeout*1000 ms; -1 takes ask with wait
// {callId} (TOOL-4). Every such failure happens before any answerer is reached.
func (t *Tool) Execute(now int64, c Call, done func(ToolResult)) {
	if t.mutants.Has(mutant.ToolErrorDropsName) {
		// MUTANT tool-error-drops-name: a service error keeps its code but not its name.
		model := done
		done = func(r ToolResult) { r.Err.Name = ""; model(r) }
	}
	args, ok := t.memo.parse(c.Args)
	if !ok || args.Kind() != jsonx.Object {
		done(failure(wire.PlainError(msgBadArgumentsHead + "arguments must be a JSON object")))
		return
	}
	if !t.timed {
		qs, ok := t.memo.questions(c.Args, args, false)
		if !ok {
			done(failure(wire.PlainError(msgBadArgumentsHead + "questions must be an array of {id, question, header?, options?, multi_select?}")))
			return
		}
		t.svc.Ask(now, Request{Questions: qs, Agent: c.Agent, Signal: c.Signal}, func(r Result) { done(answerResult(t.memo, r)) })
		return
	}
	timeout := float64(t.def)
	if v, ok := get(args, "timeout"); ok && v.Kind() != jsonx.Null {
		n, isNum := v.Num()
		if !isNum || !validTimeout(n) {
			done(failure(wire.PlainError(MsgBadToolTimeout)))
			return
		}
		timeout = n
	}
	qs, ok := t.memo.questions(c.Args, args, false)
	if !ok {
		done(failure(wire.PlainError(msgBadArgumentsHead + "questions must be an array of {id, question, header?, options?, multi_select?}")))
		return
	}
	for i, q := range qs { // a call has a few questions: a scan, not a set
		for _, p := range qs[:i] {
			if p.ID == q.ID {
				done(failure(errDuplicateQuestionID(q.ID)))
				return
			}
		}
	}
	req := Request{Questions: qs, Agent: c.Agent, Signal: c.Signal}
	if timeout == -1 {
		req.Wait = &wire.Wait{CallID: c.CallID}
		t.svc.Ask(now, req, func(r Result) { done(answerResult(t.memo, r)) })
		return
	}
	if c.Agent == nil {
		done(failure(wire.PlainError(MsgTimedNeedsAgent)))
		return
	}
	t.svc.AskTimed(now, req, c.CallID, math.Round(timeout*1000), func(r Result) {
		if r.Err == nil && r.Pending {
			text := PendingText(c.CallID)
			if t.mutants.Has(mutant.PendingEmptyBatch) {
				// MUTANT pending-empty-batch: pending also carries an empty (skipped) batch.
				text = append(text[:len(text)-1], `,"answers":[]}`...)
			}
			done(ToolResult{Text: string(text)})
			return
		}
		done(answerResult(t.memo, r))
	})
}

// PendingText is the pending result text of callID: {"pending":true,"callId":…,"message":…}
// (TOOL-7).
func PendingText(callID string) []byte {
	b := make([]byte, 0, 64+len(PendingMessage))
	b = append(b, `{"pending":true,"callId":`...)
	b = wire.AppendJSONString(b, callID)
	b = append(b, `,"message":`...)
	b = wire.AppendJSONString(b, PendingMessage)
	return append(b, '}')
}

// answerResult renders an ask's result: the answer copied as {"answers":[{id, selected,
// custom?}]} (TOOL-8), or the failure.
func answerResult(m *Memo, r Result) ToolResult {
	if r.Err != nil {
		return failure(r.Err)
	}
	v, ok := m.read(string(r.Answer))
	var answers []wire.AnswerItem
	if ok {
		answers, ok = copyAnswers(v)
	}
	if !ok {
		return failure(wire.PlainError("the answerer returned no valid answer batch"))
	}
	text := string(wire.Answer{Answers: answers}.AppendJSON(nil))
	m.rememberBatch(text, answers)
	return ToolResult{Text: text}
}

// copyAnswers copies an answerer's batch item by item as {id, selected, custom?}; other keys
// are dropped. Items of the wrong shape make the batch invalid.
func copyAnswers(v jsonx.Value) ([]wire.AnswerItem, bool) {
	as, ok := get(v, "answers")
	if !ok || as.Kind() != jsonx.Array {
		return nil, false
	}
	out := make([]wire.AnswerItem, 0, as.Len())
	for _, item := range as.Items() {
		id, ok := get(item, "id")
		if !ok || id.Kind() != jsonx.String {
			return nil, false
		}
		a := wire.AnswerItem{ID: id.Text(), Selected: []string{}}
		if sel, ok := get(item, "selected"); ok {
			if sel.Kind() != jsonx.Array {
				return nil, false
			}
			for _, s := range sel.Items() {
				if s.Kind() != jsonx.String {
					return nil, false
				}
				a.Selected = append(a.Selected, s.Text())
			}
		} else {
			return nil, false
		}
		if cu, ok := get(item, "custom"); ok && cu.Kind() != jsonx.Null {
			if cu.Kind() != jsonx.String {
				return nil, false
			}
			a.Custom = ptr(cu.Text())
		}
		out = append(out, a)
	}
	return out, true
}

// failure renders an error as the model sees it: "Error: <message>", keeping {name, code}
// for a service (domain) error (TOOL-9).
func failure(e *wire.Error) ToolResult {
	r := ToolResult{IsError: true, Text: "Error: " + e.Message}
	if e.IsDomain() {
		r.Err = session.ErrorInfo{Name: e.Name, Code: e.Code}
	}
	return r
}
