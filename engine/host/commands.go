package host

import (
	"errors"
	"fmt"

	"github.com/twosettle/twosettle/engine/session"
	"github.com/twosettle/twosettle/engine/wire"
)

// do runs one command (timers have fired). Model commands drive the agent runtime, client
// commands go to the gateway, Direct calls the question service.
func (h *Host) do(now int64, cmd wire.Command) error {
	switch c := cmd.(type) {
	case nil:
		return errors.New("host: nil command")
	case wire.OpenSession:
		return h.openSession(c)
	case wire.CloseSession:
		if err := h.rt.Close(c.Session); err != nil {
			return err
		}
		h.releaseContexts()
		return nil
	case wire.Send:
		if c.Target != session.NextTurn && c.Target != session.NextStep {
			return fmt.Errorf("host: send to %s: target must be %s or %s, not %q", c.Session, session.NextTurn, session.NextStep, c.Target)
		}
		src := c.Source
		switch {
		case src.Kind == "" && (src.CallID != "" || src.Outcome != ""):
			return fmt.Errorf("host: send to %s: a source with a call id or an outcome needs a kind", c.Session)
		case src.Kind == "":
			src.Kind = session.SourceUser
		}
		// A prompt or steer to a closed or cold Session resumes its root first (the peer's
		// prompt route, docs/PEER-RUNTIME.md §3.2); the message then wakes it. The other model
		// commands never resume: they act inside a running turn, which a cold Session has not.
		if h.rt.Agent(c.Session) == nil {
			// An armed storage fault fails the write before the resume: nothing changes.
			if err := h.rt.TakeInboxWriteFault(c.Session); err != nil {
				return err
			}
			if _, err := h.rt.Resolve(c.Session); err != nil {
				return err
			}
		}
		_, err := h.rt.Send(c.Session, session.Message{Source: src, Text: c.Text}, c.Target)
		return err
	case wire.Header:
		tools := c.Tools
		if tools == "" {
			tools = h.tools
		}
		return h.rt.Header(c.Session, tools)
	case wire.ToolCall:
		_, err := h.rt.ToolCall(c.Session, c.CallID, c.Name, c.Args)
		return err
	case wire.EndStep:
		return h.rt.EndStep(c.Session, c.Final)
	case wire.CancelTurn:
		return h.rt.CancelTurn(c.Session, c.KeepInbox)
	case wire.Direct:
		return h.direct(now, c)
	case wire.Connect:
		gen, err := h.gw.Connect(c.Client)
		if err == nil {
			h.connected(c.Client, gen)
		}
		return err
	case wire.Disconnect:
		if err := h.gw.Disconnect(c.Client); err != nil {
			return err
		}
		h.disconnected(c.Client)
		return nil
	case wire.EventResult:
		h.gw.Result(c.Client, c.Gen, c.RPCID, c.EventID, c.Outcome)
		return nil
	case wire.StreamOpen:
		return h.gw.OpenStream(c.Client, c.Gen, c.StreamID, c.Endpoint, c.Args)
	case wire.StreamCancel:
		return h.gw.CancelStream(c.Client, c.Gen, c.StreamID)
	case wire.Call:
		h.gw.Call(c.Client, c.Gen, c.RPCID, c.Endpoint, c.Args)
		return nil
	case wire.Tick:
		return nil
	case wire.Restart:
		return h.restart(now, c.CutAfter)
	case wire.FailInboxWrite:
		return h.rt.FailNextInboxWrite(c.Session)
	case wire.ClaimReply:
		return h.claimReply(c)
	case wire.AppendEvent:
		if c.Event.Seq != 0 || c.Event.Time != 0 {
			return fmt.Errorf("host: append-event on %s: seq and time are the host's (write 0), not %d and %d", c.Session, c.Event.Seq, c.Event.Time)
		}
		return h.rt.Record(c.Session, c.Event.Data)
	}
	return fmt.Errorf("host: unknown command %T", cmd)
}

func (h *Host) openSession(c wire.OpenSession) error {
	if c.ForkOf == "" {
		_, err := h.rt.Open(c.Session, c.Owner)
		return err
	}
	_, err := h.rt.Fork(c.Session, c.Owner, c.ForkOf, c.ForkThrough)
	return err
}

// claimReply delivers the claimed notification of the reply queued for c.CallID into
// c.Turn to the question service, without the claim (wire.ClaimReply).
func (h *Host) claimReply(c wire.ClaimReply) error {
	in, err := h.rt.Inbox(c.Session)
	if err != nil {
		return err
	}
	for _, l := range [][]session.Message{in.NextStep, in.NextTurn} {
		for _, m := range l {
			if m.Source.Kind == session.SourceUserQuestionReply && m.Source.CallID == c.CallID {
				h.svc.OnClaimed(c.Session, m, c.Turn)
				return nil
			}
		}
	}
	return fmt.Errorf("host: claim-reply on %s: no reply for call %s is queued", c.Session, c.CallID)
}
