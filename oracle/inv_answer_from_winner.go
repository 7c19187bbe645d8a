package oracle

import "github.com/twosettle/twosettle/engine/wire"

// INV-ANSWER-FROM-WINNER (GW-1, ASK-12, TOOL-8): an answer tool result carries exactly the
// batch of the request's winning result outcome, as compact {"answers":[{"id","selected",
// "custom"?}]}; there is no answer without a winning result (a loser's or a late outcome
// never becomes the result), and a winning result becomes the tool result.

// answerFromWinner judges a call's first settlement against its request's winner.
func (c *Checker) answerFromWinner(fg *foreground, r fgResult, rec int) {
	name := fg.key.session + "/" + fg.key.callID
	ev := fg.event
	won := ev != nil && ev.hasWinner
	if r.kind == resAnswers {
		if !r.direct {
			if canon := canonicalBatch(r.answers); canon != r.text {
				c.fail(invAnswerFromWinner, rec, name+": answer text "+clip(r.text)+" is not the compact "+clip(canon))
			}
		}
		linkable := ev != nil || fg.mode == modeTimed || fg.mode == modeBlocking
		switch {
		case won && ev.outcome.Kind == wire.OutcomeResult:
			if items, ok := parseBatch(ev.outcome.Value); ok && !batchEqual(items, r.answers) {
				c.fail(invAnswerFromWinner, rec, name+": the result carries "+wire.AnswersString(r.answers)+" but the winner "+
					ev.winner.String()+" answered "+wire.AnswersString(items), ev.winnerRec)
			}
		case linkable:
			w := []int{fg.startRec}
			if ev != nil && ev.winnerRec >= 0 {
				w = append(w, ev.winnerRec)
			}
			c.fail(invAnswerFromWinner, rec, name+": answer "+wire.AnswersString(r.answers)+" without a winning result outcome", w...)
		}
	} else if won && ev.outcome.Kind == wire.OutcomeResult {
		if _, ok := parseBatch(ev.outcome.Value); ok && fg.mode != modeInvalid {
			c.fail(invAnswerFromWinner, rec, name+": "+ev.winner.String()+" won with an answer but the call got "+r.String(), ev.winnerRec)
		}
	}
}
