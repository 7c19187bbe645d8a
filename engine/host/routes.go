package host

import (
	"encoding/json"
	"errors"
	"sort"
	"strconv"
	"strings"

	"github.com/twosettle/twosettle/engine/agent"
	"github.com/twosettle/twosettle/engine/gateway"
	"github.com/twosettle/twosettle/engine/questions"
	"github.com/twosettle/twosettle/engine/wire"
)

// The host's Remote endpoints (peer-runtime §2.4, §3): the late-answer RPC, the inbox
// discard RPC, and the claim stream. Their args must match exactly (no missing, no extra,
// no mistyped field): anything else is gateway/arguments-invalid.

var (
	valueTrue  = json.RawMessage("true")
	valueFalse = json.RawMessage("false")
)

func argumentsInvalid(endpoint, msg string) error {
	return gateway.NewError(wire.GatewayArgumentsInvalid, endpoint+": "+msg)
}

// args reads an object whose keys are exactly names; strings names the fields that must be
// strings, and every other field must be a JSON object. The values are returned raw.
func args(endpoint string, raw json.RawMessage, names []string, strs map[string]bool) (map[string]json.RawMessage, error) {
	var m map[string]json.RawMessage
	if len(raw) == 0 || json.Unmarshal(raw, &m) != nil || m == nil {
		return nil, argumentsInvalid(endpoint, "args must be an object {"+strings.Join(names, ", ")+"}")
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if !contains(names, k) {
			return nil, argumentsInvalid(endpoint, "unexpected field "+strconv.Quote(k))
		}
	}
	for _, n := range names {
		v, ok := m[n]
		if !ok {
			return nil, argumentsInvalid(endpoint, "missing field "+strconv.Quote(n))
		}
		if strs[n] {
			var s string
			if strings.TrimSpace(string(v)) == "null" || json.Unmarshal(v, &s) != nil {
				return nil, argumentsInvalid(endpoint, "field "+strconv.Quote(n)+" must be a string")
			}
			m[n] = json.RawMessage(strconv.Quote(s))
			continue
		}
		var obj map[string]json.RawMessage
		if json.Unmarshal(v, &obj) != nil || obj == nil {
			return nil, argumentsInvalid(endpoint, "field "+strconv.Quote(n)+" must be an object")
		}
	}
	return m, nil
}

func contains(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}

func str(m map[string]json.RawMessage, k string) string {
	s, _ := strconv.Unquote(string(m[k]))
	return s
}

// resolve is the Remote agent lookup (GW-8): the Session's live agent, resuming a closed
// or cold Session's root first. An unknown Session is gateway/lookup-not-found.
func (h *Host) resolve(endpoint, sessionID string) (*agent.Agent, error) {
	a, err := h.rt.Resolve(sessionID)
	if err != nil {
		if errors.Is(err, agent.ErrUnknownSession) {
			return nil, gateway.NewError(wire.GatewayNotFound, endpoint+": no session "+strconv.Quote(sessionID))
		}
		return nil, err
	}
	return a, nil
}

// questionError is a service failure on the wire: its domain code and message.
func questionError(e *wire.Error) error {
	if e.IsDomain() {
		return gateway.NewError(e.Code, e.Message)
	}
	return errors.New(e.Message)
}

// rpcAnswer is userQuestions/answer {agentId, callId, answer}: resolve the Session to its
// live root (resuming it, GW-8 and LATE-8), then answer(). An accepted reply is flushed to
// the durable log before the reply reports true (AGENT-6).
func (h *Host) rpcAnswer(_ gateway.Caller, raw json.RawMessage) (json.RawMessage, error) {
	m, err := args(wire.EndpointAnswer, raw, []string{"agentId", "callId", "answer"}, map[string]bool{"agentId": true, "callId": true})
	if err != nil {
		return nil, err
	}
	sid := str(m, "agentId")
	a, err := h.resolve(wire.EndpointAnswer, sid)
	if err != nil {
		return nil, err
	}
	ok, qerr := h.svc.Answer(h.now, a, str(m, "callId"), m["answer"])
	if qerr != nil {
		return nil, questionError(qerr)
	}
	if !ok {
		return valueFalse, nil
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
	m, err := args(wire.EndpointDiscard, raw, []string{"agentId", "messageId"}, map[string]bool{"agentId": true, "messageId": true})
	if err != nil {
		return nil, err
	}
	sid := str(m, "agentId")
	removed, err := h.rt.Discard(sid, str(m, "messageId"))
	if err != nil {
		if errors.Is(err, agent.ErrUnknownSession) {
			return nil, gateway.NewError(wire.GatewayNotFound, wire.EndpointDiscard+": no session "+strconv.Quote(sid))
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
	_ = c.s.Item(json.RawMessage(`{"remainingMs":` + strconv.FormatInt(ms, 10) + `}`))
}

// End ends the stream unless the client already cancelled it or lost its link (then no
// frame can be sent, peer-runtime §2.2 step 5).
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
	m, err := args(wire.EndpointAttachWait, raw, []string{"agentId", "callId"}, map[string]bool{"agentId": true, "callId": true})
	if err != nil {
		return err
	}
	a, err := h.resolve(wire.EndpointAttachWait, str(m, "agentId"))
	if err != nil {
		return err
	}
	var qa questions.Agent = a
	if _, qerr := h.svc.AttachWait(h.now, qa, str(m, "callId"), s.Signal(), claimStream{s}); qerr != nil {
		return questionError(qerr)
	}
	return nil
}
