package oracle_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/twosettle/twosettle/engine/session"
	"github.com/twosettle/twosettle/engine/wire"
	"github.com/twosettle/twosettle/oracle"
	"github.com/twosettle/twosettle/trace"
)

// final is the expected record of a violation found in the final state.
const final = -1

// A violation case: a base trace that passes, one mutation that breaks one rule, the
// invariant that must fire and the record it must name.
type violationCase struct {
	inv    string
	name   string // starts with the requirement id the case really checks
	base   string
	opts   oracle.Options
	break_ func(m *mut) int // mutates, returns the index of the record expected (final: -1)
}

func apply(m *mut, i int, f func(e wire.Appended) wire.Appended) {
	m.set(i, f(m.appended(i)))
}

func toolResult(m *mut, i int, f func(d *session.ToolResult)) {
	apply(m, i, func(a wire.Appended) wire.Appended {
		d := a.Event.Data.(session.ToolResult)
		f(&d)
		a.Event.Data = d
		return a
	})
}

func frameAt(m *mut, i int, f func(sf *wire.SendFrame)) {
	sf := m.effect(i).(wire.SendFrame)
	f(&sf)
	m.set(i, sf)
}

func update(m *mut, i int, f func(u *wire.SessionUpdate)) {
	frameAt(m, i, func(sf *wire.SendFrame) {
		u := sf.Frame.(wire.SessionUpdate)
		f(&u)
		sf.Frame = u
	})
}

// delApply removes the host Apply starting at record i (its In and every record up to the
// next host In).
func delApply(m *mut, i int) {
	j := i + 1
	for j < len(m.tr.Records) {
		if _, ok := m.tr.Records[j].Payload.(wire.Command); ok && m.tr.Records[j].Kind == trace.In {
			break
		}
		j++
	}
	m.tr.Records = append(m.tr.Records[:i], m.tr.Records[j:]...)
	m.renumber()
}

func copyFinal(m *mut) {
	h := m.tr.Final.Host
	h.Sessions = append([]wire.SessionState(nil), h.Sessions...)
	for i := range h.Sessions {
		h.Sessions[i].Log = append([]session.Event(nil), h.Sessions[i].Log...)
	}
	m.tr.Final.Host = h
}

