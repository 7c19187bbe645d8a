package host

import (
	"encoding/json"
	"reflect"
	"strconv"
	"testing"

	"github.com/twosettle/twosettle/engine/questions"
	"github.com/twosettle/twosettle/engine/session"
	"github.com/twosettle/twosettle/engine/wire"
	"pgregory.net/rapid"
)

var (
	propSessions = []string{"s1", "s2", "k"}
	propClients  = []string{"A", "B"}
	propCalls    = []string{"c1", "c2", "c3"}
	propBatches  = []string{batchA, `{"answers":[]}`, `{"answers":[{"id":"a","selected":[]},{"id":"a","selected":[]}]}`, `{"nope":1}`}
)

// drawCommand draws any command, well-formed or not, addressed to the small pools above.
func drawCommand(t *rapid.T, h *Host, prevEffects int) wire.Command {
	sid := "s1"
	if rapid.IntRange(0, 3).Draw(t, "other session") == 0 {
		sid = rapid.SampledFrom(propSessions).Draw(t, "session")
	}
	client := rapid.SampledFrom(propClients).Draw(t, "client")
	callID := rapid.SampledFrom(propCalls).Draw(t, "call")
	// Prefer the calls the state makes interesting: a live wait, an answerable row.
	st := h.State()
	var hot []string
	for _, w := range st.Waits {
		hot = append(hot, w.CallID)
	}
	if ss, ok := st.Session(sid); ok {
		for _, r := range ss.Questions.Active {
			hot = append(hot, r.CallID)
		}
	}
	if len(hot) > 0 && rapid.Bool().Draw(t, "hot call") {
		callID = hot[rapid.IntRange(0, len(hot)-1).Draw(t, "hot")]
	}
	gen := 1
	for _, c := range h.State().Clients {
		if c.Client == client {
			gen = c.Gen
		}
	}
	if rapid.IntRange(0, 9).Draw(t, "stale gen") == 0 {
		gen += rapid.IntRange(-2, 1).Draw(t, "gen delta")
	}
	// Steer out of dead ends: reconnect a client a restart dropped, resume a closed Session
	// through the remote lookup (GW-8).
	if _, ok := h.gw.Connected(client); !ok && rapid.Bool().Draw(t, "reconnect") {
		return wire.Connect{Client: client}
	}
	if ss, ok := st.Session(sid); ok && !ss.Live && rapid.Bool().Draw(t, "resume") {
		return wire.Call{Client: client, Gen: gen, RPCID: "a", Endpoint: wire.EndpointAnswer,
			Args: json.RawMessage(`{"agentId":"` + sid + `","callId":"` + callID + `","answer":` + batchA + `}`)}
	}
	if len(st.Waits) > 0 && rapid.IntRange(0, 2).Draw(t, "claim") == 0 {
		w := st.Waits[rapid.IntRange(0, len(st.Waits)-1).Draw(t, "wait")]
		return wire.StreamOpen{Client: client, Gen: gen, StreamID: "st" + strconv.Itoa(rapid.IntRange(0, 5).Draw(t, "stream")),
			Endpoint: wire.EndpointAttachWait, Args: json.RawMessage(`{"agentId":"` + w.Session + `","callId":"` + w.CallID + `"}`)}
	}
	if ss, ok := st.Session(sid); ok && ss.Live && ss.Phase == "idle" && rapid.Bool().Draw(t, "wake") {
		return wire.Send{Session: sid, Target: session.NextTurn, Text: "go"}
	}
	switch pick(t) {
	case 0:
		c := wire.OpenSession{Session: sid}
		switch rapid.IntRange(0, 3).Draw(t, "open kind") {
		case 1:
			c.Owner = rapid.SampledFrom(propSessions).Draw(t, "owner")
		case 2:
			c.ForkOf = rapid.SampledFrom(propSessions).Draw(t, "fork of")
			c.ForkThrough = rapid.IntRange(-1, 30).Draw(t, "fork through")
		}
		return c
	case 1:
		return wire.CloseSession{Session: sid}
	case 2, 3:
		return wire.Send{Session: sid, Target: rapid.SampledFrom([]string{session.NextStep, session.NextTurn, session.NextStep, session.NextTurn, session.NextStep, session.NextTurn, "bad"}).Draw(t, "target"), Text: "m"}
	case 4:
		return wire.Header{Session: sid, Tools: rapid.SampledFrom([]string{"", "", `"placeholder"`, `[{"name":"run_code"}]`}).Draw(t, "tools")}
	case 5, 6, 7:
		switch rapid.IntRange(0, 4).Draw(t, "tool") {
		case 0:
			return wire.ToolCall{Session: sid, CallID: callID, Name: "sleep", Args: `{"ms":` + strconv.Itoa(rapid.IntRange(0, 4000).Draw(t, "ms")) + `}`}
		case 1:
			sub := askArgs(rapid.SampledFrom([]string{"1", "2", "-1"}).Draw(t, "sub timeout"))
			return wire.ToolCall{Session: sid, CallID: callID, Name: "run_code", Args: `{"calls":[{"name":"ask_user_question","arguments":` + sub + `},{"name":"echo"}]}`}
		case 2:
			return wire.ToolCall{Session: sid, CallID: callID, Name: "echo", Args: "{}"}
		default:
			timeout := rapid.SampledFrom([]string{"1", "2", "3", "-1", "", "0", `"x"`}).Draw(t, "timeout")
			args := askArgs(timeout)
			if rapid.IntRange(0, 9).Draw(t, "garbage args") == 0 {
				args = `{"questions":[`
			}
			return wire.ToolCall{Session: sid, CallID: callID, Name: questions.ToolName, Args: args}
		}
	case 8:
		return wire.EndStep{Session: sid, Final: rapid.Bool().Draw(t, "final")}
	case 9:
		return wire.CancelTurn{Session: sid, KeepInbox: rapid.Bool().Draw(t, "keep inbox")}
	case 10:
		agentSel := rapid.SampledFrom([]string{wire.AgentLive, wire.AgentStale, wire.AgentNone}).Draw(t, "agent")
		var op, body string
		switch rapid.IntRange(0, 2).Draw(t, "op") {
		case 0:
			op, body = wire.OpAsk, `{"questions":[{"id":"a","question":"?"}],"aborted":`+strconv.FormatBool(rapid.Bool().Draw(t, "aborted"))+`}`
		case 1:
			op, body = wire.OpAskTimed, `{"questions":[{"id":"a","question":"?"}],"callId":"`+callID+`","timeoutMs":`+rapid.SampledFrom([]string{"1", "1500", "0", "2.5"}).Draw(t, "timeoutMs")+`}`
		default:
			op, body = wire.OpAnswer, `{"callId":"`+callID+`","answer":`+rapid.SampledFrom(propBatches).Draw(t, "batch")+`}`
		}
		return wire.Direct{ID: "d" + strconv.Itoa(rapid.IntRange(0, 99).Draw(t, "direct id")), Op: op, Session: sid, Agent: agentSel, Body: json.RawMessage(body)}
	case 11:
		return wire.Connect{Client: client}
	case 12:
		return wire.Disconnect{Client: client}
	case 13, 14:
		ev := "e999"
		if p := h.State().Pending; len(p) > 0 {
			ev = p[rapid.IntRange(0, len(p)-1).Draw(t, "event")].EventID
		}
		var out wire.Outcome
		switch rapid.IntRange(0, 5).Draw(t, "outcome") {
		case 0:
			out = wire.Outcome{Kind: wire.OutcomeNext}
		case 1, 2:
			out = wire.Outcome{Kind: wire.OutcomeResult, Value: json.RawMessage(rapid.SampledFrom(propBatches).Draw(t, "value"))}
		case 3:
			out = wire.Outcome{Kind: wire.OutcomeRejected, Error: &wire.Error{Name: wire.UserQuestionErrorName, Code: rapid.SampledFrom([]string{wire.AskTimedOut, wire.AskCancelled, wire.AskAborted}).Draw(t, "code"), Message: "m"}}
		case 4:
			out = wire.Outcome{Kind: wire.OutcomeRejected, Error: &wire.Error{Name: "Error", Message: "boom"}}
		default:
			out = wire.Outcome{Kind: "bogus"}
		}
		return wire.EventResult{Client: client, Gen: gen, RPCID: "r", EventID: ev, Outcome: out}
	case 15:
		args := `{"agentId":"` + sid + `","callId":"` + callID + `"}`
		if rapid.IntRange(0, 9).Draw(t, "bad stream args") == 0 {
			args = `{"agentId":5}`
		}
		return wire.StreamOpen{Client: client, Gen: gen, StreamID: "st" + strconv.Itoa(rapid.IntRange(0, 5).Draw(t, "stream")), Endpoint: wire.EndpointAttachWait, Args: json.RawMessage(args)}
	case 16:
		return wire.StreamCancel{Client: client, Gen: gen, StreamID: "st" + strconv.Itoa(rapid.IntRange(0, 5).Draw(t, "stream"))}
	case 17:
		if rapid.Bool().Draw(t, "discard") {
			msg := "none"
			if s, ok := h.State().Session(sid); ok && len(s.Inbox.NextStep)+len(s.Inbox.NextTurn) > 0 {
				all := append(append([]session.Message(nil), s.Inbox.NextStep...), s.Inbox.NextTurn...)
				msg = all[rapid.IntRange(0, len(all)-1).Draw(t, "message")].ID
			}
			return wire.Call{Client: client, Gen: gen, RPCID: "d", Endpoint: wire.EndpointDiscard, Args: json.RawMessage(`{"agentId":"` + sid + `","messageId":"` + msg + `"}`)}
		}
		batch := batchA
		if rapid.IntRange(0, 3).Draw(t, "other batch") == 0 {
			batch = rapid.SampledFrom(propBatches).Draw(t, "batch")
		}
		args := `{"agentId":"` + sid + `","callId":"` + callID + `","answer":` + batch + `}`
		if rapid.IntRange(0, 9).Draw(t, "bad call args") == 0 {
			args = `{"agentId":"` + sid + `"}`
		}
		return wire.Call{Client: client, Gen: gen, RPCID: "a", Endpoint: wire.EndpointAnswer, Args: json.RawMessage(args)}
	case 18:
		return wire.Tick{}
	}
	return wire.Restart{CutAfter: rapid.IntRange(-1, prevEffects+1).Draw(t, "cut after")}
}

