package oracle

import (
	"encoding/json"

	"github.com/twosettle/twosettle/engine/wire"
)

// INV-SERVICE-CONTRACT (ASK-1, ASK-2, ASK-6): the question service's own refusals, on
// its direct API (a conformance suite's calls), whatever else the host does:
//   - askTimed with a timeout that is not an integer number of ms in 1..2147483647 fails
//     BAD_TIMEOUT, before liveness and dispatch (ASK-6);
//   - ask with an already aborted signal fails ASK_ABORTED (ASK-1), and with no question
//     EMPTY_QUESTIONS (ASK-2), before any answerer; askTimed too, once its timeout is
//     valid, its caller the live root and no other wait holds its call id;
//   - a live root's ask with an intent whose approve is not one of its question's option
//     labels, or with no detail, fails BAD_INTENT (ASK-3);
//   - the live root of a Session (a runtime root, or a child whose owner was disposed
//     and which came back as a root) is never refused CALLER_NOT_LIVE or
//     DELEGATED_CALLER, whatever its durable lineage (CALLER-3);
//   - askTimed forwards its request with wait {callId, timed: true} (ASK-8; judged when
//     the request is linked to its call, wait.go's linkEvent: serviceContractForwarded).

func (c *Checker) serviceContract(i int, d *directOp, x wire.DirectResult) {
	if !c.on(invServiceContract) || d.op == wire.OpAnswer {
		return
	}
	want, why := "", ""
	validTimeout := true
	if d.op == wire.OpAskTimed {
		t := d.body.TimeoutMs
		validTimeout = t != nil && *t >= 1 && *t <= 2147483647 && *t == float64(int64(*t))
		if !validTimeout {
			want, why = wire.BadTimeout, "askTimed with an invalid timeout"
		}
	}
	reaches := d.op == wire.OpAsk || validTimeout && d.agent == wire.AgentLive && !d.stale && (d.fg == nil || !d.fg.dupWait)
	if want == "" && reaches {
		qs, isArr := jsonArray(d.body.Questions)
		switch {
		case d.body.Aborted:
			want, why = wire.AskAborted, d.op+" with an already aborted signal"
		case isArr && len(qs) == 0:
			want, why = wire.EmptyQuestions, d.op+" with no question"
		case d.op == wire.OpAsk && d.agent == wire.AgentLive && !d.stale && badIntent(d.body.Questions):
			want, why = wire.BadIntent, "ask with an intent whose approve is no option label or with no detail"
		}
	}
	if want == "" {
		// CALLER-3: runtime ownership decides, not lineage: the live root is never refused
		if d.agent == wire.AgentLive && !d.stale && x.Err != nil && (x.Err.Code == wire.CallerNotLive || x.Err.Code == wire.DelegatedCaller) {
			c.fail(invServiceContract, i, "direct "+d.op+" "+x.ID+": the Session's live root was refused "+x.Err.Code, d.rec)
		}
		return
	}
	got := "a value " + clip(string(x.Value))
	if x.Err != nil {
		if x.Err.Code == want {
			return
		}
		got = "error " + x.Err.Code
	}
	c.fail(invServiceContract, i, "direct "+d.op+" "+x.ID+": "+why+" must fail "+want+", got "+got, d.rec)
}

// badIntent reports whether a question with an intent has an approve that is none of its
// option labels, or no detail (ASK-3).
func badIntent(raw json.RawMessage) bool {
	var qs []struct {
		Options []struct {
			Label string `json:"label"`
		} `json:"options"`
		Detail *string `json:"detail"`
		Intent *struct {
			Approve string `json:"approve"`
		} `json:"intent"`
	}
	if json.Unmarshal(raw, &qs) != nil {
		return false
	}
	for _, q := range qs {
		if q.Intent == nil {
			continue
		}
		found := false
		for _, o := range q.Options {
			found = found || o.Label == q.Intent.Approve
		}
		if !found || q.Detail == nil {
			return true
		}
	}
	return false
}

// serviceContractForwarded judges the request forwarded for fg (ASK-8).
func (c *Checker) serviceContractForwarded(i int, ev *gwEvent, fg *foreground) {
	if fg.timedAsk && !ev.timed && !fg.refused && c.on(invServiceContract) {
		c.fail(invServiceContract, i, ev.agent+"/"+ev.callID+": askTimed forwarded its request with wait {callId} but not timed: true", fg.startRec)
	}
}
