package harness

import (
	"errors"
	"strings"

	"github.com/twosettle/twosettle/engine/wire"
	"github.com/twosettle/twosettle/scenarios"
	"github.com/twosettle/twosettle/sim"
)

func init() { registerCompiler(scenarios.ActorHost, compileHost) }

// compileHost compiles a host step: a host command (restart, open, close, a claim or an event written by hand) or a fault (a crash, a failed inbox write, a stall).
func compileHost(p *Plan, i int, st *scenarios.Step, session string, out *sim.Step) string {
	h := st.Host
	switch h.Kind {
	case scenarios.HostRestart:
		out.Host = wire.Restart{CutAfter: -1}
	case scenarios.HostCrash:
		point := h.Point
		if point == "now" {
			point = sim.PointNow
		}
		out.Fault = &sim.Fault{Kind: sim.FaultCrash, Point: point, Effect: h.Effects}
	case scenarios.HostOpen:
		through := h.Through
		if h.Fork == "" {
			through = 0
		}
		out.Host = wire.OpenSession{Session: h.Session, Owner: h.Owner, ForkOf: h.Fork, ForkThrough: through}
	case scenarios.HostClose:
		out.Host = wire.CloseSession{Session: h.Session}
	case scenarios.HostFailInboxWrite:
		out.Fault = &sim.Fault{Kind: sim.FaultInboxWrite, Session: h.Session}
	case scenarios.HostStall:
		out.Fault = &sim.Fault{Kind: sim.FaultHostStall, ByMs: span(h.For)}
	case scenarios.HostClaimReply:
		out.Host = wire.ClaimReply{Session: h.Session, CallID: h.Call, Turn: h.Turn}
	case scenarios.HostAppend:
		c, _ := appendEvent(h) // a malformed event was reported by CheckEvents
		out.Host = c
	}
	if out.Host != nil {
		return out.Host.String()
	}
	return ""
}

// appendEvent is the command of a host append step: its event in the protocol's form
// with seq and time 0 (the host's).
func appendEvent(h *scenarios.HostAction) (wire.AppendEvent, error) {
	c := wire.AppendEvent{Session: h.Session}
	raw := strings.TrimSpace(h.Event)
	if !strings.HasPrefix(raw, "{") {
		return c, errors.New("event must be a JSON object")
	}
	body := strings.TrimSpace(raw[1:])
	sep := ","
	if strings.HasPrefix(body, "}") {
		sep = ""
	}
	e, err := wire.DecodeEvent([]byte(`{"seq":0,"time":0` + sep + body))
	if err != nil {
		return c, err
	}
	c.Event = e
	return c, nil
}

// CheckEvents checks the event of every host append step against the protocol's event
// form (docs/protocol/event.schema.json, the codec's rules): what the scenario decoder,
// which knows no protocol, leaves to the run. Each problem is at its step's line.
func CheckEvents(s *scenarios.Scenario) error {
	var bad scenarios.Errors
	for i := range s.Steps {
		st := &s.Steps[i]
		if st.Host == nil || st.Host.Kind != scenarios.HostAppend {
			continue
		}
		if _, err := appendEvent(st.Host); err != nil {
			bad = append(bad, &scenarios.Error{Pos: st.Pos, Msg: "the appended event is not a Session event: " + err.Error(),
				Hint: "write the event as docs/protocol/event.schema.json gives it, without seq and time"})
		}
	}
	if len(bad) > 0 {
		return bad
	}
	return nil
}