var violationCases = []violationCase{
	{inv: "INV-LOG-SEQ", name: "AGENT-6 a skipped seq", base: "timed", break_: func(m *mut) int {
		i := m.find(0, "host out append s1 #7 ", "tool/result")
		apply(m, i, func(a wire.Appended) wire.Appended { a.Event.Seq = 9; return a })
		return i
	}},
	{inv: "INV-LOG-NESTING", name: "AGENT-1 a step opened inside an open step", base: "timed", break_: func(m *mut) int {
		m.del(m.find(0, "host out append s1 #8 ", "step/end"))
		return m.find(0, "host out append s1 #9 ", "step/start")
	}},
	{inv: "INV-LOG-PAIRING", name: "AGENT-3 a result without its call", base: "timed", break_: func(m *mut) int {
		i := m.find(0, "host out append s1 #7 ", "tool/result")
		toolResult(m, i, func(d *session.ToolResult) { d.CallID = "zz" })
		return i
	}},
	{inv: "INV-PERSIST-MONOTONIC", name: "AGENT-6 the durable prefix shrinks", base: "timed", break_: func(m *mut) int {
		i := m.find(0, "persisted s1 through=9")
		m.set(i, wire.Persisted{Session: "s1", Through: 3})
		return i
	}},
	{inv: "INV-RESTART-PREFIX", name: "AGENT-3 a repair closer with the wrong error", base: "restart", break_: func(m *mut) int {
		i := m.find(0, "host out append s1 #7 ", "TOOL_OUTCOME_UNKNOWN")
		toolResult(m, i, func(d *session.ToolResult) { d.Err = session.ErrorInfo{Name: "Error", Code: "OOPS"} })
		return i
	}},
	{inv: "INV-LOG-REPORTED", name: "AGENT-6 the final log lost its last event", base: "timed", break_: func(m *mut) int {
		copyFinal(m)
		ss := &m.tr.Final.Host.Sessions[0]
		ss.Log = ss.Log[:len(ss.Log)-1]
		ss.Persisted = len(ss.Log)
		return final
	}},
	{inv: "INV-ACK-AFTER-PERSIST", name: "AGENT-6 true is acknowledged before the reply is durable", base: "timed", break_: func(m *mut) int {
		i := m.find(0, "host out reply c2.1 rpc=c2-r2")
		p := m.find(0, "persisted s1 through=15")
		m.tr.Records[i].Payload, m.tr.Records[p].Payload = m.tr.Records[p].Payload, m.tr.Records[i].Payload
		return p
	}},
	{inv: "INV-REPLY-NOT-LOST", name: "AGENT-6 a crash loses an accepted reply", base: "timed", break_: func(m *mut) int {
		m.del(m.find(0, "persisted s1 through=15"))
		k := m.find(0, "host out reply c2.1 rpc=c2-r2")
		r := m.tr.Records[k]
		m.insert(k+1, trace.Record{Time: r.Time, Actor: trace.ActorHost, Kind: trace.In, Payload: wire.Restart{CutAfter: -1}})
		return k + 1
	}},
	{inv: "INV-GW-SETTLE-ONCE", name: "GW-1 a finished request delivered again", base: "timed", break_: func(m *mut) int {
		w := m.tr.Records[m.find(0, "host out send c2.1 waterfall ev=e1")]
		k := m.find(0, "host out append s1 #8 ") + 1
		w.Time = m.tr.Records[k-1].Time
		m.insert(k, w)
		return k
	}},
	{inv: "INV-GW-CANCEL", name: "GW-1 a holder gets no cancel when another client wins", base: "timed", break_: func(m *mut) int {
		m.del(m.find(0, "host out send c2.1 cancel ev=e1"))
		return m.find(0, "host in event-result c1.1 rpc=c1-r1")
	}},
	{inv: "INV-GW-CANCEL", name: "GW-1 the winner gets a cancel", base: "timed", break_: func(m *mut) int {
		i := m.find(0, "host out send c2.1 cancel ev=e1")
		r := m.tr.Records[i]
		r.Payload = wire.SendFrame{Client: "c1", Gen: 1, Frame: wire.Cancel{EventID: "e1"}}
		m.insert(i+1, r)
		return i + 1
	}},
	{inv: "INV-GW-FANOUT", name: "GW-5 a connected client misses a new request", base: "timed", break_: func(m *mut) int {
		m.del(m.find(0, "host out send c2.1 waterfall ev=e1"))
		return m.find(0, "host in tool-call s1 call=q1")
	}},
	{inv: "INV-GW-REPLAY", name: "GW-5 a reconnecting client is not replayed the pending request", base: "reconnect", break_: func(m *mut) int {
		m.del(m.find(0, "host out send c1.2 waterfall ev=e1"))
		return m.find(1, "host in connect c1")
	}},
	{inv: "INV-GW-REPLAY", name: "GW-5 a replay after a live frame", base: "reconnect", break_: func(m *mut) int {
		w := m.find(0, "host out send c1.2 waterfall ev=e1")
		u := m.find(0, "host out send c1.2 session s1 reset")
		m.tr.Records[w].Payload, m.tr.Records[u].Payload = m.tr.Records[u].Payload, m.tr.Records[w].Payload
		return u
	}},
	{inv: "INV-GW-GENERATION", name: "GW-7 a frame to a dead generation", base: "timed", break_: func(m *mut) int {
		i := m.find(0, "host out send c2.1 cancel ev=e1")
		frameAt(m, i, func(sf *wire.SendFrame) { sf.Gen = 5 })
		return i
	}},
	{inv: "INV-GW-NEXT-ONLY", name: "GW-6 NO_PROVIDER while a client answered", base: "reconnect", break_: func(m *mut) int {
		i := m.find(0, "host out append s1 #7 ", "tool/result")
		toolResult(m, i, func(d *session.ToolResult) {
			d.IsError, d.Err, d.Text = true, session.ErrorInfo{Name: wire.UserQuestionErrorName, Code: wire.NoProvider}, "Error: no provider"
		})
		return i
	}},
	{inv: "INV-WAIT-CLAIMED-NO-EXPIRY", name: "WAIT-2 the host expires a claimed wait", base: "timed", break_: func(m *mut) int {
		i := m.find(0, "host in event-result c1.1 rpc=c1-r2")
		m.set(i, wire.Tick{})
		return m.find(0, "host out send c2.1 cancel ev=e2")
	}},
	{inv: "INV-WAIT-CLAIMED-NO-EXPIRY", name: "WAIT-2 an expiry note while claimed", base: "timed", break_: func(m *mut) int {
		i := m.find(0, "wait s1/q1 claimed remaining=4977 claims=2")
		r := m.tr.Records[i]
		r.Payload = wire.WaitNote{Session: "s1", CallID: "q1", Kind: wire.WaitExpired}
		m.insert(i+1, r)
		return i + 1
	}},
	{inv: "INV-WAIT-DEADLINE", name: "WAIT-1 the timer is re-armed past the deadline", base: "timed", break_: func(m *mut) int {
		i := m.find(0, "wait s1/q1 armed at=5100")
		m.set(i, wire.WaitNote{Session: "s1", CallID: "q1", Kind: wire.WaitArmed, At: 9999})
		return i
	}},
	{inv: "INV-WAIT-DEADLINE", name: "WAIT-1 pending before the deadline", base: "unattended", break_: func(m *mut) int {
		i := m.find(0, "t=2100 host in tick")
		for j := i; j < len(m.tr.Records); j++ {
			if m.tr.Records[j].Time == 2100 {
				m.tr.Records[j].Time = 1500
			}
		}
		return m.find(0, "wait s1/q1 expired")
	}},
	{inv: "INV-WAIT-EXPIRES-ON-TIME", name: "WAIT-3 an unclaimed wait outlives its deadline", base: "unattended", break_: func(m *mut) int {
		delApply(m, m.find(0, "t=2100 host in tick"))
		return m.find(0, "t=5000 host in send")
	}},
	{inv: "INV-WAIT-CLAIM-FRAME", name: "WAIT-4 remainingMs is not deadline minus now", base: "timed", break_: func(m *mut) int {
		i := m.find(0, "host out send c2.1 item stream=c2-s1")
		frameAt(m, i, func(sf *wire.SendFrame) {
			sf.Frame = wire.StreamItem{StreamID: "c2-s1", Value: json.RawMessage(`{"remainingMs":5000}`)}
		})
		return i
	}},
	{inv: "INV-WAIT-CLAIM-FRAME", name: "WAIT-7 a claim frame for a closed wait", base: "timed", break_: func(m *mut) int {
		i := m.find(0, "host in stream-cancel c2.1 stream=c2-s1")
		m.set(i, wire.StreamOpen{Client: "c2", Gen: 1, StreamID: "late", Endpoint: wire.EndpointAttachWait, Args: json.RawMessage(`{"agentId":"s1","callId":"q1"}`)})
		m.insert(i+1, trace.Record{Time: m.tr.Records[i].Time, Actor: trace.ActorHost, Kind: trace.Out,
			Payload: wire.SendFrame{Client: "c2", Gen: 1, Frame: wire.StreamItem{StreamID: "late", Value: json.RawMessage(`{"remainingMs":4000}`)}}})
		return i + 1
	}},
	{inv: "INV-WAIT-LIFECYCLE", name: "WAIT-10 a wait closes twice", base: "timed", break_: func(m *mut) int {
		i := m.find(0, "wait s1/q1 closed")
		m.insert(i+1, m.tr.Records[i])
		return i + 1
	}},
	{inv: "INV-PENDING-SHAPE", name: "TOOL-7 pending carries an empty answer batch", base: "unattended", break_: func(m *mut) int {
		i := m.find(0, `call=q1 ok {"pending"`)
		toolResult(m, i, func(d *session.ToolResult) { d.Text = strings.TrimSuffix(d.Text, "}") + `,"answers":[]}` })
		return i
	}},
	{inv: "INV-ANSWER-FROM-WINNER", name: "ASK-12 the result is not the winner's batch", base: "timed", break_: func(m *mut) int {
		i := m.find(0, "host out append s1 #7 ", "tool/result")
		toolResult(m, i, func(d *session.ToolResult) { d.Text = `{"answers":[{"id":"a","selected":["y"]}]}` })
		return i
	}},
	{inv: "INV-TIMED-RESULT-MAPPING", name: "ASK-9 ASK_CANCELLED becomes pending", base: "timed", break_: func(m *mut) int {
		i := m.find(0, "host in event-result c1.1 rpc=c1-r2")
		x := m.tr.Records[i].Payload.(wire.EventResult)
		x.Outcome = wire.Outcome{Kind: wire.OutcomeRejected, Error: wire.QuestionError(wire.AskCancelled, wire.MsgAskCancelled)}
		m.set(i, x)
		return m.find(0, `call=q2 ok {"pending"`)
	}},
	{inv: "INV-EXPIRY-KEEPS-TURN", name: "WAIT-8 an unattended expiry ends in ASK_ABORTED", base: "unattended", break_: func(m *mut) int {
		i := m.find(0, `call=q1 ok {"pending"`)
		toolResult(m, i, func(d *session.ToolResult) {
			d.IsError, d.Err, d.Text = true, session.ErrorInfo{Name: wire.UserQuestionErrorName, Code: wire.AskAborted}, "Error: "+wire.MsgAskAborted
		})
		return i
	}},
	{inv: "INV-EXPIRY-KEEPS-TURN", name: "WAIT-8 the expiry aborts the turn", base: "unattended", break_: func(m *mut) int {
		i := m.find(0, "host out append s1 #9 ", "turn/end")
		apply(m, i, func(a wire.Appended) wire.Appended {
			a.Event.Data = session.TurnEnd{Turn: 1, Reason: session.TurnEndReason{Kind: session.EndAborted, Detail: "user"}}
			return a
		})
		return i
	}},
	{inv: "INV-FOREGROUND-ENDS-WATERFALL", name: "CLAIM-3 a claim stream outlives the settled request", base: "timed", break_: func(m *mut) int {
		m.del(m.find(0, "host out send c1.1 end stream=c1-s1"))
		return m.find(0, "host in event-result c1.1 rpc=c1-r1")
	}},
	{inv: "INV-FOREGROUND-ENDS-WATERFALL", name: "GW-1 the request is kept alive after pending", base: "timed", break_: func(m *mut) int {
		i := m.find(0, "host in event-result c1.1 rpc=c1-r2")
		m.set(i, wire.Tick{})
		m.del(m.find(0, "host out send c2.1 cancel ev=e2"))
		return i
	}},
	{inv: "INV-TOOL-MODE", name: "TOOL-3 an invalid timeout reaches a client", base: "timed", break_: func(m *mut) int {
		i := m.find(0, "host out append s1 #6 ", "tool/call")
		apply(m, i, func(a wire.Appended) wire.Appended {
			d := a.Event.Data.(session.ToolCall)
			d.Arguments = strings.Replace(d.Arguments, `"timeout":5`, `"timeout":0`, 1)
			a.Event.Data = d
			return a
		})
		return m.find(0, "wait s1/q1 created")
	}},
	{inv: "INV-LEGACY-UNTRACKED", name: "PROJ-2 a legacy call published as a question", base: "legacy", break_: func(m *mut) int {
		i := m.find(0, "host out send c1.1 session s1 events=6..6")
		update(m, i, func(u *wire.SessionUpdate) {
			u.Questions = wire.QuestionsView{Active: []wire.PendingRow{{CallID: "q1", Questions: []wire.Question{{ID: "a", Question: "A?"}}, State: wire.StateOpen}}, Settled: []wire.SettledRow{}}
		})
		return i
	}},
	{inv: "INV-CALLER-ROOT-ONLY", name: "CALLER-2 a child's blocking question reaches a client", base: "reconnect", break_: func(m *mut) int {
		m.set(m.find(0, "host in open-session s1"), wire.OpenSession{Session: "s1", Owner: "boss"})
		return m.find(0, "host out send c1.1 waterfall ev=e1")
	}},
	{inv: "INV-CALLER-ROOT-ONLY", name: "CALLER-2 a child's timed call gets a wait", base: "timed", break_: func(m *mut) int {
		m.set(m.find(0, "host in open-session s1"), wire.OpenSession{Session: "s1", Owner: "boss"})
		return m.find(0, "wait s1/q1 created")
	}},
	{inv: "INV-PROJ-REFOLD", name: "PROJ-4 the host shows a pending call as open", base: "timed", break_: func(m *mut) int {
		i := m.find(0, "host out send c1.1 session s1 events=11..13")
		update(m, i, func(u *wire.SessionUpdate) {
			rows := append([]wire.PendingRow(nil), u.Questions.Active...)
			rows[0].State = wire.StateOpen
			u.Questions.Active = rows
		})
		return i
	}},
	{inv: "INV-PROJ-SETTLE-ON-ADMIT", name: "PROJ-9 the splice settles the question", base: "timed", break_: func(m *mut) int {
		i := m.find(0, "host out send c1.1 session s1 events=14..14")
		update(m, i, func(u *wire.SessionUpdate) {
			u.Questions = wire.QuestionsView{Active: []wire.PendingRow{},
				Settled: append(append([]wire.SettledRow(nil), u.Questions.Settled...), wire.SettledRow{CallID: "q2", Answers: []wire.AnswerItem{{ID: "a", Selected: []string{"y"}}}})}
		})
		return i
	}},
	{inv: "INV-INBOX-MIRROR", name: "LATE-6 the published inbox drops the queued reply", base: "timed", break_: func(m *mut) int {
		i := m.find(0, "host out send c1.1 session s1 events=14..14")
		update(m, i, func(u *wire.SessionUpdate) { u.Inbox = wire.InboxView{} })
		return i
	}},
	{inv: "INV-LATE-ONLY-CONTINUED", name: "LATE-1 a reply queued for a settled call", base: "timed", break_: func(m *mut) int {
		i := m.find(0, "host out append s1 #14 ", "queued next-step")
		apply(m, i, func(a wire.Appended) wire.Appended {
			d := a.Event.Data.(session.InboxSpliced)
			msg := d.Inserted[0]
			msg.Source.CallID = "q1"
			d.Inserted = []session.Message{msg}
			a.Event.Data = d
			return a
		})
		return i
	}},
	{inv: "INV-ONE-REPLY-AWAITING", name: "LATE-2 a second reply while one awaits admission", base: "timed", break_: func(m *mut) int {
		i := m.find(0, "host out append s1 #16 ", "claimed next-step")
		apply(m, i, func(a wire.Appended) wire.Appended {
			a.Event.Data = session.InboxSpliced{Target: session.NextStep, Start: 1, Inserted: []session.Message{{ID: "msg-3",
				Source: session.Source{Kind: session.SourceUserQuestionReply, CallID: "q2", Outcome: "answered"}, Text: "{}"}}}
			return a
		})
		return i
	}},
	{inv: "INV-ANSWER-VALIDATED", name: "LATE-3 a batch that names no question is accepted", base: "timed", break_: func(m *mut) int {
		i := m.find(0, "host in call c2.1 rpc=c2-r2")
		x := m.tr.Records[i].Payload.(wire.Call)
		x.Args = json.RawMessage(`{"agentId":"s1","callId":"q2","answer":{"answers":[{"id":"zz","selected":[]}]}}`)
		m.set(i, x)
		return m.find(0, "host out reply c2.1 rpc=c2-r2")
	}},
	{inv: "INV-ACCEPT-STEERS", name: "LATE-4 false is returned after queuing a reply", base: "timed", break_: func(m *mut) int {
		i := m.find(0, "host out reply c2.1 rpc=c2-r2")
		m.set(i, wire.Reply{Client: "c2", Gen: 1, RPCID: "c2-r2", Envelope: wire.OKValue(json.RawMessage("false"))})
		return i
	}},
	{inv: "INV-LATE-ANSWERABLE", name: "LATE-7 false for a continued call with nothing queued", base: "timed", break_: func(m *mut) int {
		j := m.find(0, "host out append s1 #14 ", "queued next-step")
		apply(m, j, func(a wire.Appended) wire.Appended {
			d := a.Event.Data.(session.InboxSpliced)
			msg := d.Inserted[0]
			msg.Source = session.Source{Kind: session.SourceUser}
			d.Inserted = []session.Message{msg}
			a.Event.Data = d
			return a
		})
		i := m.find(0, "host out reply c2.1 rpc=c2-r2")
		m.set(i, wire.Reply{Client: "c2", Gen: 1, RPCID: "c2-r2", Envelope: wire.OKValue(json.RawMessage("false"))})
		return i
	}},
	{inv: "INV-LIVE-QUESTIONS-END", name: "ASK-10 a question left open in the healed phase", base: "unattended", opts: oracle.Options{LazyTimers: true}, break_: func(m *mut) int {
		i := m.find(0, "t=2100 host in tick")
		m.tr.Records = m.tr.Records[:i]
		m.tr.Final.Time = 10_000
		return final
	}},
	{inv: "INV-LIVE-NO-LEAK", name: "LATE-7 a reservation outlives its reply", base: "timed", break_: func(m *mut) int {
		m.tr.Final.Host.Reservations = []wire.ReservationState{{Session: "s1", CallID: "q2", MessageID: "msg-2", ClaimedTurn: -1}}
		return final
	}},
	{inv: "INV-LIVE-NO-LEAK", name: "GW-1 a request left pending in the gateway", base: "timed", break_: func(m *mut) int {
		m.tr.Final.Host.Pending = []wire.PendingEvent{{EventID: "e1", AgentID: "s1"}}
		return final
	}},
	{inv: "INV-CLIENT-NO-MANUFACTURED-REPLY", name: "AGENT-5 hiding a panel sends an answer", base: "timed", break_: func(m *mut) int {
		i := m.find(0, "c1@600 in user submit")
		m.set(i, wire.User{Action: wire.UserAction{Kind: wire.ActHide, Card: "q1"}})
		return i + 1
	}},
	{inv: "INV-CLIENT-CLAIM-DISCIPLINE", name: "CLAIM-2 the claim is released on local return", base: "timed", break_: func(m *mut) int {
		i := m.find(0, "c1@600 out result")
		r := m.tr.Records[i]
		r.Payload = wire.CancelStream{Gen: 1, StreamID: "c1-s1"}
		m.insert(i+1, r)
		return i + 1
	}},
	{inv: "INV-CLIENT-EXPIRY", name: "CD-1 the countdown expires early", base: "timed", break_: func(m *mut) int {
		i := m.find(0, "c1@4139 out result")
		m.tr.Records[i].ClientTime = 2000
		return i
	}},
	{inv: "INV-CLIENT-EXPIRY", name: "CD-1 an untimed request times out on the client", base: "legacy", break_: func(m *mut) int {
		i := m.find(0, "c1@600 out result")
		x := m.tr.Records[i].Payload.(wire.SendResult)
		x.Outcome = wire.Outcome{Kind: wire.OutcomeRejected, Error: &wire.Error{Name: wire.UserQuestionErrorName, Code: wire.AskTimedOut, Message: "ask_user_question timed out before the user answered"}}
		m.set(i, x)
		return i
	}},
}

