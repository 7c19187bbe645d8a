package harness

import (
	"strings"

	"github.com/twosettle/twosettle/engine/wire"
	"github.com/twosettle/twosettle/scenarios"
)

func init() { registerCheck(scenarios.ExpectHostWait, checkHostWait) }

// checkHostWait checks a host-wait expectation: the host's foreground wait for a call.
func checkHostWait(r *Result, e *scenarios.Expectation, v view, session string, plan *Plan) {
	what := whatOf(e, v)
	var w *wire.WaitState
	for i := range v.host.Waits {
		if v.host.Waits[i].Session == session && v.host.Waits[i].CallID == e.Subject {
			w = &v.host.Waits[i]
		}
	}
	switch {
	case e.None:
		if w != nil {
			r.fail(e, "%s: expected no wait, found deadline=%d claims=%d timer=%d", what, w.Deadline, w.Claims, w.TimerAt)
		}
	case w == nil:
		r.fail(e, "%s: there is no wait (waits: %s)", what, waitList(v.host.Waits))
	default:
		if e.Claims != nil && w.Claims != *e.Claims {
			r.fail(e, "%s: %d claims, not %d", what, w.Claims, *e.Claims)
		}
		if e.Deadline != nil && w.Deadline != e.Deadline.Ms() {
			r.fail(e, "%s: deadline %s, not %s", what, msText(w.Deadline), e.Deadline)
		}
		if e.Timer == "none" && w.TimerAt != -1 {
			r.fail(e, "%s: a timer is armed for %s, expected none", what, msText(w.TimerAt))
		} else if e.Timer != "" && e.Timer != "none" {
			want, _ := scenarios.ParseDuration(e.Timer)
			if w.TimerAt != want.Ms() {
				r.fail(e, "%s: timer %s, not %s", what, timerText(w.TimerAt), e.Timer)
			}
		}
	}
}

func timerText(at int64) string {
	if at == -1 {
		return "none"
	}
	return msText(at)
}

func waitList(ws []wire.WaitState) string {
	if len(ws) == 0 {
		return "none"
	}
	var out []string
	for _, w := range ws {
		out = append(out, w.Session+"/"+w.CallID)
	}
	return strings.Join(out, ", ")
}
