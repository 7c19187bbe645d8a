package explore

import (
	"strconv"
	"strings"

	"github.com/twosettle/twosettle/engine/wire"
	"github.com/twosettle/twosettle/scenarios"
)

// steps draws, after everything else (so the rest of a seed's scenario is what it would be
// without them), the steps of the scenario language that no episode writes (issue 13),
// each kind switched on in a share of the seeds:
//
//   - client inputs: the guarded Continue on a card (refused while its current question is
//     unanswered, CARD-4), the tool row's own toggle (ROW-1), a Session unbound from a
//     client's view and (most times) bound again (CARD-8), and a raw client input: a
//     session-update for a Session the host never opened, carrying the records a real host may send (a
//     truncated call, a result with no text, a continued call, odd inbox entries: ROW-1,
//     ROW-2, CARD-9);
//   - host steps: events appended by hand (a call and its recorded result, malformed or
//     not, noise on another Session: PROJ-3, PROJ-4, PROJ-12), a late reply claimed into a
//     chosen turn whose end is then appended before any admission (LATE-6, LATE-7), a host
//     stall that holds its timers back (WAIT-8);
//   - an answerer that holds every delivery (hold: true) and the outcomes and claims
//     injected for it (WAIT-1, WAIT-3, WAIT-4, GW-6).
//
// until is the end of the episodes: everything here happens before it, so the healed phase
// (heal) still starts after the last fault.
func (g *gen) steps(until scenarios.Duration) {
	r := g.r
	if len(g.calls) > 0 && len(g.clients) > 0 && chance(r, 15) {
		for n := 1 + r.IntN(2); n > 0; n-- {
			g.guardedContinue()
		}
	}
	if len(g.calls) > 0 && len(g.clients) > 0 && chance(r, 12) {
		g.toggleRow()
	}
	if len(g.clients) > 0 && chance(r, 10) {
		g.unbindBind(until)
	}
	if len(g.clients) > 0 && chance(r, 10) {
		g.rawInput(until)
	}
	if chance(r, 10) && g.f.appendEvent {
		g.appendByHand(until)
	}
	if late := g.lateCalls(); len(late) > 0 && g.sw.Mode == scenarios.ModeTimed && chance(r, 12) && g.f.appendEvent && g.f.direct {
		g.claimReply(pick(r, late))
	}
	if chance(r, 8) {
		g.stall(until)
	}
	if len(g.s.Clients) < scenarios.MaxClients && chance(r, 10) {
		g.holder(until)
	}
}

// stall holds the host's timers back for a while, at any time of the run: a run_code
// chain (a sleep or an ask, then an ask) caught up after it starts its next ask at the
// caught-up timer's due time, as the reference host records it (WAIT-1 in the host's own
// time; the oracle reads the sub-call's recorded start).
func (g *gen) stall(until scenarios.Duration) {
	r := g.r
	d := scenarios.Duration(between(r, 100, 5000))
	at := scenarios.Duration(between(r, 0, max(0, until.Ms()-d.Ms())))
	g.add(at, scenarios.Step{Host: &scenarios.HostAction{Kind: scenarios.HostStall, For: d}})
}

// guardedContinue presses Continue on a call's card, from the moment it can be shown:
// once before any edit (refused while the current question is unanswered), then, after
// choosing an option or typing, once more (the next question, or the submit on the last).
func (g *gen) guardedContinue() {
	r := g.r
	c := pick(r, g.calls)
	cl := pick(r, g.clients)
	at := c.at + scenarios.Duration(between(r, cl.latencyMs+1, cl.latencyMs+1500))
	sess := sessionKey(c.session)
	press := func(u scenarios.UserAction) {
		u.Card = c.card
		g.add(at, scenarios.Step{Client: cl.name, Session: sess, User: &u})
		at += scenarios.Duration(between(r, 1, 300))
	}
	if chance(r, 60) {
		press(scenarios.UserAction{Kind: scenarios.UserContinue})
	}
	for _, q := range c.questions {
		if len(q.Options) > 0 && chance(r, 70) {
			press(scenarios.UserAction{Kind: scenarios.UserChoose, Label: pick(r, q.Options).Label})
		} else {
			press(scenarios.UserAction{Kind: scenarios.UserType, Text: pick(r, []string{"mine", "x"})})
		}
		press(scenarios.UserAction{Kind: scenarios.UserContinue})
		if chance(r, 30) {
			break // left on an unanswered question
		}
	}
}

