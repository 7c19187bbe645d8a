package oracle_test

import (
	"github.com/twosettle/twosettle/engine/wire"
	"github.com/twosettle/twosettle/trace"
)

// Violation cases of the client invariants that guard CARD-3, CARD-5..8, DRAFT-2, DRAFT-3
// (inv_client_sweep.go, inv_client_drafts.go, inv_client_unkeyed.go, inv_client_submit.go).

// submitThroughWaterfallThenContinued makes c2 submit q2 through its waterfall (the tick
// from client time 4000 becomes a submit whose $events/result carries the answer) instead
// of letting its countdown expire, and returns the record of the update that then shows
// q2 continued.
func submitThroughWaterfallThenContinued(m *mut) int {
	i := m.find(0, "c2@", "in tick")
	for m.tr.Records[i].ClientTime < 4000 {
		i = m.find(1, "c2@", "in tick")
	}
	m.set(i, wire.User{Action: wire.UserAction{Kind: wire.ActSubmit, Card: "q2"}})
	r := m.tr.Records[i+1].Payload.(wire.SendResult)
	r.Outcome = wire.Outcome{Kind: wire.OutcomeResult, Value: []byte(`{"answers":[{"id":"a","selected":["x"]}]}`)}
	m.set(i+1, r)
	return m.find(0, "c2@", "in frame session s1 events=11..13", "q2:continued")
}

func clientSnap(name string, cards []wire.CardState, drafts []wire.DraftState) trace.Snapshot {
	return trace.Snapshot{Clients: []wire.ClientState{{Client: name, Gen: 1, Connected: true, Cards: cards, Drafts: drafts}}}
}

func openCard(call string, mod func(k *wire.CardState)) wire.CardState {
	k := wire.CardState{Key: "question:s1:" + call, Session: "s1", CallID: call, Kind: "question", State: wire.StateOpen,
		WaitState: wire.WaitStateCounting, Channel: wire.ChannelWaterfall, Shown: true, Seat: true, Draft: "{a=-}",
		Questions: []wire.Question{{ID: "a", Question: "A?", Options: []wire.Option{{Label: "x"}, {Label: "y"}}}}}
	if mod != nil {
		mod(&k)
	}
	return k
}

