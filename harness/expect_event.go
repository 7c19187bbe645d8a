package harness

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/twosettle/twosettle/scenarios"
)

func init() { registerCheck(scenarios.ExpectEvent, checkEvent) }

// checkEvent checks an event expectation: the Session log's events whose text starts
// with the subject.
func checkEvent(r *Result, e *scenarios.Expectation, v view, session string, plan *Plan) {
	ss, ok := v.host.Session(session)
	if !ok {
		r.fail(e, "event %s: there is no Session %s", v.when, session)
		return
	}
	n := 0
	var times []string
	for _, ev := range ss.Log {
		if !strings.HasPrefix(ev.Data.String(), e.Subject) {
			continue
		}
		times = append(times, strconv.FormatInt(ev.Time, 10))
		if e.Time == nil || ev.Time == e.Time.Ms() {
			n++
		}
	}
	r.checkCount(e, n, fmt.Sprintf("events of %s starting %q %s", session, e.Subject, v.when), times)
}
