package conform

import (
	"bufio"
	"strconv"

	"github.com/twosettle/twosettle/engine/mutant"
)

// serveWait is `conform refhost` in the wait profile: each wait request is a step of the
// reference wait (waitModel over engine/questions.Wait) at the runner's time, answered
// with its events and timers. mutantName switches on the engine's named bugs (those of
// the wait change what it does).
func serveWait(r *bufio.Reader, w *bufio.Writer, mutantName string) error {
	set, err := mutant.Parse(mutantName)
	if err != nil {
		return err
	}
	return serveWaitWith(r, w, newWaitModel(set))
}

// serveWaitWith serves the wait profile with s as the wait.
func serveWaitWith(r *bufio.Reader, w *bufio.Writer, s interface{ Step(WaitStep) WaitReply }) error {
	return serveLines(r, w, func(b, line []byte) ([]byte, bool, error) {
		var req struct {
			Type string `json:"type"`
			N    int64  `json:"n"`
		}
		if err := decodeRequest(line, &req, "refhost"); err != nil {
			return b, false, err
		}
		switch req.Type {
		case TypeBye:
			return b, true, nil
		case TypeWait:
			step, err := ParseWaitStep(line)
			if err != nil {
				b = errorLine(b, req.N, "bad wait request: "+err.Error())
				break
			}
			b = appendWaited(b, req.N, s.Step(step))
		default:
			b = errorLine(b, req.N, "the wait profile has no request "+strconv.Quote(req.Type))
		}
		return b, false, nil
	})
}

// appendWaited appends the waited reply line to request n.
func appendWaited(b []byte, n int64, rep WaitReply) []byte {
	b = append(appendReplyStart(b, TypeWaited, n), `,"events":[`...)
	for i, e := range rep.Events {
		if i > 0 {
			b = append(b, ',')
		}
		b = AppendWaitEvent(b, e)
	}
	b = append(b, `],"timers":`...)
	b = strconv.AppendInt(b, rep.Timers, 10)
	return append(b, "}\n"...)
}