func init() {
	violationCases = append(violationCases,
		violationCase{inv: "INV-CLIENT-SWEEP", name: "CARD-8 a keyed card with no row and no request is removed by the update", base: "timed",
			break_: func(m *mut) int {
				i := m.find(0, "c1@", "in frame session s1 events=7..7", "active=[]")
				return probeAfter(m, i, clientSnap("c1", []wire.CardState{openCard("q1", nil)}, nil))
			}},
		violationCase{inv: "INV-CLIENT-DRAFTS", name: "DRAFT-2 a listed card holds only a stored draft that fits its questions", base: "timed",
			break_: func(m *mut) int {
				i := m.find(0, "c1@", "in frame item", "remainingMs")
				return probeAfter(m, i, clientSnap("c1", []wire.CardState{openCard("q1", nil)},
					[]wire.DraftState{{Session: "s1", Key: "question:s1:q1", JSON: `{"drafts":[{"selected":["x"],"custom":"","skipped":false},{"selected":[],"custom":"","skipped":true}],"index":0}`}}))
			}},
		violationCase{inv: "INV-CLIENT-DRAFTS", name: "DRAFT-3 a card that closed leaves no draft", base: "timed",
			break_: func(m *mut) int {
				i := m.find(0, "c1@", "in user choose card=q1")
				probeAfter(m, i, clientSnap("c1", []wire.CardState{openCard("q1", func(k *wire.CardState) { k.Draft = "{a=[x]}" })},
					[]wire.DraftState{{Session: "s1", Key: "question:s1:q1", JSON: `{"drafts":[{"selected":["x"],"custom":"","skipped":false}],"index":0,"wait":"editing"}`}}))
				j := m.find(0, "c1@", "in frame session s1 events=7..7", "active=[]")
				return probeAfter(m, j, clientSnap("c1", nil,
					[]wire.DraftState{{Session: "s1", Key: "question:s1:q1", JSON: `{"drafts":[{"selected":["x"],"custom":"","skipped":false}],"index":0,"wait":"editing"}`}}))
			}},
		violationCase{inv: "INV-CLIENT-DRAFTS", name: "DRAFT-3 drafts are pruned to the live card keys on mount", base: "timed",
			break_: func(m *mut) int {
				i := m.find(0, "c1@", "in frame item", "remainingMs")
				return probeAfter(m, i, clientSnap("c1", []wire.CardState{openCard("q1", nil)},
					[]wire.DraftState{{Session: "s1", Key: "question:s1:gone", JSON: `{"drafts":[{"selected":[],"custom":"","skipped":true}],"index":0}`}}))
			}},
		violationCase{inv: "INV-CLIENT-UNKEYED-KEYS", name: "CARD-3 an unkeyed card's key is unique across reloads", base: "timed",
			break_: func(m *mut) int {
				n := len(m.tr.Records)
				at, ct := m.tr.Records[n-1].Time, m.tr.Records[n-1].ClientTime
				unkeyed := []wire.CardState{{Key: "question:0123456789abcdef0123456789abcdef:1", Session: "s1", Kind: "question", State: wire.StateOpen,
					WaitState: wire.WaitStateCounting, Channel: wire.ChannelWaterfall, Shown: true, Seat: true, Draft: "{a=-}"}}
				probeAfter(m, n-1, clientSnap("c1", unkeyed, nil))
				m.insert(n+1, trace.Record{Time: at + 1, ClientTime: ct + 1, Actor: "c1", Kind: trace.In, Payload: wire.Reload{}})
				return probeAfter(m, n+1, clientSnap("c1", unkeyed, nil))
			}},
		violationCase{inv: "INV-CLIENT-SUBMIT", name: "CARD-5 a waterfall submission keeps its card busy with its draft", base: "timed",
			break_: func(m *mut) int {
				i := m.find(0, "c1@", "out result", "ev=e1 result")
				return probeAfter(m, i, clientSnap("c1", []wire.CardState{openCard("q1", func(k *wire.CardState) { k.Draft = "{a=[x]}" })}, nil))
			}},
		violationCase{inv: "INV-CLIENT-SUBMIT", name: "CARD-7 an accepted late answer closes the panel", base: "timed",
			break_: func(m *mut) int {
				i := m.find(0, "c2@", "in http", `"value":true`)
				return probeAfter(m, i, clientSnap("c2", []wire.CardState{openCard("q2", func(k *wire.CardState) {
					k.State, k.WaitState, k.Channel, k.Draft = wire.StateContinued, wire.WaitStateContinued, wire.ChannelRPC, "{a=[x]}"
				})}, nil))
			}},
		violationCase{inv: "INV-CLIENT-SUBMIT", name: "CARD-6 a waterfall submission that turns continued re-arms the controls", base: "timed",
			break_: func(m *mut) int {
				// c2 submits q2 through its waterfall instead of letting its countdown expire
				j := submitThroughWaterfallThenContinued(m)
				return probeAfter(m, j, clientSnap("c2", []wire.CardState{openCard("q2", func(k *wire.CardState) {
					k.State, k.WaitState, k.Channel, k.Draft, k.Busy = wire.StateContinued, wire.WaitStateContinued, wire.ChannelRPC, "{a=[x]}", true
				})}, nil))
			}},
		violationCase{inv: "INV-CLIENT-AUTOFOCUS", name: "CD-8 no autofocus while a countdown is active", base: "timed",
			break_: func(m *mut) int {
				i := m.find(0, "c1@", "in frame item", "remainingMs")
				return probeAfter(m, i, clientSnap("c1", []wire.CardState{openCard("q1", func(k *wire.CardState) {
					k.Focus, k.WaitState, k.Countdown = true, wire.WaitStateFocused, &wire.Countdown{RemainingMs: 4900}
					k.Questions = []wire.Question{{ID: "a", Question: "A?"}}
				})}, nil))
			}},
		violationCase{inv: "INV-CLIENT-CONVERSATION", name: "NODE-4 a reply that opens a turn comes after the turn's disclosure", base: "timed",
			break_: func(m *mut) int {
				m.tr.Final.Clients = append([]wire.ClientState(nil), m.tr.Final.Clients...)
				m.tr.Final.Clients[0].Conversation = []wire.ConvEntry{
					{Session: "s1", Kind: wire.ConvGroup, Seq: 18, Turn: 2, Depth: 0, Folded: true, Visible: true},
					{Session: "s1", Kind: wire.ConvReply, Seq: 18, Turn: 2, Depth: 1, Ref: "q2"},
					{Session: "s1", Kind: wire.ConvTurn, Seq: 17, Turn: 2, Ref: "2", Folded: true, Visible: true},
				}
				return final
			}},
		violationCase{inv: "INV-CLIENT-SUBMIT", name: "CARD-6 the kept draft is what the late-answer RPC resubmits", base: "timed",
			break_: func(m *mut) int {
				j := submitThroughWaterfallThenContinued(m)
				at, ct := m.tr.Records[j].Time+1, m.tr.Records[j].ClientTime+1
				m.insert(j+1, trace.Record{Time: at, ClientTime: ct, Actor: "c2", Kind: trace.In, Payload: wire.User{Action: wire.UserAction{Kind: wire.ActSubmit, Card: "q2"}}})
				m.insert(j+2, trace.Record{Time: at, ClientTime: ct, Actor: "c2", Kind: trace.Out, Payload: wire.SendCall{Gen: 1, RPCID: "c2-rx", Endpoint: wire.EndpointAnswer,
					Args: []byte(`{"agentId":"s1","callId":"q2","answer":{"answers":[{"id":"a","selected":["y"]}]}}`)}})
				return j + 2
			}},
	)
}
