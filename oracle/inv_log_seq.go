package oracle

import (
	"strconv"

	"github.com/twosettle/twosettle/engine/session"
)

// INV-LOG-SEQ (AGENT-6, PROJ-12): every Session's appended events carry consecutive seqs
// from the current log length (0 for a new Session, the inherited count for a fork, the
// durable prefix after a restart); event times never run ahead of the host clock nor
// backwards. The whole log model of the oracle rests on it.

// logSeqAppended: event e is appended to s at record i, at host time now (before the
// mirror takes it).
func (c *Checker) logSeqAppended(i int, s *sessModel, e session.Event, now int64) {
	if e.Seq != len(s.log) && c.on(invLogSeq) {
		c.fail(invLogSeq, i, s.id+": appended seq "+strconv.Itoa(e.Seq)+" but the log has "+strconv.Itoa(len(s.log))+" events", s.lastRec())
	}
	if e.Time > now {
		c.fail(invLogSeq, i, s.id+": event #"+strconv.Itoa(e.Seq)+" carries time "+strconv.FormatInt(e.Time, 10)+" after the host clock "+strconv.FormatInt(now, 10))
	} else if len(s.log) > 0 && e.Time < s.log[len(s.log)-1].Time {
		c.fail(invLogSeq, i, s.id+": event #"+strconv.Itoa(e.Seq)+" time "+strconv.FormatInt(e.Time, 10)+" goes back from "+strconv.FormatInt(s.log[len(s.log)-1].Time, 10), s.lastRec())
	}
}
