package sessionlog

import (
	"github.com/twosettle/twosettle/engine/questions"
	"github.com/twosettle/twosettle/engine/wire"
)

// Views folds l with the reference projection (engine/questions) and returns the view
// after each event, one line per event in the log's order.
func Views(l *Log) []wire.ViewLine {
	p := questions.NewProjection(l.Inherited)
	out := make([]wire.ViewLine, len(l.Events))
	for i, e := range l.Events {
		p.Apply(e)
		out[i] = wire.ViewLine{Seq: e.Seq, View: p.View()}
	}
	return out
}
