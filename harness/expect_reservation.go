package harness

import (
	"github.com/twosettle/twosettle/engine/wire"
	"github.com/twosettle/twosettle/scenarios"
)

func init() { registerCheck(scenarios.ExpectReservation, checkReservation) }

// checkReservation checks a reservation expectation: the Session's reply reservation
// for a call.
func checkReservation(r *Result, e *scenarios.Expectation, v view, session string, plan *Plan) {
	what := whatOf(e, v)
	var res *wire.ReservationState
	for i := range v.host.Reservations {
		if v.host.Reservations[i].Session == session && v.host.Reservations[i].CallID == e.Subject {
			res = &v.host.Reservations[i]
		}
	}
	switch {
	case e.None && res != nil:
		r.fail(e, "%s: expected no reservation, found message %s", what, res.MessageID)
	case !e.None && res == nil:
		r.fail(e, "%s: there is no reservation", what)
	case res != nil && e.Claimed != nil && (res.ClaimedTurn != -1) != *e.Claimed:
		r.fail(e, "%s: claimed-turn=%d, expected claimed=%v", what, res.ClaimedTurn, *e.Claimed)
	}
}