// order lists the command kinds of drawCommand (its cases) from the most to the least
// wanted: rapid draws small indices more often, so commands that move a question along
// come first and the ones that end a Session last.
var order = []int{5, 18, 13, 2, 17, 8, 15, 10, 11, 16, 9, 12, 4, 19, 0, 1}

func pick(t *rapid.T) int { return rapid.SampledFrom(order).Draw(t, "command") }

func TestHostPortProperty(t *testing.T) {
	t.Run("PROJ-12 random command sequences never panic and every projection is a fresh fold of its log", func(t *testing.T) {
		rapid.Check(t, func(t *rapid.T) {
			cfg := Config{
				ToolMode:      rapid.SampledFrom([]string{questions.ModeTimed, questions.ModeTimed, questions.ModeLegacy}).Draw(t, "mode"),
				WriteWindowMs: rapid.SampledFrom([]int64{0, -1, 1000}).Draw(t, "window"),
			}
			h, err := New(cfg)
			if err != nil {
				t.Fatal(err)
			}
			for _, c := range []wire.Command{wire.OpenSession{Session: "s1"}, wire.Connect{Client: "A"},
				wire.Send{Session: "s1", Target: session.NextTurn, Text: "go"}, wire.Header{Session: "s1"}} {
				if _, err := h.Apply(0, c); err != nil {
					t.Fatal(err)
				}
			}
			now, prev := int64(0), 0
			for i, n := 0, rapid.IntRange(1, 80).Draw(t, "commands"); i < n; i++ {
				now += rapid.SampledFrom([]int64{0, 0, 1, 500, 1000, 3000}).Draw(t, "dt")
				cmd := drawCommand(t, h, prev)
				effs, _ := h.Apply(wire.Time(now), cmd)
				prev = len(effs)
				for _, e := range effs {
					_ = e.String()
				}
				st := h.State()
				for _, s := range st.Sessions {
					if want := questions.Fold(s.Log, s.Inherited); !reflect.DeepEqual(s.Questions, want) {
						t.Fatalf("after %s: session %s view %s, fresh fold %s", cmd, s.ID, s.Questions, want)
					}
					if s.Persisted > len(s.Log) {
						t.Fatalf("session %s: persisted %d of %d", s.ID, s.Persisted, len(s.Log))
					}
				}
				for _, w := range st.Waits {
					if w.TimerAt >= 0 && w.TimerAt < w.Deadline {
						t.Fatalf("WAIT-1: wait %+v armed before its deadline", w)
					}
					if w.TimerAt >= 0 && w.Claims > 0 {
						t.Fatalf("WAIT-2: wait %+v timed while claimed", w)
					}
				}
				if at, ok := h.NextDeadline(); ok && at.Ms() <= now {
					t.Fatalf("a timer due at %d is left after Apply at %d", at, now)
				}
			}
		})
	})
}