// toggleRow toggles a call's tool row open and, mostly, closed again.
func (g *gen) toggleRow() {
	r := g.r
	c := pick(r, g.calls)
	cl := pick(r, g.clients)
	at := c.at + scenarios.Duration(between(r, cl.latencyMs+1, cl.latencyMs+4000))
	for n := 1 + r.IntN(2); n > 0; n-- {
		u := scenarios.UserAction{Kind: scenarios.UserToggleRow, Card: c.call}
		g.add(at, scenarios.Step{Client: cl.name, Session: sessionKey(c.session), User: &u})
		at += scenarios.Duration(between(r, 1, 2000))
	}
}

// unbindBind takes a Session out of a client's view and, most times, binds it again
// later: a question settled meanwhile is not swept until the binding reconciles it
// (CARD-8). Probes may look inside the unbound span, and a quarter of the draws leave the
// Session unbound to the end (the oracle's client model follows bindings).
func (g *gen) unbindBind(until scenarios.Duration) {
	r := g.r
	cl := pick(r, g.clients)
	sess := pick(r, g.sessions)
	at := g.anytime(sess, until)
	if len(g.calls) > 0 && chance(r, 70) {
		c := pick(r, g.calls)
		sess, at = c.session, c.at+scenarios.Duration(between(r, 0, 2000))
	}
	back := at + scenarios.Duration(between(r, 1, 3000))
	rebind := !chance(r, 25)
	for _, st := range g.s.Steps {
		if st.Client == cl.name && st.User != nil && st.User.Kind == scenarios.UserCrash && st.At <= back {
			// a client gone for good takes no action after its crash
			if st.At <= at+1 {
				return
			}
			back = st.At - 1
		}
	}
	u, b := scenarios.UserAction{Kind: scenarios.UserUnbind}, scenarios.UserAction{Kind: scenarios.UserBind}
	// The Session is named even when it is the first: a client shown a Session the host
	// never opened (rawInput) sees more than one.
	g.add(at, scenarios.Step{Client: cl.name, Session: sess, User: &u})
	if rebind {
		g.add(back, scenarios.Step{Client: cl.name, Session: sess, User: &b})
	}
}

