package oracle_test

import (
	"github.com/twosettle/twosettle/engine/session"
	"github.com/twosettle/twosettle/engine/wire"
	"github.com/twosettle/twosettle/trace"
)

// probeAfter inserts a probe with snap right after record i (at its time) and returns the
// probe's index.
func probeAfter(m *mut, i int, snap trace.Snapshot) int {
	snap.Label = "test"
	m.insert(i+1, trace.Record{Time: m.tr.Records[i].Time, Actor: trace.ActorSim, Kind: trace.Probe, Payload: snap})
	return i + 1
}

func init() {
	violationCases = append(violationCases,
		violationCase{inv: "INV-CLIENT-CARDS", name: "CARD-2 a held request keeps its card before the projection lists the call", base: "timed",
			break_: func(m *mut) int {
				i := m.find(0, "c2@", "in frame waterfall", `"callId":"q2"`)
				// a page that shows its conversation but no card
				return probeAfter(m, i, trace.Snapshot{Clients: []wire.ClientState{{Client: "c2", Gen: 1, Connected: true,
					Conversation: []wire.ConvEntry{{Session: "s1", Kind: wire.ConvMessage, Seq: 5, Turn: 1, Ref: "msg-1", Visible: true}}}}})
			}},
		violationCase{inv: "INV-CLIENT-CARDS", name: "CARD-9 a continued card whose reply is queued is not listed", base: "timed",
			break_: func(m *mut) int {
				i := m.find(0, "c1@", "in frame session s1", "inbox{next-step=[msg-2(reply:q2)]")
				return probeAfter(m, i, trace.Snapshot{Clients: []wire.ClientState{{Client: "c1", Gen: 1, Connected: true, Cards: []wire.CardState{
					{Key: "question:s1:q2", Session: "s1", CallID: "q2", Kind: "question", State: wire.StateContinued, WaitState: wire.WaitStateContinued, Channel: wire.ChannelRPC, Shown: true},
				}}}})
			}},
		violationCase{inv: "INV-CLIENT-COUNTDOWN", name: "CD-5 a card shows editing only after its user edited it", base: "timed",
			break_: func(m *mut) int {
				i := m.find(0, "c2@", "in frame waterfall", `"callId":"q2"`)
				return probeAfter(m, i, trace.Snapshot{Clients: []wire.ClientState{{Client: "c2", Gen: 1, Connected: true, Cards: []wire.CardState{
					{Key: "question:s1:q2", Session: "s1", CallID: "q2", Kind: "question", State: wire.StateOpen, WaitState: wire.WaitStateEditing, Channel: wire.ChannelWaterfall, Shown: true},
				}}}})
			}},
		violationCase{inv: "INV-CLIENT-COUNTDOWN", name: "CD-3 a focused card's countdown does not run", base: "timed",
			break_: func(m *mut) int {
				i := m.find(0, "c2@", "in frame waterfall", `"callId":"q2"`)
				return probeAfter(m, i, trace.Snapshot{Clients: []wire.ClientState{{Client: "c2", Gen: 1, Connected: true, Cards: []wire.CardState{
					{Key: "question:s1:q2", Session: "s1", CallID: "q2", Kind: "question", State: wire.StateOpen, WaitState: wire.WaitStateFocused,
						Countdown: &wire.Countdown{RemainingMs: 2000, Running: true}, Channel: wire.ChannelWaterfall, Shown: true},
				}}}})
			}},
		violationCase{inv: "INV-CLIENT-ROWS", name: "ROW-1 an answerable row with no queued reply offers Answer", base: "timed",
			break_: func(m *mut) int {
				i := m.find(0, "c2@", "in frame session s1", "questions{active=[q2:continued]")
				return probeAfter(m, i, trace.Snapshot{Clients: []wire.ClientState{{Client: "c2", Gen: 1, Connected: true, Rows: []wire.RowState{
					{Session: "s1", CallID: "q2", Summary: "closed", State: "ok"},
				}}}})
			}},
		violationCase{inv: "INV-CLIENT-ROWS", name: "ROW-3 a legacy row offers no question action", base: "legacy",
			break_: func(m *mut) int {
				m.tr.Final.Clients = append([]wire.ClientState(nil), m.tr.Final.Clients...)
				m.tr.Final.Clients[0].Rows = []wire.RowState{{Session: "s1", CallID: "q1", State: "ok", Action: "View answers"}}
				return final
			}},
		violationCase{inv: "INV-CLIENT-NODES", name: "NODE-1 every late reply of the received log has its node", base: "timed",
			break_: func(m *mut) int {
				m.tr.Final.Clients = append([]wire.ClientState(nil), m.tr.Final.Clients...)
				m.tr.Final.Clients[0].Nodes = nil
				return final
			}},
		violationCase{inv: "INV-CLIENT-NODES", name: "NODE-1 an ordinary message is not a reply", base: "timed",
			break_: func(m *mut) int {
				m.tr.Final.Clients = append([]wire.ClientState(nil), m.tr.Final.Clients...)
				m.tr.Final.Clients[0].Nodes = append([]wire.NodeState{{Session: "s1", Seq: 5, CallID: "q1"}}, m.tr.Final.Clients[0].Nodes...)
				return final
			}},
		violationCase{inv: "INV-RESERVATION-HELD", name: "LATE-6 a queued reply holds its reservation until admitted", base: "timed",
			break_: func(m *mut) int {
				i := m.find(0, "host out reply c2.1 rpc=c2-r2", `"value":true`)
				return probeAfter(m, i, trace.Snapshot{Host: wire.HostState{}})
			}},
		violationCase{inv: "INV-SERVICE-CONTRACT", name: "ASK-6 askTimed with timeout 0 fails BAD_TIMEOUT", base: "timed",
			break_: func(m *mut) int {
				n := len(m.tr.Records)
				at := m.tr.Records[n-1].Time
				m.insert(n, trace.Record{Time: at, Actor: trace.ActorHost, Kind: trace.In, Payload: wire.Direct{ID: "d1", Op: wire.OpAskTimed, Session: "s1", Agent: wire.AgentLive,
					Body: []byte(`{"callId":"w1","timeoutMs":0,"questions":[{"id":"a","question":"A?"}]}`)}})
				m.insert(n+1, trace.Record{Time: at, Actor: trace.ActorHost, Kind: trace.Out, Payload: wire.DirectResult{ID: "d1", Value: []byte(`{"pending":true,"callId":"w1"}`)}})
				return n + 1
			}},
		violationCase{inv: "INV-SERVICE-CONTRACT", name: "ASK-2 ask with no question fails EMPTY_QUESTIONS", base: "timed",
			break_: func(m *mut) int {
				n := len(m.tr.Records)
				at := m.tr.Records[n-1].Time
				m.insert(n, trace.Record{Time: at, Actor: trace.ActorHost, Kind: trace.In, Payload: wire.Direct{ID: "d1", Op: wire.OpAsk, Session: "s1", Agent: wire.AgentLive,
					Body: []byte(`{"questions":[]}`)}})
				m.insert(n+1, trace.Record{Time: at, Actor: trace.ActorHost, Kind: trace.Out, Payload: wire.DirectResult{ID: "d1", Err: &wire.Error{Name: "UserQuestionError", Code: wire.AskAborted, Message: "x"}}})
				return n + 1
			}},
		violationCase{inv: "INV-SERVICE-CONTRACT", name: "ASK-3 a plan review whose approve is no option label fails BAD_INTENT", base: "timed",
			break_: func(m *mut) int {
				n := len(m.tr.Records)
				at := m.tr.Records[n-1].Time
				m.insert(n, trace.Record{Time: at, Actor: trace.ActorHost, Kind: trace.In, Payload: wire.Direct{ID: "d1", Op: wire.OpAsk, Session: "s1", Agent: wire.AgentLive,
					Body: []byte(`{"questions":[{"id":"p","question":"Plan?","detail":"d","options":[{"label":"Approve"},{"label":"Revise"}],"intent":{"kind":"plan-review","approve":"Yes"}}]}`)}})
				m.insert(n+1, trace.Record{Time: at, Actor: trace.ActorHost, Kind: trace.Out, Payload: wire.DirectResult{ID: "d1", Err: &wire.Error{Name: "UserQuestionError", Code: wire.NoProvider, Message: "x"}}})
				return n + 1
			}},
		violationCase{inv: "INV-SERVICE-CONTRACT", name: "CALLER-3 the live root is never refused CALLER_NOT_LIVE", base: "timed",
			break_: func(m *mut) int {
				n := len(m.tr.Records)
				at := m.tr.Records[n-1].Time
				m.insert(n, trace.Record{Time: at, Actor: trace.ActorHost, Kind: trace.In, Payload: wire.Direct{ID: "d1", Op: wire.OpAsk, Session: "s1", Agent: wire.AgentLive,
					Body: []byte(`{"questions":[{"id":"a","question":"A?"}]}`)}})
				m.insert(n+1, trace.Record{Time: at, Actor: trace.ActorHost, Kind: trace.Out, Payload: wire.DirectResult{ID: "d1", Err: &wire.Error{Name: "UserQuestionError", Code: wire.CallerNotLive, Message: "x"}}})
				return n + 1
			}},
		violationCase{inv: "INV-CLIENT-COUNTDOWN", name: "CD-7 hiding a keyed panel leaves its claim running", base: "timed",
			break_: func(m *mut) int {
				i := m.find(1, "c2@", "in frame item", "remainingMs")
				st := m.tr.Records[i].Payload.(wire.FromHost).Frame.(wire.StreamItem).StreamID
				at, ct := m.tr.Records[i].Time+1, m.tr.Records[i].ClientTime+1
				m.insert(i+1, trace.Record{Time: at, ClientTime: ct, Actor: "c2", Kind: trace.In, Payload: wire.User{Action: wire.UserAction{Kind: wire.ActHide, Card: "q2"}}})
				m.insert(i+2, trace.Record{Time: at, ClientTime: ct, Actor: "c2", Kind: trace.Out, Payload: wire.CancelStream{Gen: 1, StreamID: st}})
				return i + 2
			}},
		violationCase{inv: "INV-CLIENT-NODES", name: "NODE-2 an unreadable reply keeps its raw text", base: "timed",
			break_: func(m *mut) int {
				i := m.find(0, "host out append s1 #18 ", "user/message msg-2")
				ap := m.appended(i)
				d := ap.Event.Data.(session.UserMessage)
				d.Message.Text = "not json"
				ap.Event.Data = d
				m.set(i, ap)
				copyFinal(m)
				m.tr.Final.Host.Sessions[0].Log[18] = ap.Event
				m.tr.Final.Clients = append([]wire.ClientState(nil), m.tr.Final.Clients...)
				m.tr.Final.Clients[0].Nodes = []wire.NodeState{{Session: "s1", Seq: 18, CallID: "q2"}}
				return final
			}},
		violationCase{inv: "INV-CLIENT-CARDS", name: "CARD-4 a card with a waterfall submits through it", base: "timed",
			break_: func(m *mut) int {
				// after the claim's first frame, which attaches the waterfall to the card
				// (docs/PEER.md §6.4 step 9; during the handshake the card has none yet)
				o := m.find(0, "c2@", "out open", "userQuestions/attachWait", `"callId":"q2"`)
				st := m.tr.Records[o].Payload.(wire.OpenStream).StreamID
				i := m.find(0, "c2@", "in frame item stream="+st+" ")
				at, ct := m.tr.Records[i].Time+1, m.tr.Records[i].ClientTime+1
				m.insert(i+1, trace.Record{Time: at, ClientTime: ct, Actor: "c2", Kind: trace.In, Payload: wire.User{Action: wire.UserAction{Kind: wire.ActSubmit, Card: "q2"}}})
				m.insert(i+2, trace.Record{Time: at, ClientTime: ct, Actor: "c2", Kind: trace.Out, Payload: wire.SendCall{Gen: 1, RPCID: "c2-rx", Endpoint: wire.EndpointAnswer,
					Args: []byte(`{"agentId":"s1","callId":"q2","answer":{"answers":[{"id":"a","selected":["x"]}]}}`)}})
				return i + 2
			}},
		violationCase{inv: "INV-CLIENT-CLAIM-DISCIPLINE", name: "CLAIM-5 a claim stream that ends with no frame makes the client delegate", base: "timed",
			break_: func(m *mut) int {
				i := m.find(0, "c2@", "out open", "userQuestions/attachWait", `"callId":"q2"`)
				st := m.tr.Records[i].Payload.(wire.OpenStream).StreamID
				at, ct := m.tr.Records[i].Time+1, m.tr.Records[i].ClientTime+1
				m.insert(i+1, trace.Record{Time: at, ClientTime: ct, Actor: "c2", Kind: trace.In, Payload: wire.FromHost{Frame: wire.StreamEnd{StreamID: st}}})
				return i + 1
			}},
		violationCase{inv: "INV-SERVICE-CONTRACT", name: "ASK-8 askTimed forwards wait {callId, timed: true}", base: "timed",
			break_: func(m *mut) int {
				n := len(m.tr.Records)
				at := m.tr.Records[n-1].Time
				m.insert(n, trace.Record{Time: at, Actor: trace.ActorHost, Kind: trace.In, Payload: wire.Direct{ID: "d1", Op: wire.OpAskTimed, Session: "s1", Agent: wire.AgentLive,
					Body: []byte(`{"callId":"w9","timeoutMs":5000,"questions":[{"id":"a","question":"A?"}]}`)}})
				m.insert(n+1, trace.Record{Time: at, Actor: trace.ActorHost, Kind: trace.Out, Payload: wire.SendFrame{Client: "c1", Gen: 1, Frame: wire.Waterfall{
					EventID: "e99", Event: wire.EventQuestionsRequest, AgentID: "s1", Request: []byte(`{"questions":[{"id":"a","question":"A?"}],"wait":{"callId":"w9"}}`)}}})
				return n + 1
			}},
	)
}
