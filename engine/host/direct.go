package host

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"

	"github.com/twosettle/twosettle/engine/agent"
	"github.com/twosettle/twosettle/engine/questions"
	"github.com/twosettle/twosettle/engine/signal"
	"github.com/twosettle/twosettle/engine/wire"
)

// directBody is the JSON of a Direct command (wire.Direct): questions in service
// vocabulary.
type directBody struct {
	Questions []wire.Question `json:"questions"`
	Wait      *wire.Wait      `json:"wait"`
	Aborted   bool            `json:"aborted"`
	CallID    *string         `json:"callId"`
	TimeoutMs *float64        `json:"timeoutMs"`
	Answer    json.RawMessage `json:"answer"`
}

// errDirectAborted is the reason of a Direct ask's pre-aborted signal.
var errDirectAborted = errors.New("host: the direct call's signal was aborted before the call")

// direct calls the question service itself (the conformance surface of the service
// contract). The result is a DirectResult effect, now or when a later command settles it.
// A body that does not decode, an unknown op or agent selector, or agent "live" for a
// Session with no live agent, are command errors; everything the service decides is a
// DirectResult.
func (h *Host) direct(now int64, c wire.Direct) error {
	if c.ID == "" {
		return errors.New("host: direct: empty id")
	}
	switch c.Op {
	case wire.OpAsk, wire.OpAskTimed, wire.OpAnswer:
	default:
		return fmt.Errorf("host: direct %s: op must be ask, askTimed or answer, not %q", c.ID, c.Op)
	}
	var b directBody
	if len(c.Body) > 0 {
		if err := json.Unmarshal(c.Body, &b); err != nil {
			return fmt.Errorf("host: direct %s: body: %w", c.ID, err)
		}
	}
	if c.Op != wire.OpAsk && b.CallID == nil {
		return fmt.Errorf("host: direct %s: %s needs a callId", c.ID, c.Op)
	}
	if c.Op == wire.OpAnswer && b.Answer == nil {
		return fmt.Errorf("host: direct %s: answer needs an answer", c.ID)
	}
	var a questions.Agent
	switch c.Agent {
	case wire.AgentNone:
	case wire.AgentLive, wire.AgentStale:
		var ag *agent.Agent
		if c.Agent == wire.AgentLive {
			if ag = h.rt.Agent(c.Session); ag == nil {
				return fmt.Errorf("host: direct %s: session %q has no live agent", c.ID, c.Session)
			}
		} else {
			var err error
			if ag, err = h.rt.StaleInstance(c.Session); err != nil {
				return fmt.Errorf("host: direct %s: %w", c.ID, err)
			}
		}
		a = ag
	default:
		return fmt.Errorf("host: direct %s: agent must be live, stale or none, not %q", c.ID, c.Agent)
	}
	sig := signal.New()
	if b.Aborted {
		sig = signal.Aborted(errDirectAborted)
	}
	epoch := h.epoch
	done := func(r questions.Result) {
		if epoch == h.epoch {
			h.emit(wire.DirectResult{ID: c.ID, Value: r.JSON(), Err: r.Err})
		}
	}
	switch c.Op {
	case wire.OpAsk:
		h.svc.Ask(now, questions.Request{Questions: b.Questions, Agent: a, Signal: sig, Wait: b.Wait}, done)
	case wire.OpAskTimed:
		ms := math.NaN() // a missing timeout is not an integer: BAD_TIMEOUT
		if b.TimeoutMs != nil {
			ms = *b.TimeoutMs
		}
		h.svc.AskTimed(now, questions.Request{Questions: b.Questions, Agent: a, Signal: sig}, *b.CallID, ms, done)
	case wire.OpAnswer:
		ok, qerr := h.svc.Answer(now, a, *b.CallID, b.Answer)
		switch {
		case qerr != nil:
			h.emit(wire.DirectResult{ID: c.ID, Err: qerr})
		case ok:
			if err := h.rt.Flush(c.Session); err != nil {
				return err
			}
			h.emit(wire.DirectResult{ID: c.ID, Value: valueTrue})
		default:
			h.emit(wire.DirectResult{ID: c.ID, Value: valueFalse})
		}
	}
	return nil
}