// rawInput delivers to a client, below its user and network, a session-update frame for a
// Session the host never opened, as a real host may send it (docs/PROTOCOL.md "Clients"):
// a few of a truncated call whose head was lost, a result with no text (several content
// blocks), a malformed or a pending recorded result, and odd inbox entries (null fields,
// an entry that is no record).
func (g *gen) rawInput(until scenarios.Duration) {
	r := g.r
	cl := pick(r, g.clients)
	var ev, active, nextStep []string
	seq := 0
	event := func(body string) {
		ev = append(ev, `{"seq":`+strconv.Itoa(seq)+`,"time":`+strconv.Itoa(seq)+`,`+body+`}`)
		seq++
	}
	call := func(id, args string) {
		event(`"type":"tool/call","turn":1,"step":1,"callId":"` + id + `","name":"ask_user_question","arguments":` + wire.JSONString(args))
	}
	result := func(id, tail string) {
		event(`"type":"tool/result","turn":1,"step":1,"callId":"` + id + `",` + tail)
	}
	const args = `{"questions":[{"id":"q1","question":"Which one","options":[{"label":"yes"},{"label":"no"}]}]}`
	for i, n := 1, 1+r.IntN(3); i <= n; i++ {
		id := "r" + strconv.Itoa(i)
		switch r.IntN(5) {
		case 0: // a truncated call whose head was lost
			call(id, "")
			result(id, `"text":"ok"`)
		case 1: // several content blocks: no text
			call(id, args)
			result(id, `"text":"","noText":true`)
		case 2: // a malformed pending text
			call(id, args)
			result(id, `"text":`+wire.JSONString(`{"pending":tru`))
		case 3: // raw answers that are not all valid items
			call(id, args)
			result(id, `"text":`+wire.JSONString(`{"answers":[{"id":"q1","selected":["yes"]},{"id":"zz"}]}`))
		default: // continued, answerable
			call(id, args)
			result(id, `"text":`+wire.JSONString(`{"pending":true,"callId":"`+id+`","message":"m"}`))
			active = append(active, `{"callId":"`+id+`","questions":[{"id":"q1","question":"Which one","options":[{"label":"yes"},{"label":"no"}]}],"state":"continued"}`)
			if chance(r, 50) {
				nextStep = append(nextStep, `{"id":"m`+id+`","source":{"kind":"user-question-reply","callId":"`+id+`","outcome":"answered"},"text":"not json"}`)
			}
		}
	}
	if chance(r, 50) {
		nextStep = append(nextStep, `{"id":"m0","source":{"kind":"user-question-reply","outcome":"answered"},"text":"{}"}`)
	}
	if chance(r, 30) { // entries with null fields, and one that is no record (read as the peer reads them)
		nextStep = append(nextStep, `null`, `{"id":"mn","source":{"kind":"user-question-reply","callId":null,"outcome":"answered"},"text":null}`)
	}
	nextTurn := ""
	if chance(r, 50) {
		nextTurn = `{"id":"m9","source":{"kind":"agent-message"},"text":"hi"}`
	}
	in := `{"kind":"from-host","frame":{"kind":"session-update","session":"x1","reset":true,"from":0,"events":[` + strings.Join(ev, ",") +
		`],"questions":{"active":[` + strings.Join(active, ",") + `],"settled":[]},"inbox":{"next-turn":[` + nextTurn + `],"next-step":[` + strings.Join(nextStep, ",") + `]}}}`
	u := scenarios.UserAction{Kind: scenarios.UserInput, Input: in}
	at := scenarios.Duration(between(r, 0, until.Ms()))
	g.add(at, scenarios.Step{Client: cl.name, User: &u})
	if chance(r, 50) {
		t := scenarios.UserAction{Kind: scenarios.UserToggleRow, Card: "r1"}
		g.add(at+scenarios.Duration(between(r, 1, 1000)), scenarios.Step{Client: cl.name, Session: "x1", User: &t})
	}
}

// appendByHand writes a call and its recorded result the tool never wrote (malformed or
// not, some with a reasoning block beside the text), on a Session the scenario has, or noise
// on another one.
func (g *gen) appendByHand(until scenarios.Duration) {
	r := g.r
	sess := pick(r, g.sessions)
	at := g.anytime(sess, until)
	id := "h" + strconv.Itoa(1+r.IntN(9))
	appendEvent := func(t scenarios.Duration, body string) {
		g.add(t, scenarios.Step{Host: &scenarios.HostAction{Kind: scenarios.HostAppend, Session: sess, Event: body}})
	}
	args := `{"questions":[{"id":"q1","question":"Which one"}]` + pick(r, []string{"", `,"timeout":5`}) + `}`
	appendEvent(at, `{"type":"tool/call","turn":1,"step":1,"callId":"`+id+`","name":"ask_user_question","arguments":`+wire.JSONString(args)+`}`)
	if chance(r, 80) {
		text := pick(r, []string{
			`{"pending":tru`,
			`{"pending":true,"callId":"` + id + `","message":"recorded by an older host"}`,
			`{"answers":[{"id":"q1","selected":[]}]}`,
			`{"answers":[{"id":"q1"},{"id":"zz","selected":["x"]}]}`,
		})
		tail := `"text":` + wire.JSONString(text)
		if chance(r, 20) {
			tail = `"isError":true,"error":{"name":"ToolOutcomeUnknownError","code":"TOOL_OUTCOME_UNKNOWN"},"text":"outcome unknown"`
		}
		if chance(r, 25) { // text plus a reasoning block
			tail += `,"reasoning":"the user stepped away"`
		}
		appendEvent(at+scenarios.Duration(between(r, 0, 1000)), `{"type":"tool/result","turn":1,"step":1,"callId":"`+id+`",`+tail+`}`)
	}
}

