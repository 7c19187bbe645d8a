package host

import (
	"encoding/json"
	"errors"
	"strconv"

	"github.com/twosettle/twosettle/engine/agent"
	"github.com/twosettle/twosettle/engine/gateway"
	"github.com/twosettle/twosettle/engine/mutant"
	"github.com/twosettle/twosettle/engine/questions"
	"github.com/twosettle/twosettle/engine/wire"
)

// The host's Remote endpoints (docs/PEER-RUNTIME.md §2.4, §3): the late-answer RPC, the inbox
// discard RPC, and the claim stream. Their args must match exactly (no missing, no extra,
// no mistyped field): anything else is gateway/arguments-invalid.

var (
	valueTrue  = json.RawMessage("true")
	valueFalse = json.RawMessage("false")
)

// resolve is the Remote agent lookup (GW-8): the Session's live agent, resuming a closed
// or cold Session's root first. An unknown Session is gateway/lookup-not-found.
func (h *Host) resolve(endpoint, sessionID string) (*agent.Agent, error) {
	a, err := h.rt.Resolve(sessionID)
	if err != nil {
		if errors.Is(err, agent.ErrUnknownSession) {
			return nil, gatewayError(wire.GatewayNotFound, endpoint+": no session "+strconv.Quote(sessionID))
		}
		return nil, err
	}
	return a, nil
}

// questionError is a service failure on the wire: its domain code and message.
func questionError(e *wire.Error) error {
	if e.IsDomain() {
		return gatewayError(e.Code, e.Message)
	}
	return errors.New(e.Message)
}

// rpcAnswer is userQuestions/answer {agentId, callId, answer}: resolve the Session to its
// live root (resuming it, GW-8 and LATE-8), then answer(). An accepted reply is flushed to
// the durable log before the reply reports true (AGENT-6).
func (h *Host) rpcAnswer(_ gateway.Caller, raw json.RawMessage) (json.RawMessage, error) {
	m, err := readArgs(wire.EndpointAnswer, raw, field{"agentId", true}, field{"callId", true}, field{"answer", false})
	if err != nil {
		return nil, err
	}
	sid := m[0]
	a, err := h.resolve(wire.EndpointAnswer, sid)
	if err != nil {
		return nil, err
	}
	ok, qerr := h.svc.Answer(h.now, a, m[1], json.RawMessage(m[2]))
	if qerr != nil {
		return nil, questionError(qerr)
	}
	if !ok {
		return valueFalse, nil
	}
	if h.mutants.Has(mutant.AckBeforeFlush) {
		return valueTrue, nil // MUTANT ack-before-flush: true while the reply is only in memory
	}
	if err := h.rt.Flush(sid); err != nil {
		return nil, err
	}
	return valueTrue, nil
}

// rpcDiscard is inbox/discard {agentId, messageId} (the peer's session.updateQueue
// remove): the message leaves the inbox with a canceled splice. The Session is not
// resumed: a resume would wake the agent and claim the message first. The discard is
// flushed before the reply, so a client that re-shows the question (CARD-9) relies on a
// durable fact.
func (h *Host) rpcDiscard(_ gateway.Caller, raw json.RawMessage) (json.RawMessage, error) {
	m, err := readArgs(wire.EndpointDiscard, raw, field{"agentId", true}, field{"messageId", true})
	if err != nil {
		return nil, err
	}
	sid := m[0]
	removed, err := h.rt.Discard(sid, m[1])
	if err != nil {
		if errors.Is(err, agent.ErrUnknownSession) {
			return nil, gatewayError(wire.GatewayNotFound, wire.EndpointDiscard+": no session "+strconv.Quote(sid))
		}
		return nil, err
	}
	if !removed {
		return valueFalse, nil
	}
	if err := h.rt.Flush(sid); err != nil {
		return nil, err
	}
	return valueTrue, nil
}

// claimStream is the claim stream as the wait sees it.
type claimStream struct{ s *gateway.Stream }

func (c claimStream) Frame(ms int64) {
	b := make([]byte, 0, 40)
	b = strconv.AppendInt(append(b, `{"remainingMs":`...), ms, 10)
	_ = c.s.Item(json.RawMessage(append(b, '}')))
}

// End ends the stream unless the client already cancelled it or lost its link (then no
// frame can be sent, docs/PEER-RUNTIME.md §2.2 step 5).
func (c claimStream) End() {
	if c.s.Open() {
		_ = c.s.End()
	}
}

// streamAttachWait is userQuestions/attachWait {agentId, callId}: the Session's live
// agent (resumed if needed, which then has no wait) claims the wait of callId
// (questions.Service.AttachWait). The stream's signal is the claim signal: a client
// cancel or a lost link releases the claim.
func (h *Host) streamAttachWait(s *gateway.Stream, raw json.RawMessage) error {
	m, err := readArgs(wire.EndpointAttachWait, raw, field{"agentId", true}, field{"callId", true})
	if err != nil {
		return err
	}
	a, err := h.resolve(wire.EndpointAttachWait, m[0])
	if err != nil {
		return err
	}
	var qa questions.Agent = a
	if _, qerr := h.svc.AttachWait(h.now, qa, m[1], s.Signal(), claimStream{s}); qerr != nil {
		return questionError(qerr)
	}
	return nil
}

func gatewayError(code, message string) error { return gateway.NewError(code, message) }