func TestInvariantsFire(t *testing.T) {
	traces := map[string]*trace.Trace{}
	for _, c := range violationCases {
		t.Run(c.name+" ("+c.inv+")", func(t *testing.T) {
			if _, ok := oracle.Lookup(c.inv); !ok {
				t.Fatalf("no invariant %s", c.inv)
			}
			base := traces[c.base]
			if base == nil {
				base = bases[c.base](t)
				traces[c.base] = base
			}
			opts := c.opts
			opts.DefaultTimeoutMs = 120_000
			if v := oracle.Check(base, opts); !v.OK() {
				t.Fatalf("the base trace does not pass: %s", v)
			}
			m := mutate(t, base)
			want := c.break_(m)
			v := oracle.Check(m.tr, opts)
			b := v.Of(c.inv)
			if b == nil {
				t.Fatalf("%s did not fire: %s", c.inv, v)
			}
			wantSeq := oracle.FinalRecord
			if want >= 0 {
				wantSeq = m.tr.Records[want].Seq
			}
			if b.Record != wantSeq {
				t.Fatalf("%s fired at %d, want %d:\n%s", c.inv, b.Record, wantSeq, v)
			}
			if len(b.Witness) == 0 && b.Record != oracle.FinalRecord {
				t.Fatalf("no witness: %s", b)
			}
			// the verdict is deterministic text
			if v.String() != oracle.Check(m.tr, opts).String() {
				t.Fatal("two checks of one trace gave different verdicts")
			}
		})
	}
}

// Every invariant of the catalogue can fail: each has a violation case.
func TestEveryInvariantHasAViolationCase(t *testing.T) {
	have := map[string]bool{}
	for _, c := range violationCases {
		have[c.inv] = true
	}
	for _, inv := range oracle.Catalogue() {
		if !have[inv.Name] {
			t.Errorf("%s has no violation case", inv.Name)
		}
	}
}