// claimReply answers a continued call late, tells the service its reply was claimed into a
// turn no agent runs, and, mostly, appends that turn's end before any admission (LATE-7:
// the reservation is released, the reply stays queued and refuses another answer).
func (g *gen) claimReply(c genCall) {
	r := g.r
	at := max(c.at+scenarios.Duration(c.timeoutMs+between(r, 50, 2000)), g.since(c.session))
	sess := sessionKey(c.session)
	ans := scenarios.ServiceCall{Kind: scenarios.ServiceAnswer, Call: c.call}
	for _, q := range c.questions {
		ans.Answers = append(ans.Answers, scenarios.AnswerItem{ID: q.ID, Selected: []string{}})
	}
	g.add(at, scenarios.Step{Session: sess, Service: &ans})
	turn := 40 + r.IntN(20)
	at += scenarios.Duration(between(r, 1, 1000))
	g.add(at, scenarios.Step{Host: &scenarios.HostAction{Kind: scenarios.HostClaimReply, Session: c.session, Call: c.call, Turn: turn}})
	if chance(r, 80) {
		at += scenarios.Duration(between(r, 1, 1000))
		end := `{"type":"turn/end","turn":` + strconv.Itoa(turn) + `,"reason":{"kind":"completed"}}`
		g.add(at, scenarios.Step{Host: &scenarios.HostAction{Kind: scenarios.HostAppend, Session: c.session, Event: end}})
	}
	if chance(r, 50) {
		again := ans
		g.add(at+scenarios.Duration(between(r, 1, 1000)), scenarios.Step{Session: sess, Service: &again})
	}
}

// holder adds an answerer that holds every delivery (hold: true; it redials after losing
// its link) and the outcomes injected for it: next, an answer or a rejection for some of
// the first deliveries, and claim streams it opens for a call, from the live generation or
// one that is gone (after a disconnect), each claim ended by a later disconnect.
func (g *gen) holder(until scenarios.Duration) {
	r := g.r
	d := scenarios.Duration(between(r, 50, 500))
	g.s.Clients = append(g.s.Clients, scenarios.Client{Name: "h", Hold: true, Reconnect: &d,
		Latency: scenarios.Latency{Min: 0, Max: scenarios.Duration(between(r, 0, 40))}})
	events := len(g.calls) + g.services
	for n := r.IntN(4); n > 0 && events > 0; n-- {
		x := scenarios.Inject{Client: "h", Event: "e" + strconv.Itoa(1+r.IntN(events))}
		switch r.IntN(4) {
		case 0, 1:
			x.Next = true
		case 2:
			x.Rejected = pick(r, []string{"Error: the claim stream failed", "Error/ASK_TIMED_OUT: the countdown expired"})
		default:
			x.HasAns = true
			x.Answers = []scenarios.AnswerItem{{ID: "q1", Selected: []string{}}}
		}
		g.add(scenarios.Duration(between(r, 0, until.Ms())), scenarios.Step{Inject: &x})
	}
	if len(g.calls) > 0 && chance(r, 60) {
		c := pick(r, g.calls)
		if c.call == "" || strings.Contains(c.call, ":") {
			return
		}
		at := max(c.at+scenarios.Duration(between(r, 0, 1000)), g.since(c.session))
		gen := 1
		if chance(r, 50) { // a generation that is gone by the time it attaches
			g.add(at, scenarios.Step{Net: &scenarios.NetAction{Kind: scenarios.NetDisconnect, Client: "h"}})
			at += d + scenarios.Duration(between(r, 50, 300))
			if chance(r, 50) {
				gen = 2
			}
		}
		x := scenarios.Inject{Client: "h", Gen: gen, Attach: c.call}
		g.add(at, scenarios.Step{Session: sessionKey(c.session), Inject: &x})
		g.add(at+scenarios.Duration(between(r, 100, 5000)), scenarios.Step{Net: &scenarios.NetAction{Kind: scenarios.NetDisconnect, Client: "h"}})
	}
}
