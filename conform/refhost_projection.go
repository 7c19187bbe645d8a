package conform

import (
	"bufio"
	"encoding/json"
	"strconv"

	"github.com/twosettle/twosettle/engine/mutant"
	"github.com/twosettle/twosettle/engine/questions"
	"github.com/twosettle/twosettle/engine/wire"
)

// serveProjection is conform refhost in the projection profile: the reference fold
// (engine/questions.Projection) behind fold-start and event, each answered with the view,
// until bye or the end of r. mutantName's projection bugs are switched on in every fold
// (settle-on-splice, legacy-tracked, unknown-outcome-drops-question,
// fork-inherits-questions); the others do not touch the fold.
func serveProjection(r *bufio.Reader, w *bufio.Writer, mutantName string) error {
	set, err := mutant.Parse(mutantName)
	if err != nil {
		return err
	}
	var p *questions.Projection // nil before the first fold-start
	return serveLines(r, w, func(b, line []byte) ([]byte, bool, error) {
		var req struct {
			Type      string          `json:"type"`
			N         int64           `json:"n"`
			Session   string          `json:"session"`
			Inherited int             `json:"inherited"`
			Event     json.RawMessage `json:"event"`
		}
		if err := decodeRequest(line, &req, "refhost"); err != nil {
			return b, false, err
		}
		switch req.Type {
		case TypeBye:
			return b, true, nil
		case TypeFoldStart:
			// A fresh fold for one Session; its first inherited events are ignored (PROJ-11).
			p = questions.NewProjection(req.Inherited)
			p.SetMutants(set)
			b = viewLine(b, req.N, p.View())
		case TypeEvent:
			if p == nil {
				b = errorLine(b, req.N, "event before fold-start")
				break
			}
			e, err := wire.DecodeEvent(req.Event)
			if err != nil {
				b = errorLine(b, req.N, "bad event: "+err.Error())
				break
			}
			p.Apply(e)
			b = viewLine(b, req.N, p.View())
		default:
			b = errorLine(b, req.N, "unknown request type "+strconv.Quote(req.Type)+" in the projection profile")
		}
		return b, false, nil
	})
}

func viewLine(b []byte, n int64, v wire.QuestionsView) []byte {
	b = append(appendReplyStart(b, TypeView, n), `,"view":`...)
	b = wire.AppendQuestionsViewJSON(b, v)
	return append(b, "}\n"...)
}
